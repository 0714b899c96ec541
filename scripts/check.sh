#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh: the series applies to a fresh base, every patch passes the
# tree's scripts/checkpatch.pl --strict, and what the series touches
# compiles for every architecture Debian 12 builds and under Debian's own
# configuration (cross-check.sh; CROSS=0 leaves that out, CROSS="i386
# armhf" names the targets), and the commit messages read as a reviewer
# wants them (msg-check.sh).  A patch may excuse a checkpatch message
# type by saying why in its commit's git notes, which make export writes
# below the patch's "---" line (a note for the reviewer, not part of the
# commit; make tree makes them notes again), on a line
#   checkpatch: TYPE: the reason
. "$(dirname "$0")/lib.sh"

checkout_lock check
dir=$BUILD/check/linux
"$TOP/scripts/tree.sh" --reset "$dir" || die "the series does not apply to a fresh base"
mapfile -t files < <(series)
log "series applies: ${#files[@]} patches"

# checkpatch runs scripts/spdxcheck.py, which wants Debian's python3 with
# ply and GitPython (not whatever python3 comes first in PATH).
need_pkgs perl python3 python3-ply python3-git
export PATH=/usr/bin:/bin:$PATH
fail=0
for f in "${files[@]}"; do
	ignore=$(sed -n '/^diff --git /q; s/^    checkpatch: \([A-Z_]*\):.*/\1/p' "$f" | paste -sd, -)
	# Not --codespell: whether it ran would depend on what the machine
	# has installed (the tree's own spelling list is always read).
	args=(--strict --show-types --no-summary --quiet)
	[ -n "$ignore" ] && args+=(--ignore "$ignore")
	if out=$(cd "$dir" && ./scripts/checkpatch.pl "${args[@]}" "$f" 2>&1) && [ -z "$out" ]; then
		echo "ok   $(basename "$f")${ignore:+ (excused: $ignore)}"
	else
		echo "FAIL $(basename "$f")"
		echo "$out" | sed 's/^/     /'
		fail=1
	fi
done
[ $fail -eq 0 ] || die "checkpatch found problems"
log "check: checkpatch clean"

# The commit messages: no names of this repository's scripts, no history
# of the code, no checkpatch lines, timings labelled (msg-check.sh).
# First, that the check can fail: each line of the sample's paragraphs
# after the first (lines the series' messages once had) must be flagged.
sample=$TOP/tests/msg-check/history.patch
flagged=$("$TOP/scripts/msg-check.sh" "$sample" 2>/dev/null) &&
	die "msg-check passes $sample"
missed=$(awk '/^Subject:/ { s = 1; next } s && /^$/ { p++; next }
	/^Signed-off-by:/ { exit } p >= 2 && NF' "$sample" |
	while IFS= read -r l; do grep -qF -- "$l" <<<"$flagged" || echo "  $l"; done)
[ -z "$missed" ] || die "msg-check does not flag these lines of $sample:
$missed"
if ! out=$("$TOP/scripts/msg-check.sh" "${files[@]}" 2>&1); then
	echo "$out" | grep -v '^ok'
	die "the commit messages (above)"
fi
log "check: commit messages clean"

if [ "${CROSS:-all}" != 0 ]; then
	# shellcheck disable=SC2086
	"$TOP/scripts/cross-check.sh" "$dir" $([ "${CROSS:-all}" = all ] || echo "$CROSS") ||
		die "the series does not compile for every architecture (above)"
fi
log "check: clean"
