// SPDX-License-Identifier: GPL-2.0
/*
 * Minimal ELF64 section header walk to find .sframe (or any section by
 * name).  Every offset read from the file is bounds-checked against the
 * file size.
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf-sframe.h"

static uint8_t *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long len;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END))
		goto out;
	len = ftell(f);
	if (len < 0 || fseek(f, 0, SEEK_SET))
		goto out;
	buf = malloc(len ? len : 1);
	if (buf && fread(buf, 1, len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
	*size = len;
out:
	fclose(f);
	return buf;
}

static int in_file(uint64_t off, uint64_t len, size_t size)
{
	return off <= size && len <= size - off;
}

int elf_read_section(const char *path, const char *want,
		     struct elf_sframe *es)
{
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	uint64_t shnum, shstrndx, i;
	const char *names;
	uint64_t names_size;
	uint8_t *file;
	size_t fsize;
	int ret = -1;

	memset(es, 0, sizeof(*es));
	file = slurp(path, &fsize);
	if (!file) {
		es->err = "cannot read the file";
		return -1;
	}
	eh = (const Elf64_Ehdr *)file;
	if (fsize < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG)) {
		es->err = "not an ELF file";
		goto out;
	}
	if (eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_ident[EI_DATA] != ELFDATA2LSB) {
		es->err = "not a 64-bit little-endian ELF file";
		goto out;
	}
	if (eh->e_shentsize != sizeof(Elf64_Shdr) || !eh->e_shoff ||
	    !in_file(eh->e_shoff, sizeof(Elf64_Shdr), fsize)) {
		es->err = "bad section header table";
		goto out;
	}
	sh = (const Elf64_Shdr *)(file + eh->e_shoff);
	/* Large counts are kept in section 0. */
	shnum = eh->e_shnum ? eh->e_shnum : sh[0].sh_size;
	shstrndx = eh->e_shstrndx == SHN_XINDEX ? sh[0].sh_link :
						   eh->e_shstrndx;
	if (shnum > fsize / sizeof(Elf64_Shdr) ||
	    !in_file(eh->e_shoff, shnum * sizeof(Elf64_Shdr), fsize) ||
	    shstrndx >= shnum) {
		es->err = "bad section header table";
		goto out;
	}
	if (!in_file(sh[shstrndx].sh_offset, sh[shstrndx].sh_size, fsize)) {
		es->err = "bad section name table";
		goto out;
	}
	names = (const char *)file + sh[shstrndx].sh_offset;
	names_size = sh[shstrndx].sh_size;

	es->linked = eh->e_type != ET_REL;
	for (i = 0; i < shnum && es->nexec < ELF_MAX_EXEC_SECS; i++) {
		if (!(sh[i].sh_flags & SHF_EXECINSTR))
			continue;
		es->exec[es->nexec].addr = sh[i].sh_addr;
		es->exec[es->nexec].size = sh[i].sh_size;
		es->exec[es->nexec].entsize = sh[i].sh_entsize;
		es->nexec++;
	}

	for (i = 0; i < shnum; i++) {
		const char *name;

		if (sh[i].sh_name >= names_size)
			continue;
		name = names + sh[i].sh_name;
		if (strnlen(name, names_size - sh[i].sh_name) ==
		    names_size - sh[i].sh_name || strcmp(name, want))
			continue;
		if (sh[i].sh_type == SHT_NOBITS ||
		    !in_file(sh[i].sh_offset, sh[i].sh_size, fsize)) {
			es->err = "the section is outside the file";
			goto out;
		}
		/* An exactly-sized copy, so that overreads trip ASan. */
		es->data = malloc(sh[i].sh_size ? sh[i].sh_size : 1);
		if (!es->data) {
			es->err = "out of memory";
			goto out;
		}
		memcpy(es->data, file + sh[i].sh_offset, sh[i].sh_size);
		es->size = sh[i].sh_size;
		es->addr = sh[i].sh_addr;
		es->type = sh[i].sh_type;
		ret = 0;
		goto out;
	}
	es->err = "no such section";
	ret = 1;
out:
	free(file);
	return ret;
}

int elf_read_sframe(const char *path, struct elf_sframe *es)
{
	return elf_read_section(path, ".sframe", es);
}

void elf_sframe_free(struct elf_sframe *es)
{
	free(es->data);
	es->data = NULL;
}
