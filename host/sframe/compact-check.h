/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host checks of lib/sframe/compact.c: make the compact table of an index
 * and compare its lookups with the index's.
 */
#ifndef _TOOLS_LIB_SFRAME_COMPACT_CHECK_H
#define _TOOLS_LIB_SFRAME_COMPACT_CHECK_H

#include <linux/sframe.h>

/* The compact table of @idx in *@buf (malloc'd), its size in *@size. */
int compact_make(const struct sframe_index *idx, struct sframe_compact *c,
		 void **buf, size_t *size, const char **why);

/*
 * Look up, in both, around every FRE of @idx: its start, the byte before,
 * the middle to the next, each function's first byte, last byte and the
 * bytes just outside, and later repetitions of a PCMASK function's FREs.
 * Returns the number of addresses where they differ; *@checked counts
 * the addresses.  The first few differences are printed as "# " lines.
 */
unsigned long compact_diff(const struct sframe_index *idx,
			   const struct sframe_compact *c,
			   unsigned long *checked);

/*
 * For the fuzzers: the compact table of @idx must be made (or refused
 * for more than 65,535 distinct rules) and answer as @idx does; abort()
 * otherwise.
 */
void compact_check_all(const struct sframe_index *idx);

#endif
