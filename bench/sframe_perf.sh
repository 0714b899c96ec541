#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# sframe_perf.sh: what the SFrame unwinder gives `perf record -g` on code
# built without frame pointers, next to the frame-pointer walk and to
# `perf record --call-graph dwarf`.  Runs inside the x86_64 guest, from
# guest-bench.sh ($BENCH holds the programs).  The workload is sframe_work, built
#   (a) sframe_work_sf: -O2 -fomit-frame-pointer -Wa,--gsframe
#   (b) sframe_work_fp: -O2 -fno-omit-frame-pointer, no SFrame
# and the cases are, all with the same -F and -e cpu-clock:
#   sframe  (a) under perf record -g, kernel.uwtable=1
#   fp      (b) under perf record -g
#   dwarf   (a) under perf record --call-graph dwarf (perf's default
#           8192-byte stack copies)
#   dwarf_fit (a) under perf record --call-graph dwarf,N, N the most stack
#           the workload's chain below main can occupy, rounded up to 64
#           bytes: what a profiler that knows its workload would ask for.
#           N is derived from the binary's .eh_frame: the sum over run_job
#           .. crunch of each function's largest CFA offset (rsp+K), which
#           bounds CFA(run_job) - SP for a sample anywhere in the chain,
#           the bytes the unwinder needs to read up to the return address
#           into main (crunch's locals are in the red zone, below SP, and
#           are not needed); plus 8, since perf's libunwind reader refuses
#           the dump's last word.  For the gcc 12 build that is 520 + 8,
#           rounded up to 576; dwarf_fit.complete_pct shows N is enough (on
#           the host, 528 gave 100 %, 520 53 %, 448 35 %: measured with
#           SFRAME_DWARF_FIT=N, which overrides it).
#   off     (a) under perf record -g, kernel.uwtable=0: the
#           control, whose stacks must break (comments only)
#
# complete_pct: of the samples whose sampled function (the first entry of
# the callchain, as perf script symbolizes it from the binary's symtab)
# is one of the workload's functions below main, the share whose next
# entries are exactly its callers up to main, in order: for a sample in
# crunch, "crunch hash_keys sort_keys ... run_job main".  A missing,
# extra or wrong entry anywhere on the way makes the sample incomplete;
# what follows main does not count.
#
# bytes_ratio_vs_dwarf: perf.data bytes per sample, dwarf over sframe
# (bytes_ratio_vs_dwarf_fit: the same for dwarf_fit);
# bytes are the data section of perf.data (every record, samples and the
# rest), samples are perf report --stats' SAMPLE events.
#
# overhead_pct: the workload times its own work with clock_gettime (no
# perf or program start-up), in 100 equal slices, and its run time is
# taken as 100 times the median slice: the host's hiccups (QEMU TCG on a
# busy 2-core machine) lengthen a few slices by a lot, sampling lengthens
# every slice alike.  Odd rounds run
#   (a) alone, sframe, off | (b) alone, fp | (a) alone, dwarf | (a) alone, dwarf_fit
# and even rounds the same backwards (dwarf_fit, (a) alone | dwarf, ...),
# so which side of a pair runs first alternates; each case is compared
# with the run of the same binary alone in its group of the same round,
# and the median of the rounds' ratios counts.  Before the rounds, each
# binary runs once alone and once under perf record -g, uncounted (the
# cold runs: the first exec of a fresh copy, perf's own files read from
# 9p); their times are a comment.
#
# table_bytes: kernel.uwtable_bytes while (a) runs under perf record
# -g, minus before.
set -u

FREQ=${SFRAME_FREQ:-2000}
RUNS=${SFRAME_RUNS:-6}
WORK=${SFRAME_WORK:-120000}
CHAIN="main run_job load_batch decode_records checksum_block transform mix_rows sort_keys hash_keys crunch"
SYS=/proc/sys/kernel
D=/tmp/sframe-perf

ME=sframe_perf
. "$TOP/bench/perf_lib.sh"

[ -e $SYS/uwtable ] || fail "no $SYS/uwtable (kernel without the SFrame unwinder)"
command -v perf >/dev/null || fail "no perf"
rm -rf $D
mkdir -p $D || exit 1
# Run copies on tmpfs: the root is 9p, and every run then uses the same
# cached files.
cp "$BENCH/sframe_work_sf" $D/work_sf && cp "$BENCH/sframe_work_fp" $D/work_fp || exit 1
A=$D/work_sf
B=$D/work_fp
old_switch=$(cat $SYS/uwtable)
old_derive=$(cat $SYS/uwtable_derive 2>/dev/null)
trap 'echo $old_switch > $SYS/uwtable
      [ -z "$old_derive" ] || echo $old_derive > $SYS/uwtable_derive' EXIT
echo 1 > $SYS/uwtable
# no tables derived from .eh_frame: (b) is the frame-pointer walk, and
# libc is walked as it is in every case (distro_perf.sh derives)
[ -z "$old_derive" ] || echo 0 > $SYS/uwtable_derive

# time_of FILE: the run time the workload printed (100 x median slice).
time_of() {
	awk '$1 == "sframe_work:" { for (i = 1; i < NF; i++) if ($i == "median") { print 100 * $(i + 1); f = 1 } }
	     END { exit !f }' "$1"
}

# alone BIN: run BIN alone, print its run time.
alone() {
	"$1" $WORK > $D/out 2>&1 || fail "$1 failed: $(cat $D/out)"
	time_of $D/out || fail "$1 printed no time: $(cat $D/out)"
}

# under CASE ROUND BIN PERF-ARGS...: run BIN under perf record into
# $D/CASE.data, print its run time, then add the ROUND's numbers to
# $D/CASE.stats and drop the data (dwarf data is large).
under() {
	m=$1 r=$2 bin=$3
	shift 3
	perf record -q -B -F $FREQ -e cpu-clock "$@" -o $D/$m.data -- "$bin" $WORK \
		> $D/out 2> $D/err || fail "perf record $* $bin failed: $(cat $D/out $D/err)"
	time_of $D/out || fail "$bin printed no time: $(cat $D/out)"
	echo "$r $(counts $D/$m.data) $(data_bytes $D/$m.data)" \
	     "$(count_complete $D/$m.data)" >> $D/$m.stats
	rm -f $D/$m.data
}

# count_complete DATA: "WORKLOAD-SAMPLES COMPLETE"
count_complete() {
	perf script -i $1 -F ip,sym --no-inline 2>/dev/null | awk -v chain="$CHAIN" '
	BEGIN { n = split(chain, c, " "); for (i = 1; i <= n; i++) depth[c[i]] = i }
	function flush(  d, i, ok) {
		if (nf == 0)
			return
		d = depth[f[1]]
		if (d > 1) {
			total++
			ok = nf >= d
			for (i = 1; ok && i <= d; i++)
				if (f[i] != c[d - i + 1])
					ok = 0
			complete += ok
		}
		nf = 0
	}
	NF == 0 { flush(); next }
	{ f[++nf] = $2 }
	END { flush(); printf "%d %d\n", total, complete }'
}

# stack_need BIN FUNCS: the sum of FUNCS' largest CFA offsets in BIN's
# .eh_frame (readelf -wF), matched to the FDEs by their symbols' values
stack_need() {
	readelf -wF "$1" 2>/dev/null | awk -v chain="$2" \
	    -v syms="$(readelf -sW "$1" | awk '$4 == "FUNC" { print $2, $8 }')" '
	BEGIN { n = split(syms, s, "\n")
		for (i = 1; i <= n; i++) { split(s[i], f, " "); addr[f[2]] = f[1] } }
	/ FDE / { cur = $NF; sub(/^pc=/, "", cur); sub(/\.\..*/, "", cur); max[cur] = 8; next }
	cur != "" && $2 ~ /^rsp\+[0-9]+$/ { k = substr($2, 5) + 0; if (k > max[cur]) max[cur] = k }
	END { n = split(chain, c, " ")
		for (i = 1; i <= n; i++) {
			if (!(addr[c[i]] in max))
				exit 1
			t += max[addr[c[i]]]
		}
		print t }'
}

start=$(date +%s)

need=$(stack_need $A "${CHAIN#main }") || fail "no CFA offsets for the chain in $A's .eh_frame"
FIT=${SFRAME_DWARF_FIT:-$(( (need + 8 + 63) / 64 * 64 ))}
note "the chain below main occupies at most $need bytes of stack (.eh_frame); dwarf_fit copies $FIT"

# ---- the cold runs, not counted
ca=$(alone $A) || exit 1
cb=$(alone $B) || exit 1
cs=$(under cold 0 $A -g) || exit 1
rm -f $D/cold.stats
note "cold (first runs, not counted), ms: $(echo $ca $cb $cs |
	awk '{ printf "(a) %.0f, (b) %.0f, (a) under -g %.0f", $1 / 1e6, $2 / 1e6, $3 / 1e6 }')"

# group CASE ROUND FORWARD: run CASE and the binary alone, in this order if
# FORWARD is 1, else backwards; "ROUND NAME NS" lines into $D/times
group() {
	g=$1 r=$2 fw=$3 bin=$A
	[ $g = fp ] && bin=$B
	[ $fw = 1 ] && { t=$(alone $bin) || exit 1; echo "$r alone_$g $t" >> $D/times; }
	case $g in
	sframe)
		if [ $fw = 1 ]; then
			t=$(under sframe $r $A -g) || exit 1
			echo "$r sframe $t" >> $D/times
		fi
		echo 0 > $SYS/uwtable
		t=$(under off $r $A -g) || exit 1
		echo "$r off $t" >> $D/times
		echo 1 > $SYS/uwtable
		if [ $fw != 1 ]; then
			t=$(under sframe $r $A -g) || exit 1
			echo "$r sframe $t" >> $D/times
		fi ;;
	fp) t=$(under fp $r $B -g) || exit 1; echo "$r fp $t" >> $D/times ;;
	dwarf) t=$(under dwarf $r $A --call-graph dwarf) || exit 1; echo "$r dwarf $t" >> $D/times ;;
	dwarf_fit) t=$(under dwarf_fit $r $A --call-graph dwarf,$FIT) || exit 1
		echo "$r dwarf_fit $t" >> $D/times ;;
	esac
	[ $fw = 1 ] || { t=$(alone $bin) || exit 1; echo "$r alone_$g $t" >> $D/times; }
	return 0
}

# ---- the interleaved runs
note "-F $FREQ -e cpu-clock, $RUNS rounds, $WORK rounds of work per run"
: > $D/times
r=1
while [ $r -le $RUNS ]; do
	if [ $((r % 2)) = 1 ]; then
		for g in sframe fp dwarf dwarf_fit; do group $g $r 1 || exit 1; done
	else
		for g in dwarf_fit dwarf fp sframe; do group $g $r 0 || exit 1; done
	fi
	r=$((r + 1))
done
awk '{ t[$1] = t[$1] sprintf(" %s %.0f", $2, $3 / 1e6); if ($1 > n) n = $1 }
     END { for (i = 1; i <= n; i++) printf "# sframe_perf: round %d, ms:%s\n", i, t[i] }' $D/times

# ---- per case: complete stacks, bytes per sample, overhead
# $D/CASE.stats: ROUND SAMPLES LOST DATA-BYTES WORKLOAD-SAMPLES COMPLETE
for m in sframe off fp dwarf dwarf_fit; do
	set -- $(awk '{ n += $2; l += $3; b += $4; t += $5; c += $6 }
		END { printf "%d %d %d %d %d", n, l, b, t, c }' $D/$m.stats)
	n=$1 l=$2 bytes=$3 t=$4 c=$5
	pct=$(awk -v t=$t -v c=$c 'BEGIN { if (t) printf "%.1f", 100 * c / t; else print "nan" }')
	bps=$(awk -v b=$bytes -v n=$n 'BEGIN { printf "%.1f", n ? b / n : 0 }')
	base=alone_$m
	[ $m = off ] && base=alone_sframe
	# per round: the case over the run alone in its group
	awk -v c=$m -v b=$base '$2 == c { t[$1] = $3 } $2 == b { a[$1] = $3 }
		END { for (r in t) printf "%.1f\n", 100 * (t[r] / a[r] - 1) }' \
		$D/times | sort -n > $D/$m.oh
	oh=$(median < $D/$m.oh)
	ohs="$(head -1 $D/$m.oh) to $(tail -1 $D/$m.oh)"
	# and the time that adds per sample, in this guest
	us=$(awk -v c=$m -v b=$base 'NR == FNR { n[$1] = $2; next }
		$2 == c { t[$1] = $3 } $2 == b { a[$1] = $3 }
		END { for (r in t) if (n[r]) print (t[r] - a[r]) / n[r] / 1e3 }' $D/$m.stats $D/times | median)
	eval "pct_$m=$pct bps_$m=$bps oh_$m=$oh"
	eval "ohlo_$m=$(head -1 $D/$m.oh) ohhi_$m=$(tail -1 $D/$m.oh)"
	note "$m: $c of $t workload samples complete; $n samples, $l lost," \
		"$bps bytes each; overhead $oh % (rounds $ohs %, each against" \
		"its own binary alone in the same round), $us us per sample"
done

echo "bench sframe.complete_pct $pct_sframe %"
echo "bench fp.complete_pct $pct_fp %"
echo "bench dwarf.complete_pct $pct_dwarf %"
echo "bench dwarf_fit.complete_pct $pct_dwarf_fit %"
echo "bench dwarf_fit.stack_bytes $FIT B"
note "with the switch off (uwtable=0), (a) under -g: $pct_off % complete"
echo "bench sframe.bytes_ratio_vs_dwarf $(awk -v d=$bps_dwarf -v s=$bps_sframe 'BEGIN { printf "%.1f", s ? d / s : 0 }') x"
echo "bench sframe.bytes_ratio_vs_dwarf_fit $(awk -v d=$bps_dwarf_fit -v s=$bps_sframe 'BEGIN { printf "%.1f", s ? d / s : 0 }') x"
echo "bench sframe.overhead_pct $oh_sframe %"
echo "bench fp.overhead_pct $oh_fp %"
echo "bench dwarf.overhead_pct $oh_dwarf %"
echo "bench dwarf_fit.overhead_pct $oh_dwarf_fit %"

# ---- kernel memory for the tables: read while (a) runs under perf
# record -g (a process nothing samples has no tables looked up)
set -- $(grow_while $FREQ $D/tb.data uwtable_count uwtable_bytes -- $A $WORK)
t0=$1 b0=$2 t1=$3 b1=$4
echo "bench sframe.table_bytes $((b1 - b0)) B"
size=$(readelf -SW $A | awk '{ for (i = 1; i < NF; i++) if ($i == ".sframe") print $(i + 4) }')
note "$((t1 - t0)) table(s) loaded while (a) ran ($t0 table(s), $b0 bytes before);" \
	"its .sframe section has $((0x${size:-0})) bytes"

# ---- the issue's targets
awk -v s=$pct_sframe -v d=$pct_dwarf -v bs=$bps_sframe -v bd=$bps_dwarf \
    -v bf=$bps_dwarf_fit -v os=$oh_sframe -v of=$oh_fp \
    -v sl=$ohlo_sframe -v sh=$ohhi_sframe -v fl=$ohlo_fp -v fh=$ohhi_fp 'BEGIN {
	printf "# target: sframe complete within 1 point of dwarf (%.1f vs %.1f): %s\n",
		s, d, (s >= d - 1) ? "met" : "NOT met"
	printf "# target: >= 20x fewer bytes per sample than dwarf (%.1fx): %s\n",
		bd / bs, (bd / bs >= 20) ? "met" : "NOT met"
	printf "# target: the same against dwarf_fit (%.1fx): %s\n",
		bf / bs, (bf / bs >= 20) ? "met" : "NOT met"
	v = "NOT met"
	if (of <= 0)
		v = "undetermined (the fp overhead is not above 0)"
	else if (os <= 1.5 * of)
		v = "met"
	printf "# target: sframe overhead <= 1.5x fp (%.1f %% vs %.1f %%): %s\n", os, of, v
	if (sh >= fl && fh >= sl)
		printf "# sframe and fp overheads: their rounds overlap (%.1f to %.1f %% and %.1f to %.1f %%), a difference within the noise\n", sl, sh, fl, fh
}'
note "took $(($(date +%s) - start)) s"
rm -rf $D
exit 0
