// SPDX-License-Identifier: GPL-2.0
/*
 * SFrame test program: a chain of non-inlined functions with different
 * frame shapes (leaf, pushes, a big stack frame, alloca, which makes the
 * compiler set up a frame pointer even with -fomit-frame-pointer), and
 * calls into libc through the PLT.
 */
#include <alloca.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define noinline __attribute__((noinline))

static volatile int sink;

noinline int leaf(int x)
{
	return x * 3 + 1;
}

noinline int pushes(int a, int b, int c, int d)
{
	int r = 0;

	for (int i = 0; i < a; i++)
		r += leaf(i + b) ^ leaf(c - i) ^ leaf(d + r);
	return r;
}

noinline long big_frame(int n)
{
	char buf[4096];

	snprintf(buf, sizeof(buf), "%d-%d", n, pushes(n & 7, n, 2 * n, 3));
	return strtol(buf, NULL, 10) + (long)strlen(buf);
}

noinline int with_alloca(int n)
{
	char *p = alloca(n + 16);

	memset(p, 'x', n + 15);
	p[n + 15] = 0;
	return (int)strlen(p) + (int)big_frame(n);
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

noinline int sorter(int n)
{
	int v[32];

	for (int i = 0; i < 32; i++)
		v[i] = (i * 7919 + n) % 101;
	qsort(v, 32, sizeof(v[0]), cmp_int);
	return v[0] + v[31] + with_alloca(n & 31);
}

noinline int recurse(int depth)
{
	if (depth <= 0)
		return sorter(depth);
	return recurse(depth - 1) + (int)sink;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 5;

	printf("%d\n", recurse(n));
	return 0;
}
