/* SPDX-License-Identifier: GPL-2.0 */
/* User-space shim: tools/include keeps min() and max() in kernel.h. */
#include <linux/kernel.h>

#ifndef swap
#define swap(a, b) \
	do { typeof(a) __tmp = (a); (a) = (b); (b) = __tmp; } while (0)
#endif
