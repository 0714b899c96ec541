#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh: build the x86_64 kernel of the committed series and the
# benchmarks in bench/, boot the guest, run bench/run.sh there and print
# its "bench NAME VALUE UNIT" lines.  Every ratio is measured side by side
# in one run, so the noisy 2-core host affects both sides alike.
. "$(dirname "$0")/lib.sh"

build_x86_kernel
obj=$OBJ
make -C "$TOP/bench" -s O="$BUILD/bench" KHDR="$obj/usr/include" >&2 ||
	die "benchmarks failed to build"

out=$BUILD/x86_64/bench
rm -rf "$out"
mkdir -p "$out"
printf 'export BENCH=%s TOP=%s TREE=%s\nexec sh %s/bench/run.sh\n' \
	"$BUILD/bench" "$TOP" "$TREE" "$TOP" > "$out/job.sh"
rc=0
locked "$TOP/scripts/guest.sh" x86_64 "$obj/arch/x86/boot/bzImage" "$out" \
	"${GUEST_TIMEOUT:-1200}" >/dev/null 2>"$out/guest.err" || rc=$?
grep -E '^(bench|#) ' "$out/job.log" 2>/dev/null || true
if [ $rc -ne 0 ]; then
	cat "$out/guest.err" >&2
	die "the benchmark guest failed (rc=$rc); log: $out/job.log, console: $out/console.log"
fi
