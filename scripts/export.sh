#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# export.sh [DIR]: write the commits after the base of DIR (default
# build/linux) into patches/ as git format-patch output, plus a cover
# letter.  The output is stable: zero commit ids, no signature, and the
# author dates the commits carry, so exporting twice changes nothing.
# A commit's git notes (its checkpatch exceptions) go below the patch's
# "---" line, where tree.sh reads them back.
. "$(dirname "$0")/lib.sh"

dir=${1:-$BUILD/linux}
[ -d "$dir/.git" ] || die "$dir is not a work tree (make tree)"
dirty=$(git -C "$dir" status --porcelain --untracked-files=no)
[ -z "$dirty" ] || { printf 'error: %s has uncommitted changes:\n%s\ncommit them first\n' "$dir" "$dirty" >&2; exit 1; }
base=$(base_commit "$dir")
n=$(git -C "$dir" rev-list --count "$base..HEAD")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ "$n" -gt 0 ]; then
	git -C "$dir" format-patch -q --zero-commit --no-signature --no-binary \
		--notes --subject-prefix=PATCH --numbered -o "$tmp" "$base..HEAD" >/dev/null
fi

# The cover letter: fixed text from patches/cover.txt, then the shortlog
# and diffstat of the series.
{
	echo "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001"
	echo "From: $GIT_AUTHOR_NAME <$GIT_AUTHOR_EMAIL>"
	echo "Subject: [PATCH 0/$n] $(head -n 1 "$PATCHES/cover.txt")"
	echo
	tail -n +3 "$PATCHES/cover.txt"
	echo
	git -C "$dir" shortlog --no-merges "$base..HEAD"
	git -C "$dir" diff --stat=72 --summary "$base..HEAD"
	echo
	echo "base: $(git -C "$dir" log -1 --format=%s "$base")"
} > "$tmp/0000-cover-letter.patch"

rm -f "$PATCHES"/[0-9][0-9][0-9][0-9]-*.patch
cp "$tmp"/*.patch "$PATCHES/"
log "exported $n patches to $PATCHES"
git -C "$TOP" status --short -- patches >&2 || true
