#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh: build the x86_64 kernel of the committed series (without the
# debug options) and the benchmarks in bench/, boot the guest, run
# bench/guest-bench.sh there and print its "bench NAME VALUE UNIT" lines.
# Every ratio is measured side by side in one run, so the noisy 2-core
# host affects both sides alike.  Output in BUILD/runs/bench-DATE-PID.
# BENCH_ONLY="NAME..." runs only those guest benchmarks (see
# bench/guest-bench.sh), e.g. BENCH_ONLY=fleet ANCHOR=0.
#
# Then the anchor (ANCHOR=0 leaves it out): Debian's linux-source-6.12,
# unpatched, built with the same config fragments (scripts/anchor.sh), and
# the series' kernel are booted in turn, ours, 6.12, ours, 6.12, ... (three
# rounds, ANCHOR_ROUNDS=N for another number), each
# running bench/anchor-bench.sh (the PROCMAP_QUERY and BPF build-ID
# benchmarks, the same binaries, and the series' procmap_query kselftest
# unchanged); the "NAME.vs_6.12" lines are the ratios of the medians,
# ours / 6.12 (lower is better for times).
. "$(dirname "$0")/lib.sh"

begin_run bench
out=$RUN/guest
mkdir -p "$out"

# The benchmarks run on a kernel without the debug checks of the test
# kernels (KASAN, lockdep, ...), in its own object directory; built
# holding the lock, and copied into the run with the benchmarks.
prepare() {
	local obj=$BUILD/x86_64/bench-obj
	use_tree
	NODEBUG=1 "$TOP/scripts/build.sh" x86_64 "$TREE" "$obj" >&2
	cp "$obj/arch/x86/boot/bzImage" "$RUN/bzImage"
	make -C "$TOP/bench" -s O="$RUN/bench" KHDR="$obj/usr/include" >&2 ||
		die "benchmarks failed to build"
	make -C "$TREE/tools/testing/selftests/proc" -s \
		KHDR_INCLUDES="-isystem $obj/usr/include" OUTPUT="$RUN/bench" \
		"$RUN/bench/procmap_query" >&2 ||
		die "the procmap_query kselftest failed to build"
	# lib/sframe's lookup cost, on the host: host/sframe builds the
	# tree's decoder source in user space.
	need_pkgs gcc binutils-dev cpp-12 libllvm15 python3.11 linux-perf libc6-dbg
	# The tools' own paths: the Makefile has no short name for ehframe-check.
	make -C "$HOSTTESTS/sframe" -s KSRC="$(realpath "$TREE")" O="$RUN/host" "$RUN/host/bench-sframe" \
		"$RUN/host/ehframe-check" >&2 ||
		die "host/sframe: bench-sframe or ehframe-check failed to build"
	echo "$TREE" > "$RUN/tree"
}
locked prepare
TREE=$(cat "$RUN/tree")

# bench_boot KERNEL OUT SCRIPT: run bench/SCRIPT in a guest of KERNEL,
# booting again (up to three times) when the TSC was not calibrated.
bench_boot() {
	local kernel=$1 dir=$2 script=$3 try
	mkdir -p "$dir"
	printf 'export BENCH=%s TOP=%s TREE=%s BENCH_ONLY="%s"\nexec sh %s/bench/%s\n' \
		"$RUN/bench" "$TOP" "$TREE" "${BENCH_ONLY:-}" "$TOP" "$script" > "$dir/job.sh"
	for try in 1 2 3; do
		rc=0
		locked "$TOP/scripts/guest.sh" x86_64 "$kernel" "$dir" \
			"${GUEST_TIMEOUT:-3600}" >/dev/null 2>"$dir/guest.err" || rc=$?
		grep -q '^# clocksource .*no timing' "$dir/job.log" 2>/dev/null || break
		log "the guest has no TSC clocksource (boot $try), booting again"
	done
	if [ $rc -ne 0 ]; then
		cat "$dir/guest.err" >&2
		die "the benchmark guest failed (rc=$rc); log: $dir/job.log, console: $dir/console.log"
	fi
}

bench_boot "$RUN/bzImage" "$out" guest-bench.sh
grep -E '^(bench|#) ' "$out/job.log" 2>/dev/null || true

if [ "${ANCHOR:-1}" != 0 ]; then
	prepare_anchor() {
		"$TOP/scripts/anchor.sh" "$BUILD/x86_64/anchor-obj" >&2
		cp "$BUILD/x86_64/anchor-obj/arch/x86/boot/bzImage" "$RUN/bzImage-6.12"
	}
	locked prepare_anchor
	for round in $(seq "${ANCHOR_ROUNDS:-3}"); do
		bench_boot "$RUN/bzImage" "$RUN/anchor/ours-$round" anchor-bench.sh
		bench_boot "$RUN/bzImage-6.12" "$RUN/anchor/6.12-$round" anchor-bench.sh
	done
	python3 "$TOP/bench/anchor-report.py" "$RUN/anchor"
fi

"$RUN/host/bench-sframe"

# The kernel's table of each of Debian's large files, over the .eh_frame
# it is derived from: the same derivation and compact table code, built on
# the host (host/sframe's ehframe-check, which also checks every row of
# the table against the rows the file's .eh_frame gives).  The kernel adds
# its struct uwtable (a few hundred bytes) to each.
for f in cc1:/usr/lib/gcc/x86_64-linux-gnu/12/cc1 \
	 libLLVM:/usr/lib/x86_64-linux-gnu/libLLVM-15.so.1 \
	 libc:/lib/x86_64-linux-gnu/libc.so.6 \
	 python3:/usr/bin/python3.11 perf:/usr/bin/perf; do
	"$RUN/host/ehframe-check" "$(readlink -f "${f#*:}")" 2>/dev/null |
		awk -v n="${f%%:*}" '/compact table .* of .eh_frame/ {
			for (i = 1; i <= NF; i++) if ($i == "of") r = $(i - 1)
			printf "bench fleet.table_bytes_over_ehframe.%s %s   %s\n", n, r, $0; exit }'
done

# The tables of every ELF file installed on this machine, at once: what the
# defaults of kernel.uwtable_max_kb and _user_max_kb are sized
# from (host, the same code; a few minutes).
sh "$TOP/bench/host_tables.sh" "$RUN/host/ehframe-check"

# The longest work between two points where a derivation reschedules, on
# the costliest crafted .eh_frame known (host, natively; ehframe-check's
# crafted sections).
"$RUN/host/ehframe-check" "$(readlink -f /lib/x86_64-linux-gnu/libc.so.6)" 2>/dev/null |
	awk '/longest stretch between two callbacks/ {
		printf "bench sframe.derive_longest_stretch_us %s   host, natively: %s\n", $(NF - 1), $0 }'

