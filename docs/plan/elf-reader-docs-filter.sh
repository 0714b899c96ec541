#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# index filter: the comments of lib/elf_reader.c that list its modes say
# nothing the patch adding the sleepable mode has to take back
. "$(dirname "$0")/filter-lib.sh"
edit include/linux/elf_reader.h 's/which of the (?:two|three) readers this is/which reader this is/; s/file read in the nofault(?: and sleepable)? modes?/the file (all modes but memory)/; s{ \* Where \[\@pos, \@pos \+ \@len\) already is in memory.*?\n \*/\n}{ * Where [\@pos, \@pos + \@len) already is in memory, among the bytes the\n * reader holds (its image, or the page or buffer of its last read); NULL\n * if it is not (or is past the end, which elf_reader_read_slow() reports).\n * The pointer is good until the next read.\n */\n}s'
edit lib/elf_reader.c 's/ \* Context: Any context(?: for the memory and nofault readers; process\n \* context for the sleepable one)?\.\n \* Return: 0 on success; -ENODATA/ * Context: The context its elf_reader_init_*() function allows.\n * Return: 0 on success; -ENODATA/'
exit 0
