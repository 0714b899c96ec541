#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host-side tests of lib/ehabi/ehabi.c, run on the build machine:
#
#  1. build ehabi-dump and ehabi-step into OUTDIR/ehabi-build;
#  2. ehabi_diff: every row of the EHABI tables of the armhf C and C++
#     libraries and of a static C++ program, against binutils' readelf -u
#     (ehabi-diff.py), and a self-check that a damaged reading fails it:
#     OUTDIR/results/ehabi_diff.tap;
#  3. ehabi_step: the stack at every instruction of programs built by gcc
#     and clang, unwound and judged against the calls in progress
#     (step-check.sh): OUTDIR/results/ehabi_step.tap;
#  4. ehabi_fuzz_replay: the fuzz harness (ASan + UBSan) run once on
#     each saved input (fuzz-ehabi-regressions/) and on inputs made from
#     the tables of the armhf libraries and the C++ program
#     (ehabi-seed.py): OUTDIR/results/ehabi_fuzz_replay.tap.
#
# Usage: host-test.sh OUTDIR
# Needs: gcc-arm-linux-gnueabihf, g++-arm-linux-gnueabihf,
# libc6-dev-armhf-cross, clang, qemu-user, gdb-multiarch, python3,
# clang-22 and libclang-rt-22-dev (libFuzzer).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[ $# -eq 1 ] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
mkdir -p "$1"
out=$(cd "$1" && pwd)
build=$out/ehabi-build
results=$out/results
mkdir -p "$results"
rm -f "$results/ehabi_diff.tap" "$results/ehabi_step.tap" \
	"$results/ehabi_fuzz_replay.tap"

missing=()
for t in arm-linux-gnueabihf-gcc arm-linux-gnueabihf-g++ \
	 arm-linux-gnueabihf-readelf clang clang-22 qemu-arm gdb-multiarch \
	 python3; do
	command -v "$t" >/dev/null || missing+=("$t")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "host-test.sh: missing: ${missing[*]}" >&2
	exit 1
fi

echo "== build"
make -s -C "$here" O="$build" all fuzz

echo "== ehabi_diff"
progs=$out/ehabi-progs
mkdir -p "$progs"
arm-linux-gnueabihf-g++ -O2 -static -o "$progs/cxx_static" \
	"$here/testprogs/cxx.cc"
files=("$progs/cxx_static")
for f in /usr/arm-linux-gnueabihf/lib/*.so*; do
	# ELF files only: libc.so is a linker script
	[ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] &&
		files+=("$f")
done
n=0
{
	echo "KTAP version 1"
	echo "1..$((${#files[@]} + 1))"
	for f in "${files[@]}"; do
		n=$((n + 1))
		if res=$("$here/ehabi-diff.py" "$build/ehabi-dump" "$f"); then
			echo "# $res"
			echo "ok $n $(basename "$f")"
		else
			echo "${res//$'\n'/$'\n'# }" | sed '1s/^/# /'
			echo "not ok $n $(basename "$f")"
		fi
	done
	n=$((n + 1))
	if "$here/ehabi-diff.py" --break "$build/ehabi-dump" \
		"$progs/cxx_static" >/dev/null; then
		echo "not ok $n diff_can_fail"
	else
		echo "ok $n diff_can_fail"
	fi
} >"$results/ehabi_diff.tap"
cat "$results/ehabi_diff.tap"

echo "== ehabi_step"
"$here/step-check.sh" "$out" "$build" || true

echo "== ehabi_fuzz_replay"
inputs=$out/ehabi-fuzz-inputs
rm -rf "$inputs"
mkdir -p "$inputs"
# Committed inputs are hex text (patches carry no binary files).
for h in "$here"/fuzz-ehabi-regressions/*.hex; do
	[ -f "$h" ] || continue
	perl -ne 's/\s+//g; print pack("H*", $_)' <"$h" \
		>"$inputs/$(basename "$h" .hex)"
done
for f in "${files[@]}"; do
	"$here/ehabi-seed.py" "$f" "$inputs/$(basename "$f").seed" \
		2>/dev/null || true
done
n=0
{
	echo "KTAP version 1"
	echo "1..$(ls "$inputs" | wc -l)"
	for f in "$inputs"/*; do
		n=$((n + 1))
		if "$build/fuzz-ehabi" -runs=1 "$f" >"$out/ehabi-replay.log" 2>&1
		then
			echo "ok $n $(basename "$f")"
		else
			grep -E 'ERROR|runtime error' "$out/ehabi-replay.log" |
				head -n 5 | sed 's/^/# /'
			echo "not ok $n $(basename "$f")"
		fi
	done
} >"$results/ehabi_fuzz_replay.tap"
cat "$results/ehabi_fuzz_replay.tap"

! grep -q '^not ok' "$results/ehabi_diff.tap" "$results/ehabi_step.tap" \
	"$results/ehabi_fuzz_replay.tap"
