// SPDX-License-Identifier: GPL-2.0
/*
 * A call chain of the frame shapes 32-bit ARM compilers build, for
 * step-check.sh: each instruction main runs is stepped, and the stack at
 * each is unwound and judged.  No C library call is made in between.
 *
 *   main -> recurse -> recurse -> recurse -> vfp -> big -> fp_alloca
 *	-> two_calls -> leaf (no frame) / saver (many registers)
 */
#ifdef __clang__
#define NOIPA __attribute__((__noinline__))
#else
#define NOIPA __attribute__((__noipa__))
#endif

/* A value the compiler cannot see through. */
static inline int opaque(int x)
{
	asm volatile("" : "+r"(x));
	return x;
}

/* Memory the compiler must keep. */
static inline void keep(const void *p)
{
	asm volatile("" : : "r"(p) : "memory");
}

/* no stack at all: sp and lr hold the caller's */
NOIPA int leaf(int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)
		s += i * opaque(n);
	return s;
}

/* saves callee-saved registers */
NOIPA int saver(int a, int b, int c, int d)
{
	int x = a * 3 + opaque(a), y = b * 5 + opaque(b);
	int z = c * 7 + opaque(c), u = d * 11 + opaque(d);
	int v = a ^ b, w = c ^ d, q = a + d;

	for (int i = 0; i < (a & 3); i++) {
		x += y * z;
		y += z * u;
		z += u * v;
		u += v * w;
		v += w * q;
		w += q * x;
		q += opaque(i);
	}
	return x + y + z + u + v + w + q;
}

/* saves lr, calls twice */
NOIPA int two_calls(int n)
{
	return leaf(n) + saver(n, n + 1, n + 2, n + 3) * n;
}

/* a frame pointer: the size of its frame is known only at run time */
NOIPA int fp_alloca(int n)
{
	char *p = __builtin_alloca(n * 8 + 16);

	p[0] = n;
	keep(p);
	return two_calls(n) + p[0];
}

/* a frame larger than 512 bytes: "vsp = vsp + 0x204 + uleb128 * 4" */
NOIPA int big(int n)
{
	char buf[1500];

	buf[n] = n;
	keep(buf);
	return fp_alloca(n) + buf[n];
}

/* VFP registers saved across a call */
NOIPA double vfp(double x, int n)
{
	double a = x * 2.5, b = x * 3.5;
	int r = big(n);

	return a * b + r;
}

NOIPA int recurse(int d, int n)
{
	if (!d)
		return (int)vfp(n, n);
	return recurse(d - 1, n) + opaque(d);
}

int main(void)
{
	int t = 0;

	for (int i = 0; i < 2; i++)
		t += recurse(2, 3 + i);
	return opaque(t) & 0;
}
