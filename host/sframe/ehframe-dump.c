// SPDX-License-Identifier: GPL-2.0
/*
 * ehframe-dump [-B] FILE: print the rows lib/sframe/ehframe.c derives from
 * FILE's .eh_frame, in readelf --debug-dump=frames-interp's notation, for
 * ehframe-diff.py.  -B breaks every seventh row (CFA offset + 8), for the
 * check that the comparison can fail.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <linux/sframe_ehframe.h>
#include <asm/uwtable.h>

#include "elf-sframe.h"

static int broken;

static int print_fde(void *arg, const struct ehf_fde *f)
{
	unsigned int i;

	printf("FDE %" PRIx64 " %" PRIx64 " %u\n", (uint64_t)f->start,
	       (uint64_t)f->end, f->nr_rows);
	for (i = 0; i < f->nr_rows; i++) {
		const struct ehf_row *r = &f->rows[i];
		int64_t cfa = r->cfa_off + (broken && i % 7 == 3 ? 8 : 0);
		char c[32], fp[32];

		/* readelf shows a PLT's expression as an expression */
		if (r->base == EHF_CFA_OTHER || r->base == EHF_CFA_PLT)
			snprintf(c, sizeof(c), "x");
		else
			snprintf(c, sizeof(c), "%s+%" PRId64,
				 r->base == EHF_CFA_SP ? "rsp" : "rbp", cfa);
		if (r->fp_other)
			snprintf(fp, sizeof(fp), "x");
		else if (r->fp_saved)
			snprintf(fp, sizeof(fp), "c%+" PRId64, (int64_t)r->fp_off);
		else
			snprintf(fp, sizeof(fp), "u");
		printf("%" PRIx64 " %s %s %s\n", (uint64_t)r->loc, c, fp,
		       r->ra_other ? "x" : "c-8");
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct ehf_row rows[EHF_MAX_ROWS];
	struct elf_sframe es;
	const char *why = "";
	int ret;

	if (argc > 1 && !strcmp(argv[1], "-B")) {
		broken = 1;
		argv++;
		argc--;
	}
	if (argc != 2)
		return 2;
	if (elf_read_section(argv[1], ".eh_frame", &es)) {
		fprintf(stderr, "%s: %s\n", argv[1], es.err);
		return 1;
	}
	ret = ehf_parse(&x86_64_ehf_arch, es.data, es.size, es.addr, rows, print_fde, NULL, &why);
	if (ret)
		fprintf(stderr, "%s: %d %s\n", argv[1], ret, why);
	elf_sframe_free(&es);
	return !!ret;
}
