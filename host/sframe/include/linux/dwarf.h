/* SPDX-License-Identifier: GPL-2.0 */
/* User-space shim: use the kernel's own header. */
#include <include/linux/dwarf.h>
