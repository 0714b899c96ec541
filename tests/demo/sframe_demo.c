// SPDX-License-Identifier: GPL-2.0
/*
 * sframe_demo: a short burst of CPU work five calls below main, built
 * without frame pointers and with an SFrame section (tests/Makefile:
 * -O2 -fomit-frame-pointer -Wa,--gsframe), for the demo's
 * "perf record -g" section.
 *
 *   main -> serve -> handle_request -> parse_message -> decode_fields -> checksum
 *
 * Most of the time is spent in checksum.  Every function works after its
 * call returns, so none is a tail call and each keeps a frame of its own.
 * Usage: sframe_demo [ROUNDS]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define STEP __attribute__((noipa))

static volatile unsigned int work = 64;

STEP uint32_t checksum(uint32_t x)
{
	uint32_t t[16], crc = ~x;
	unsigned int i, b;

	for (i = 0; i < 16; i++) {
		uint32_t c = i;

		for (b = 0; b < 4; b++)
			c = (c >> 1) ^ (0xedb88320u & -(c & 1));
		t[i] = c;
	}
	for (i = 0; i < work * 8; i++)
		crc = (crc >> 4) ^ t[(crc ^ (x >> (i & 28))) & 15];
	return ~crc;
}

STEP uint32_t decode_fields(uint32_t x)
{
	unsigned int i;

	for (i = 0; i < work; i++)
		x = x * 1103515245u + 12345u;
	return checksum(x) ^ (x >> 7);
}

STEP uint32_t parse_message(uint32_t x)
{
	unsigned int i;

	for (i = 0; i < work / 2; i++)
		x ^= x << 5 | x >> 27;
	return decode_fields(x) + x;
}

STEP uint32_t handle_request(uint32_t x)
{
	return parse_message(x * 2654435761u) ^ x;
}

STEP uint32_t serve(unsigned int requests)
{
	uint32_t acc = 0;
	unsigned int i;

	for (i = 0; i < requests; i++)
		acc += handle_request(acc + i);
	return acc;
}

int main(int argc, char **argv)
{
	unsigned int rounds = argc > 1 ? strtoul(argv[1], NULL, 0) : 20000;

	printf("sframe_demo: %u requests, result %08x\n", rounds, serve(rounds));
	return 0;
}
