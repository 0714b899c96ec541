#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# distro_perf.sh: perf record -g on what Debian ships, built without frame
# pointers and without SFrame, against perf record --call-graph dwarf.
# Runs inside the x86_64 guest, from guest-bench.sh ($BENCH holds the
# programs; the guest's root is the host's, so /usr/bin/python3 and libc
# are Debian's own).  perf 6.1 as Debian ships it, unchanged.
#
# Workloads, each run under -g and under --call-graph dwarf (perf's
# default 8192-byte stack copies), same -F and -e cpu-clock:
#   python3  Debian's /usr/bin/python3 running a CPU-bound script (string
#            formatting, joins and dict updates: the interpreter, and
#            malloc, memmove and the like in libc)
#   qsort    distro_qsort, -O2 -fomit-frame-pointer, no SFrame: a
#            comparator called from libc's qsort()
# with kernel.uwtable and kernel.uwtable_derive on; the
# control, -g with derivation off, is a comment.
#
# complete_pct: of the workload's samples, the share whose callchain holds
# the program's main: an entry that perf script symbolizes, from the
# binary's own symbols, as "main" (distro_qsort) or "Py_BytesMain"
# (python3: Debian's python3.11 exports no "main", and its main is two
# bytes, a tail jump to Py_BytesMain, found here from _start's first
# argument to __libc_start_main and checked below, so no caller of
# Py_BytesMain but libc is on the stack).  Samples before main (ld.so,
# libc's start-up) count against both methods alike.
#
# bytes_ratio_vs_dwarf: perf.data bytes per sample (the data section over
# the SAMPLE events), dwarf over -g, for python3.
# table_bytes: kernel.uwtable_bytes while python3 runs under -g (the
# most seen, polled), minus before: the tables of one python3 process
# (python3.11, libc, ld.so, libm, libz, libexpat, and the modules it
# loads; the vDSO's table is made at boot and not counted).
# derive_ms: the time one mmap() of a fresh copy of libc takes with
# derivation on, minus off (derive_time, under perf record -g so that its
# mappings are looked at; median of 9 copies each, alternating).
# A comment says what perf record -a -g for 2 s had derived.
set -u

FREQ=${DISTRO_FREQ:-999}
PY_SECS=${DISTRO_PY_SECS:-4}
QSORT_ROUNDS=${DISTRO_QSORT_ROUNDS:-40}
SYS=/proc/sys/kernel
D=/tmp/distro-perf
LIBC=/lib/x86_64-linux-gnu/libc.so.6
PY=$(readlink -f /usr/bin/python3)

ME=distro_perf
. "$TOP/bench/perf_lib.sh"

[ -e $SYS/uwtable_derive ] || fail "no $SYS/uwtable_derive (kernel without derivation)"
command -v perf >/dev/null || fail "no perf"
[ -x "$PY" ] || fail "no /usr/bin/python3"
rm -rf $D
mkdir -p $D || exit 1
cp "$BENCH/distro_qsort" $D/distro_qsort || exit 1
old_unwind=$(cat $SYS/uwtable)
old_derive=$(cat $SYS/uwtable_derive)
trap 'echo $old_unwind > $SYS/uwtable; echo $old_derive > $SYS/uwtable_derive' EXIT
echo 1 > $SYS/uwtable
echo 1 > $SYS/uwtable_derive

# python3's main: the first argument _start gives __libc_start_main
# (mov $main, %rdi, or lea main(%rip), %rdi), and what main jumps to
entry=$(readelf -h "$PY" | awk '/Entry point/ { print $4 }')
pymain=$(objdump -d --start-address=$entry --stop-address=$((entry + 64)) "$PY" |
	awk '/%rdi/ {
		if (match($0, /# [0-9a-f]+/)) { print substr($0, RSTART + 2, RLENGTH - 2); exit }
		if (match($0, /\$0x[0-9a-f]+,%rdi/)) { print substr($0, RSTART + 3, RLENGTH - 8); exit }
	}')
[ -n "$pymain" ] || fail "cannot find python3's main from _start"
jump=$(objdump -d --start-address=0x$pymain --stop-address=$((0x$pymain + 16)) "$PY" |
	awk '/jmp/ { print $NF; exit }')
note "$PY: main at 0x$pymain jumps to $jump"
case $jump in
*"<Py_BytesMain"*) PYSYM=Py_BytesMain ;;
*) PYSYM=main ;;
esac

cp "$TOP/bench/distro_work.py" $D/work.py || exit 1

# run NAME MODE COMM SYM CMD...: record CMD under MODE (g, dwarf or off),
# "NAME MODE SAMPLES COMPLETE BYTES LOST" into $D/results
run() {
	name=$1 mode=$2 comm=$3 sym=$4
	shift 4
	case $mode in
	g) set -- -g "$@" ;;
	off) echo 0 > $SYS/uwtable_derive; set -- -g "$@" ;;
	dwarf) set -- --call-graph dwarf "$@" ;;
	esac
	perf record -q -F $FREQ -e cpu-clock -o $D/$name.$mode.data "$@" \
		> $D/out 2> $D/err || fail "perf record $* failed: $(cat $D/out $D/err)"
	echo 1 > $SYS/uwtable_derive
	set -- $(complete $D/$name.$mode.data $comm $sym) $(data_bytes $D/$name.$mode.data) \
		$(counts $D/$name.$mode.data)
	echo "$name $mode $1 $2 $3 $5" >> $D/results
	note "$name, $mode: $2 of $1 samples reach $sym; $3 bytes of data, $4 samples in all, $5 lost"
	rm -f $D/$name.$mode.data
}

start=$(date +%s)
: > $D/results
for mode in g dwarf off; do
	run python3 $mode "$(basename "$PY")" $PYSYM -- "$PY" $D/work.py $PY_SECS || exit 1
	run qsort $mode distro_qsort main -- $D/distro_qsort $QSORT_ROUNDS || exit 1
done

# pct NAME MODE, bps NAME MODE
pct() { awk -v n=$1 -v m=$2 '$1 == n && $2 == m { printf "%.1f", $3 ? 100 * $4 / $3 : 0 }' $D/results; }
bps() { awk -v n=$1 -v m=$2 '$1 == n && $2 == m { printf "%.1f", $3 ? $5 / $3 : 0 }' $D/results; }

for w in python3 qsort; do
	echo "bench distro.$w.g_complete_pct $(pct $w g) %"
	echo "bench distro.$w.dwarf_complete_pct $(pct $w dwarf) %"
	note "$w: -g with derivation off: $(pct $w off) % complete"
done
g=$(bps python3 g) dw=$(bps python3 dwarf)
echo "bench distro.bytes_ratio_vs_dwarf $(awk -v g=$g -v d=$dw 'BEGIN { printf "%.1f", g ? d / g : 0 }') x"
note "python3: $g bytes per sample under -g, $dw under --call-graph dwarf"

# ---- the tables of one python3 process
set -- $(grow_while $FREQ $D/tb.data uwtable_bytes uwtable_derived_count -- \
	"$PY" $D/work.py 3)
b0=$1 d0=$2 b1=$3 t1=$4
echo "bench distro.table_bytes $((b1 - b0)) B"
eh=$(readelf -SW "$PY" | awk '$2 == ".eh_frame" { print $6 }')
note "$((t1 - d0)) tables derived for one python3 process; python3.11's .eh_frame has $((0x${eh:-0})) bytes"

# ---- a whole system profiled: perf record -a -g for 2 s while python3
# runs; every process it samples has its tables derived
t0=$(cat $SYS/uwtable_derived_count)
b0=$(cat $SYS/uwtable_derived_bytes)
"$PY" $D/work.py 4 > /dev/null 2>&1 &
pid=$!
perf record -q -a -g -F $FREQ -e cpu-clock -o $D/sys.data -- sleep 2 > /dev/null 2>&1
t1=$(cat $SYS/uwtable_derived_count)
b1=$(cat $SYS/uwtable_derived_bytes)
procs=$(ls -d /proc/[0-9]* | wc -l)
wait $pid
rm -f $D/sys.data
note "perf record -a -g, 2 s, $procs processes: $((t1 - t0)) tables derived, $((b1 - b0)) bytes"

# ---- deriving libc's table
: > $D/dt
for r in 1 2 3 4 5 6 7 8 9; do
	for sw in 0 1; do
		echo $sw > $SYS/uwtable_derive
		perf record -q -F 10 -e cpu-clock -g -o $D/dt.data -- \
			"$BENCH/derive_time" $LIBC 1 > $D/out 2>&1 ||
			fail "derive_time failed: $(cat $D/out)"
		awk -v s=$sw '$1 == "derive_time:" { print s, $6 }' $D/out >> $D/dt
	done
done
echo 1 > $SYS/uwtable_derive
rm -f $D/dt.data
on=$(awk '$1 == 1 { print $2 }' $D/dt | median)
off=$(awk '$1 == 0 { print $2 }' $D/dt | median)
echo "bench distro.derive_ms $(awk -v a=$on -v b=$off 'BEGIN { printf "%.2f", (a - b) / 1e6 }') ms"
note "mmap() of a fresh copy of libc: $on ns with derivation, $off ns without (medians of 9)"

# ---- the issue's target
for w in python3 qsort; do
	awk -v w=$w -v g=$(pct $w g) -v d=$(pct $w dwarf) 'BEGIN {
		printf "# target: %s: -g within 1 point of dwarf (%.1f vs %.1f): %s\n",
			w, g, d, (g >= d - 1) ? "met" : "NOT met" }'
done
note "took $(($(date +%s) - start)) s"
rm -rf $D
exit 0
