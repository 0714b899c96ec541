# SPDX-License-Identifier: GPL-2.0
# Helpers of the perf benchmarks (sframe_perf.sh, distro_perf.sh), sourced.

# counts DATA: "SAMPLES LOST": SAMPLE events, and lost samples and events
counts() {
	perf report -i $1 --stats 2>/dev/null | awk '
		$1 == "SAMPLE" && $2 == "events:" && !n { n = $3 }
		/LOST/ && $2 == "events:" && !seen[$1]++ { l += $3 }
		END { printf "%d %d\n", n, l }'
}

# data_bytes DATA: the size of perf.data's data section (header word 6)
data_bytes() { od -An -t u8 -j 48 -N 8 $1 | tr -d ' '; }

# poll_max PID NAME...: while PID runs (10 s at most), the largest value
# each kernel.NAME counter reached, on one line
poll_max() {
	pm_pid=$1 pm_i=0
	shift
	pm_max=""
	for n; do pm_max="$pm_max $(cat /proc/sys/kernel/$n)"; done
	while [ $pm_i -lt 100 ] && kill -0 $pm_pid 2>/dev/null; do
		pm_new="" pm_k=0
		for n; do
			pm_k=$((pm_k + 1))
			v=$(cat /proc/sys/kernel/$n)
			m=$(echo $pm_max | cut -d' ' -f$pm_k)
			[ "$v" -gt "$m" ] && m=$v
			pm_new="$pm_new $m"
		done
		pm_max=$pm_new
		sleep 0.1
		pm_i=$((pm_i + 1))
	done
	echo $pm_max
}

# grow_while FREQ OUT NAME... -- CMD...: run CMD under perf record -g
# (its data in OUT, removed after) and print each kernel.NAME counter's
# value before and the largest it reached while CMD ran, in that order:
# "BEFORE... MAX..."
grow_while() {
	gw_freq=$1 gw_out=$2 gw_names="" gw_before=""
	shift 2
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do
		gw_names="$gw_names $1"
		shift
	done
	shift
	for n in $gw_names; do gw_before="$gw_before $(cat /proc/sys/kernel/$n)"; done
	perf record -q -F $gw_freq -e cpu-clock -g -o $gw_out -- "$@" > /dev/null 2>&1 &
	gw_pid=$!
	gw_max=$(poll_max $gw_pid $gw_names)
	wait $gw_pid
	rm -f $gw_out
	echo $gw_before $gw_max
}

# median: of the numbers on stdin, one a line
median() {
	sort -g | awk '{ v[NR] = $1 } END { printf "%.1f\n", NR ? v[int((NR + 1) / 2)] : 0 }'
}
