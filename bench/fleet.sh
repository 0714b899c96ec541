#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# fleet.sh: a host under an always-on profiler.  Runs inside the x86_64
# guest, from guest-bench.sh (the guest's root is the host's, so gcc, cc1,
# as, sh and libc are Debian's own; perf 6.1 as Debian ships it).
#
# The workload, exec-heavy as a build machine is: compile C files one by
# one with Debian's gcc -O2 -g (each a fresh exec of gcc, cc1 and as; the
# 19 C files of the kernel tree's lib/{sframe,ehabi} and
# host/{sframe,ehabi}, FLEET_FILES of them a run, the next ones in
# the next round), then FLEET_LOOPS shell pipelines (sh, ls, sort, uniq,
# wc).
#
# The guest's root is the host's over 9p without a cache, where an inode
# is evicted at its last close: a table kept after the last mapping of its
# file would go with it at every exit.  A host's root keeps its inodes in
# memory; so that the guest's does too, every program and library the
# workload executes or maps is copied into a tmpfs and bind-mounted over
# its own path for the benchmark (FLEET_LOCAL=0 leaves them on 9p).
#
# Timed under four modes, one short run of each in every one of
# FLEET_ROUNDS rounds, in a different order in each round (the guest's
# speed drifts by several per cent over minutes: short runs side by side
# see the same drift):
#   none   nothing profiling
#   fp     perf record -a -g -F 99 with kernel.uwtable_derive=0:
#          files without .sframe (all of Debian's) use frame pointers
#   g      perf record -a -g -F 99 with derivation on (tables derived from
#          .eh_frame, kept after the last mapping of their file)
#   dwarf  perf record -a --call-graph dwarf -F 99 (8192-byte stack copies)
# Before each run, kept tables are dropped (vm.drop_caches=2; fp drops
# them too, by switching derivation off) and one file is compiled, not
# timed, in the run's mode: under g that compile derives the tables of
# gcc, cc1, as and their libraries, once, as an always-on profiler does
# once after boot; the timed runs then see a host in its steady state.
#
# Lines:
#   fleet.g_overhead_pct, fleet.g_fp_overhead_pct, fleet.dwarf_overhead_pct:
#     each mode's time over the time with nothing profiling in the same
#     round, the median over the rounds
#   fleet.g_first_compile_ms: the untimed first compile of each g run
#     (tables derived), the median, against fp's
#   fleet.cc1_g_complete_pct, fleet.cc1_dwarf_complete_pct: of cc1's
#     samples in the first round, the share whose stack reaches libc's
#     __libc_start_call_main (a local symbol: perf finds it in Debian's
#     libc debug symbols, package libc6-dbg)
#   fleet.kernel_bytes: the registry's bytes (debugfs uwtable/bytes)
#     after the last g run (tables kept), with its tables
set -u

FREQ=${FLEET_FREQ:-99}
ROUNDS=${FLEET_ROUNDS:-8}
FILES=${FLEET_FILES:-6}
LOOPS=${FLEET_LOOPS:-25}
SYS=/proc/sys/kernel
STATS=/sys/kernel/debug/uwtable
[ -d $STATS ] || mount -t debugfs debugfs /sys/kernel/debug
D=/tmp/fleet
START_SYM=__libc_start_call_main

ME=fleet
. "$TOP/bench/perf_lib.sh"


[ -e $SYS/uwtable_derive ] || fail "no $SYS/uwtable_derive"
command -v perf >/dev/null || fail "no perf"
command -v gcc >/dev/null || fail "no gcc"
dbg=$(ls /usr/lib/debug/.build-id/*/*.debug 2>/dev/null | head -n 1)
[ -n "$dbg" ] || fail "no debug symbols under /usr/lib/debug (install libc6-dbg on the host)"
rm -rf $D
mkdir -p $D/obj || exit 1
old_derive=$(cat $SYS/uwtable_derive)
echo 1 > $SYS/uwtable

# the 19 C files of lib/{sframe,ehabi} and host/{sframe,ehabi}
ls "$TREE"/lib/sframe/*.c "$TOP"/host/sframe/*.c \
	"$TREE"/lib/ehabi/*.c "$TOP"/host/ehabi/*.c | grep -v _kunit > $D/all
n=$(wc -l < $D/all)
[ "$n" -gt 0 ] || fail "no C files under $TREE/lib/sframe"
note "workload: $FILES compiles a run, $n C files in turn, then $LOOPS shell pipelines; $ROUNDS rounds"

# local PROG...: copy each program, and every library it loads, into a
# tmpfs and bind-mount the copy over the file's own path
local_copies() {
	mkdir -p $D/local
	mount -t tmpfs fleet $D/local || return 1
	for p in "$@"; do
		echo "$p"
		ldd "$p" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'
	done | xargs -n 1 readlink -f | sort -u > $D/local.list
	i=0
	while read -r f; do
		cp "$f" $D/local/$i && mount --bind $D/local/$i "$f" || return 1
		echo "$f" >> $D/mounted
		i=$((i + 1))
	done < $D/local.list
	note "$i programs and libraries on a tmpfs: $(tr '\n' ' ' < $D/local.list)"
}
unlocal() {
	[ -e $D/mounted ] && while read -r f; do umount -l "$f"; done < $D/mounted
	rm -f $D/mounted
	umount -l $D/local 2>/dev/null
}
trap 'echo $old_derive > $SYS/uwtable_derive; unlocal' EXIT
if [ "${FLEET_LOCAL:-1}" = 1 ]; then
	local_copies "$(command -v gcc)" "$(gcc -print-prog-name=cc1)" \
		"$(command -v "$(gcc -print-prog-name=as)")" "$(command -v sh)" \
		"$(command -v ls)" "$(command -v sort)" "$(command -v uniq)" \
		"$(command -v wc)" || fail "could not put the workload on a tmpfs"
fi

# compile FILE: one compile, as make would run it
compile() {
	case $1 in
	*/ehabi/*) inc=$TOP/host/ehabi/include ;;
	*) inc=$TOP/host/sframe/include ;;
	esac
	gcc -I"$inc" -I"$TREE/tools/include" -I"$TREE" -O2 -g -std=gnu11 \
		-c -o $D/obj/x.o "$1" 2> $D/gcc.err || { cat $D/gcc.err >&2; return 1; }
}

# The workload of round $1; its wall time in ms on stdout.
work() {
	w0=$(date +%s%N)
	for f in $(awk -v r=$1 -v k=$FILES -v n=$n '{ f[NR - 1] = $0 }
		END { for (i = 0; i < k; i++) print f[((r - 1) * k + i) % n] }' $D/all); do
		compile "$f" || return 1
	done
	i=0
	while [ $i -lt $LOOPS ]; do
		sh -c 'ls /usr/bin | sort | uniq -c | wc -l' > /dev/null || return 1
		i=$((i + 1))
	done
	echo $((($(date +%s%N) - w0) / 1000000))
}

# first: the untimed first compile of a run (the last file of the list);
# its time in ms into $D/first
first() {
	w0=$(date +%s%N)
	compile "$(tail -n 1 $D/all)" || return 1
	echo "$1 $((($(date +%s%N) - w0) / 1000000))" >> $D/first
}

# run MODE ROUND: one timed run, "ROUND MODE MS" into $D/times; the first
# round's data of g and dwarf kept for the completeness counts
run() {
	echo 2 > /proc/sys/vm/drop_caches
	case $1 in
	none)	first none || fail "the workload failed"
		ms=$(work $2) || fail "the workload failed"
		echo "$2 none $ms" >> $D/times
		return ;;
	fp)	echo 0 > $SYS/uwtable_derive; set -- $1 $2 -g ;;
	g)	echo 1 > $SYS/uwtable_derive; set -- $1 $2 -g ;;
	dwarf)	echo 1 > $SYS/uwtable_derive; set -- $1 $2 --call-graph dwarf ;;
	esac
	perf record -q -a -F $FREQ -e cpu-clock "$3" ${4:-} -o $D/$1.data \
		> $D/perf.out 2>&1 &
	pid=$!
	sleep 1
	first $1 && ms=$(work $2) || { kill -INT $pid; fail "the workload failed"; }
	kill -INT $pid
	wait $pid
	echo "$2 $1 $ms" >> $D/times
	if [ $1 = g ]; then
		set -- $1 $2 "$(cat $STATS/bytes)" "$(cat $STATS/tables)"
		echo "$3 $4" > $D/kept
		set -- $1 $2
	fi
	if [ $2 = 1 ] && [ $1 != fp ]; then
		mv $D/$1.data $D/$1.round1.data
	else
		rm -f $D/$1.data
	fi
	echo 1 > $SYS/uwtable_derive
}

start=$(date +%s)
: > $D/times
: > $D/first
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
	note "round $r ($order): $(awk -v r=$r '$1 == r { printf "%s %s ms  ", $2, $3 }' $D/times)"
	r=$((r + 1))
done

# round_pct A B: for each round, 100 * (A - B) / none; the median over
# rounds, then the lowest and the highest
round_pct() {
	awk -v a=$1 -v b=$2 '{ t[$1, $2] = $3; if ($1 > r) r = $1 }
		END { for (i = 1; i <= r; i++) if (t[i, "none"])
			printf "%.2f\n", 100 * (t[i, a] - t[i, b]) / t[i, "none"] }' $D/times |
	median_range
}
for m in g fp dwarf; do
	name=${m}_overhead_pct
	[ $m = fp ] && name=g_fp_overhead_pct
	set -- $(round_pct $m none)
	echo "bench fleet.$name $1 %   each round's $m over its none, the median of $ROUNDS rounds (from $2 to $3)"
done
first_ms() { awk -v m=$1 '$1 == m { print $2 }' $D/first | median; }
echo "bench fleet.g_first_compile_ms $(first_ms g) ms   the first compile of a g run (tables derived) against $(first_ms fp) ms with fp, medians"

for m in g dwarf; do
	set -- $(complete $D/$m.round1.data cc1 $START_SYM)
	echo "bench fleet.cc1_${m}_complete_pct $(awk -v t=$1 -v c=$2 'BEGIN { printf "%.1f", t ? 100 * c / t : 0 }') %   $2 of $1 cc1 samples reach $START_SYM"
done
read -r bytes count < $D/kept
echo "bench fleet.kernel_bytes $bytes B   $count tables loaded or kept after the last g run"
set -- $(round_pct g fp)
echo "# target: -g with tables at most 1 point over -g with frame pointers: $1 points (each round's g - fp over none, the median; from $2 to $3): $(awk -v d=$1 'BEGIN { print d <= 1 ? "met" : "NOT met" }')"
note "took $(($(date +%s) - start)) s"
unlocal
rm -rf $D
exit 0
