#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# index filter: the ELF constants in include/uapi/linux/elf.h, not private copies
. "$(dirname "$0")/filter-lib.sh"
for f in kernel/unwind_tables/elf.c kernel/unwind_tables/internal.h; do
	edit $f 's{(\n)\n#ifndef PT_GNU_SFRAME\n#define PT_GNU_SFRAME\t0x6474e554\n#endif\n(?:#define SHT_GNU_SFRAME\t0x6ffffff4\n)?(?=\n)}{$1}; s{(?<=\n)\n/\* The program header of \.ARM\.exidx[^\n]*\n#define PT_ARM_EXIDX\t\(PT_LOPROC \+ 1\)\n}{}'
done
# code that uses the constant (lib/ehabi only names PT_ARM_EXIDX in comments)
uses() { git grep -q --cached -w "$1" -- kernel/unwind_tables arch/arm64 2>/dev/null; }
e=''
uses PT_GNU_SFRAME && e="$e"'s{(#define PT_GNU_PROPERTY\t\(PT_LOOS \+ 0x474e553\)\n)}{$1#define PT_GNU_SFRAME\t(PT_LOOS + 0x474e554)\n};'
uses PT_ARM_EXIDX && e="$e"'s{(\n/\* ARM MTE memory tag segment type \*/\n)}{\n/* ARM unwind table segment type (.ARM.exidx) */\n#define PT_ARM_EXIDX\t(PT_LOPROC + 0x1)\n$1};'
uses SHT_GNU_SFRAME && e="$e"'s{(#define SHT_NUM\t\t12\n)}{$1#define SHT_GNU_SFRAME\t0x6ffffff4\t/* SFrame stack trace information */\n};'
[ -n "$e" ] && edit include/uapi/linux/elf.h "$e"
exit 0
