/* SPDX-License-Identifier: GPL-2.0 */
/* User-space shim: the kernel's sort() on qsort(3); @swap is not needed. */
#ifndef _TOOLS_LIB_SFRAME_SORT_H
#define _TOOLS_LIB_SFRAME_SORT_H

#include <stdlib.h>

static inline void sort(void *base, size_t num, size_t size,
			int (*cmp)(const void *, const void *),
			void (*swap)(void *, void *, int))
{
	qsort(base, num, size, cmp);
}

#endif
