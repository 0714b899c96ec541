// SPDX-License-Identifier: GPL-2.0
/*
 * distro_qsort: a program built as Debian builds its packages (-O2,
 * without frame pointers, without SFrame) that spends its time in a
 * comparator libc's qsort() calls, for the distribution benchmark
 * (distro_perf.sh): main -> sort_rounds -> qsort (libc) -> cmp.
 *
 * Usage: distro_qsort [ROUNDS]  (default 60).  The work depends only on
 * ROUNDS; prints a checksum.
 */
#include <stdio.h>
#include <stdlib.h>

#define WORK __attribute__((noipa))

static volatile unsigned int mix_rounds = 40;
static unsigned int sink;

WORK static int cmp(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a;
	unsigned int y = *(const unsigned int *)b;
	unsigned int i, h = x ^ y;

	/* work of its own, so that most samples land here */
	for (i = 0; i < mix_rounds; i++)
		h = h * 2654435761u + i;
	sink += h;
	return (x > y) - (x < y);
}

WORK static unsigned int sort_rounds(unsigned int *a, unsigned int n,
				     unsigned int rounds)
{
	unsigned int r, i, sum = 0;

	for (r = 0; r < rounds; r++) {
		for (i = 0; i < n; i++)
			a[i] = (i * 7919u + r * 104729u) % n;
		qsort(a, n, sizeof(*a), cmp);
		sum += a[n / 2];
	}
	return sum;
}

int main(int argc, char **argv)
{
	unsigned int rounds = argc > 1 ? atoi(argv[1]) : 60;
	unsigned int n = 20000, sum;
	unsigned int *a = malloc(n * sizeof(*a));

	if (!a)
		return 1;
	sum = sort_rounds(a, n, rounds);
	printf("distro_qsort: %u rounds, result %x\n", rounds, sum ^ sink);
	free(a);
	return 0;
}
