#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-compat.sh: what the AArch32 user callchain walk costs per sample,
# at its worst (bench/compat_walk.c: a forged chain of APCS records that
# pass every check, and a 160-deep recursion with EHABI table rows, each
# walked to perf's entry limit), on the arm64 kernel of the committed
# series and on Debian's 6.1 as shipped, booted in turn, ours, 6.1, ours,
# 6.1, ... (ROUNDS, default 3).  Both kernels are built as make bench
# builds its x86_64 kernel: the test configuration without the debug
# checks (NODEBUG=1: no KASAN, lockdep, ...), 6.1 without the series'
# options (LAX_CONFIG=1), each in an object directory of its own.  Prints
# the medians of each kernel's "bench" lines and, per shape, ours / 6.1
# and the walk's own cost (the shape's cost per sample minus that of a
# sample whose walk ends at once).
. "$(dirname "$0")/lib.sh"

begin_run bench-compat

prepare() {
	local none
	use_tree
	NODEBUG=1 "$TOP/scripts/build.sh" arm64 "$TREE" \
		"$BUILD/arm64/bench-obj" >&2
	cp "$BUILD/arm64/bench-obj/arch/arm64/boot/Image" "$RUN/Image"
	# 6.1 as shipped: the base tree alone, removed after the build.
	none=$(mktemp -d)
	PATCHES=$none "$TOP/scripts/tree.sh" --reset "$BUILD/base/linux" >&2 ||
		die "cannot make the base tree"
	NODEBUG=1 LAX_CONFIG=1 "$TOP/scripts/build.sh" arm64 \
		"$BUILD/base/linux" "$BUILD/arm64/base-bench-obj" >&2
	rm -rf "$none" "$BUILD/base/linux"
	cp "$BUILD/arm64/base-bench-obj/arch/arm64/boot/Image" "$RUN/Image-6.1"
	need_pkgs gcc-arm-linux-gnueabihf libc6-dev-armhf-cross
	arm-linux-gnueabihf-gcc -O2 -Wall -Werror -marm -funwind-tables \
		-fomit-frame-pointer -static -o "$RUN/compat_walk" \
		"$TOP/bench/compat_walk.c" || die "compat_walk failed to build"
}
locked prepare

boot() {
	local kernel=$1 dir=$2 rc=0
	mkdir -p "$dir"
	cp "$RUN/compat_walk" "$dir/"
	printf '%s\n' 'echo 0 > /proc/sys/kernel/perf_event_paranoid' \
		'./compat_walk' > "$dir/job.sh"
	locked "$TOP/scripts/guest.sh" arm64 "$kernel" "$dir" \
		"${GUEST_TIMEOUT:-900}" >/dev/null 2>"$dir/guest.err" || rc=$?
	[ $rc -eq 0 ] || { cat "$dir/guest.err" >&2;
		die "the guest failed (rc=$rc); log: $dir/job.log"; }
}

for round in $(seq "${ROUNDS:-3}"); do
	boot "$RUN/Image" "$RUN/ours-$round"
	boot "$RUN/Image-6.1" "$RUN/6.1-$round"
done

python3 - "$RUN" <<'EOF'
import glob, os, re, statistics, sys

run = sys.argv[1]
vals = {}
for kind in ("ours", "6.1"):
    for d in sorted(glob.glob(os.path.join(run, kind + "-*"))):
        for line in open(os.path.join(d, "job.log"), errors="replace"):
            m = re.match(r"bench (\S+) (\S+) (.*)", line.strip())
            if m:
                vals.setdefault((kind, m.group(1)), []).append(float(m.group(2)))
            elif line.startswith("# "):
                print(line.rstrip(), "[%s]" % os.path.basename(d))
med = {k: statistics.median(v) for k, v in vals.items()}
names = sorted({n for _, n in med})
for n in names:
    unit = "entries" if n.endswith("_entries") else "ns"
    for kind in ("ours", "6.1"):
        if (kind, n) in med:
            print("bench %s.%s %.1f %s" % (n, kind, med[(kind, n)], unit))
    if unit == "ns" and ("6.1", n) in med and med[("6.1", n)] > 0:
        print("bench %s.vs_6.1 %.2f ratio" % (n, med[("ours", n)] / med[("6.1", n)]))
for kind in ("ours", "6.1"):
    pc = med.get((kind, "compat_walk.pc_ns_per_sample"))
    for s in ("apcs", "table"):
        v = med.get((kind, "compat_walk.%s_ns_per_sample" % s))
        d = med.get((kind, "compat_walk.%s_entries" % s))
        if pc is None or v is None or not d:
            continue
        print("bench compat_walk.%s_walk_ns.%s %.0f ns (%.1f entries, %.0f ns an entry)"
              % (s, kind, v - pc, d, (v - pc) / d))
EOF
