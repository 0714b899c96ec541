#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# run-diff.sh [FILE...]: build ehdump and compare its rows with readelf's
# for FILE... (default: every x86_64 ELF file in /usr/bin and
# /usr/lib/x86_64-linux-gnu, and perf).  Files without .eh_frame are
# listed and skipped.
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=${TMPDIR:-/tmp}/ehdump.$$
trap 'rm -f "$out"' EXIT
gcc -O2 -Wall -Wextra -o "$out" "$here/ehdump.c" "$here/ehframe.c"
if [ $# -eq 0 ]; then
	set -- $(for f in /usr/bin/* /usr/lib/x86_64-linux-gnu/*.so.* \
			/usr/lib/linux-tools*/perf; do
		[ -f "$f" ] && head -c 5 "$f" 2>/dev/null | grep -q $'\x7fELF\x02' &&
			readelf -S "$f" 2>/dev/null | grep -q ' \.eh_frame ' && echo "$f"
	done | sort -u)
fi
python3 "$here/ehdiff.py" "$out" "$@" | tee "${TMPDIR:-/tmp}/ehdiff.log" |
	grep -v ' 0 mismatches$' || true
python3 - "${TMPDIR:-/tmp}/ehdiff.log" <<'PY'
import re, sys
f = r = e = m = n = 0
for l in open(sys.argv[1]):
    a = re.search(r': (\d+) functions .*, (\d+) rows compared \((\d+) SFrame can express\), (\d+) mismatches', l)
    if a:
        n += 1; f += int(a[1]); r += int(a[2]); e += int(a[3]); m += int(a[4])
print(f"{n} files, {f} functions, {r} rows compared, {e} of them SFrame can express, {m} mismatches")
sys.exit(1 if m else 0)
PY
