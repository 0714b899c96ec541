#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build a libFuzzer harness (clang-22 with ASan + UBSan) and fuzz for a
# bounded time: fuzz-sframe.c, the decoder lib/sframe/sframe.c, or
# fuzz-ehframe.c, the derivation of tables from .eh_frame in
# lib/sframe/ehframe.c.
#
# Usage: fuzz.sh OUTDIR SECONDS [JOBS [TARGET]]
#   OUTDIR   build and work directory (OUTDIR/work is the growing corpus)
#   SECONDS  wall-clock limit of each fuzzing process (-max_total_time)
#   JOBS     independent fuzzing processes run side by side (default 1)
#   TARGET   sframe (default) or ehframe
#
# ehframe: the seeds are the .eh_frame sections, each after the 8-byte
# address it is linked at, of the files in CORPUS_LIST and of a few of
# the host's programs and libraries; crash inputs go to
# fuzz-ehframe-regressions/.  The rest of this comment is about sframe.
#
# Seeds: fuzz-seeds/ (small sections committed with the tests as hex
# text, since patches carry no binary files; some of
# them several tables one after the other as lld writes them), the .sframe
# sections of the files in CORPUS_LIST (default OUTDIR/corpus.list, as
# written by corpus.sh, if there) and a few synthetic sections from
# bench-sframe: single tables, shuffled multi-table ones, and functions of
# many FREs (so that lookups go through the FRE marks).
# FUZZ_MAX_LEN (default 65536) bounds the input size.
# Inputs that crash are saved, as hex, in fuzz-regressions/ in the tree, to
# be committed; host-test.sh replays them on every run.
# Example: fuzz.sh /tmp/sframe-fuzz 600 2 (two processes for ten minutes).
#
# Prints the executions run and the rate, e.g.
#   fuzz: 12345678 executions in 600 s (20576 exec/s), 0 crashes
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[ $# -ge 2 ] || { echo "usage: $0 OUTDIR SECONDS [JOBS]" >&2; exit 2; }
mkdir -p "$1"
out=$(cd "$1" && pwd)
secs=$2
jobs=${3:-1}
target=${4:-sframe}
build=$out/build
list=${CORPUS_LIST:-$out/corpus.list}
case $target in
sframe|ehframe) ;;
*) echo "$0: unknown target $target" >&2; exit 2 ;;
esac
out=$out/$target
mkdir -p "$out"

make -s -C "$here" O="$build" all "fuzz-$target"

# Committed inputs are hex text (patches carry no binary files).
unhex_dir() {
	local h
	mkdir -p "$2"
	for h in "$1"/*.hex; do
		[ -f "$h" ] || continue
		perl -ne 's/\s+//g; print pack("H*", $_)' <"$h" >"$2/$(basename "$h" .hex)"
	done
}

seeds=$out/seeds
regressions=$out/regressions
rm -rf "$regressions"
saved=$here/fuzz-regressions
[ "$target" = ehframe ] && saved=$here/fuzz-ehframe-regressions
mkdir -p "$seeds" "$out/work" "$out/artifacts" "$saved"
unhex_dir "$saved" "$regressions"
if [ "$target" = ehframe ]; then
	host=$(ls /usr/bin/{python3,perl,gzip,true} \
		/lib/x86_64-linux-gnu/{libc.so.6,ld-linux-x86-64.so.2,libz.so.1} \
		2>/dev/null || true)
	# shellcheck disable=SC2086
	for f in $([ -f "$list" ] && cat "$list") $host; do
		"$here/ehframe-seed.sh" "$f" "$seeds/$(basename "$f").eh"
	done
else
	unhex_dir "$here/fuzz-seeds" "$seeds"
	if [ -f "$list" ]; then
		while read -r f; do
			"$build/sframe-diff" -x "$seeds/$(basename "$f").sframe" "$f" ||
				true
		done <"$list"
	fi
	for s in 1 2 3; do
		"$build/bench-sframe" -w "$seeds/synth-$s.sframe" -n $((s * 7)) -s "$s" -m
		"$build/bench-sframe" -w "$seeds/synth-pieces-$s.sframe" \
			-n $((s * 9)) -s "$s" -m -p $((s + 1)) -u
	done
	"$build/bench-sframe" -w "$seeds/synth-abs.sframe" -n 5 -s 9 -a
	for n in 17 40 300 3000; do
		"$build/bench-sframe" -w "$seeds/synth-long-$n.sframe" -L "$n"
	done
fi

# Longer inputs than this are cut; the real sections of bpftool and perf
# are bigger, but their prefixes still make valid-looking headers.
max_len=${FUZZ_MAX_LEN:-65536}

pids=()
for j in $(seq 1 "$jobs"); do
	"$build/fuzz-$target" -max_total_time="$secs" -max_len="$max_len" \
		-seed="$((j * 7919 + $$))" -print_final_stats=1 \
		-timeout="${FUZZ_TIMEOUT:-10}" \
		-artifact_prefix="$out/artifacts/" \
		"$out/work" "$seeds" "$regressions" \
		>"$out/fuzz-$j.log" 2>&1 &
	pids+=($!)
done
status=0
for p in "${pids[@]}"; do
	wait "$p" || status=1
done

execs=0
rate=0
for j in $(seq 1 "$jobs"); do
	n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/fuzz-$j.log" | tail -n 1)
	r=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$out/fuzz-$j.log" | tail -n 1)
	execs=$((execs + ${n:-0}))
	rate=$((rate + ${r:-0}))
done

crashes=0
for a in "$out"/artifacts/*; do
	[ -f "$a" ] || continue
	crashes=$((crashes + 1))
	perl -e 'local $/; $_ = <STDIN>; print unpack("H*", $_) =~ s/(.{1,64})/$1\n/gr' \
		<"$a" >"$saved/$(basename "$a").hex"
	echo "fuzz: crash input saved as $saved/$(basename "$a").hex"
done
echo "fuzz: $target: $execs executions in $secs s x $jobs jobs ($rate exec/s), $crashes crashes"
if [ "$status" -ne 0 ] || [ "$crashes" -ne 0 ]; then
	echo "fuzz: FAILED, see $out/fuzz-*.log" >&2
	exit 1
fi
