#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# index filter: the readers of lib/elf_reader.c named elf_reader_*() in
# their users under kernel/ (the file's own names change with the patch
# that adds it)
. "$(dirname "$0")/filter-lib.sh"
git ls-files -- kernel/unwind_tables arch/x86/events arch/arm64/kernel |
while read -r f; do
	edit "$f" 's/\belf_read_slow\b/elf_reader_read_slow/g; s/\belf_read_file\b/elf_reader_read_file/g; s/\belf_peek\b/elf_reader_peek/g; s/\belf_read\b/elf_reader_read/g'
done
exit 0
