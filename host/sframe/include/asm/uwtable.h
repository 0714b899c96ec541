/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space shim: the host tools read x86_64 tables, with the ABI and
 * derivation facts of arch/x86/kernel/uwtable.c (built into the library).
 */
#ifndef _HOST_ASM_UWTABLE_H
#define _HOST_ASM_UWTABLE_H

struct sframe_abi;
struct ehf_arch;
extern const struct sframe_abi x86_64_sframe_abi;
extern const struct ehf_arch x86_64_ehf_arch;

#endif
