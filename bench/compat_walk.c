// SPDX-License-Identifier: GPL-2.0
/*
 * compat_walk: what the AArch32 user callchain walk costs per sample, at
 * its worst, on an arm64 kernel.  A 32-bit ARM program (static) samples
 * itself with a cpu-clock event that takes user callchains, while it
 * spins in one of these shapes:
 *
 *   pc     fp is 0 and the spinning code's table row says it cannot be
 *          unwound: the walk ends at once (the callchain is the sampled
 *          pc);
 *   apcs   fp points at a forged chain of 160 APCS frame records that
 *          pass every check the kernel makes, so the walk goes on to
 *          perf's entry limit (kernel.perf_event_max_stack, 127): the
 *          most frame records one sample can make the kernel read;
 *   table  a leaf without a frame, and fp 0, under 160 recursive calls,
 *          all with EHABI table rows (built with -funwind-tables): the
 *          table walk goes on to the entry limit, a lookup and a step
 *          per frame; a kernel without it stops at once.
 *
 * All three spin in the same loop of two instructions, so that the cost
 * of taking a sample in it is the same.
 *
 * Each round runs the same number of spin iterations without the event
 * and then with it, in each shape, and the difference, over the number
 * of samples the round took, is the cost of one sample in that shape:
 * the timer interrupt, the walk and the ring buffer output.  The medians
 * over the rounds are printed as "bench NAME VALUE UNIT" lines, with the
 * entries per sample, so that a walk that stopped early shows.  The
 * cost of a 127-frame walk is apcs (or table) minus pc.
 *
 * Under QEMU without KVM every number is in emulated time: compare them
 * with each other, and with the same program on another kernel
 * (scripts/bench-compat.sh boots 6.1 as shipped and this series in turn).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

#define NOIPA		__attribute__((__noipa__))
#define RING_PAGES	1024		/* 4 MiB: a round's samples fit */
#define PERIOD_NS	1000000		/* 1,000 samples a second */
#define ROUNDS		7
#define ROUND_NS	300e6		/* the length of a round, unsampled */
#define FORGED		160
#define DEPTH		160

/*
 * The spinning code of every shape, the same loop: spin_fp(n, fp) spins
 * n rounds with r11 = fp, in ARM code whose table row says it cannot be
 * unwound; spin_leaf(n) spins with r11 = 0 (kept in r12), under a row
 * that moves nothing, which gives the caller at every instruction.
 */
void spin_fp(uint32_t n, uint32_t fp);
uint32_t spin_leaf(uint32_t n);
asm(".text\n"
    ".arm\n"
    ".align 2\n"
    ".global spin_fp\n"
    ".type spin_fp, %function\n"
    "spin_fp:\n"
    "	.fnstart\n"
    "	.cantunwind\n"
    "	push	{r11, lr}\n"
    "	mov	r11, r1\n"
    "1:	subs	r0, r0, #1\n"
    "	bne	1b\n"
    "	pop	{r11, pc}\n"
    "	.fnend\n"
    "	.size spin_fp, . - spin_fp\n"
    ".global spin_leaf\n"
    ".type spin_leaf, %function\n"
    "spin_leaf:\n"
    "	.fnstart\n"
    "	mov	r12, r11\n"
    "	mov	r11, #0\n"
    "1:	subs	r0, r0, #1\n"
    "	bne	1b\n"
    "	mov	r11, r12\n"
    "	bx	lr\n"
    "	.fnend\n"
    "	.size spin_leaf, . - spin_leaf\n");

NOIPA uint32_t recurse(uint32_t depth, uint32_t n)
{
	uint32_t r;

	if (!depth)
		return spin_leaf(n);
	r = recurse(depth - 1, n);
	asm volatile("" : "+r"(r));	/* no tail call */
	return r + 1;
}

/*
 * APCS records, each at fp - 12: the caller's fp, the entry sp (fp + 4),
 * the return address, and the address of a push (8: before every pc),
 * one above the other, the last with fp 0.  They sit in this function's
 * frame, above the spinning code's sp, as the kernel requires.
 */
NOIPA void spin_forged(uint32_t n)
{
	uint32_t rec[4 * FORGED];
	int i;

	for (i = 0; i < FORGED; i++) {
		uint32_t fp = (uint32_t)(uintptr_t)&rec[4 * i + 3];

		rec[4 * i] = i + 1 < FORGED ? fp + 16 : 0;
		rec[4 * i + 1] = fp + 4;
		rec[4 * i + 2] = (uint32_t)(uintptr_t)spin_fp;
		rec[4 * i + 3] = 8;
	}
	spin_fp(n, (uint32_t)(uintptr_t)&rec[3]);
	asm volatile("" : : "r"(rec) : "memory");
}

enum shape { PC, APCS, TABLE, NR_SHAPES };
static const char *const shape_name[] = { "pc", "apcs", "table" };

static void run_shape(enum shape s, uint32_t n)
{
	switch (s) {
	case PC:
		spin_fp(n, 0);
		break;
	case APCS:
		spin_forged(n);
		break;
	case TABLE:
		recurse(DEPTH, n);
		break;
	default:
		break;
	}
}

static int perf_fd = -1;
static struct perf_event_mmap_page *ring;

static int perf_open(void)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_period = PERIOD_NS;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.exclude_callchain_kernel = 1;
	a.disabled = 1;
	perf_fd = syscall(__NR_perf_event_open, &a, 0, -1, -1, 0);
	if (perf_fd < 0)
		return -1;
	ring = mmap(NULL, (RING_PAGES + 1) * 4096, PROT_READ | PROT_WRITE,
		    MAP_SHARED, perf_fd, 0);
	return ring == MAP_FAILED ? -1 : 0;
}

/* Count the samples in the ring and their user entries; empty it. */
static void drain(long *samples, long *entries, long *lost)
{
	const unsigned char *data = (const unsigned char *)ring + 4096;
	uint64_t head = __atomic_load_n(&ring->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = ring->data_tail, size = RING_PAGES * 4096ull;

	*samples = *entries = *lost = 0;
	while (tail < head) {
		struct perf_event_header h;
		uint64_t off = tail % size, w[3], i;

		for (i = 0; i < sizeof(h); i++)
			((unsigned char *)&h)[i] = data[(off + i) % size];
		if (h.size < sizeof(h))
			break;
		for (i = 0; i < sizeof(w); i++)
			((unsigned char *)w)[i] = data[(off + 8 + i) % size];
		if (h.type == PERF_RECORD_SAMPLE) {
			/* ip, nr, ips[nr]: one is PERF_CONTEXT_USER */
			(*samples)++;
			*entries += w[1] ? w[1] - 1 : 0;
		} else if (h.type == PERF_RECORD_LOST) {
			*lost += w[1];
		}
		tail += h.size;
	}
	__atomic_store_n(&ring->data_tail, head, __ATOMIC_RELEASE);
}

int main(void)
{
	double cost[NR_SHAPES][ROUNDS], depth[NR_SHAPES][ROUNDS];
	double t, t0, base;
	uint32_t n = 1 << 16;
	int r, s;

	if (perf_open()) {
		printf("# compat_walk: perf_event_open/mmap: %s\n",
		       strerror(errno));
		return 1;
	}

	/* Iterations for a round of ROUND_NS, unsampled. */
	for (;;) {
		t0 = now_ns();
		run_shape(PC, n);
		t = now_ns() - t0;
		if (t > ROUND_NS / 8 || n >= 1u << 30)
			break;
		n *= 2;
	}
	n = (uint32_t)(n * (ROUND_NS / (t > 0 ? t : 1)));

	for (r = 0; r < ROUNDS; r++) {
		for (s = 0; s < NR_SHAPES; s++) {
			long samples, entries, lost;

			t0 = now_ns();
			run_shape(s, n);
			base = now_ns() - t0;

			ioctl(perf_fd, PERF_EVENT_IOC_RESET, 0);
			ioctl(perf_fd, PERF_EVENT_IOC_ENABLE, 0);
			t0 = now_ns();
			run_shape(s, n);
			t = now_ns() - t0;
			ioctl(perf_fd, PERF_EVENT_IOC_DISABLE, 0);
			drain(&samples, &entries, &lost);
			if (!samples) {
				printf("# compat_walk: %s: no samples\n",
				       shape_name[s]);
				return 1;
			}
			if (lost)
				printf("# compat_walk: %s: %ld samples lost\n",
				       shape_name[s], lost);
			cost[s][r] = (t - base) / (samples + lost);
			depth[s][r] = (double)entries / samples;
		}
	}

	printf("# compat_walk: %u iterations a round, %d rounds, a sample every %d us of cpu time\n",
	       n, ROUNDS, PERIOD_NS / 1000);
	for (s = 0; s < NR_SHAPES; s++) {
		printf("bench compat_walk.%s_ns_per_sample %.0f ns\n",
		       shape_name[s], median(cost[s], ROUNDS));
		printf("bench compat_walk.%s_entries %.1f entries\n",
		       shape_name[s], median(depth[s], ROUNDS));
	}
	return 0;
}
