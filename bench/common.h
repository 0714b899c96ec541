/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the benchmarks: timing and a user-space build-ID reader. */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <elf.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static inline double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/*
 * A perf event of this process that takes callchains and is never
 * enabled, kept across exec: while it is open, the process and those it
 * execs have their mappings looked at as they are made, as under a
 * profiler (perf record -g and its command).
 */
static inline int callchain_holder(void)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_CALLCHAIN;
	attr.exclude_kernel = 1;
	attr.disabled = 1;
	return syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
}

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static inline double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

/*
 * User space's way to a build ID, written to make as few system calls as
 * possible: one read of the file's first 4 KiB, which holds the ELF
 * header, the program headers and, in the binaries linkers make, the
 * build-ID note; a second pread() only for a program header table or a
 * note segment that lies beyond the first 4 KiB (one per such segment).
 * ELFCLASS32 and ELFCLASS64, little-endian; notes padded to 4 or, in a
 * PT_NOTE of p_align 8, to 8 bytes (as readelf reads them).
 *
 * user_build_id_fd() reads from a file the caller already has open, as the
 * kernel's parsers do (they start from the mapping's struct file and
 * resolve no path): one pread() when the note is in the first 4 KiB.
 * user_build_id() opens the file by its path first: open + read + close.
 */

#define UBID_HEAD	4096
#define UBID_MAX_NOTES	65536	/* bytes of one note segment read beyond the head */

/* Find a GNU build-ID note in @len bytes of note segment @n. */
static inline int ubid_notes(const unsigned char *n, size_t len, size_t align,
			     unsigned char *id)
{
	size_t off = 0;

	while (off + sizeof(Elf64_Nhdr) <= len) {
		Elf64_Nhdr nh;
		size_t desc, next;

		memcpy(&nh, n + off, sizeof(nh));
		desc = (sizeof(nh) + (size_t)nh.n_namesz + align - 1) & ~(align - 1);
		next = (desc + (size_t)nh.n_descsz + align - 1) & ~(align - 1);
		if (nh.n_namesz > len || nh.n_descsz > len ||
		    off + desc + nh.n_descsz > len)
			return -1;
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp(n + off + sizeof(nh), "GNU", 4) &&
		    nh.n_descsz > 0 && nh.n_descsz <= 20) {
			memcpy(id, n + off + desc, nh.n_descsz);
			return nh.n_descsz;
		}
		off += next;
	}
	return -1;
}

static inline int user_build_id_fd(int fd, unsigned char *id)
{
	unsigned char head[UBID_HEAD] __attribute__((aligned(8)));
	const unsigned char *ph;
	unsigned char *more = NULL;
	size_t phoff, phentsize, phnum, i;
	ssize_t n;
	int is64, len = -1;

	n = pread(fd, head, sizeof(head), 0);
	if (n < (ssize_t)sizeof(Elf32_Ehdr) || memcmp(head, ELFMAG, SELFMAG) ||
	    head[EI_DATA] != ELFDATA2LSB)
		return -1;
	is64 = head[EI_CLASS] == ELFCLASS64;
	if (is64) {
		Elf64_Ehdr eh;

		if (n < (ssize_t)sizeof(eh))
			return -1;
		memcpy(&eh, head, sizeof(eh));
		phoff = eh.e_phoff;
		phentsize = eh.e_phentsize;
		phnum = eh.e_phnum;
		if (phentsize != sizeof(Elf64_Phdr))
			return -1;
	} else if (head[EI_CLASS] == ELFCLASS32) {
		Elf32_Ehdr eh;

		memcpy(&eh, head, sizeof(eh));
		phoff = eh.e_phoff;
		phentsize = eh.e_phentsize;
		phnum = eh.e_phnum;
		if (phentsize != sizeof(Elf32_Phdr))
			return -1;
	} else {
		return -1;
	}
	if (!phnum || phnum > 65535)
		return -1;
	if (phoff <= (size_t)n && phnum * phentsize <= (size_t)n - phoff) {
		ph = head + phoff;
	} else {	/* a program header table beyond the head: read it */
		more = malloc(phnum * phentsize);
		if (!more || pread(fd, more, phnum * phentsize, phoff) !=
			     (ssize_t)(phnum * phentsize))
			goto out;
		ph = more;
	}
	for (i = 0; i < phnum && len < 0; i++) {
		size_t off, sz, align;

		if (is64) {
			Elf64_Phdr p;

			memcpy(&p, ph + i * phentsize, sizeof(p));
			if (p.p_type != PT_NOTE)
				continue;
			off = p.p_offset, sz = p.p_filesz, align = p.p_align;
		} else {
			Elf32_Phdr p;

			memcpy(&p, ph + i * phentsize, sizeof(p));
			if (p.p_type != PT_NOTE)
				continue;
			off = p.p_offset, sz = p.p_filesz, align = p.p_align;
		}
		align = align == 8 ? 8 : 4;
		if (off <= (size_t)n && sz <= (size_t)n - off) {
			len = ubid_notes(head + off, sz, align, id);
		} else {	/* a note beyond the head: read the segment */
			unsigned char *note;

			if (sz > UBID_MAX_NOTES)
				sz = UBID_MAX_NOTES;
			note = malloc(sz ? sz : 1);
			if (note && pread(fd, note, sz, off) == (ssize_t)sz)
				len = ubid_notes(note, sz, align, id);
			free(note);
		}
	}
out:
	free(more);
	return len;
}

static inline int user_build_id(const char *path, unsigned char *id)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), len;

	if (fd < 0)
		return -1;
	len = user_build_id_fd(fd, id);
	close(fd);
	return len;
}

/*
 * Copy this program to tmpfs and run the copy: the guest's root is 9p,
 * where every user-space read costs a round trip, so each side of a
 * comparison reads the same cached tmpfs file instead.
 */
static inline void run_from_tmpfs(char **argv, const char *copy)
{
	char buf[65536];
	ssize_t n;
	int in, out;

	if (!strcmp(argv[0], copy))
		return;
	in = open("/proc/self/exe", O_RDONLY);
	out = open(copy, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			break;
	close(in);
	close(out);
	argv[0] = (char *)copy;
	execv(copy, argv);
	perror(copy);
	exit(1);
}

#endif
