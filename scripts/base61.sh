#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# base61.sh ARCH SUITE...: run suites of tests/suites, unchanged, on
# Debian's 6.1 as shipped.  The kernel is built from the base alone
# (BUILD/base/linux, no patch of the series) with the same configuration
# fragments, the options the series adds left out (LAX_CONFIG=1), in
# BUILD/ARCH/base-obj; the test programs come from the series' tree, as
# in make test.  The README's "6.1 as shipped" columns come from it:
#
#   scripts/base61.sh arm64 compat_callchain
#
# Failures are expected (they are what the column shows); the output is
# make test's, in BUILD/runs/test-DATE-PID.  The arch's report_words
# suite is always run: the kernel-report check needs it.
. "$(dirname "$0")/lib.sh"

[ $# -ge 2 ] || die "usage: base61.sh ARCH SUITE..."
arch=$1
shift

# The base tree is rebuilt from the tarball each time and removed after
# the run: it holds no commit of the series.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$BUILD/base/linux"' EXIT
mkdir -p "$tmp/tests"
cp -a "$TESTS/." "$tmp/tests/"
awk -v a="$arch" -v want=" report_words $* " '
	/^#/ || NF == 0 { print; next }
	$1 == a && index(want, " " $2 " ") { print }' \
	"$TESTS/suites" > "$tmp/tests/suites"
for s in "$@"; do
	awk -v a="$arch" -v s="$s" '$1 == a && $2 == s { f = 1 } END { exit !f }' \
		"$tmp/tests/suites" || die "$arch has no suite $s in $TESTS/suites"
done

# The base alone (a series directory with no patch in it), and the
# series' tree for the test programs, made here so that test.sh takes
# this list of suites rather than HEAD's.
mkdir -p "$tmp/none"
PATCHES="$tmp/none" locked "$TOP/scripts/tree.sh" --reset "$BUILD/base/linux" >&2 ||
	die "cannot make the base tree"
locked "$TOP/scripts/tree.sh" --reset "$BUILD/test/linux" >&2 ||
	die "cannot make the series' tree"

TESTS="$tmp/tests" TREE="$BUILD/test/linux" KERNEL_TREE="$BUILD/base/linux" \
	KOBJ=base-obj LAX_CONFIG=1 ARCHES="$arch" "$TOP/scripts/test.sh"
