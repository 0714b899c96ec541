/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rows of unwind rules derived from a .eh_frame section, in the shape an
 * SFrame FRE can hold (AMD64): CFA = SP or FP + offset, RA at CFA - 8, FP
 * saved at CFA + offset or not saved.  Rules SFrame cannot hold make the
 * row "unrepresentable".
 */
#ifndef _EHFRAME_H
#define _EHFRAME_H

enum ehf_base { EHF_CFA_SP, EHF_CFA_FP, EHF_CFA_OTHER };

struct ehf_row {
	u64 loc;		/* first address the row applies to */
	u8 base;		/* enum ehf_base */
	bool fp_saved;		/* FP at CFA + fp_off */
	bool fp_other;		/* FP rule SFrame cannot hold */
	bool ra_other;		/* RA not at CFA - 8 */
	s64 cfa_off;
	s64 fp_off;
};

struct ehf_fde {
	u64 start, end;		/* run-time addresses of the function */
	unsigned int nr_rows;
	const struct ehf_row *rows;
};

/* Called for each FDE; return non-zero to stop. */
typedef int (*ehf_fde_fn)(void *arg, const struct ehf_fde *fde);

#define EHF_MAX_ROWS	1024	/* rows per function */
#define EHF_MAX_STACK	8	/* DW_CFA_remember_state depth */

int ehf_parse(const u8 *sec, size_t size, u64 sec_vaddr,
	      struct ehf_row *rows, ehf_fde_fn fn, void *arg,
	      const char **why);

/*
 * Writing the rows as an SFrame version 2 section (AMD64): run ehf_parse()
 * with ehf_emit_fde() twice, first with @buf NULL to size the section,
 * then with a buffer of ehf_emit_size() bytes and ehf_emit_header().
 * Runs of rows SFrame cannot hold are left out of it (a function is split
 * around them), so that lookups there find nothing.  Function starts are
 * relative to @vaddr, the address the section is taken to sit at.
 */
struct ehf_emit {
	u8 *buf;		/* NULL: count only */
	u64 vaddr;
	u32 nr_fdes, nr_fres, fre_len;
	u32 fde_total;		/* nr_fdes of the counting pass */
	u32 left_out;		/* functions too far from @vaddr, too large */
};

int ehf_emit_fde(void *arg, const struct ehf_fde *fde);
size_t ehf_emit_size(const struct ehf_emit *e);
void ehf_emit_header(struct ehf_emit *e);

#endif
