#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The demo that make run shows inside the x86_64 guest.  Each section
# shows one thing the series adds, next to an independent view of it.

section() { printf '\n=== %s ===\n' "$*"; }

section "Kernel"
echo "running:  $(uname -r)  ($(uname -m))"
echo "built as: $(cat /proc/version)"
echo "series:   $SERIES_BASE + $(wc -l < /run/out/series.txt) patches, head $SERIES_HEAD"
sed 's/^/  /' /run/out/series.txt
case $(uname -r) in
*-g"$SERIES_HEAD"*) echo "=> this guest booted the kernel built from that series" ;;
*) echo "=> WARNING: the running kernel was not built from this series"; exit 1 ;;
esac
