#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bisect-check.sh: build the x86_64 kernel at every patch of the series
# (from the committed patches/), so that each patch builds on its own.
# FIRST=N starts at patch N, LAST=N stops after patch N.
. "$(dirname "$0")/lib.sh"

# A tree and objects of its own (make check has build/check), under a
# lock of its own; the builds take the machine-wide lock.
checkout_lock bisect
src=$BUILD/bisect/linux
"$TOP/scripts/tree.sh" --reset "$src"
base=$(base_commit "$src")
fail=0
n=0
for c in $(git -C "$src" rev-list --reverse "$base..HEAD"); do
	n=$((n + 1))
	# FIRST=N starts at patch N (after a run that stopped there)
	[ "$n" -ge "${FIRST:-1}" ] || continue
	[ -z "${LAST:-}" ] || [ "$n" -le "$LAST" ] || break
	git -C "$src" checkout -q "$c"
	subj=$(git -C "$src" log -1 --format=%s "$c")
	if LAX_CONFIG=1 locked "$TOP/scripts/build.sh" x86_64 "$src" "$BUILD/bisect/x86_64" >/dev/null 2>"$BUILD/bisect/last.err"; then
		echo "ok   $n $subj"
	else
		echo "FAIL $n $subj"; tail -20 "$BUILD/bisect/last.err"; fail=1
	fi
done
git -C "$src" checkout -q main
[ $fail -eq 0 ]
