/* SPDX-License-Identifier: GPL-2.0 */
/* User-space shim: the derivation is built for x86_64 .eh_frame. */
#include <arch/x86/include/asm/sframe_ehframe.h>
