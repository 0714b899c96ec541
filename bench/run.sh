#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs inside the x86_64 guest (scripts/bench.sh): every benchmark prints
# "bench NAME VALUE UNIT" lines and "# " comments.
echo 0 > /proc/sys/kernel/perf_event_paranoid
rc=0
for b in buildid procmap exec_cost; do
	"$BENCH/$b" || rc=1
done
# perf record -g on code without frame pointers: SFrame, fp, dwarf
sh "$TOP/bench/sframe_perf.sh" || rc=1
exit $rc
