#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# tree.sh [--reset] DIR
#
# Make DIR a git work tree holding the base (first commit) and one commit
# per patch of the series.  An existing DIR whose commits already equal the
# series is left alone.  A dirty or diverged DIR is reported and left alone,
# unless --reset is given (used for the harness-owned test tree only).
. "$(dirname "$0")/lib.sh"

reset=0
[ "${1:-}" = --reset ] && { reset=1; shift; }
[ $# -eq 1 ] || die "usage: tree.sh [--reset] DIR"
dir=$1
case $dir in -*) die "usage: tree.sh [--reset] DIR" ;; esac
mapfile -t files < <(series)

make_base() {
	need_base
	need_pkgs git xz-utils
	log "extracting $BASE_TARBALL into $dir"
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp"
	tar -xJf "$BASE_TARBALL" -C "$dir.tmp" --strip-components=1
	# Debian's tarball ends .gitignore with a stanza that ignores every
	# top-level path; drop it so the base can be committed.
	python3 - "$dir.tmp/.gitignore" <<-'EOF'
	import sys
	p = sys.argv[1]
	lines = open(p).read().split('\n')
	for i, l in enumerate(lines):
	    if l.startswith('# Debian packaging'):
	        while i > 0 and lines[i - 1] == '#':
	            i -= 1
	        lines = lines[:i]
	        break
	else:
	    sys.exit('no Debian stanza in .gitignore')
	open(p, 'w').write('\n'.join(lines).rstrip('\n') + '\n')
	EOF
	local ver
	ver=$(dpkg-query -W -f='${Version}' $BASE_PKG)
	(
		cd "$dir.tmp"
		git init -q -b base
		git config core.autocrlf false
		git config gc.auto 0
		git add -A -f . >/dev/null
		GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z" \
			git commit -q -m "Debian $BASE_PKG $ver" -m "Base of the series."
		git checkout -q -b main
	)
	mv "$dir.tmp" "$dir"
}

# notes_of PATCH: the "Notes:" a patch carries below its "---" line (as
# git format-patch --notes writes them), unindented; nothing if none.
notes_of() {
	awk '/^---$/ { below = 1; next }
	     below && /^diff --git / { exit }
	     below && /^Notes:$/ { in_notes = 1; next }
	     in_notes && /^    / { print substr($0, 5); next }
	     in_notes && /^$/ { if (n++) exit; next }
	     in_notes { exit }' "$1"
}

apply_series() {
	local f notes
	# notes (the checkpatch exceptions) follow their commits through
	# rebase and amend
	git -C "$dir" config notes.rewriteRef refs/notes/commits
	for f in "${files[@]}"; do
		if ! git -C "$dir" am -q --keep-cr --committer-date-is-author-date "$f" >/dev/null 2>&1; then
			git -C "$dir" am --abort >/dev/null 2>&1 || true
			die "patch $(basename "$f") does not apply to base $(git -C "$dir" log -1 --format=%s "$(base_commit "$dir")") in $dir"
		fi
		notes=$(notes_of "$f")
		[ -z "$notes" ] || git -C "$dir" notes add -f -m "$notes" HEAD
	done
}

if [ ! -d "$dir/.git" ]; then
	rm -rf "$dir"
	make_base
	apply_series
	log "$dir: base + ${#files[@]} patches"
	exit 0
fi

base=$(base_commit "$dir")
want=$(patch_ids_of_files "${files[@]}")
have=$(patch_ids_of_tree "$dir")
dirty=$(git -C "$dir" status --porcelain --untracked-files=no)

if [ -z "$dirty" ] && [ "$want" = "$have" ]; then
	log "$dir already holds the series (${#files[@]} patches)"
	exit 0
fi

if [ $reset -eq 0 ]; then
	[ -n "$dirty" ] && printf 'error: %s has uncommitted changes:\n%s\n' "$dir" "$dirty" >&2
	[ "$want" != "$have" ] &&
		printf 'error: the commits in %s after the base differ from patches/ (make export writes them out; remove %s to start over)\n' "$dir" "$dir" >&2
	exit 1
fi

log "resetting $dir to the base and applying ${#files[@]} patches"
git -C "$dir" am --abort >/dev/null 2>&1 || true
git -C "$dir" checkout -q -f main 2>/dev/null || git -C "$dir" checkout -q -f -B main
git -C "$dir" reset -q --hard "$base"
git -C "$dir" clean -q -fdx
apply_series
