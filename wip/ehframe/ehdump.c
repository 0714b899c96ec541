// SPDX-License-Identifier: GPL-2.0
/*
 * ehdump FILE: print the rows ehf_parse() derives from FILE's .eh_frame,
 * in readelf --debug-dump=frames-interp's notation, for ehdiff.py.
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

static int print_fde(void *arg __attribute__((unused)), const struct ehf_fde *f)
{
	unsigned int i;

	printf("FDE %" PRIx64 " %" PRIx64 " %u\n", f->start, f->end, f->nr_rows);
	for (i = 0; i < f->nr_rows; i++) {
		const struct ehf_row *r = &f->rows[i];
		char cfa[32], fp[32];

		if (r->base == EHF_CFA_OTHER)
			snprintf(cfa, sizeof(cfa), "x");
		else
			snprintf(cfa, sizeof(cfa), "%s+%" PRId64,
				 r->base == EHF_CFA_SP ? "rsp" : "rbp", r->cfa_off);
		if (r->fp_other)
			snprintf(fp, sizeof(fp), "x");
		else if (r->fp_saved)
			snprintf(fp, sizeof(fp), "c%+" PRId64, r->fp_off);
		else
			snprintf(fp, sizeof(fp), "u");
		printf("%" PRIx64 " %s %s %s\n", r->loc, cfa, fp,
		       r->ra_other ? "x" : "c-8");
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct ehf_row rows[EHF_MAX_ROWS];
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	const char *why = "";
	struct stat st;
	const u8 *img;
	int fd, i, ret;

	if (argc != 2)
		return 2;
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		return 2;
	img = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (img == MAP_FAILED)
		return 2;
	eh = (const Elf64_Ehdr *)img;
	sh = (const Elf64_Shdr *)(img + eh->e_shoff);
	for (i = 0; i < eh->e_shnum; i++) {
		const char *name = (const char *)img +
			sh[eh->e_shstrndx].sh_offset + sh[i].sh_name;

		/* lld gives it the type SHT_X86_64_UNWIND */
		if (strcmp(name, ".eh_frame") ||
		    (sh[i].sh_type != SHT_PROGBITS && sh[i].sh_type != 0x70000001))
			continue;
		ret = ehf_parse(img + sh[i].sh_offset, sh[i].sh_size,
				sh[i].sh_addr, rows, print_fde, NULL, &why);
		if (ret) {
			fprintf(stderr, "%s: %d %s\n", argv[1], ret, why);
			return 1;
		}
		return 0;
	}
	fprintf(stderr, "%s: no .eh_frame\n", argv[1]);
	return 1;
}
