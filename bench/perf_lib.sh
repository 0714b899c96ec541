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

# median: of the numbers on stdin, one a line
median() {
	sort -g | awk '{ v[NR] = $1 } END { printf "%.1f\n", NR ? v[int((NR + 1) / 2)] : 0 }'
}
