/* SPDX-License-Identifier: GPL-2.0 */
/* User-space shim: the kernel's U16_MAX and U32_MAX. */
#ifndef _TOOLS_LIB_SFRAME_LIMITS_H
#define _TOOLS_LIB_SFRAME_LIMITS_H

#include <stdint.h>

#define U16_MAX		UINT16_MAX
#define U32_MAX		UINT32_MAX

#endif
