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

section "PROCMAP_QUERY: the executable mappings of a process, with build IDs"
echo "(maps_query asks the kernel with the ioctl; no text parsing)"
"$PROGS/maps_query" > /tmp/mq.txt || exit 1
cat /tmp/mq.txt

section "The same build IDs, read by readelf -n from the files"
awk 'NF >= 5 && $4 ~ /^[0-9a-f]+$/ { print $4, $5 }' /tmp/mq.txt | sort -u | {
	fail=0
	while read -r id file; do
		elf=$(readelf -n "$file" 2>/dev/null | awk '/Build ID:/ { print $3; exit }')
		if [ "$elf" = "$id" ]; then
			echo "match     $elf  $file"
		else
			echo "MISMATCH  kernel $id, readelf ${elf:-none}  $file"
			fail=1
		fi
	done
	exit $fail
}
