/* SPDX-License-Identifier: GPL-2.0 */
/* User-space shim: the kernel's little-endian unaligned loads and stores. */
#ifndef _TOOLS_LIB_SFRAME_UNALIGNED_H
#define _TOOLS_LIB_SFRAME_UNALIGNED_H

#include <endian.h>
#include <stdint.h>
#include <string.h>

static inline uint16_t get_unaligned_le16(const void *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return le16toh(v);
}

static inline uint32_t get_unaligned_le32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

static inline uint64_t get_unaligned_le64(const void *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

static inline void put_unaligned_le16(uint16_t v, void *p)
{
	v = htole16(v);
	memcpy(p, &v, sizeof(v));
}

static inline void put_unaligned_le32(uint32_t v, void *p)
{
	v = htole32(v);
	memcpy(p, &v, sizeof(v));
}

#endif
