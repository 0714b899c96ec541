#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# survival.sh [DIR]: for each commit of the series in the work tree DIR
# (default build/linux), the lines it adds and how many of them are still
# in the last commit, as git blame attributes them (a line a later patch
# deletes, moves or rewrites is not).  A series cut in its final design
# has none lost; prints one line per patch with lost lines, then a total,
# and exits 1 if any line is lost.
. "$(dirname "$0")/lib.sh"

dir=${1:-$BUILD/linux}
[ -d "$dir/.git" ] || die "$dir is not a work tree (make tree)"
base=$(base_commit "$dir")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the lines of HEAD each commit is blamed for
git -C "$dir" diff --name-only --diff-filter=AM "$base" HEAD > "$tmp/files"
while read -r f; do
	git -C "$dir" blame --porcelain "$base..HEAD" -- "$f" |
		awk 'length($1) == 40 && $1 ~ /^[0-9a-f]+$/ && NF >= 3 { print $1 }'
done < "$tmp/files" | sort | uniq -c | awk '{ print $2, $1 }' > "$tmp/kept"
n=0 total_add=0 total_lost=0
for c in $(git -C "$dir" rev-list --reverse "$base..HEAD"); do
	n=$((n + 1))
	add=$(git -C "$dir" show --numstat --format= "$c" | awk '$1 != "-" { s += $1 } END { print s + 0 }')
	kept=$(awk -v c="$c" '$1 == c { print $2 }' "$tmp/kept")
	kept=${kept:-0}
	lost=$((add - kept))
	total_add=$((total_add + add))
	total_lost=$((total_lost + lost))
	[ "$lost" -gt 0 ] && printf '%3d %6d added %6d lost  %s\n' "$n" "$add" "$lost" \
		"$(git -C "$dir" log -1 --format=%s "$c")"
done
echo "survival: $total_add lines added, $total_lost of them not in the last commit"
[ "$total_lost" -eq 0 ]
