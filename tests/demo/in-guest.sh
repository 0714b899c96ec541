#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The demo that make demo shows inside the x86_64 guest (scripts/demo.sh
# builds and boots it; this part runs in the guest).  Each section
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

section "SFrame: perf record -g on a program built without frame pointers"
# sframe_demo (tests/Makefile: gcc -O2 -fomit-frame-pointer -Wa,--gsframe)
# spends most of its time in checksum, five calls below main.  The first
# sample in checksum is shown with its whole stack, as perf script prints
# it, once with the SFrame unwinder and once with it switched off.
# (User-space samples only: perf starts faster that way on this guest.)
sw=/proc/sys/kernel/uwtable
chain="checksum decode_fields parse_message handle_request serve main"
size=$(readelf -lW "$PROGS/sframe_demo" | awk '$1 == "GNU_SFRAME" { print $5 }')
echo "program: $PROGS/sframe_demo (PT_GNU_SFRAME: $((${size:-0})) bytes)"
echo "expected stack: $chain"

# sample_in_checksum DATA: print the first sample in checksum with its
# stack, then how many samples in checksum had the whole chain; true if
# the one shown has it (every caller up to main, in order).
sample_in_checksum() {
	perf script -i "$1" -F comm,pid,event,ip,sym,dso --no-inline 2>/dev/null |
	awk -v chain="$chain" '
	BEGIN { RS = ""; FS = "\n"; n = split(chain, c, " ") }
	NF >= 2 {
		split($2, w, " ")
		if (w[2] != c[1])
			next
		leaf++
		ok = NF - 1 >= n
		for (i = 1; ok && i <= n; i++) {
			split($(i + 1), w, " ")
			ok = w[2] == c[i]
		}
		whole += ok
		if (!shown) {
			print
			shown = 1
			first = ok
		}
	}
	END {
		printf "(%d of %d samples in checksum have the whole chain up to main)\n",
			whole, leaf
		exit !(shown && first)
	}'
}

old=$(cat $sw)
echo 1 > $sw
perf record -q -g -e cpu-clock:u -o /tmp/sframe-on.data -- "$PROGS/sframe_demo" 60000 >/dev/null
echo
echo "uwtable=1 (SFrame):"
sample_in_checksum /tmp/sframe-on.data
on=$?
echo 0 > $sw
perf record -q -g -e cpu-clock:u -o /tmp/sframe-off.data -- "$PROGS/sframe_demo" 60000 >/dev/null
echo
echo "uwtable=0 (frame pointers only):"
sample_in_checksum /tmp/sframe-off.data
echo "$old" > $sw
if [ $on -ne 0 ]; then
	echo "=> FAIL: with SFrame, the stack of the sample in checksum does not reach main"
	exit 1
fi
echo "=> with SFrame, perf record -g unwinds the program without frame pointers up to main"
