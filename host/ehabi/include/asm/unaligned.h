/* SPDX-License-Identifier: GPL-2.0 */
/* User-space shim: the one lib/sframe's host build has. */
#include "../../../sframe/include/asm/unaligned.h"
