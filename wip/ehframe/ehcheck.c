// SPDX-License-Identifier: GPL-2.0
/*
 * ehcheck FILE...: derive each file's rows from .eh_frame, write them as an
 * SFrame section, have the kernel's decoder (lib/sframe, built in user
 * space) validate and index it, and look up every row's first address and
 * the middle of its range: an expressible row must come back as it is, a
 * row SFrame cannot hold must find nothing.
 */
#include <elf.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ehframe_env.h"
#include "ehframe.h"
#include <linux/sframe.h>

static struct sframe_index idx;
static u64 vaddr;
static unsigned long checked, bad, funcs;

static bool row_ok(const struct ehf_row *r)
{
	return r->base != EHF_CFA_OTHER && !r->fp_other && !r->ra_other;
}

static void check(const struct ehf_row *r, u64 addr)
{
	struct sframe_rule rule;
	int ret = sframe_index_find(&idx, (s64)(addr - vaddr), &rule);

	checked++;
	if (!row_ok(r)) {
		if (!ret) {
			if (bad++ < 10)
				printf("%#" PRIx64 ": found a rule, none expected\n", addr);
		}
		return;
	}
	if (ret || rule.cfa_reg != (r->base == EHF_CFA_SP ? SFRAME_REG_SP : SFRAME_REG_FP) ||
	    rule.cfa_off != r->cfa_off || rule.ra_off != -8 ||
	    rule.fp_saved != r->fp_saved || (r->fp_saved && rule.fp_off != r->fp_off)) {
		if (bad++ < 10)
			printf("%#" PRIx64 ": ret %d reg %u cfa %d fp %d/%d, want %s%+" PRId64 " fp %d/%" PRId64 "\n",
			       addr, ret, rule.cfa_reg, rule.cfa_off, rule.fp_saved, rule.fp_off,
			       r->base == EHF_CFA_SP ? "sp" : "fp", r->cfa_off, r->fp_saved, r->fp_off);
	}
}

static int check_fde(void *arg __attribute__((unused)),
		     const struct ehf_fde *f)
{
	unsigned int i;

	funcs++;
	for (i = 0; i < f->nr_rows; i++) {
		u64 end = i + 1 < f->nr_rows ? f->rows[i + 1].loc : f->end;

		check(&f->rows[i], f->rows[i].loc);
		check(&f->rows[i], f->rows[i].loc + (end - f->rows[i].loc) / 2);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct ehf_row rows[EHF_MAX_ROWS];
	int a, fails = 0;

	for (a = 1; a < argc; a++) {
		const Elf64_Ehdr *eh;
		const Elf64_Shdr *sh, *ehs = NULL;
		struct ehf_emit e = { 0 };
		struct sframe_sizes n;
		struct sframe_table *pieces;
		struct sframe_func *fn;
		const char *why = "";
		struct stat st;
		const u8 *img;
		u32 *marks;
		int fd, i;

		fd = open(argv[a], O_RDONLY);
		if (fd < 0 || fstat(fd, &st))
			continue;
		img = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		close(fd);
		if (img == MAP_FAILED)
			continue;
		eh = (const Elf64_Ehdr *)img;
		sh = (const Elf64_Shdr *)(img + eh->e_shoff);
		for (i = 0; i < eh->e_shnum; i++) {
			const char *name = (const char *)img +
				sh[eh->e_shstrndx].sh_offset + sh[i].sh_name;

			if (!strcmp(name, ".eh_frame") && sh[i].sh_size)
				ehs = &sh[i];
		}
		if (!ehs) {
			munmap((void *)img, st.st_size);
			continue;
		}
		vaddr = ehs->sh_addr;
		e.vaddr = vaddr;
		if (ehf_parse(img + ehs->sh_offset, ehs->sh_size, vaddr, rows,
			      ehf_emit_fde, &e, &why)) {
			printf("%s: refused: %s\n", argv[a], why);
			fails++;
			continue;
		}
		e.fde_total = e.nr_fdes;
		e.buf = calloc(1, ehf_emit_size(&e));
		e.nr_fdes = e.nr_fres = e.fre_len = e.left_out = 0;
		ehf_parse(img + ehs->sh_offset, ehs->sh_size, vaddr, rows,
			  ehf_emit_fde, &e, &why);
		ehf_emit_header(&e);
		if (sframe_count(e.buf, ehf_emit_size(&e), &n, &why)) {
			printf("%s: lib/sframe refuses the derived section: %s\n", argv[a], why);
			fails++;
			continue;
		}
		pieces = calloc(n.pieces, sizeof(*pieces));
		fn = calloc(n.funcs + 1, sizeof(*fn));
		marks = calloc(n.marks + 1, sizeof(*marks));
		if (sframe_index_init(&idx, e.buf, ehf_emit_size(&e), &n, pieces,
				      fn, marks, &why)) {
			printf("%s: lib/sframe cannot index it: %s\n", argv[a], why);
			fails++;
			continue;
		}
		checked = bad = funcs = 0;
		ehf_parse(img + ehs->sh_offset, ehs->sh_size, vaddr, rows,
			  check_fde, NULL, &why);
		printf("%s: %lu functions, %u SFrame functions, %zu bytes (.eh_frame %" PRIu64 "), %u dropped by lib/sframe, %lu lookups, %lu wrong\n",
		       argv[a], funcs, e.nr_fdes, ehf_emit_size(&e), (u64)ehs->sh_size,
		       idx.nr_dropped, checked, bad);
		fails += bad != 0;
		free(e.buf);
		free(pieces);
		free(fn);
		free(marks);
		munmap((void *)img, st.st_size);
	}
	return fails != 0;
}
