// SPDX-License-Identifier: GPL-2.0
/*
 * fallback_cost: what the check of a caller read from a frame record
 * costs.  Where a frame has no table, the kernel's walk steps through its
 * frame record, and the return address it reads there must be a call
 * site in the process's code: a binary search of the process's registered
 * mappings and a fault-free read of the bytes before the address, decoded.
 * 6.1's frame-pointer walk (kernel.uwtable=0) takes the same steps
 * without the check.
 *
 * This program is built with frame pointers and without tables.  At the
 * bottom of a chain of DEEP (or SHALLOW) calls of its own it takes page
 * faults, each sampled by a software event on itself with a user
 * callchain (sample period 1): every fault walks the chain.  Rounds
 * alternate the switch on and off.  The cost of a frame is the
 * difference of the times of a fault at the two depths over the
 * difference of the frames walked, which the first sample of each run
 * tells.  Bench lines: the cost of a frame with the check and without,
 * and their ratio (medians over the rounds).
 *
 *   fallback_cost [FAULTS [ROUNDS]]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "common.h"

#define FAULTS		20000
#define ROUNDS		5
#define DEEP		100
#define SHALLOW		4
#define RING_PAGES	16
#define PAGE		4096
#define SYSCTL_UWTABLE	"/proc/sys/kernel/uwtable"
#define SYSCTL_RATE	"/proc/sys/kernel/perf_event_max_sample_rate"

#define WORK __attribute__((noipa))

static char *page;
static int nr_faults;

static int write_str(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return -1;
	ret = fputs(s, f) < 0;
	return fclose(f) || ret ? -1 : 0;
}

static int read_str(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	int ret;

	if (!f)
		return -1;
	ret = fgets(buf, size, f) ? 0 : -1;
	fclose(f);
	return ret;
}

/* The time of one fault, each one sampled with its callchain. */
WORK static double faults(void)
{
	double t0 = now_ns();
	int i;

	for (i = 0; i < nr_faults; i++) {
		madvise(page, PAGE, MADV_DONTNEED);
		*(volatile char *)page = 1;
	}
	return (now_ns() - t0) / nr_faults;
}

static volatile int sink;

/* @n frames of this function above faults(). */
WORK static double descend(int n)
{
	double ns;

	if (!n)
		return faults();
	ns = descend(n - 1);
	sink = n;		/* after the call: no tail call */
	return ns;
}

/* The user frames of the first sample in the ring of @base, or -1. */
static int first_chain(void *base)
{
	struct perf_event_mmap_page *meta = base;
	const unsigned char *data = (const unsigned char *)base + PAGE;
	const struct perf_event_header *h = (const void *)data;
	const uint64_t *w = (const uint64_t *)(h + 1);
	uint64_t nr, i;
	int user = -1;

	if (__atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE) < sizeof(*h) ||
	    h->type != PERF_RECORD_SAMPLE)
		return -1;
	/* ip, nr, ips[nr] */
	nr = w[1];
	if ((2 + nr) * 8 + sizeof(*h) > h->size)
		return -1;
	for (i = 0; i < nr; i++) {
		if (w[2 + i] == PERF_CONTEXT_USER)
			user = 0;
		else if (user >= 0 && w[2 + i] < (uint64_t)PERF_CONTEXT_MAX)
			user++;
	}
	return user;
}

/* One run at @depth: the time of a fault, and the frames of a walk. */
static int run(int depth, double *ns, int *frames)
{
	struct perf_event_attr attr;
	size_t len = (1 + RING_PAGES) * PAGE;
	void *base;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	attr.exclude_kernel = 1;
	attr.exclude_callchain_kernel = 1;
	attr.disabled = 1;
	fd = syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0) {
		perror("fallback_cost: perf_event_open");
		return -1;
	}
	base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (base == MAP_FAILED) {
		perror("fallback_cost: mmap");
		close(fd);
		return -1;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	*ns = descend(depth);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	*frames = first_chain(base);
	munmap(base, len);
	close(fd);
	return *frames > 0 ? 0 : -1;
}

/* The cost of a frame with the switch at @on: ns over frames walked. */
static int frame_ns(int on, int round, double *ns)
{
	double deep, shallow;
	int fd, fs;

	if (write_str(SYSCTL_UWTABLE, on ? "1\n" : "0\n") ||
	    run(SHALLOW, &shallow, &fs) || run(DEEP, &deep, &fd))
		return -1;
	if (fd <= fs) {
		printf("# fallback_cost: %d frames deep, %d shallow\n", fd, fs);
		return -1;
	}
	*ns = (deep - shallow) / (fd - fs);
	printf("# round %d, kernel.uwtable=%d: %.0f ns a fault with %d user frames, %.0f ns with %d: %.1f ns a frame\n",
	       round, on, shallow, fs, deep, fd, *ns);
	return 0;
}

int main(int argc, char **argv)
{
	int rounds = argc > 2 ? atoi(argv[2]) : ROUNDS;
	double on[16], off[16], dummy, c, p;
	char old_on[32], old_rate[32];
	int r, f, ret = 1;

	nr_faults = argc > 1 ? atoi(argv[1]) : FAULTS;
	if (rounds < 1 || rounds > 16 || nr_faults < 1)
		return 2;
	page = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED ||
	    read_str(SYSCTL_UWTABLE, old_on, sizeof(old_on)) ||
	    read_str(SYSCTL_RATE, old_rate, sizeof(old_rate))) {
		perror("fallback_cost");
		return 1;
	}
	/* every fault a sample: no throttling at the default rate's limit */
	if (write_str(SYSCTL_RATE, "1000000\n"))
		perror("fallback_cost: " SYSCTL_RATE);
	/*
	 * The first sample has this process's mappings registered on its
	 * way back to user space; from then on its walks check callers.
	 */
	if (write_str(SYSCTL_UWTABLE, "1\n") || run(SHALLOW, &dummy, &f))
		goto out;
	/* side by side, each round in the other order than the last */
	for (r = 0; r < rounds; r++)
		if (frame_ns(r & 1, r + 1, r & 1 ? &on[r] : &off[r]) ||
		    frame_ns(!(r & 1), r + 1, r & 1 ? &off[r] : &on[r]))
			goto out;
	c = median(on, rounds);
	p = median(off, rounds);
	printf("bench fallback.frame_ns_checked %.1f ns   a frame-record step whose caller is checked (kernel.uwtable=1, a file without a table), median of %d rounds\n",
	       c, rounds);
	printf("bench fallback.frame_ns_plain %.1f ns   the same step in 6.1's frame-pointer walk (kernel.uwtable=0)\n",
	       p);
	printf("bench fallback.check_ratio %.2f x   checked over plain, per frame\n",
	       c / p);
	ret = 0;
out:
	write_str(SYSCTL_UWTABLE, old_on);
	write_str(SYSCTL_RATE, old_rate);
	return ret;
}
