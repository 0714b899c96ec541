// SPDX-License-Identifier: GPL-2.0
/* The EHABI table of a 32-bit ARM ELF file, for the host tools. */
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ehabi-elf.h"

int ehabi_elf_table(const char *path, struct ehabi_table *t)
{
	const Elf32_Phdr *ph, *x = NULL, *load = NULL;
	const Elf32_Ehdr *eh;
	struct ehabi_image img;
	struct ehabi_row *rows;
	struct stat st;
	u32 nr, len, i;
	void *map;
	u8 *ops;
	int fd, err;

	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || st.st_size < (off_t)sizeof(*eh)) {
		perror(path);
		return 1;
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	eh = map;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS32 ||
	    eh->e_ident[EI_DATA] != ELFDATA2LSB || eh->e_machine != EM_ARM ||
	    eh->e_phoff + (u64)eh->e_phnum * sizeof(*ph) > (u64)st.st_size) {
		fprintf(stderr, "%s: not a little-endian 32-bit ARM file\n",
			path);
		return 1;
	}
	ph = (const Elf32_Phdr *)((const char *)map + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_ARM_EXIDX)
			x = &ph[i];
	if (!x)
		return 3;
	for (i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_vaddr <= x->p_vaddr &&
		    x->p_vaddr - ph[i].p_vaddr < ph[i].p_filesz)
			load = &ph[i];
	if (!load || load->p_offset + (u64)load->p_filesz > (u64)st.st_size) {
		fprintf(stderr, "%s: PT_ARM_EXIDX outside the file's PT_LOADs\n",
			path);
		return 1;
	}

	img.data = (const u8 *)map + load->p_offset;
	img.addr = load->p_vaddr;
	img.len = load->p_filesz;
	img.exidx = x->p_vaddr;
	img.exidx_len = x->p_filesz;
	err = ehabi_count(&img, &nr, &len);
	if (err) {
		fprintf(stderr, "%s: table refused (%d)\n", path, err);
		return 1;
	}
	rows = calloc(nr, sizeof(*rows));
	ops = malloc(len + 1);
	if (!rows || !ops || ehabi_build(&img, rows, nr, ops, len, t)) {
		fprintf(stderr, "%s: table not built\n", path);
		return 1;
	}
	return 0;
}
