// SPDX-License-Identifier: GPL-2.0
/*
 * ehframe-check FILE...: derive each file's rows from .eh_frame
 * (lib/sframe/ehframe.c), write them as an SFrame section, have the
 * kernel's decoder (lib/sframe/sframe.c) validate and index it, and look up
 * every row's first address and the middle of its range: an expressible
 * row must come back as it is, a row SFrame cannot hold must find nothing,
 * and a lazy PLT's rule must be found at every byte of its first two
 * entries, as SP + K before the end of each entry's push and SP + K + 8
 * after.
 * Prints KTAP, one test per file.
 *
 * A file that also has its own .sframe section (GNU as --gsframe) gets a
 * second test: at every address of every function the derived table
 * covers, where both tables have a rule, the rules must be the same (CFA
 * base and offset, FP saved and where).  Addresses only one of them
 * covers are counted, not failed: GNU as leaves out functions whose CFI
 * it cannot hold and the derivation leaves out rows.  The PLT sections'
 * rows are ld's own, not GNU as's.  They must agree too, but in a file
 * with IBT PLTs (.plt.sec), where they are only counted: ld 2.40 gives
 * IBT PLTs the rows of the plain ones, in .plt the CFA moving up at byte
 * 11 of each entry where endbr64 and the push end at 9 (as .eh_frame
 * says), and in .plt.sec sp+16 and sp+24 where the code, endbr64 and a
 * jump, and .eh_frame have sp+8.
 *
 * Then one file again with its lookups expected 8 off, for the check
 * that the comparisons can fail.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/sframe.h>
#include <linux/sframe_ehframe.h>
#include <asm/uwtable.h>

#include "compact-check.h"
#include "elf-sframe.h"

static struct sframe_index idx, gidx;
static struct sframe_compact cidx;
static u64 vaddr, gvaddr;
static unsigned long g_both, g_derived, g_gas, g_bad, g_plt, g_plt_bad;

/* The linker's PLT sections: their .sframe rows are ld's, not GNU as's. */
static bool ibt_plt;
static const char *const plt_names[] = { ".plt", ".plt.sec", ".plt.got" };
static u64 plt[3][2];

static bool in_plt(u64 a)
{
	unsigned int i;

	for (i = 0; i < 3; i++)
		if (a >= plt[i][0] && a < plt[i][1])
			return true;
	return false;
}
static unsigned long checked, bad, funcs;
static int broken;

/* What an SFrame row can hold: CFA from SP or FP, offsets of 32 bits. */
static bool row_ok(const struct ehf_row *r)
{
	return r->base != EHF_CFA_OTHER && r->base != EHF_CFA_PLT &&
	       !r->fp_other && !r->ra_other &&
	       r->cfa_off == (s32)r->cfa_off &&
	       (!r->fp_saved || r->fp_off == (s32)r->fp_off);
}

static void check(const struct ehf_row *r, u64 addr)
{
	struct sframe_rule rule;
	int ret = sframe_compact_find(&cidx, (s64)(addr - vaddr), &rule);
	struct ehf_row plt;

	/* a PLT entry: SP + K, SP + K + 8 from the push's end on */
	if (r->base == EHF_CFA_PLT) {
		plt = *r;
		plt.base = EHF_CFA_SP;
		if ((addr - r->loc) % x86_64_ehf_arch.plt_entry >= r->plt_at)
			plt.cfa_off += 8;
		r = &plt;
	}
	checked++;
	if (!row_ok(r)) {
		if (!ret) {
			if (bad++ < 10 && !broken)
				printf("# %#" PRIx64 ": found a rule, none expected\n", addr);
		}
		return;
	}
	if (ret || rule.cfa_reg != (r->base == EHF_CFA_SP ? SFRAME_REG_SP : SFRAME_REG_FP) ||
	    rule.cfa_off != r->cfa_off + (broken ? 8 : 0) || rule.ra_off != -8 ||
	    rule.fp_saved != r->fp_saved || (r->fp_saved && rule.fp_off != r->fp_off)) {
		if (bad++ < 10 && !broken)
			printf("# %#" PRIx64 ": ret %d reg %u cfa %d fp %d/%d, want %s%+" PRId64
			       " fp %d/%" PRId64 "\n",
			       addr, ret, rule.cfa_reg, rule.cfa_off, rule.fp_saved,
			       rule.fp_off, r->base == EHF_CFA_SP ? "sp" : "fp",
			       r->cfa_off, r->fp_saved, r->fp_off);
	}
}

static int check_fde(void *arg, const struct ehf_fde *f)
{
	unsigned int i;

	funcs++;
	for (i = 0; i < f->nr_rows; i++) {
		u64 end = i + 1 < f->nr_rows ? f->rows[i + 1].loc : f->end;
		u64 a;

		check(&f->rows[i], f->rows[i].loc);
		check(&f->rows[i], f->rows[i].loc + (end - f->rows[i].loc) / 2);
		/* every byte of the first two entries of a PLT */
		for (a = f->rows[i].loc + 1; f->rows[i].base == EHF_CFA_PLT &&
		     a < end && a < f->rows[i].loc + 2 * x86_64_ehf_arch.plt_entry; a++)
			check(&f->rows[i], a);
	}
	return 0;
}

static bool same_rule(const struct sframe_rule *a, const struct sframe_rule *b)
{
	return a->cfa_reg == b->cfa_reg &&
	       a->cfa_off + (broken ? 8 : 0) == b->cfa_off &&
	       a->ra_off == b->ra_off && a->fp_saved == b->fp_saved &&
	       (!a->fp_saved || a->fp_off == b->fp_off);
}

static void show_diff(u64 a, const struct sframe_rule *d,
		      const struct sframe_rule *g)
{
	printf("# %#" PRIx64 ": derived %s%+d fp %d/%d, gas %s%+d fp %d/%d\n",
	       a, d->cfa_reg == SFRAME_REG_SP ? "sp" : "fp", d->cfa_off,
	       d->fp_saved, d->fp_off, g->cfa_reg == SFRAME_REG_SP ? "sp" : "fp",
	       g->cfa_off, g->fp_saved, g->fp_off);
}

static int gas_fde(void *arg, const struct ehf_fde *f)
{
	struct sframe_rule d, g;
	u64 a;

	if (f->end - f->start > 1 << 20)
		return 0;
	for (a = f->start; a < f->end; a++) {
		bool hd = !sframe_index_find(&idx, (s64)(a - vaddr), &d);
		bool hg = !sframe_index_find(&gidx, (s64)(a - gvaddr), &g);

		if (hd && hg && in_plt(a) && ibt_plt) {
			g_plt++;
			g_plt_bad += !same_rule(&d, &g);
		} else if (hd && hg) {
			g_both++;
			if (!same_rule(&d, &g) && g_bad++ < 10 && !broken)
				show_diff(a, &d, &g);
		} else if (hd) {
			g_derived++;
		} else if (hg) {
			g_gas++;
		}
	}
	return 0;
}

/*
 * Compare the derived table (in idx) with the file's own .sframe, if it
 * has one: a test line, or none.  Returns false if it failed.
 */
static bool check_gas(const char *path, const struct elf_sframe *eh,
		      int *nr)
{
	static struct ehf_row rows[EHF_MAX_ROWS];
	struct sframe_table *pieces = NULL;
	struct sframe_func *fn = NULL;
	struct sframe_sizes n;
	struct elf_sframe es;
	const char *why = "";
	u32 *marks = NULL;
	bool fail = true;
	unsigned int i;

	if (elf_read_sframe(path, &es))
		return true;
	(*nr)++;
	if (sframe_count(&x86_64_sframe_abi, es.data, es.size, &n, &why)) {
		printf("not ok %d gas_sframe %s # its .sframe is refused: %s\n",
		       *nr, path, why);
		goto out;
	}
	pieces = calloc(n.pieces, sizeof(*pieces));
	fn = calloc(n.funcs + 1, sizeof(*fn));
	marks = calloc(n.marks + 1, sizeof(*marks));
	if (sframe_index_init(&x86_64_sframe_abi, &gidx, es.data, es.size, &n, pieces, fn, marks,
			      &why)) {
		printf("not ok %d gas_sframe %s # %s\n", *nr, path, why);
		goto out;
	}
	gvaddr = es.addr;
	for (i = 0; i < 3; i++) {
		struct elf_sframe p;

		plt[i][0] = 0;
		plt[i][1] = 0;
		if (!elf_read_section(path, plt_names[i], &p)) {
			plt[i][0] = p.addr;
			plt[i][1] = p.addr + p.size;
			elf_sframe_free(&p);
		}
	}
	ibt_plt = plt[1][1] != 0;
	g_both = 0;
	g_derived = 0;
	g_gas = 0;
	g_bad = 0;
	g_plt = 0;
	g_plt_bad = 0;
	ehf_parse(&x86_64_ehf_arch, eh->data, eh->size, vaddr, rows, gas_fde, NULL, &why);
	printf("# %s: against its .sframe: %lu addresses with both rules,",
	       path, g_both);
	printf(" %lu of them different; %lu only derived, %lu only in .sframe\n",
	       g_bad, g_derived, g_gas);
	if (g_plt)
		printf("# %s: IBT PLT (ld 2.40's, not compared): %lu with both, %lu differ\n",
		       path, g_plt, g_plt_bad);
	fail = broken ? !g_bad : g_bad || !g_both;
	printf("%sok %d %sgas_sframe %s\n", fail ? "not " : "", *nr,
	       broken ? "self_check_wrong_rules_seen_" : "", path);
out:
	free(pieces);
	free(fn);
	free(marks);
	elf_sframe_free(&es);
	return !fail;
}

/* Check one file; with @broken, expect the lookups to be wrong. */
static bool check_file(const char *path, int *nrp)
{
	static struct ehf_row rows[EHF_MAX_ROWS];
	struct ehf_emit e = { .arch = &x86_64_ehf_arch };
	struct sframe_sizes n;
	struct sframe_table *pieces;
	struct sframe_func *fn;
	struct elf_sframe es;
	const char *why = "";
	unsigned long cchecked, cbad;
	struct timespec t0, t1;
	void *cbuf = NULL;
	int ret;
	size_t csize = 0;
	bool fail;
	u32 *marks;
	int nr = ++*nrp;

	if (elf_read_section(path, ".eh_frame", &es)) {
		printf("not ok %d %s # %s\n", nr, path, es.err);
		return false;
	}
	vaddr = es.addr;
	e.vaddr = vaddr;
	if (ehf_parse(&x86_64_ehf_arch, es.data, es.size, vaddr, rows, ehf_emit_fde, &e, &why)) {
		printf("not ok %d %s # refused: %s\n", nr, path, why);
		elf_sframe_free(&es);
		return false;
	}
	e.fde_total = e.nr_fdes;
	e.buf = calloc(1, ehf_emit_size(&e));
	e.nr_fdes = 0;
	e.nr_fres = 0;
	e.fre_len = 0;
	ehf_parse(&x86_64_ehf_arch, es.data, es.size, vaddr, rows, ehf_emit_fde, &e, &why);
	ehf_emit_header(&e);
	pieces = NULL;
	fn = NULL;
	marks = NULL;
	fail = true;
	if (sframe_count(&x86_64_sframe_abi, e.buf, ehf_emit_size(&e), &n, &why)) {
		printf("not ok %d %s # lib/sframe refuses it: %s\n", nr, path, why);
		goto out;
	}
	pieces = calloc(n.pieces, sizeof(*pieces));
	fn = calloc(n.funcs + 1, sizeof(*fn));
	marks = calloc(n.marks + 1, sizeof(*marks));
	if (sframe_index_init(&x86_64_sframe_abi, &idx, e.buf, ehf_emit_size(&e), &n, pieces,
			      fn, marks, &why)) {
		printf("not ok %d %s # lib/sframe cannot index it: %s\n", nr, path, why);
		goto out;
	}
	/* timed the second time, the memory touched once */
	ret = compact_make(&idx, &cidx, &cbuf, &csize, &why);
	free(cbuf);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = ret ?: compact_make(&idx, &cidx, &cbuf, &csize, &why);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (ret) {
		printf("not ok %d %s # no compact table: %s\n", nr, path, why);
		goto out;
	}
	checked = 0;
	bad = 0;
	funcs = 0;
	ehf_parse(&x86_64_ehf_arch, es.data, es.size, vaddr, rows, check_fde, NULL, &why);
	cbad = compact_diff(&idx, &cidx, &cchecked);
	printf("# %s: %lu functions, %u SFrame functions, %zu bytes (.eh_frame %zu)\n",
	       path, funcs, e.nr_fdes, ehf_emit_size(&e), es.size);
	printf("# %s: compact table %zu bytes, %.3f of .eh_frame (%u rules, %u seqs), %.2f ms\n",
	       path, csize, (double)csize / es.size, cidx.nr_rules, cidx.nr_seqs,
	       (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6);
	printf("# %s: %u dropped by lib/sframe, %lu lookups, %lu wrong\n",
	       path, idx.nr_dropped, checked, bad);
	printf("# %s: compact table against the index: %lu lookups, %lu differ\n",
	       path, cchecked, cbad);
	fail = broken ? !bad : bad || cbad || idx.nr_dropped;
	printf("%sok %d %s%s\n", fail ? "not " : "", nr,
	       broken ? "self_check_wrong_rules_seen " : "", path);
	if (!check_gas(path, &es, nrp))
		fail = true;
out:
	free(cbuf);
	free(e.buf);
	free(pieces);
	free(fn);
	free(marks);
	elf_sframe_free(&es);
	return !fail;
}

/* ------------------------------------------------------------------ */
/* Crafted sections: what a hostile file may hold. */

static u8 *cbuf;
static size_t clen, ccap;

static void put(const void *p, size_t n)
{
	if (clen + n > ccap) {
		ccap = (clen + n) * 2;
		cbuf = realloc(cbuf, ccap);
	}
	memcpy(cbuf + clen, p, n);
	clen += n;
}

static void put32(u32 v)
{
	put(&v, 4);
}

/* A CIE "zR" (pc-relative sdata4), code factor @code, @pad nops. */
static size_t put_cie(unsigned int code, size_t pad)
{
	static const u8 body[] = { 1, 'z', 'R', 0, 0, 0x78, 16, 1, 0x1b,
				   0x0c, 7, 8, 0x90, 1 };
	size_t at = clen, len = 4 + sizeof(body) + pad;
	u8 b[sizeof(body)];

	memcpy(b, body, sizeof(b));
	b[4] = code;
	put32(len);
	put32(0);
	put(b, sizeof(b));
	while (pad--)
		put("", 1);		/* DW_CFA_nop */
	return at;
}

/* An FDE of @cie for [@start, @start + 0x100), with program @prog. */
static void put_fde(size_t cie, u32 start, const u8 *prog, size_t n)
{
	size_t len = 4 + 4 + 4 + 1 + n;
	u32 rel;

	put32(len);
	put32(clen - cie);
	rel = start - clen;		/* pc-relative, section at 0 */
	put32(rel);
	put32(0x100);
	put("", 1);			/* no augmentation data */
	put(prog, n);
}

static int count_fde(void *arg, const struct ehf_fde *f)
{
	unsigned int *rows = arg;

	*rows += f->nr_rows;
	return 0;
}

/*
 * A program of @len bytes: CFA = SP + 16 for the first byte of the
 * function, SP + 8 after it, then DW_CFA_nop.
 */
static u8 *long_prog(size_t len)
{
	u8 *p = calloc(1, len);

	p[0] = 0x0e;			/* DW_CFA_def_cfa_offset 16 */
	p[1] = 16;
	p[2] = 0x41;			/* DW_CFA_advance_loc 1 */
	p[3] = 0x0e;			/* DW_CFA_def_cfa_offset 8 */
	p[4] = 8;
	return p;
}

struct fde_count {
	unsigned int fdes, rows;
};

static int count_fde_rows(void *arg, const struct ehf_fde *f)
{
	struct fde_count *n = arg;

	n->fdes++;
	n->rows += f->nr_rows;
	return 0;
}

/*
 * An FDE is run in one go, between two calls of the callback, which is
 * where the kernel reschedules: one longer than EHF_MAX_FDE is left out
 * without being run, and the one after it is still derived.  One of
 * exactly EHF_MAX_FDE bytes is derived, so the bound is where it says.
 */
static int crafted_long_fde(int nr)
{
	static struct ehf_row rows[EHF_MAX_ROWS];
	/* CIE pointer, start, range, augmentation length */
	size_t head = 4 + 4 + 4 + 1;
	struct fde_count n[2] = { };
	const char *why = "";
	int ret[2], i, fail;
	size_t a;

	for (i = 0; i < 2; i++) {
		u8 *prog = long_prog(EHF_MAX_FDE + i - head);

		clen = 0;
		a = put_cie(1, 0);
		put_fde(a, 0x1000, prog, EHF_MAX_FDE + i - head);
		put_fde(a, 0x2000, prog, 8);
		put32(0);
		free(prog);
		ret[i] = ehf_parse(&x86_64_ehf_arch, cbuf, clen, 0, rows, count_fde_rows, &n[i],
				   &why);
		printf("# crafted: FDE of %d bytes then a short one: %d, %u FDEs, %u rows\n",
		       EHF_MAX_FDE + i, ret[i], n[i].fdes, n[i].rows);
	}
	fail = ret[0] || ret[1] || n[0].fdes != 2 || n[1].fdes != 2 ||
	       n[0].rows != 4 || n[1].rows != 2;
	printf("%sok %d crafted_long_fde_left_out\n", fail ? "not " : "", nr);
	return fail;
}

/*
 * A CIE's program runs again for each FDE after one of another CIE: one
 * longer than EHF_MAX_CIE refuses the section, one of EHF_MAX_CIE bytes
 * does not.
 */
static int crafted_long_cie(int nr)
{
	static struct ehf_row rows[EHF_MAX_ROWS];
	/* the id and the 14 bytes of put_cie()'s body */
	size_t head = 4 + 14;
	struct fde_count n = { };
	const char *why = "";
	int ret[2], i, fail;
	size_t a;

	for (i = 0; i < 2; i++) {
		clen = 0;
		a = put_cie(1, EHF_MAX_CIE + i - head);
		put_fde(a, 0x1000, NULL, 0);
		put32(0);
		why = "";
		ret[i] = ehf_parse(&x86_64_ehf_arch, cbuf, clen, 0, rows, count_fde_rows, &n, &why);
		printf("# crafted: CIE of %d bytes: %d (%s)\n", EHF_MAX_CIE + i,
		       ret[i], why);
	}
	fail = ret[0] || ret[1] != -E2BIG;
	printf("%sok %d crafted_long_cie_refused\n", fail ? "not " : "", nr);
	return fail;
}

/*
 * The longest time between two calls of the callback (where the kernel
 * reschedules and sees fatal signals), or between the start or the end
 * of the parse and the call nearest to it.
 */
struct stretch {
	struct timespec last;
	double max_us;
	unsigned int calls;
};

static void stretch_mark(struct stretch *s)
{
	struct timespec t;
	double us;

	clock_gettime(CLOCK_MONOTONIC, &t);
	us = (t.tv_sec - s->last.tv_sec) * 1e6 +
	     (t.tv_nsec - s->last.tv_nsec) / 1e3;
	if (us > s->max_us)
		s->max_us = us;
	s->last = t;
}

static int stretch_fde(void *arg, const struct ehf_fde *f)
{
	struct stretch *s = arg;

	stretch_mark(s);
	s->calls++;
	return 0;
}

static int stretch_parse(struct stretch *s, const char **why)
{
	static struct ehf_row rows[EHF_MAX_ROWS];
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &s->last);
	ret = ehf_parse(&x86_64_ehf_arch, cbuf, clen, 0, rows, stretch_fde, s, why);
	stretch_mark(s);
	return ret;
}

/* A program of @len bytes of DW_CFA_remember_state, restore_state pairs. */
static u8 *state_prog(size_t len)
{
	u8 *p = calloc(1, len);
	size_t i;

	for (i = 0; i + 1 < len; i += 2) {
		p[i] = 0x0a;		/* DW_CFA_remember_state */
		p[i + 1] = 0x0b;	/* DW_CFA_restore_state */
	}
	return p;
}

/*
 * The work between two callbacks on the input that makes the most of it:
 * FDEs of EHF_MAX_FDE bytes taking turns between two CIEs of EHF_MAX_CIE
 * bytes (each FDE runs a CIE's program again, then its own), all of
 * remember/restore_state pairs; and a section of nothing but CIEs, which
 * are passed over without a callback, as long as a derivation takes.
 * The stretch is printed, for the record (a timing is no test here); a
 * run of CIEs must be refused.
 */
static int crafted_stretch(int nr)
{
	size_t fde_head = 4 + 4 + 4 + 1, cie_head = 4 + 14, a, b, n;
	struct stretch s1 = { }, s2 = { };
	u8 *prog = state_prog(EHF_MAX_FDE - fde_head);
	const char *why = "";
	int ret1, ret2, i;

	clen = 0;
	a = put_cie(1, EHF_MAX_CIE - cie_head);
	/* the CIE's nops become remember/restore pairs */
	memcpy(cbuf + a + 4 + cie_head, prog, EHF_MAX_CIE - cie_head);
	b = put_cie(1, EHF_MAX_CIE - cie_head);
	memcpy(cbuf + b + 4 + cie_head, prog, EHF_MAX_CIE - cie_head);
	for (i = 0; i < 64; i++)
		put_fde(i & 1 ? b : a, 0x100000 + i * 0x100, prog,
			EHF_MAX_FDE - fde_head);
	put32(0);
	ret1 = stretch_parse(&s1, &why);
	printf("# crafted: 64 FDEs of %d bytes of remember/restore_state pairs: %d (%s),\n",
	       EHF_MAX_FDE, ret1, why);
	printf("#   %u callbacks, longest stretch %.0f us\n", s1.calls, s1.max_us);

	/* 16 MiB of CIEs of 8 bytes, then an FDE */
	clen = 0;
	for (n = 0; n < (16 << 20) / 8; n++) {
		put32(4);
		put32(0);
	}
	a = put_cie(1, 0);
	put_fde(a, 0x1000, NULL, 0);
	put32(0);
	why = "";
	ret2 = stretch_parse(&s2, &why);
	printf("# crafted: %zu CIEs in a row: %d (%s), longest stretch %.0f us\n",
	       n, ret2, why, s2.max_us);
	printf("# crafted: longest stretch between two callbacks: %.0f us\n",
	       s1.max_us > s2.max_us ? s1.max_us : s2.max_us);
	free(prog);
	printf("%sok %d crafted_cie_run_refused\n", ret2 != -E2BIG ? "not " : "", nr);
	return ret2 != -E2BIG;
}

static int check_crafted(int nr)
{
	static struct ehf_row rows[EHF_MAX_ROWS];
	/* set_loc, def_cfa_offset 16, set_loc: operands written below */
	static const u8 back[] = { 0x01, 0, 0, 0, 0, 0x0e, 16, 0x01, 0, 0, 0, 0 };
	const char *why = "";
	size_t a, b;
	unsigned int n = 0, i;
	int ret, fails = 0;

	/* FDEs taking turns between two large CIEs: refused, quickly */
	clen = 0;
	a = put_cie(1, EHF_MAX_CIE - 32);
	b = put_cie(1, EHF_MAX_CIE - 32);
	for (i = 0; i < 80000; i++)
		put_fde(i & 1 ? b : a, 0x100000 + i * 0x100, NULL, 0);
	put32(0);
	ret = ehf_parse(&x86_64_ehf_arch, cbuf, clen, 0, rows, count_fde, &n, &why);
	printf("# crafted: 80000 FDEs alternating between two 4 KiB CIEs: %d (%s)\n",
	       ret, why);
	fails += ret != -E2BIG;
	printf("%sok %d crafted_cie_rereads_bounded\n", ret != -E2BIG ? "not " : "", nr);

	/*
	 * set_loc going backwards (its operands pc-relative, as the CIE's
	 * pointers): the function is left out
	 */
	clen = 0;
	a = put_cie(1, 0);
	put_fde(a, 0x1000, back, sizeof(back));
	put32(0);
	{
		size_t f1 = clen - 4 - 12 + 1, f2 = clen - 4 - 4;
		u32 v1 = 0x1050 - f1, v2 = 0x1020 - f2;

		memcpy(cbuf + f1, &v1, 4);
		memcpy(cbuf + f2, &v2, 4);
	}
	n = 0;
	why = "";
	ret = ehf_parse(&x86_64_ehf_arch, cbuf, clen, 0, rows, count_fde, &n, &why);
	printf("# crafted: set_loc 0x1050 then 0x1020: %d, %u rows\n", ret, n);
	fails += ret || n;
	printf("%sok %d crafted_rows_going_back_left_out\n", ret || n ? "not " : "",
	       nr + 1);

	/* a code alignment factor other than 1: refused */
	clen = 0;
	a = put_cie(2, 0);
	put_fde(a, 0x1000, NULL, 0);
	put32(0);
	ret = ehf_parse(&x86_64_ehf_arch, cbuf, clen, 0, rows, count_fde, &n, &why);
	printf("# crafted: code alignment factor 2: %d (%s)\n", ret, why);
	fails += ret != -EINVAL;
	printf("%sok %d crafted_code_factor_refused\n", ret != -EINVAL ? "not " : "",
	       nr + 2);

	fails += crafted_long_fde(nr + 3);
	fails += crafted_long_cie(nr + 4);
	fails += crafted_stretch(nr + 5);
	return fails;
}

#define NR_CRAFTED	6

/*
 * ehframe-check FILE...: then a test that the lookups can fail (with a
 * file that has .sframe, if one does, so that the comparison with GNU
 * as's table is seen to fail too), and the crafted sections.
 */
static bool has_sframe(const char *path)
{
	struct elf_sframe es;

	if (elf_read_sframe(path, &es))
		return false;
	elf_sframe_free(&es);
	return true;
}

int main(int argc, char **argv)
{
	int a, fails = 0, nr = 0, gas = 0, self = 1;

	if (argc < 2)
		return 2;
	for (a = argc - 1; a >= 1; a--) {
		if (has_sframe(argv[a])) {
			gas++;
			self = a;
		}
	}
	/* the self-check takes a file with .sframe if there is one */
	printf("KTAP version 1\n1..%d\n",
	       argc + gas + has_sframe(argv[self]) + NR_CRAFTED);
	for (a = 1; a < argc; a++)
		fails += !check_file(argv[a], &nr);
	broken = 1;
	fails += !check_file(argv[self], &nr);
	fails += check_crafted(nr + 1);
	return fails != 0;
}
