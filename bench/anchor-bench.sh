#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs inside the x86_64 guest, on the series' kernel and on Debian's
# 6.12 (scripts/bench.sh boots them in turn): the benchmarks both kernels
# can run (PROCMAP_QUERY and BPF build IDs), then the series' own
# procmap_query kselftest, unchanged.  Prints "bench NAME VALUE UNIT"
# lines, "# " comments and "ksft " result lines.
echo 0 > /proc/sys/kernel/perf_event_paranoid
cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
case $cs in
tsc) ;;
*) echo "# clocksource $cs, not tsc: no timing"; exit 3 ;;
esac
echo "# kernel $(uname -r)"
rc=0
for b in buildid procmap; do
	"$BENCH/$b" || rc=1
done
"$BENCH/procmap_query" 2>&1 | sed -n 's/^\(not ok\|ok\) /ksft \1 /p'
exit $rc
