// SPDX-License-Identifier: GPL-2.0
/* The second object of the pieces test program, see pieces.c. */
#include "pieces.h"

#define noinline __attribute__((noinline))
#define cold __attribute__((cold))

noinline cold int pieces_slow(int x)
{
	return x * 3 - 1;
}

noinline int pieces_helper(int x)
{
	volatile int big[64];

	big[x & 63] = x;
	if (x > 1000)
		return pieces_slow(x);
	return big[x & 63] + 2;
}
