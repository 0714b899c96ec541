#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# fleet.sh: a host under an always-on profiler.  Runs inside the x86_64
# guest, from guest-bench.sh (the guest's root is the host's, so gcc, cc1,
# as, sh and libc are Debian's own; perf 6.1 as Debian ships it).
#
# The workload, exec-heavy as a build machine is: compile the C files of
# a small project one by one with Debian's gcc -O2 -g (each a fresh exec
# of gcc, cc1 and as; the kernel tree's tools/lib/sframe, FLEET_FILES of
# its files), then FLEET_LOOPS shell pipelines (sh, ls, sort, uniq, wc).
# Timed under four modes, in a different order in each of FLEET_ROUNDS
# rounds:
#   none   nothing profiling
#   fp     perf record -a -g -F 99 with kernel.perf_unwind_tables_derive=0:
#          files without .sframe (all of Debian's) use frame pointers
#   g      perf record -a -g -F 99 with derivation on (tables derived from
#          .eh_frame, kept after the last mapping of their file)
#   dwarf  perf record -a --call-graph dwarf -F 99 (8192-byte stack copies)
# Kept tables are dropped (vm.drop_caches=2) before every run, so each
# run of g derives the tables it needs once, as a host does after boot.
#
# Lines:
#   fleet.g_overhead_pct, fleet.g_fp_overhead_pct, fleet.dwarf_overhead_pct:
#     the median time of each mode over the median with nothing profiling
#   fleet.cc1_g_complete_pct, fleet.cc1_dwarf_complete_pct: of cc1's
#     samples in the first round, the share whose stack reaches libc's
#     __libc_start_call_main (a local symbol: perf finds it in Debian's
#     libc debug symbols, package libc6-dbg)
#   fleet.kernel_bytes: kernel.perf_unwind_tables_bytes after the last g
#     run (tables kept), with kernel.perf_unwind_tables_count
set -u

FREQ=${FLEET_FREQ:-99}
ROUNDS=${FLEET_ROUNDS:-2}
FILES=${FLEET_FILES:-14}
LOOPS=${FLEET_LOOPS:-100}
SYS=/proc/sys/kernel
D=/tmp/fleet
START_SYM=__libc_start_call_main

. "$TOP/bench/perf_lib.sh"

note() { echo "# fleet: $*"; }
fail() { note "$*" >&2; exit 1; }

[ -e $SYS/perf_unwind_tables_derive ] || fail "no $SYS/perf_unwind_tables_derive"
command -v perf >/dev/null || fail "no perf"
command -v gcc >/dev/null || fail "no gcc"
dbg=$(ls /usr/lib/debug/.build-id/*/*.debug 2>/dev/null | head -n 1)
[ -n "$dbg" ] || fail "no debug symbols under /usr/lib/debug (install libc6-dbg on the host)"
rm -rf $D
mkdir -p $D/obj || exit 1
old_derive=$(cat $SYS/perf_unwind_tables_derive)
trap 'echo $old_derive > $SYS/perf_unwind_tables_derive' EXIT
echo 1 > $SYS/perf_unwind_tables

SRC="$TREE/tools/lib/sframe"
set -- $(ls "$TREE"/lib/sframe/*.c "$SRC"/*.c | grep -v _kunit | head -n "$FILES")
[ $# -gt 0 ] || fail "no C files under $SRC"
echo "$@" > $D/files
note "workload: $# files of tools/lib/sframe compiled one by one, $LOOPS shell pipelines"

# The workload; its wall time in ms on stdout.
work() {
	w0=$(date +%s%N)
	for f in $(cat $D/files); do
		gcc -I"$SRC/include" -I"$TREE/tools/include" -O2 -g -std=gnu11 \
			-c -o $D/obj/x.o "$f" 2> $D/gcc.err ||
			{ cat $D/gcc.err >&2; return 1; }
	done
	i=0
	while [ $i -lt $LOOPS ]; do
		sh -c 'ls /usr/bin | sort | uniq -c | wc -l' > /dev/null || return 1
		i=$((i + 1))
	done
	echo $((($(date +%s%N) - w0) / 1000000))
}

# run MODE ROUND: one timed run, "MODE MS" into $D/times; the first
# round's data of g and dwarf kept for the completeness counts
run() {
	echo 2 > /proc/sys/vm/drop_caches
	case $1 in
	none)	ms=$(work) || fail "the workload failed"
		echo "none $ms" >> $D/times
		return ;;
	fp)	echo 0 > $SYS/perf_unwind_tables_derive; set -- $1 $2 -g ;;
	g)	echo 1 > $SYS/perf_unwind_tables_derive; set -- $1 $2 -g ;;
	dwarf)	echo 1 > $SYS/perf_unwind_tables_derive; set -- $1 $2 --call-graph dwarf ;;
	esac
	perf record -q -a -F $FREQ -e cpu-clock "$3" ${4:-} -o $D/$1.data \
		> $D/perf.out 2>&1 &
	pid=$!
	sleep 1
	ms=$(work) || { kill -INT $pid; fail "the workload failed"; }
	kill -INT $pid
	wait $pid
	echo "$1 $ms" >> $D/times
	if [ $1 = g ]; then
		set -- $1 $2 "$(cat $SYS/perf_unwind_tables_bytes)" "$(cat $SYS/perf_unwind_tables_count)"
		echo "$3 $4" > $D/kept
		set -- $1 $2
	fi
	if [ $2 = 1 ] && [ $1 != fp ]; then
		mv $D/$1.data $D/$1.round1.data
	else
		rm -f $D/$1.data
	fi
	echo 1 > $SYS/perf_unwind_tables_derive
}

start=$(date +%s)
: > $D/times
r=1
while [ $r -le $ROUNDS ]; do
	case $((r % 4)) in
	1) order="none fp g dwarf" ;;
	2) order="dwarf g fp none" ;;
	3) order="g none dwarf fp" ;;
	0) order="fp dwarf none g" ;;
	esac
	for m in $order; do
		run $m $r
	done
	note "round $r ($order): $(awk -v n=$((4 * (r - 1))) 'NR > n { printf "%s %s ms  ", $1, $2 }' $D/times)"
	r=$((r + 1))
done

med() { awk -v m=$1 '$1 == m { print $2 }' $D/times | median; }
none=$(med none)
for m in g fp dwarf; do
	name=${m}_overhead_pct
	[ $m = fp ] && name=g_fp_overhead_pct
	echo "bench fleet.$name $(awk -v a=$(med $m) -v b=$none 'BEGIN { printf "%.1f", b ? 100 * (a - b) / b : 0 }') %   median $(med $m) ms against $none ms"
done

# complete DATA: "SAMPLES COMPLETE" of cc1's samples
complete() {
	perf script -i $1 --comms cc1 -F ip,sym --no-inline 2>/dev/null | awk -v want=$START_SYM '
	function flush() { if (seen) { total++; complete += hit } seen = 0; hit = 0 }
	NF == 0 { flush(); next }
	{ seen = 1; if ($2 == want) hit = 1 }
	END { flush(); printf "%d %d\n", total, complete }'
}
for m in g dwarf; do
	set -- $(complete $D/$m.round1.data)
	echo "bench fleet.cc1_${m}_complete_pct $(awk -v t=$1 -v c=$2 'BEGIN { printf "%.1f", t ? 100 * c / t : 0 }') %   $2 of $1 cc1 samples reach $START_SYM"
done
read -r bytes count < $D/kept
echo "bench fleet.kernel_bytes $bytes B   $count tables loaded or kept after the last g run"
awk -v g=$(med g) -v f=$(med fp) -v n=$none 'BEGIN {
	d = n ? 100 * (g - f) / n : 0
	printf "# target: -g with tables at most 1 point over -g with frame pointers: %.1f points: %s\n",
		d, d <= 1 ? "met" : "NOT met" }'
note "took $(($(date +%s) - start)) s"
rm -rf $D
exit 0
