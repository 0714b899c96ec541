// SPDX-License-Identifier: GPL-2.0
/* SFrame test program that uses libshape.so. */
#include <stdio.h>
#include <stdlib.h>

#include "shape.h"

#define noinline __attribute__((noinline))

static noinline int square(int x)
{
	return x * x + (int)random() % 2;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 9;

	printf("%d %d\n", shape_call(square, n), shape_sum(2, n, n));
	return 0;
}
