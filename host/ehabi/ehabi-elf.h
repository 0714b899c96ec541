/* SPDX-License-Identifier: GPL-2.0 */
/* The EHABI table of a 32-bit ARM ELF file, for the host tools. */
#ifndef EHABI_ELF_H
#define EHABI_ELF_H

#include <linux/ehabi.h>

/*
 * Map @path, check it is a little-endian 32-bit ARM file, and build the
 * table of its PT_ARM_EXIDX (kept in the PT_LOAD that holds it) with
 * ehabi_count() and ehabi_build().  Returns 0, 3 if the file has no
 * PT_ARM_EXIDX, or 1 (with a message) on any error.
 */
int ehabi_elf_table(const char *path, struct ehabi_table *t);

#endif
