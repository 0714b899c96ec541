#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# fuzz-sframe.sh [SECONDS]: fuzz the user-space build of lib/sframe (the
# kernel's SFrame decoder) with libFuzzer, ASan and UBSan, for a bounded
# time (default 300 s), seeded with real sections.  Uses the tree of the
# committed series unless TREE is set.  Crash inputs go to
# build/fuzz-sframe/; keep them in host/sframe/fuzz-regressions/.
. "$(dirname "$0")/lib.sh"

secs=${1:-300}
need_build_deps x86_64
need_pkgs gcc binutils-dev clang-22 lld-22 llvm-22 libclang-rt-22-dev zlib1g-dev pkg-config
begin_run fuzz
# Holding the lock: the harness tree stays as it is, and the fuzzer has
# the cores to itself.
fuzz() {
	use_tree
	KSRC="$(realpath "$TREE")" bash "$HOSTTESTS/sframe/fuzz.sh" "$BUILD/fuzz-sframe" "$secs"
}
locked fuzz
