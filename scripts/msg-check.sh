#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# msg-check.sh [PATCH...]: the commit messages of the series (default:
# every patch in patches/) as an upstream reviewer reads them.  It prints,
# for each message, the lines that
#   - name this repository's scripts, targets or files outside the
#     series (make test, bench/..., scripts/..., tests/suites, suite ids
#     such as x86_64/sframe_derived or host/ehabi_diff);
#   - tell the code's development history ("first version", "earlier
#     version", "the rework", ...);
#   - carry a "checkpatch:" line, whose place is below the "---" line;
#   - give a measured time (ms, us, ns, s, in a paragraph that speaks of
#     a cost or a measurement) without saying where it was taken (QEMU TCG
#     guest, or native).
# and exits non-zero if any message has such a line.  Only the message is
# read: the part of the patch file before its first "---" line.  make
# check runs it.
. "$(dirname "$0")/lib.sh"

patches=("$@")
if [ ${#patches[@]} -eq 0 ]; then
	mapfile -t patches < <(series)
fi

bad=0
for p in "${patches[@]}"; do
	out=$(python3 - "$p" "$TOP/bench" <<'EOF'
import os, re, sys

text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
# the message: after the mail headers, up to the first "---" line
head, _, rest = text.partition("\n\n")
msg = rest.split("\n---\n", 1)[0]
subject = re.search(r"^Subject: (?:\[PATCH[^\]]*\] )?(.*)$", head, re.M)

repo = re.compile(
    r"\bmake (test|check|bench|bench-compat|bisect-check|demo|run|tree|export|fuzz-sframe)\b"
    r"|\b(bench|scripts|tests/harness|tests/demo|\.ci)/"
    r"|\btests/suites\b|(?<![-\w/])(guest|test|bench|check|build)\.sh\b"
    r"|(?<![\w/])(host|x86_64|arm64)/[a-z0-9_]+\b(?![./])"
    r"|\bthe (project|repository)'s\b|\banchor\b")
history = re.compile(
    r"\b(first|earlier|previous|older|old|initial) (version|draft|revision|iteration)s?\b"
    r"|\bthe rework\b|\breworked\b"
    r"|\bas it stood\b|\b(each|all|both) (was|were) tried\b|\btried once\b"
    r"|\bthe (first|old|earlier|previous) (decoder|walker|parser|loader|registry|cut|code)\b"
    r"|\bbefore this (patch|change|commit)\b|\bleft for later\b|\bfor a later (series|version)\b",
    re.I)
# this repository's benchmark programs (bench/NAME.c, bench/NAME.sh) and
# test runner, by name
bench = sorted({os.path.splitext(f)[0] for f in os.listdir(sys.argv[2])
                if f.endswith((".c", ".sh", ".py")) and "_" in f})
benchre = re.compile(r"\b(%s)\b" % "|".join(map(re.escape, bench))) if bench else None
harness = re.compile(r"(?<!libFuzzer )(?<!fuzz )\bthe (test )?harness\b", re.I)
# the guests run under QEMU's TCG: a number said to come from a KVM guest
# was not taken where this series' numbers are
kvm = re.compile(r"\b(in|on) an? [\w-]* ?KVM guest\b", re.I)
timing = re.compile(r"\b[0-9][0-9.,]*\s?(ms|us|µs|ns|s)\b")
where = re.compile(r"TCG|QEMU|native|natively|guest|host", re.I)
measured = re.compile(r"\b(took|takes|cost|costs|measured|median|mean|average|faster|slower|overhead)\b", re.I)

problems = []
for para in msg.split("\n\n"):
    lines = para.split("\n")
    for l in lines:
        if l.startswith("Signed-off-by:"):
            continue
        if l.startswith("checkpatch:"):
            problems.append("checkpatch line (goes below ---): " + l)
            continue
        m = repo.search(l)
        if m:
            problems.append("names the repository (%s): %s" % (m.group(0), l))
        m = history.search(l)
        if m:
            problems.append("history (%s): %s" % (m.group(0), l))
        m = (benchre and benchre.search(l)) or harness.search(l)
        if m:
            problems.append("names the repository (%s): %s" % (m.group(0), l))
        m = kvm.search(l)
        if m:
            problems.append("a KVM guest (the guests run under QEMU TCG): " + l)
    if timing.search(para) and measured.search(para) and not where.search(para):
        t = next(l for l in lines if timing.search(l))
        problems.append("a time without where it was taken: " + t)
for p in problems:
    print("     " + p)
EOF
)
	if [ -n "$out" ]; then
		echo "FAIL $(basename "$p")"
		echo "$out"
		bad=1
	else
		echo "ok   $(basename "$p")"
	fi
done
[ $bad = 0 ] || die "commit messages name the repository, tell history or carry checkpatch lines"
log "msg-check: clean"
