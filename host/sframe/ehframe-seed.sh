#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ehframe-seed.sh FILE OUT: write the .eh_frame section of the ELF FILE as
# fuzz-ehframe.c takes it, after the 8-byte (little-endian) address it is
# linked at; nothing if FILE has none.
set -eu
addr=$(readelf -SW "$1" 2>/dev/null |
	sed -n 's/^ *\[ *[0-9]*\] \.eh_frame  *[A-Z_0-9]*  *\([0-9a-f]*\) .*/\1/p')
[ -n "$addr" ] || exit 0
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.o"' EXIT
objcopy --dump-section .eh_frame="$tmp" "$1" "$tmp.o" 2>/dev/null || exit 0
{ perl -e 'print pack("Q<", hex($ARGV[0]))' "$addr"; cat "$tmp"; } >"$2"
