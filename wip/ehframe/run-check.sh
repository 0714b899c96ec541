#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# run-check.sh LINUX_TREE [FILE...]: build ehcheck against the user-space
# build of LINUX_TREE's lib/sframe (tools/lib/sframe) and run it on FILE...
# (default: every x86_64 ELF file with .eh_frame in /usr/bin and
# /usr/lib/x86_64-linux-gnu): the derived SFrame sections must be accepted
# by the kernel's decoder and give back every derived row.
set -e
here=$(cd "$(dirname "$0")" && pwd)
tree=$(cd "$1" && pwd)
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s -C "$tree/tools/lib/sframe" O="$tmp" "$tmp/libsframe-kernel.a" >/dev/null
gcc -O2 -Wall -Wextra -I"$tree/tools/lib/sframe/include" -I"$tree/tools/include" \
	-o "$tmp/ehcheck" "$here/ehcheck.c" "$here/ehframe.c" "$tmp/libsframe-kernel.a"
if [ $# -eq 0 ]; then
	set -- $(for f in /usr/bin/* /usr/lib/x86_64-linux-gnu/*.so.*; do
		[ -f "$f" ] && head -c 5 "$f" 2>/dev/null | grep -q $'\x7fELF\x02' &&
			readelf -S "$f" 2>/dev/null | grep -q ' \.eh_frame ' && echo "$f"
	done | sort -u)
fi
"$tmp/ehcheck" "$@" > "$tmp/log" || true
grep -v ' 0 wrong$' "$tmp/log" || true
awk '/ lookups, / { n++; for (i = 1; i <= NF; i++) { if ($i == "lookups,") l += $(i-1); if ($i == "wrong") w += $(i-1); if ($i == "functions,") f += $(i-1) } }
	END { printf "%d files, %d functions, %d lookups, %d wrong\n", n, f, l, w; exit w != 0 }' "$tmp/log"
