// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for lib/sframe/ehframe.c, the derivation of SFrame
 * tables from .eh_frame.
 *
 * The input is the address the section is linked at (8 bytes, little
 * endian) followed by the section's bytes, copied into a buffer of
 * exactly their size so that AddressSanitizer catches a read past it.
 * The derivation runs as the kernel runs it (kernel/uwtable/sframe.c):
 * a counting pass, then a writing pass into a buffer of exactly the size
 * the first one gave.  Checked:
 *
 *  - a refused section says why;
 *  - both passes see the same functions and write exactly what the
 *    counting pass said, no byte past it;
 *  - what they write is an SFrame section the kernel's decoder
 *    (lib/sframe/sframe.c) counts and indexes without dropping a function
 *    unless two of them overlap;
 *  - at the first byte and the middle of every row of every function, a
 *    lookup that lands in that function (in one of the SFrame functions
 *    it is written as, one per run of rows SFrame can hold) returns that
 *    row's rule when SFrame can hold it, and nothing when it cannot;
 *  - the rows of a function are in order and inside it (none for a
 *    function whose end wraps);
 *  - a lazy PLT's row is found as a function of its own whose rule, at
 *    each byte, is the one its expression gives there.
 *
 * Any violation calls abort(), which libFuzzer reports as a crash.
 *
 * Build: make -C host/sframe KSRC=TREE O=DIR fuzz-ehframe (clang-22,
 * -fsanitize=fuzzer,address,undefined).  Run: fuzz.sh OUTDIR SECONDS 1
 * ehframe.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/sframe.h>
#include <linux/sframe_ehframe.h>
#include <asm/uwtable.h>

#include "compact-check.h"

#define check(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "fuzz-ehframe: %s:%d: %s\n",	\
				__FILE__, __LINE__, #cond);		\
			abort();					\
		}							\
	} while (0)

static struct ehf_row rows[EHF_MAX_ROWS];
static struct sframe_index idx;
static u64 vaddr;
static bool overlaps;

/* What SFrame can hold: CFA from SP or FP, offsets of 32 bits. */
static bool row_ok(const struct ehf_row *r)
{
	return r->base != EHF_CFA_OTHER && r->base != EHF_CFA_PLT &&
	       !r->fp_other && !r->ra_other &&
	       r->cfa_off == (s32)r->cfa_off &&
	       (!r->fp_saved || r->fp_off == (s32)r->fp_off);
}

/* Row @i of @f at @addr: found in its SFrame function, or nothing. */
static void check_at(const struct ehf_fde *f, unsigned int i, u64 addr)
{
	const struct ehf_row *r = &f->rows[i];
	struct sframe_rule rule;
	unsigned int first = i, last = i;
	u64 start, end;

	if (sframe_index_find(&idx, (s64)(addr - vaddr), &rule))
		return;
	/* a lazy PLT's rows: a function of their own, SP + K (+ 8) */
	if (r->base == EHF_CFA_PLT) {
		end = i + 1 < f->nr_rows ? f->rows[i + 1].loc : f->end;
		if (rule.func_start != (s64)(r->loc - vaddr) ||
		    rule.func_size != end - r->loc) {
			check(overlaps);
			return;
		}
		/* written only without other rules, and aligned */
		if (r->fp_saved || r->fp_other || r->ra_other ||
		    r->loc % x86_64_ehf_arch.plt_entry) {
			check(overlaps);
			return;
		}
		check(rule.cfa_reg == SFRAME_REG_SP && rule.ra_off == -8 &&
		      !rule.fp_saved);
		check(rule.cfa_off == r->cfa_off +
		      ((addr - r->loc) % x86_64_ehf_arch.plt_entry >= r->plt_at ?
		       8 : 0));
		return;
	}
	/* a function is written as one SFrame function per run of good rows */
	while (first && row_ok(&f->rows[first - 1]))
		first--;
	while (last < f->nr_rows && row_ok(&f->rows[last]))
		last++;
	start = f->rows[first].loc;
	end = last < f->nr_rows ? f->rows[last].loc : f->end;
	/* found in another one: it must overlap this one */
	if (!row_ok(r) || rule.func_start != (s64)(start - vaddr) ||
	    rule.func_size != end - start) {
		check(overlaps);
		return;
	}
	check(rule.cfa_reg == (r->base == EHF_CFA_SP ? SFRAME_REG_SP :
						       SFRAME_REG_FP));
	check(rule.cfa_off == r->cfa_off);
	check(rule.ra_off == -8);
	check(rule.fp_saved == r->fp_saved);
	check(!r->fp_saved || rule.fp_off == r->fp_off);
}

static int check_fde(void *arg, const struct ehf_fde *f)
{
	unsigned int i;
	u64 a;

	/* a range that wraps has no rows */
	check(f->start <= f->end || !f->nr_rows);
	check(f->nr_rows <= EHF_MAX_ROWS);
	for (i = 0; i < f->nr_rows; i++) {
		u64 loc = f->rows[i].loc;
		u64 end = i + 1 < f->nr_rows ? f->rows[i + 1].loc : f->end;

		check(loc >= f->start && loc < f->end);
		check(end > loc);
		check_at(f, i, loc);
		check_at(f, i, loc + (end - loc) / 2);
		for (a = loc + 1; f->rows[i].base == EHF_CFA_PLT && a < end &&
		     a < loc + 2 * x86_64_ehf_arch.plt_entry; a++)
			check_at(f, i, a);
	}
	return 0;
}

/* Whether any two functions with rows overlap (quadratic: inputs are small). */
static u64 (*spans)[2];
static unsigned int nr_spans, cap_spans;

static int note_fde(void *arg, const struct ehf_fde *f)
{
	unsigned int i;

	if (!f->nr_rows || f->start == f->end)
		return 0;
	for (i = 0; i < nr_spans; i++)
		if (f->start < spans[i][1] && spans[i][0] < f->end)
			overlaps = true;
	if (nr_spans == cap_spans) {
		cap_spans = cap_spans ? 2 * cap_spans : 64;
		spans = realloc(spans, cap_spans * sizeof(*spans));
		check(spans);
	}
	spans[nr_spans][0] = f->start;
	spans[nr_spans][1] = f->end;
	nr_spans++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ehf_emit e = { .arch = &x86_64_ehf_arch };
	struct sframe_table *pieces;
	struct sframe_sizes n;
	struct sframe_func *fn;
	const char *why = NULL;
	size_t out_size;
	u8 *sec, *out;
	u32 *marks;
	int ret;

	if (size < 8)
		return 0;
	memcpy(&vaddr, data, 8);
	size -= 8;
	sec = malloc(size ?: 1);
	check(sec);
	memcpy(sec, data + 8, size);

	e.vaddr = vaddr;
	ret = ehf_parse(&x86_64_ehf_arch, sec, size, vaddr, rows, ehf_emit_fde, &e, &why);
	if (ret) {
		check(why);
		goto out_sec;
	}
	if (!e.nr_fdes)
		goto out_sec;
	out_size = ehf_emit_size(&e);
	out = malloc(out_size);
	check(out);
	e.fde_total = e.nr_fdes;
	e.buf = out;
	e.nr_fdes = 0;
	e.nr_fres = 0;
	e.fre_len = 0;
	check(!ehf_parse(&x86_64_ehf_arch, sec, size, vaddr, rows, ehf_emit_fde, &e, &why));
	check(e.nr_fdes == e.fde_total);
	check(ehf_emit_size(&e) == out_size);
	ehf_emit_header(&e);

	why = NULL;
	ret = sframe_count(&x86_64_sframe_abi, out, out_size, &n, &why);
	if (ret)
		fprintf(stderr, "fuzz-ehframe: sframe_count: %s\n", why);
	check(!ret);
	pieces = malloc(n.pieces * sizeof(*pieces));
	fn = malloc((n.funcs ?: 1) * sizeof(*fn));
	marks = malloc((n.marks ?: 1) * sizeof(*marks));
	check(pieces && fn && marks);
	ret = sframe_index_init(&x86_64_sframe_abi, &idx, out, out_size, &n, pieces, fn, marks,
				&why);
	if (ret)
		fprintf(stderr, "fuzz-ehframe: sframe_index_init: %s\n", why);
	check(!ret);

	overlaps = false;
	nr_spans = 0;
	check(!ehf_parse(&x86_64_ehf_arch, sec, size, vaddr, rows, note_fde, NULL, &why));
	check(!idx.nr_dropped || overlaps);
	check(!ehf_parse(&x86_64_ehf_arch, sec, size, vaddr, rows, check_fde, NULL, &why));
	compact_check_all(&idx);

	free(pieces);
	free(fn);
	free(marks);
	free(out);
out_sec:
	free(sec);
	return 0;
}
