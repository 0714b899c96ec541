#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# step-check.sh OUTDIR BUILDDIR: build testprogs/chain.c as static 32-bit
# ARM programs (gcc and clang, ARM and Thumb, with and without frame
# pointers, all with -funwind-tables), run each under qemu-arm with gdb
# stepping every instruction of main (step-record.py), and unwind the stack
# at each instruction with lib/ehabi (ehabi-step).  Writes KTAP to
# OUTDIR/results/ehabi_step.tap: per program, 0 wrong samples (and some
# complete where the leaf keeps no frame: its callers then all come from
# the table); and per program, the check that trusting the table at the
# interrupted pc (--at-call-everywhere) gives wrong samples, so that the
# judge is seen to work.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$1
build=$2
progs=$out/ehabi-progs
tap=$out/results/ehabi_step.tap
mkdir -p "$progs" "$out/results"

CC32=${CC32:-arm-linux-gnueabihf-gcc}
CLANG32=${CLANG32:-clang}
CLANG32_FLAGS="--target=armv7a-linux-gnueabihf -march=armv7-a -mfloat-abi=hard"
CFLAGS="-O2 -funwind-tables -Wall"

variants="gcc_thumb gcc_arm gcc_thumb_fp gcc_arm_fp
	  clang_thumb clang_arm clang_thumb_fp clang_arm_fp"
# Their leaf keeps no frame, so samples there are unwound to main.
frameless_leaf="gcc_thumb gcc_arm clang_thumb clang_arm clang_thumb_fp
		clang_arm_fp"
for v in $variants; do
	case $v in
	*_thumb*) isa=-mthumb ;;
	*) isa=-marm ;;
	esac
	case $v in
	*_fp) fp=-fno-omit-frame-pointer ;;
	*) fp=-fomit-frame-pointer ;;
	esac
	case $v in
	gcc_*)
		$CC32 $CFLAGS $isa $fp -static -o "$progs/$v" "$here/testprogs/chain.c" ;;
	clang_*)
		$CLANG32 $CLANG32_FLAGS $CFLAGS $isa $fp -c \
			-o "$progs/$v.o" "$here/testprogs/chain.c"
		$CC32 -static -o "$progs/$v" "$progs/$v.o" ;;
	esac
done

# record PROG FILE: every instruction of PROG's main, under qemu-arm.
record() {
	local prog=$1 file=$2 port i
	for i in 1 2 3 4 5; do
		port=$((20000 + RANDOM % 30000))
		qemu-arm -g "$port" "$prog" &
		local qpid=$!
		sleep 0.3
		if EHABI_RECORD_OUT=$file timeout 300 gdb-multiarch -batch -nx \
			-ex "set \$port = $port" -x "$here/step-record.py" \
			"$prog" >"$file.log" 2>&1 &&
		   grep -q '^recorded' "$file.log"; then
			wait "$qpid" 2>/dev/null || true
			return 0
		fi
		kill "$qpid" 2>/dev/null || true
		wait "$qpid" 2>/dev/null || true
	done
	cat "$file.log" >&2
	return 1
}

n=0
lines=()
for v in $variants; do
	n=$((n + 2))
	if ! record "$progs/$v" "$progs/$v.rec"; then
		lines+=("not ok $((n - 1)) $v # recording failed"
			"not ok $n ${v}_judge_can_fail # recording failed")
		continue
	fi
	if res=$("$build/ehabi-step" "$progs/$v" "$progs/$v.rec") &&
	   { ! grep -qw "$v" <<<"$frameless_leaf" ||
	     ! grep -q 'complete 0,' <<<"$res"; }; then
		lines+=("# $(tail -1 <<<"$res")" "ok $((n - 1)) $v")
	else
		lines+=("# ${res//$'\n'/$'\n'# }" "not ok $((n - 1)) $v")
	fi
	if res=$("$build/ehabi-step" --at-call-everywhere "$progs/$v" \
		 "$progs/$v.rec"); then
		lines+=("# mutant: $(tail -1 <<<"$res")" "ok $n ${v}_judge_can_fail")
	else
		lines+=("# mutant: $(tail -1 <<<"$res")" "not ok $n ${v}_judge_can_fail")
	fi
done
{
	echo "KTAP version 1"
	echo "1..$n"
	printf '%s\n' "${lines[@]}"
} >"$tap"
cat "$tap"
! grep -q '^not ok' "$tap"
