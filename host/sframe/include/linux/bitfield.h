/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space shim: FIELD_GET() and FIELD_PREP() of <linux/bitfield.h>,
 * without its compile-time checks (the kernel build has them).
 */
#ifndef _HOST_LINUX_BITFIELD_H
#define _HOST_LINUX_BITFIELD_H

#define FIELD_GET(mask, reg)	(((reg) & (mask)) >> __builtin_ctzll(mask))
#define FIELD_PREP(mask, val)	\
	(((typeof(mask))(val) << __builtin_ctzll(mask)) & (mask))

#endif
