#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Sourced by the index filters of this directory (git filter-branch
# --index-filter PATH): helpers that change a file in the index.

# edit PATH PERL-EXPR: run PATH's blob through perl -0pe PERL-EXPR and
# put the result in the index (nothing if PATH is not in this commit)
edit() {
	local p=$1 mode sha new
	read -r mode sha _ < <(git ls-files -s -- "$p") || return 0
	[ -n "$sha" ] || return 0
	new=$(git cat-file blob "$sha" | perl -0pe "$2" | git hash-object -w --stdin)
	[ "$new" = "$sha" ] || git update-index --cacheinfo "$mode,$new,$p"
}
