// SPDX-License-Identifier: GPL-2.0
/*
 * SFrame test shared library: exported functions called from shape.c
 * through the PLT, varargs, a variable-length array (frame pointer based
 * CFA) and a callback back into the program.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "shape.h"

#define noinline __attribute__((noinline))

noinline int shape_sum(int n, ...)
{
	va_list ap;
	int s = 0;

	va_start(ap, n);
	while (n-- > 0)
		s += va_arg(ap, int);
	va_end(ap);
	return s;
}

noinline int shape_vla(int n)
{
	char vla[n + 1];

	memset(vla, 'a' + (n % 26), n);
	vla[n] = 0;
	return (int)strlen(vla) + shape_sum(3, n, n, n);
}

noinline int shape_call(int (*cb)(int), int n)
{
	char name[64];
	int r = 0;

	for (int i = 0; i < n; i++)
		r += cb(i);
	snprintf(name, sizeof(name), "shape-%d", r);
	return r + (int)strlen(name) + shape_vla(n & 63);
}
