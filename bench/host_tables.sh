#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# host_tables.sh EHFRAME_CHECK [DIR...]: the kernel memory the unwind
# tables of a whole Debian host would take, if every ELF program and
# library installed in DIR (default: /usr/bin, /usr/sbin, /usr/libexec,
# /usr/lib/x86_64-linux-gnu, /usr/lib/gcc/x86_64-linux-gnu) were mapped at
# once by a sampled process.  This is the bound the defaults of
# kernel.uwtable_max_kb and _user_max_kb are sized from.
#
# Each file is measured with host/sframe's ehframe-check, the host
# build of the kernel's own derivation and compact table code (the bytes
# a derived table takes in the kernel, less its struct uwtable, a few
# hundred bytes).  A file is counted once however many names it has.
#
# Prints a line per file to FILE_LOG (default /dev/null), then "bench
# host.*" lines.
set -eu

check=$1
shift
[ $# -gt 0 ] || set -- /usr/bin /usr/sbin /usr/libexec \
	/usr/lib/x86_64-linux-gnu /usr/lib/gcc/x86_64-linux-gnu
log=${FILE_LOG:-/dev/null}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ELF programs and shared objects (e_type ET_EXEC or ET_DYN, not the
# objects of static libraries), one name per inode
find "$@" -type f -size +1k -printf '%D:%i %p\n' 2>/dev/null | sort -u -k1,1 |
	while read -r id path; do
		[ "$(head -c 4 "$path" | od -An -c | tr -d ' ')" = '177ELF' ] &&
		case $(od -An -tu2 -j16 -N2 "$path" | tr -d ' ') in
		2|3) echo "$path" ;;
		esac
	done > "$tmp/files"

# ehframe-check's first line per file: "compact table N bytes, R of
# .eh_frame"; its .eh_frame size from the line before
while read -r f; do
	"$check" "$f" 2>/dev/null | awk -v f="$f" '
		/SFrame functions, .* bytes \(.eh_frame/ {
			eh = $NF; sub(/\)$/, "", eh) }
		/compact table .* of .eh_frame/ {
			for (i = 1; i <= NF; i++) if ($i == "table") b = $(i + 1)
			print b, eh, f; exit }'
done < "$tmp/files" | tee "$log" > "$tmp/sizes"

awk -v elf="$(wc -l < "$tmp/files")" '
	{ n++; b += $1; e += $2; if ($1 > max) { max = $1; maxf = $3 } }
	END {
		printf "bench host.elf_files %d   ELF programs and shared objects installed\n", elf
		printf "bench host.table_files %d   of them with an .eh_frame that gives a table\n", n
		printf "bench host.tables_kib %.0f   all their tables at once (%.0f KiB of .eh_frame, %.3f of it)\n", b / 1024, e / 1024, b / e
		printf "bench host.largest_table_kib %.0f   %s\n", max / 1024, maxf
	}' "$tmp/sizes"
sort -rn "$tmp/sizes" | head -n 5 | awk '{ printf "bench host.top %.0f KiB   %s\n", $1 / 1024, $3 }'
