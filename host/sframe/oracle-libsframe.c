// SPDX-License-Identifier: GPL-2.0
/*
 * Reference decoder for SFrame version 1: binutils 2.40's libsframe, through
 * its public API only (<sframe-api.h>).  This file must not include
 * <linux/sframe.h>: both headers define SFRAME_* macros.
 *
 * Facts about libsframe 2.40 found by experiment (see sframe-diff.c for how
 * they are used):
 *
 *  - sframe_find_fre() takes the PC relative to the start of the .sframe
 *    section as loaded, i.e. address - sh_addr: the same value the version 1
 *    function index stores and sframe_decoder_get_funcdesc() returns.  An
 *    absolute address finds nothing.  (The parameter is an int32_t, so it
 *    only reaches +-2 GiB around the section, which is all V1 can encode.)
 *
 *  - sframe_fre_get_ra_offset() fails with SFRAME_ERR_FREOFFSET_NOPRESENT on
 *    AMD64: the RA offset is the header's fixed one,
 *    sframe_decoder_get_fixed_ra_offset().
 *
 *  - sframe_find_fre() is wrong for PCMASK functions (the PLT): it finds the
 *    first FRE only for offsets 0-10 of the first 16-byte PLT entry and
 *    nothing anywhere else (offsets 11-15 and every later entry), although
 *    the PLT code (jmp *GOT; push $n at +6; jmp .plt at +11, 16 bytes per
 *    entry) has CFA = SP + 8 before the push and SP + 16 from +11 on, in
 *    every entry.  sframe-diff therefore does not use sframe_find_fre() as
 *    the reference inside PCMASK functions; it uses libsframe's FRE list
 *    (sframe_decoder_get_fre()) with the PLT's 16-byte entry size.
 */
#include <stdlib.h>
#include <string.h>

#include <sframe-api.h>

#include "sframe-diff.h"

struct v1_ref {
	sframe_decoder_ctx *dctx;
	int8_t fixed_ra;
};

struct v1_ref *v1_ref_open(const void *data, size_t size, const char **err)
{
	struct v1_ref *r = calloc(1, sizeof(*r));
	int e = 0;

	if (!r) {
		*err = "out of memory";
		return NULL;
	}
	r->dctx = sframe_decode(data, size, &e);
	if (!r->dctx) {
		*err = sframe_errmsg(e);
		free(r);
		return NULL;
	}
	r->fixed_ra = sframe_decoder_get_fixed_ra_offset(r->dctx);
	return r;
}

static void fre_rule(struct v1_ref *r, sframe_frame_row_entry *fre,
		     struct expect *e)
{
	int err = 0;

	memset(e, 0, sizeof(*e));
	e->found = true;
	e->cfa_reg = sframe_fre_get_base_reg_id(fre, &err);
	err = 0;
	e->cfa_off = sframe_fre_get_cfa_offset(r->dctx, fre, &err);
	if (err)
		e->ra_undefined = true;	/* no offsets at all */
	err = 0;
	e->fp_off = sframe_fre_get_fp_offset(r->dctx, fre, &err);
	e->fp_saved = !err;
	if (!e->fp_saved)
		e->fp_off = 0;
	err = 0;
	e->ra_off = sframe_fre_get_ra_offset(r->dctx, fre, &err);
	if (err)
		e->ra_off = r->fixed_ra;
	e->ra_known = !e->ra_undefined;
}

int v1_ref_table(struct v1_ref *r, struct ref_table *t, const char **err)
{
	uint32_t i, j, n = sframe_decoder_get_num_fidx(r->dctx);

	memset(t, 0, sizeof(*t));
	t->version = 1;
	t->num_fdes = n;
	t->fdes = calloc(n ? n : 1, sizeof(*t->fdes));
	if (!t->fdes) {
		*err = "out of memory";
		return -1;
	}
	for (i = 0; i < n; i++) {
		struct ref_fde *f = &t->fdes[i];
		uint32_t num_fres, size;
		unsigned char info;
		int32_t start;

		if (sframe_decoder_get_funcdesc(r->dctx, i, &num_fres, &size,
						&start, &info)) {
			*err = "sframe_decoder_get_funcdesc failed";
			return -1;
		}
		f->start = start;
		f->size = size;
		f->pcmask = SFRAME_V1_FUNC_FDE_TYPE(info) ==
			    SFRAME_FDE_TYPE_PCMASK;
		/* V1 has no repetition size; the AMD64 PLT's entries are 16 bytes */
		f->rep_size = f->pcmask ? 16 : 0;
		f->num_fres = num_fres;
		f->fres = calloc(num_fres ? num_fres : 1, sizeof(*f->fres));
		if (!f->fres) {
			*err = "out of memory";
			return -1;
		}
		for (j = 0; j < num_fres; j++) {
			sframe_frame_row_entry fre;

			if (sframe_decoder_get_fre(r->dctx, i, j, &fre)) {
				*err = "sframe_decoder_get_fre failed";
				return -1;
			}
			f->fres[j].start = fre.fre_start_addr;
			fre_rule(r, &fre, &f->fres[j].rule);
		}
	}
	return 0;
}

/* libsframe's own lookup; @off is relative to the section (see above). */
void v1_ref_lookup(struct v1_ref *r, int64_t off, struct expect *e)
{
	sframe_frame_row_entry fre;

	memset(e, 0, sizeof(*e));
	if (off < INT32_MIN || off > INT32_MAX)
		return;
	if (sframe_find_fre(r->dctx, (int32_t)off, &fre))
		return;
	fre_rule(r, &fre, e);
}

void v1_ref_close(struct v1_ref *r)
{
	if (!r)
		return;
	sframe_decoder_free(&r->dctx);
	free(r);
}
