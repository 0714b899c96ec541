/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space shim: the kernel's own header, with tools/include's
 * WARN_ONCE() and without its linux/bug.h, whose BUILD_BUG_ON_ZERO()
 * clashes with build_bug.h's.
 */
#include <asm/bug.h>
#define _TOOLS_PERF_LINUX_BUG_H
#include <include/linux/min_heap.h>
