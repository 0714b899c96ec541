# SPDX-License-Identifier: GPL-2.0
# Helpers of the perf benchmarks (sframe_perf.sh, distro_perf.sh,
# fleet.sh), sourced after setting ME to the benchmark's name.

# note TEXT: a comment line of the benchmark's output; fail TEXT: the
# same on stderr, and the benchmark stops
note() { echo "# ${ME:-bench}: $*"; }
fail() { note "$*" >&2; exit 1; }

# complete DATA COMM SYM: "SAMPLES COMPLETE", of COMM's samples in DATA
# how many there are and how many have SYM among their frames
complete() {
	perf script -i $1 --comms $2 -F ip,sym --no-inline 2>/dev/null | awk -v want=$3 '
	function flush() { if (seen) { total++; complete += hit } seen = 0; hit = 0 }
	NF == 0 { flush(); next }
	{ seen = 1; if ($2 == want) hit = 1 }
	END { flush(); printf "%d %d\n", total, complete }'
}

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

# median: of the numbers on stdin, one a line (of an even number, the
# lower of the two in the middle)
median() {
	sort -g | awk '{ v[NR] = $1 } END { printf "%.1f\n", NR ? v[int((NR + 1) / 2)] : 0 }'
}

# median_range: "MEDIAN LOWEST HIGHEST" of the numbers on stdin (of an
# even number, the median is the mean of the two in the middle)
median_range() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (!NR) { print "0 0 0"; exit }
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.1f %.1f %.1f\n", m, v[1], v[NR] }'
}
