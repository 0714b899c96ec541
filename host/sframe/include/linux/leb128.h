/* SPDX-License-Identifier: GPL-2.0 */
/* User-space shim: use the kernel's own header. */
#include <linux/compiler.h>
#include <include/linux/leb128.h>
