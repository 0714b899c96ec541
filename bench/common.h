/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the benchmarks: timing and a user-space build-ID reader. */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static inline double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
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

/* User space's way: open the file, walk the program headers, find the note. */

static inline int user_build_id(const char *path, unsigned char *id)
{
	unsigned char buf[4096];
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int fd, i, len = -1;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh))
		goto out;
	for (i = 0; i < eh.e_phnum && len < 0; i++) {
		size_t off = 0, n;

		if (pread(fd, &ph, sizeof(ph), eh.e_phoff + i * sizeof(ph)) != sizeof(ph))
			goto out;
		if (ph.p_type != PT_NOTE)
			continue;
		n = ph.p_filesz < sizeof(buf) ? ph.p_filesz : sizeof(buf);
		if (pread(fd, buf, n, ph.p_offset) != (ssize_t)n)
			goto out;
		while (off + sizeof(Elf64_Nhdr) <= n) {
			Elf64_Nhdr *nh = (Elf64_Nhdr *)(buf + off);
			size_t name = off + sizeof(*nh);
			size_t desc = name + ((nh->n_namesz + 3) & ~3u);

			if (desc + nh->n_descsz > n)
				break;
			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
			    !memcmp(buf + name, "GNU", 4) && nh->n_descsz <= 20) {
				memcpy(id, buf + desc, nh->n_descsz);
				len = nh->n_descsz;
				break;
			}
			off = desc + ((nh->n_descsz + 3) & ~3u);
		}
	}
out:
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
