#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host-side tests of lib/sframe/sframe.c, run on the build machine:
#
#  1. build libsframe-kernel.a, sframe-diff, bench-sframe, sframe-bound
#     and the fuzz harness into OUTDIR/build;
#  2. build the test corpus (corpus.sh) into OUTDIR;
#  3. replay the fuzz seeds and saved crash inputs (fuzz-regressions/)
#     through the sanitized harness, once each (no fuzzing):
#     OUTDIR/results/fuzz_replay.tap; the same for the derivation's
#     harness (fuzz-ehframe-regressions/, the .eh_frame of the corpus,
#     libc, ld.so and python3): OUTDIR/results/ehframe_fuzz_replay.tap;
#  4. a short lookup benchmark (sframe_index_find());
#  5. sframe-bound: the FRE pages one lookup reads stay bounded in a
#     function of 65535 FREs: OUTDIR/results/sframe_bound.tap;
#  6. sframe-diff over the corpus, plus self-checks that prove the diff
#     can fail (one of them in the second table of a two-table .sframe):
#     OUTDIR/results/sframe_diff.tap;
#  7. the rows lib/sframe/ehframe.c derives from the .eh_frame of libc,
#     ld.so, python3, perf and the corpus, against readelf's
#     interpretation (ehframe-diff.py): OUTDIR/results/ehframe_diff.tap;
#     the SFrame sections written from them, validated and looked up with
#     lib/sframe (ehframe-check): OUTDIR/results/ehframe_check.tap; both
#     with a self-check that proves they can fail.
# The results are KTAP; what fails to run leaves no file.
#
# Usage: host-test.sh OUTDIR
# OUTDIR may be empty or hold an earlier run; nothing outside it and the
# source tree is used (but ccache, if installed).
# Environment: see corpus.sh (CORPUS_LARGE, CORPUS_PERF_CLANG, CCACHE, JOBS).
# Needs: gcc, binutils-dev (libsframe), clang-22, lld-22, llvm-22
# (llvm-readobj-22), libclang-rt-22-dev, libelf-dev, zlib1g-dev.
# Exits non-zero if anything fails.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[ $# -eq 1 ] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
mkdir -p "$1"
out=$(cd "$1" && pwd)
build=$out/build
results=$out/results
start=$SECONDS
mkdir -p "$results"
rm -f "$results/fuzz_replay.tap" "$results/ehframe_fuzz_replay.tap" \
	"$results/sframe_bound.tap" "$results/sframe_diff.tap" \
	"$results/ehframe_diff.tap" "$results/ehframe_check.tap"

missing=()
for t in gcc clang-22 ld.lld-22 llvm-readobj-22 objcopy readelf python3 make; do
	command -v "$t" >/dev/null || missing+=("$t")
done
[ -f /usr/include/sframe-api.h ] || missing+=("sframe-api.h (binutils-dev)")
if [ ${#missing[@]} -gt 0 ]; then
	echo "host-test.sh: missing: ${missing[*]}" >&2
	echo "host-test.sh: apt-get install binutils-dev clang-22 lld-22" \
		"llvm-22 libclang-rt-22-dev libelf-dev zlib1g-dev" >&2
	exit 1
fi

echo "== build"
make -s -C "$here" O="$build" all fuzz-sframe fuzz-ehframe

echo "== corpus"
"$here/corpus.sh" "$out" "$build"

echo "== fuzz replay"
seeds=$out/seeds
rm -rf "$seeds"
mkdir -p "$seeds"
while read -r f; do
	"$build/sframe-diff" -x "$seeds/$(basename "$f").sframe" "$f"
done <"$out/corpus.list"
# Committed inputs are hex text (patches carry no binary files).
committed=$out/committed
rm -rf "$committed"
mkdir -p "$committed"
for h in "$here"/fuzz-seeds/*.hex "$here"/fuzz-regressions/*.hex; do
	[ -f "$h" ] || continue
	perl -ne 's/\s+//g; print pack("H*", $_)' <"$h" >"$committed/$(basename "$h" .hex)"
done
# replay HARNESS TAP INPUT...: each input once through HARNESS, as KTAP
replay() {
	local harness=$1 tap=$2 i f
	shift 2
	{
		echo "KTAP version 1"
		echo "1..$#"
		if "$harness" "$@" >"$out/replay.log" 2>&1; then
			i=0
			for f; do
				i=$((i + 1))
				echo "ok $i $(basename "$f")"
			done
		else
			# one at a time, to tell which ones fail
			i=0
			for f; do
				i=$((i + 1))
				if "$harness" "$f" >"$out/replay-one.log" 2>&1; then
					echo "ok $i $(basename "$f")"
				else
					grep -E 'ERROR|runtime error|fuzz-[a-z]*:' \
						"$out/replay-one.log" | head -n 5 | sed 's/^/# /'
					echo "not ok $i $(basename "$f")"
				fi
			done
		fi
	} >"$tap"
	cat "$tap"
	if grep -q '^not ok' "$tap"; then
		replay_failed=1
	fi
}
replay_failed=0
inputs=()
for f in "$committed"/* "$seeds"/*; do
	[ -f "$f" ] && inputs+=("$f")
done
replay "$build/fuzz-sframe" "$results/fuzz_replay.tap" "${inputs[@]}"

# The derivation's harness: its saved crash inputs and the .eh_frame of
# the corpus and of libc, ld.so and python3.
eh=$out/ehframe-inputs
rm -rf "$eh"
mkdir -p "$eh"
for h in "$here"/fuzz-ehframe-regressions/*.hex; do
	[ -f "$h" ] || continue
	perl -ne 's/\s+//g; print pack("H*", $_)' <"$h" >"$eh/$(basename "$h" .hex)"
done
for f in $(cat "$out/corpus.list") /lib/x86_64-linux-gnu/libc.so.6 \
	 /lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 /usr/bin/python3; do
	"$here/ehframe-seed.sh" "$f" "$eh/$(basename "$f").eh"
done
replay "$build/fuzz-ehframe" "$results/ehframe_fuzz_replay.tap" "$eh"/*

echo "== bench"
real=()
for f in perf-v1 bpftool-v1 bpftool-v2; do
	[ -f "$out/bin/$f" ] && real+=("$out/bin/$f")
done
"$build/bench-sframe" -l 200000 -r 5 "${real[@]}"

echo "== sframe-bound"
bound_status=0
"$build/sframe-bound" >"$results/sframe_bound.tap" 2>&1 || bound_status=$?
cat "$results/sframe_bound.tap"

echo "== sframe-diff"
self=()
for f in chain-v1 chain-v2 pieces-v2; do
	self+=(-S "$out/bin/$f")
done
diff_status=0
mapfile -t files <"$out/corpus.list"
"$build/sframe-diff" "${self[@]}" "${files[@]}" >"$results/sframe_diff.tap" ||
	diff_status=$?
cat "$results/sframe_diff.tap"

echo "== ehframe"
eh_files=()
for f in /lib/x86_64-linux-gnu/libc.so.6 /lib64/ld-linux-x86-64.so.2 \
	 "$(readlink -f /usr/bin/python3)" /usr/bin/perf "$out"/bin/*; do
	# not grep -q: readelf would die of SIGPIPE, failing the pipe
	[ -f "$f" ] && readelf -S "$f" 2>/dev/null |
		grep ' \.eh_frame ' >/dev/null && eh_files+=("$f")
done
eh_status=0
python3 "$here/ehframe-diff.py" "$build/ehframe-dump" "${eh_files[@]}" \
	>"$results/ehframe_diff.tap" || eh_status=$?
cat "$results/ehframe_diff.tap"
"$build/ehframe-check" "${eh_files[@]}" >"$results/ehframe_check.tap" ||
	eh_status=$?
cat "$results/ehframe_check.tap"
echo "host-test.sh: done in $((SECONDS - start)) s"

[ "$diff_status" -eq 0 ] && [ "$replay_failed" -eq 0 ] &&
	[ "$bound_status" -eq 0 ] && [ "$eh_status" -eq 0 ]
