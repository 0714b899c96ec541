#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh: build the x86_64 kernel of the committed series (without the
# debug options) and the benchmarks in bench/, boot the guest, run
# bench/guest-bench.sh there and print its "bench NAME VALUE UNIT" lines.
# Every ratio is measured side by side in one run, so the noisy 2-core
# host affects both sides alike.  Output in BUILD/runs/bench-DATE-PID.
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
	# lib/sframe's lookup cost, on the host: tools/lib/sframe builds the
	# same decoder source in user space.
	need_pkgs gcc binutils-dev
	make -C "$TREE/tools/lib/sframe" -s O="$RUN/host" bench-sframe >&2 ||
		die "tools/lib/sframe: bench-sframe failed to build"
	echo "$TREE" > "$RUN/tree"
}
locked prepare
TREE=$(cat "$RUN/tree")

printf 'export BENCH=%s TOP=%s TREE=%s\nexec sh %s/bench/guest-bench.sh\n' \
	"$RUN/bench" "$TOP" "$TREE" "$TOP" > "$out/job.sh"
for try in 1 2 3; do
	rc=0
	locked "$TOP/scripts/guest.sh" x86_64 "$RUN/bzImage" "$out" \
		"${GUEST_TIMEOUT:-1200}" >/dev/null 2>"$out/guest.err" || rc=$?
	grep -q '^# clocksource .*no timing' "$out/job.log" 2>/dev/null || break
	log "the guest has no TSC clocksource (boot $try), booting again"
done
grep -E '^(bench|#) ' "$out/job.log" 2>/dev/null || true
if [ $rc -ne 0 ]; then
	cat "$out/guest.err" >&2
	die "the benchmark guest failed (rc=$rc); log: $out/job.log, console: $out/console.log"
fi

"$RUN/host/bench-sframe"
