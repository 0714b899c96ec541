#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh [--shell]: build what is missing, boot the x86_64 guest with the
# committed series and run the demo in it (tests/demo/in-guest.sh), or an
# interactive shell with --shell.  TREE=build/linux boots the work tree instead.
# Output in BUILD/runs/demo-DATE-PID (BUILD/demo-latest).
. "$(dirname "$0")/lib.sh"

begin_run demo
out=$RUN/guest
mkdir -p "$out"

# Holding the lock: the tree, the kernel, the programs, copied into RUN.
prepare() {
	local base
	build_x86_kernel
	cp "$OBJ/arch/x86/boot/bzImage" "$RUN/bzImage"
	make -C "$TESTS" -s ARCH=x86_64 O="$RUN/progs" KHDR="$OBJ/usr/include" >&2 ||
		die "the demo programs failed to build"
	base=$(base_commit "$TREE")
	{
		echo "TREE=$TREE"
		echo "PROGS=$RUN/progs"
		echo "SERIES_HEAD=$(git -C "$TREE" rev-parse --short=12 HEAD)"
		echo "SERIES_BASE='$(git -C "$TREE" log -1 --format=%s "$base")'"
	} > "$out/demo.env"
	git -C "$TREE" log --reverse --format='  %s' "$base..HEAD" > "$out/series.txt"
}
locked prepare

if [ "${1:-}" = --shell ]; then
	exec "$TOP/scripts/guest.sh" x86_64 "$RUN/bzImage" "$out" 0 --interactive
fi
printf '. /run/out/demo.env\nexport TREE PROGS SERIES_HEAD SERIES_BASE\nexec sh %s/demo/in-guest.sh\n' "$TESTS" > "$out/job.sh"
rc=0
locked "$TOP/scripts/guest.sh" x86_64 "$RUN/bzImage" "$out" 600 >/dev/null 2>"$out/guest.err" || rc=$?
cat "$out/job.log" 2>/dev/null
if [ $rc -ne 0 ]; then
	cat "$out/guest.err" >&2
	die "the demo guest failed (rc=$rc); console: $out/console.log"
fi
