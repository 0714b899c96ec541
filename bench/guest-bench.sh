#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs inside the x86_64 guest (scripts/bench.sh): every benchmark prints
# "bench NAME VALUE UNIT" lines and "# " comments.  BENCH_ONLY="NAME..."
# runs only those of: buildid procmap exec_cost evict fallback
# sframe_perf distro_perf fleet.
echo 0 > /proc/sys/kernel/perf_event_paranoid
# Under TCG on a busy host the boot may fail to calibrate the TSC and fall
# back to jiffies: clock_gettime() then ticks in milliseconds and every
# ratio is garbage.  Say so; bench.sh boots again.
cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
case $cs in
tsc) ;;
*) echo "# clocksource $cs, not tsc: no timing"; exit 3 ;;
esac
want() { [ -z "${BENCH_ONLY:-}" ] || case " $BENCH_ONLY " in *" $1 "*) ;; *) return 1 ;; esac; }
rc=0
for b in buildid procmap exec_cost; do
	want $b || continue
	"$BENCH/$b" || rc=1
done
# inode eviction with 30,000 tables kept against none kept
want evict && { "$BENCH/evict_cost" || rc=1; }
# a frame-record step with the caller checked, against 6.1's
want fallback && { "$BENCH/fallback_cost" || rc=1; }
# perf record -g on code without frame pointers: SFrame, fp, dwarf
want sframe_perf && { sh "$TOP/bench/sframe_perf.sh" || rc=1; }
# the same on Debian's own binaries: tables derived from .eh_frame
want distro_perf && { sh "$TOP/bench/distro_perf.sh" || rc=1; }
# an exec-heavy host under an always-on profiler
want fleet && { sh "$TOP/bench/fleet.sh" || rc=1; }
exit $rc
