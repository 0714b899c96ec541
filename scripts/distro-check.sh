#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# uwtable-check: the checks distro.sh runs in its Debian 12 image, from the
# image's uwtable-check.service (after multi-user.target), as root, on the
# serial console; then it powers the system off.  With the patched kernel
# (it has kernel.uwtable) every check runs and prints
# "x86_64-debian/CHECK: N passed, N failed"; with Debian's own kernel (the
# control) only the system's state and the perf line, for comparison.
#
#   system      multi-user.target active, 2 CPUs online, no failed unit
#   perf_g      perf record -a -g -F 999 -e cpu-clock for 5 s while Debian's
#               python3 runs a workload: the share of python3's samples
#               whose stack reaches python3's main (Py_BytesMain, found from
#               _start as bench/distro_perf.sh does), passed at >= 90 %
#   procmap_query, sframe_callchain, sframe_lifecycle, sframe_derived
#               the kselftest programs, installed in /opt/kselftest; a
#               passed or failed case each ("ok"/"not ok" at the top level),
#               except sframe_callchain's two NMI cases, which need a
#               test-only option Debian's configuration lacks: skipped then
#   journal     journalctl -k of this boot: no warning, oops, BUG, lockdep
#               or other kernel report
set -u
# The serial getty hangs ttyS0 up when it starts, and a descriptor of
# ttyS0 opened before gets EIO from then on; one of /dev/console is not
# hung up.
trap '' HUP
exec > /dev/console 2>&1
export LC_ALL=C PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
say() { echo "uwtable-check: $*"; }
result() { echo "x86_64-debian/$1: $2 passed, $3 failed"; }
T=/run/uwtable-check
mkdir -p $T

say "kernel $(uname -r)"
# the boot is not finished while this unit runs: the time multi-user.target
# was reached, from the kernel's start
us=$(systemctl show -p ActiveEnterTimestampMonotonic --value multi-user.target)
say "multi-user.target reached at $(awk -v u="$us" 'BEGIN { printf "%.2f", u / 1e6 }') s"
patched=0
[ -e /proc/sys/kernel/uwtable ] && patched=1

# ---- the system
state=$(systemctl is-active multi-user.target)
cpus=$(grep -c '^processor' /proc/cpuinfo)
failed=$(systemctl list-units --state=failed --no-legend --plain | awk '{ print $1 }' | tr '\n' ' ')
systemctl list-units --type=service --state=active --no-legend --plain |
	awk '{ print $1 }' | sort > $T/units
say "multi-user.target $state, $cpus CPUs online, clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
say "active services ($(wc -l < $T/units)): $(tr '\n' ' ' < $T/units)"
say "failed units: ${failed:-none}"
ok=0 bad=0
[ "$state" = active ] && ok=$((ok + 1)) || bad=$((bad + 1))
[ "$cpus" = 2 ] && ok=$((ok + 1)) || bad=$((bad + 1))
[ -z "$failed" ] && ok=$((ok + 1)) || bad=$((bad + 1))
[ $patched = 1 ] && result system $ok $bad

# ---- perf record -a -g while python3 works
PY=$(readlink -f /usr/bin/python3)
entry=$(readelf -h "$PY" | awk '/Entry point/ { print $4 }')
pymain=$(objdump -d --start-address="$entry" --stop-address=$((entry + 64)) "$PY" |
	awk '/%rdi/ {
		if (match($0, /# [0-9a-f]+/)) { print substr($0, RSTART + 2, RLENGTH - 2); exit }
		if (match($0, /\$0x[0-9a-f]+,%rdi/)) { print substr($0, RSTART + 3, RLENGTH - 8); exit }
	}')
sym=main
objdump -d --start-address=0x"$pymain" --stop-address=$((0x$pymain + 16)) "$PY" |
	grep -q 'jmp.*<Py_BytesMain' && sym=Py_BytesMain
cp /usr/local/share/uwtable-check/work.py $T/work.py
"$PY" $T/work.py 5 > /dev/null &
perf record -q -a -g -F 999 -e cpu-clock -o $T/perf.data -- sleep 5 > $T/perf.out 2>&1
wait
set -- $(perf script -i $T/perf.data --comms "$(basename "$PY")" -F ip,sym --no-inline 2>/dev/null |
	awk -v want="$sym" '
	function flush() { if (seen) { total++; hit += found } seen = 0; found = 0 }
	NF == 0 { flush(); next }
	{ seen = 1; if ($2 == want) found = 1 }
	END { flush(); printf "%d %d\n", total, hit }')
samples=${1:-0} complete=${2:-0}
pct=$(awk -v s="$samples" -v c="$complete" 'BEGIN { printf "%.1f", s ? 100 * c / s : 0 }')
say "perf record -a -g: $complete of $samples samples of $(basename "$PY") reach $sym ($pct %)"
if [ $patched = 1 ]; then
	say "tables: $(cat /proc/sys/kernel/uwtable_count) in use, $(cat /proc/sys/kernel/uwtable_bytes) bytes"
	if [ "$samples" -gt 0 ] && awk -v p="$pct" 'BEGIN { exit !(p >= 90) }'; then
		result perf_g 1 0
	else
		result perf_g 0 1
	fi
fi

# ---- the kselftests
ksft() {
	name=$1 dir=$2 prog=$3
	shift 3
	if [ ! -x /opt/kselftest/$dir/$prog ]; then
		result "$name" 0 1
		return
	fi
	(cd /opt/kselftest/$dir && timeout 900 ./$prog "$@") > $T/$name.tap 2>&1
	sed "s/^/  $name| /" $T/$name.tap | grep -E '^  [a-z_]+\| (not ok|ok|# SKIP|# Totals)' | tail -n 60
	# The NMI cases of sframe_callchain need a test-only debugfs file
	# (CONFIG_PERF_CALLCHAIN_NMI_TEST) that a distribution kernel does
	# not have: without the option they are counted as skipped.
	nmi=0
	if ! grep -q '^CONFIG_PERF_CALLCHAIN_NMI_TEST=y' /boot/config-"$(uname -r)"; then
		nmi=$(grep -c '^not ok [0-9]* [a-z]*_nmi_context: .*(CONFIG_PERF_CALLCHAIN_NMI_TEST)$' $T/$name.tap)
	fi
	echo "x86_64-debian/$name: $(grep -c '^ok ' $T/$name.tap) passed," \
	     "$(($(grep -c '^not ok ' $T/$name.tap) - nmi)) failed$([ "$nmi" = 0 ] ||
		echo ", $nmi skipped (no CONFIG_PERF_CALLCHAIN_NMI_TEST)")"
}
if [ $patched = 1 ]; then
	ksft procmap_query proc procmap_query
	ksft sframe_callchain perf_events sframe_callchain
	ksft sframe_lifecycle perf_events sframe_lifecycle
	ksft sframe_derived perf_events sframe_derived --require-vdso-clock
fi

# ---- the kernel's log of this boot
journalctl -k -b --no-pager -o short-monotonic > $T/kernel.log 2>&1
reports='Kernel panic|Oops|BUG:|WARNING:|KASAN:|UBSAN:|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|Call Trace:|general protection fault|soft lockup|hard LOCKUP|refcount_t:|rcu: INFO:|self-detected stall'
n=$(grep -Ec "$reports" $T/kernel.log)
say "journalctl -k: $(wc -l < $T/kernel.log) lines, $n reports; warning priority: $(journalctl -k -b -p warning --no-pager -q | wc -l) lines"
grep -E "$reports" $T/kernel.log | head -n 20 | sed 's/^/  journal| /'
journalctl -k -b -p warning --no-pager -q | head -n 30 | sed 's/^/  warning| /'
[ $patched = 1 ] && { [ "$n" = 0 ] && result journal 1 0 || result journal 0 1; }
say done
sync
systemctl poweroff
