#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# guest_checks.sh CPUS [CLOCKSOURCE...]: the guest is the machine the
# suites claim to test on.  CPUS processors are online (QEMU's -smp), so
# the races the suites provoke happen on two CPUs at once; and, when
# CLOCKSOURCE names are given, the clock source is one of them and was
# never taken away by the watchdog, so that clock_gettime() runs in the
# vDSO for the whole run (sframe_derived samples there).  Run it last:
# the clock check covers everything that ran before it.
want=$1
shift
n=0
echo "KTAP version 1"
[ $# -gt 0 ] && echo "1..3" || echo "1..1"

online=$(cat /sys/devices/system/cpu/online 2>/dev/null)
got=$(grep -c '^processor' /proc/cpuinfo)
# "0-1", "0", "0,2-3": count the CPUs the list names.
count=0
for r in $(echo "$online" | tr ',' ' '); do
	case $r in
	*-*) count=$((count + ${r#*-} - ${r%-*} + 1)) ;;
	*) count=$((count + 1)) ;;
	esac
done
echo "# online: $online ($count), /proc/cpuinfo: $got, wanted $want"
n=$((n + 1))
if [ "$count" = "$want" ] && [ "$got" = "$want" ]; then
	echo "ok $n cpus_online"
else
	echo "not ok $n cpus_online"
fi
[ $# -gt 0 ] || exit 0

cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)
echo "# clock source: $cs (wanted one of: $*)"
n=$((n + 1))
ok=0
for c in "$@"; do
	[ "$cs" = "$c" ] && ok=1
done
[ $ok = 1 ] && echo "ok $n clocksource" || echo "not ok $n clocksource"

n=$((n + 1))
if dmesg | grep -E "Marking clocksource .* as unstable|Marking TSC unstable|TSC.*turning off"; then
	echo "not ok $n clock_never_demoted"
else
	echo "ok $n clock_never_demoted"
fi
