/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's types and helpers, for building ehframe.c in user space. */
#ifndef _EHFRAME_ENV_H
#define _EHFRAME_ENV_H
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <endian.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#define U32_MAX	0xffffffffU
#define le16_to_cpu(x)	le16toh(x)
#define le32_to_cpu(x)	le32toh(x)
#define le64_to_cpu(x)	le64toh(x)
#endif
