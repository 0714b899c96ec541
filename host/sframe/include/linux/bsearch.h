/* SPDX-License-Identifier: GPL-2.0 */
/* User-space shim: the kernel's own header, with the type it needs. */
#ifndef _TOOLS_LIB_SFRAME_BSEARCH_H
#define _TOOLS_LIB_SFRAME_BSEARCH_H

#include <linux/types.h>

typedef int (*cmp_func_t)(const void *a, const void *b);

#include <include/linux/bsearch.h>

#endif
