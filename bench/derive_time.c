// SPDX-License-Identifier: GPL-2.0
/*
 * derive_time FILE N: the time the kernel takes to make the SFrame table
 * of FILE when a process maps it, for the distribution benchmark
 * (distro_perf.sh), which runs this program under perf record -g (so
 * that its mappings are looked at) with kernel.uwtable_derive off and
 * on in turn.
 *
 * Each of N rounds copies FILE to a new file on tmpfs (a new inode, so no
 * table is shared and none remembered: cold, but for the page cache) and
 * times one mmap(PROT_READ | PROT_EXEC) of it with clock_gettime().  The
 * table is made on the way back to user space from that mmap(), so the
 * time includes it.  Prints the median and the shortest time, in ns:
 *   derive_time: FILE N rounds, median NS ns, min NS ns
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_ROUNDS 64

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int copy(const char *from, const char *to)
{
	int in = open(from, O_RDONLY), out;
	char buf[65536];
	ssize_t n;

	if (in < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (out < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n) {
			n = -1;
			break;
		}
	close(in);
	return close(out) || n < 0 ? -1 : 0;
}

static int by_value(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	long long t[MAX_ROUNDS], t0;
	char path[64];
	struct stat st;
	int n, i, fd;
	void *p;

	if (argc != 3 || (n = atoi(argv[2])) < 1 || n > MAX_ROUNDS) {
		fprintf(stderr, "usage: derive_time FILE N (N <= %d)\n", MAX_ROUNDS);
		return 2;
	}
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/tmp/derive_time.%d.%d", getpid(), i);
		if (copy(argv[1], path) || (fd = open(path, O_RDONLY)) < 0 ||
		    fstat(fd, &st)) {
			perror(path);
			return 1;
		}
		t0 = now_ns();
		p = mmap(NULL, st.st_size, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
		t[i] = now_ns() - t0;
		if (p == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		munmap(p, st.st_size);
		close(fd);
		unlink(path);
	}
	qsort(t, n, sizeof(t[0]), by_value);
	printf("derive_time: %s %d rounds, median %lld ns, min %lld ns\n",
	       argv[1], n, t[(n - 1) / 2], t[0]);
	return 0;
}
