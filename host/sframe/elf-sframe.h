/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Find and copy the .sframe section (or another one, by name) of a 64-bit
 * little-endian ELF file, by reading the section headers directly (no
 * libelf needed).
 */
#ifndef ELF_SFRAME_H
#define ELF_SFRAME_H

#include <stddef.h>
#include <stdint.h>

/* The section type lld gives .sframe; GNU ld uses SHT_PROGBITS. */
#define SHT_GNU_SFRAME_TYPE	0x6ffffff4

/* Executable sections kept, with the entry size the linker gave them. */
#define ELF_MAX_EXEC_SECS	32

struct elf_exec_sec {
	uint64_t addr;
	uint64_t size;
	uint64_t entsize;
};

struct elf_sframe {
	uint8_t *data;		/* malloc()ed copy of exactly @size bytes */
	size_t size;
	uint64_t addr;		/* sh_addr: where the section is loaded */
	uint32_t type;		/* sh_type */
	const char *err;	/* reason, when elf_read_sframe() fails */
	struct elf_exec_sec exec[ELF_MAX_EXEC_SECS];
	unsigned int nexec;	/* the first ELF_MAX_EXEC_SECS of them */
	int linked;		/* an executable or shared object, not ET_REL */
};

/*
 * Returns 0 on success, 1 if the file is a valid ELF file without a
 * .sframe section, -1 on any other error (es->err says why).
 */
int elf_read_sframe(const char *path, struct elf_sframe *es);

/* The same for the section named @name (ehframe-dump, ehframe-check). */
int elf_read_section(const char *path, const char *name,
		     struct elf_sframe *es);
void elf_sframe_free(struct elf_sframe *es);

#endif /* ELF_SFRAME_H */
