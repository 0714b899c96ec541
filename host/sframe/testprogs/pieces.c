// SPDX-License-Identifier: GPL-2.0
/*
 * SFrame test program in two objects (with pieces-b.c).  lld 22 does not
 * merge .sframe input sections, so with clang-22 + lld-22 the program's
 * .sframe is two complete SFrame tables one after the other.  The cold
 * functions go to .text.unlikely, which -z keep-text-section-prefix places
 * after .text: each table lists a function that lies after all its other
 * ones (so neither is in address order), and the two tables' functions
 * interleave.
 */
#include <stdio.h>
#include <stdlib.h>

#include "pieces.h"

#define noinline __attribute__((noinline))
#define cold __attribute__((cold))

noinline cold void pieces_fail(const char *msg)
{
	fprintf(stderr, "pieces: %s\n", msg);
	exit(1);
}

noinline int pieces_step(int x)
{
	if (x < 0)
		pieces_fail("negative");
	return pieces_helper(x) + 1;
}

int main(int argc, char **argv)
{
	printf("%d\n", pieces_step(argc > 1 ? atoi(argv[1]) : 3));
	return 0;
}
