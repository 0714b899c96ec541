// SPDX-License-Identifier: GPL-2.0
/*
 * sframe_work: a fixed amount of CPU work spread over a call chain nine
 * functions below main, for the perf callchain benchmark (sframe_perf.sh)
 * and the demo.
 *
 *   main -> run_job -> load_batch -> decode_records -> checksum_block ->
 *   transform -> mix_rows -> sort_keys -> hash_keys -> crunch
 *
 * Every function does work of its own before and after calling the next
 * one, so samples land at every depth (most of them in the deepest
 * functions) and in prologues and epilogues too: main walks the whole
 * chain down and up again thousands of times.  The functions are noipa
 * (no inlining, cloning or interprocedural register tricks) and use the
 * callee's result after the call, so none is a tail call and every one
 * has a frame of its own.
 *
 * Built twice by the Makefile: sframe_work_sf (-fomit-frame-pointer
 * -Wa,--gsframe) and sframe_work_fp (-fno-omit-frame-pointer, no SFrame).
 *
 * Usage: sframe_work [ROUNDS]  (default 120000: 1-3 s under QEMU TCG).
 * The work depends only on ROUNDS.  Prints the time of the work itself
 * (clock_gettime, without program start-up), a checksum, and the median
 * and shortest of the times of its 100 equal slices, on one line:
 *   sframe_work: NS ns, ROUNDS rounds, result HEX, epoch median NS ns min NS ns
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define WORK __attribute__((noipa))

/* Work per level, in loop iterations; read at run time so nothing folds. */
static volatile unsigned int scale[10] = {
	0, 75, 18, 8, 15, 120, 60, 14, 560, 110,
};

#define NKEYS 24
#define EPOCHS 100		/* timed slices of the work */

static unsigned int table[256];

/*
 * 9: the deepest, most of the work: CRC-32 of mixed words, four bits at a
 * time with a table on the stack (which also makes gcc give this leaf a
 * frame: it leaves the frame pointer out of leaves that use no stack).
 */
WORK uint64_t crunch(uint64_t x)
{
	unsigned int n = scale[9], i, b;
	uint32_t crc = ~(uint32_t)x, t[16];

	for (i = 0; i < 16; i++) {
		uint32_t c = i;

		for (b = 0; b < 4; b++)
			c = (c >> 1) ^ (0xedb88320u & -(c & 1));
		t[i] = c;
	}
	for (i = 0; i < n; i++) {
		uint32_t v = (uint32_t)(x >> (i & 31)) ^ i;

		for (b = 0; b < 8; b++)
			crc = (crc >> 4) ^ t[(crc ^ (v >> (b * 4))) & 15];
	}
	return x ^ ((uint64_t)crc << 17) ^ crc;
}

/* 8: FNV-1a over a few keys, then the CRC, then more hashing. */
WORK uint64_t hash_keys(uint64_t x)
{
	unsigned int n = scale[8], i;
	uint64_t h = 0xcbf29ce484222325ull;

	for (i = 0; i < n / 2; i++) {
		h ^= (x >> (8 * (i & 7))) & 0xff;
		h *= 0x100000001b3ull;
	}
	h ^= crunch(h ^ x);
	for (; i < n; i++) {
		h ^= i;
		h *= 0x100000001b3ull;
	}
	return h;
}

/* 7: insertion sort of keys on the stack. */
WORK uint64_t sort_keys(uint64_t x)
{
	unsigned int n = scale[7], i, j, r;
	uint32_t keys[NKEYS];
	uint64_t s = x;

	for (r = 0; r < n / 14 + 1; r++) {
		for (i = 0; i < NKEYS; i++) {
			s ^= s << 13;
			s ^= s >> 7;
			s ^= s << 17;
			keys[i] = (uint32_t)s;
		}
		for (i = 1; i < NKEYS; i++) {
			uint32_t k = keys[i];

			for (j = i; j > 0 && keys[j - 1] > k; j--)
				keys[j] = keys[j - 1];
			keys[j] = k;
		}
	}
	s = hash_keys(s ^ keys[NKEYS / 2]);
	return s + keys[0] + keys[NKEYS - 1];
}

/* 6: mix rows of a small table (shifts, rotates, lookups). */
WORK uint64_t mix_rows(uint64_t x)
{
	unsigned int n = scale[6], i;
	uint64_t a = x, b = ~x;

	for (i = 0; i < n; i++) {
		a += table[(b >> 8) & 255] ^ i;
		b = (b << 7 | b >> 57) ^ a;
	}
	a ^= sort_keys(a + b);
	for (i = 0; i < n / 2; i++) {
		b = (b << 5 | b >> 59) + table[a & 255] + (a >> 3);
		a = (a >> 3) ^ (a << 61) ^ i;
	}
	return a ^ b;
}

/* 5: a 4x4 matrix product on the stack. */
WORK uint64_t transform(uint64_t x)
{
	unsigned int n = scale[5], r, i, j, k;
	uint32_t m[4][4], p[4][4];
	uint64_t s = x;

	for (i = 0; i < 4; i++)
		for (j = 0; j < 4; j++)
			m[i][j] = (uint32_t)(x >> (i * 4 + j)) | 1;
	for (r = 0; r < n / 10 + 1; r++) {
		for (i = 0; i < 4; i++)
			for (j = 0; j < 4; j++) {
				uint32_t v = 0;

				for (k = 0; k < 4; k++)
					v += m[i][k] * m[k][j];
				p[i][j] = v;
			}
		for (i = 0; i < 4; i++)
			for (j = 0; j < 4; j++)
				m[i][j] = p[i][j] ^ r;
	}
	s = mix_rows(s ^ m[1][2]);
	return s ^ m[3][3] ^ m[0][0];
}

/* 4: Adler-32 style sums over the table. */
WORK uint64_t checksum_block(uint64_t x)
{
	unsigned int n = scale[4] * 4, i;
	uint32_t a = 1 + (uint32_t)x, b = 0;

	for (i = 0; i < n; i++) {
		a = (a + table[(i + x) & 255]) % 65521;
		b = (b + a) % 65521;
	}
	x = transform(x ^ ((uint64_t)b << 16 | a));
	return x + a;
}

/* 3: decode LEB128 varints from bytes on the stack. */
WORK uint64_t decode_records(uint64_t x)
{
	unsigned int n = scale[3], i, r;
	unsigned char bytes[64];
	uint64_t s = x, v = 0;

	for (r = 0; r < n / 8 + 1; r++) {
		unsigned int shift = 0;

		for (i = 0; i < sizeof(bytes); i++)
			bytes[i] = (unsigned char)(s >> (i & 56)) ^ (i * 37);
		for (i = 0; i < sizeof(bytes); i++) {
			v |= (uint64_t)(bytes[i] & 0x7f) << (shift & 63);
			shift += 7;
			if (!(bytes[i] & 0x80)) {
				s += v;
				v = 0;
				shift = 0;
			}
		}
	}
	return checksum_block(s) ^ v;
}

/* 2: fill the table with xorshift output. */
WORK uint64_t load_batch(uint64_t x)
{
	unsigned int n = scale[2] * 4, i;
	uint64_t s = x | 1;

	for (i = 0; i < n; i++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		table[(s >> 24) & 255] = (unsigned int)s;
	}
	s = decode_records(s);
	return s ^ table[s & 255];
}

/* 1: one job: a little bookkeeping around the batch. */
WORK uint64_t run_job(uint64_t x, unsigned int job)
{
	unsigned int n = scale[1], i;
	uint64_t s = x + job;

	for (i = 0; i < n; i++)
		s = s * 6364136223846793005ull + 1442695040888963407ull;
	s = load_batch(s);
	for (i = 0; i < n; i++)
		s = (s ^ (s >> 29)) * 0xbf58476d1ce4e5b9ull;
	return s;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

static long long ns_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)(t.tv_sec - t0->tv_sec) * 1000000000ll +
	       (t.tv_nsec - t0->tv_nsec);
}

int main(int argc, char **argv)
{
	unsigned int rounds = argc > 1 ? strtoul(argv[1], NULL, 0) : 120000;
	unsigned int per = rounds / EPOCHS, e, i, n = 0;
	long long ep[EPOCHS], total;
	struct timespec t0, te;
	uint64_t x = 0x9e3779b97f4a7c15ull;

	for (i = 0; i < 256; i++)
		table[i] = i * 0x01000193u;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (e = 0; e < EPOCHS; e++) {
		clock_gettime(CLOCK_MONOTONIC, &te);
		for (i = 0; i < per; i++)
			x = run_job(x, n++);
		ep[e] = ns_since(&te);
	}
	while (n < rounds)
		x = run_job(x, n++);
	total = ns_since(&t0);
	qsort(ep, EPOCHS, sizeof(ep[0]), cmp_ll);
	printf("sframe_work: %lld ns, %u rounds, result %016llx, epoch median %lld ns min %lld ns\n",
	       total, rounds, (unsigned long long)x, ep[EPOCHS / 2], ep[0]);
	return 0;
}
