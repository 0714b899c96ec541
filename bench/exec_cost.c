// SPDX-License-Identifier: GPL-2.0
/*
 * exec_cost: what SFrame discovery costs a process that has no SFrame.
 *
 * With kernel.perf_sframe_unwind=1 every executable file mapping queues a
 * look at the file's ELF headers; a program whose files carry no SFrame
 * (Debian's own binaries and libraries) pays for that and gets nothing.
 * Files found without a table are remembered, so that cost should fall
 * on the first exec after a file is written, and nowhere else.
 *
 * Measured with the switch on and off, side by side, the order of the
 * two sides alternating from round to round; each line is the median of
 * the rounds' ratios (on / off - 1):
 *
 *  - warm (sframe.nosframe_exec_overhead_pct, and _bintrue_ for
 *    /bin/true, which maps itself, ld.so and libc): fork + exec + exit of
 *    nosframe_libs200, a program linked with 200 libraries without
 *    SFrame, from a copy in /tmp.  One exec with the switch on before the
 *    rounds (the warm-up) teaches the kernel the files; turning the switch
 *    off does not make it forget them, so every "on" exec of every round,
 *    whichever side ran first, finds all its files in the negative cache
 *    and reads none: this line is the cost of those lookups, by design,
 *    not of reading headers.  That cost is the cold line's;
 *  - cold (sframe.nosframe_exec_cold_overhead_pct): one exec of a fresh
 *    copy of the program and its libraries (new files, so nothing is
 *    remembered yet: every "on" exec reads the headers of its 201 files),
 *    written just before; each side has its own copy, and which copy is
 *    written first alternates every two rounds, the exec order every
 *    round, so each side runs first and last written alike.
 * The page cache holds every file for both sides (tmpfs copies, and the
 * warm-up exec for /bin/true's files on 9p).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

#define SWITCH	"/proc/sys/kernel/perf_sframe_unwind"
#define ROUNDS	11
#define EXECS	20
#define COLD_ROUNDS	15
#define NR_LIBS	200

static int set_switch(const char *val)
{
	int fd = open(SWITCH, O_WRONLY);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	close(fd);
	return ok ? 0 : -1;
}

/* ns per fork + exec + wait of @path, @n times */
static double block(const char *path, int n)
{
	double t0 = now_ns();
	int i, st;

	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			execl(path, path, (char *)NULL);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &st, 0) != pid || st) {
			fprintf(stderr, "exec_cost: %s failed\n", path);
			exit(1);
		}
	}
	return (now_ns() - t0) / n;
}

static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in, out, ret = 0;
	ssize_t n = 0;

	in = open(from, O_RDONLY);
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			ret = -1;
	if (in < 0 || out < 0 || n < 0)
		ret = -1;
	if (in >= 0)
		close(in);
	if (out >= 0 && close(out))
		ret = -1;
	return ret;
}

/*
 * A new copy of nosframe_libs200 and its libraries in DIR (new files the
 * kernel has not seen); returns the program's path.
 */
static const char *fresh_copy(const char *bench, const char *dir)
{
	static char prog[4096];
	char from[4096], to[4096];
	int i;

	snprintf(to, sizeof(to), "%s/libs200", dir);
	if (mkdir(dir, 0755) || mkdir(to, 0755))
		goto fail;
	for (i = 0; i < NR_LIBS; i++) {
		snprintf(from, sizeof(from), "%s/libs200/libnosf%d.so", bench, i);
		snprintf(to, sizeof(to), "%s/libs200/libnosf%d.so", dir, i);
		if (copy_file(from, to))
			goto fail;
	}
	snprintf(from, sizeof(from), "%s/nosframe_libs200", bench);
	snprintf(prog, sizeof(prog), "%s/nosframe_libs200", dir);
	if (copy_file(from, prog))
		goto fail;
	return prog;
fail:
	fprintf(stderr, "exec_cost: cannot copy nosframe_libs200 into %s\n", dir);
	exit(1);
}

static void remove_copy(const char *dir)
{
	char path[4096];
	int i;

	for (i = 0; i < NR_LIBS; i++) {
		snprintf(path, sizeof(path), "%s/libs200/libnosf%d.so", dir, i);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/libs200", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/nosframe_libs200", dir);
	unlink(path);
	rmdir(dir);
}

/* The spread of the rounds' ratios, in percent: the noise of a line. */
static double lo_pct, hi_pct;

static void spread(const double *ratio, int n)
{
	int r;

	lo_pct = hi_pct = (ratio[0] - 1) * 100;
	for (r = 1; r < n; r++) {
		if ((ratio[r] - 1) * 100 < lo_pct)
			lo_pct = (ratio[r] - 1) * 100;
		if ((ratio[r] - 1) * 100 > hi_pct)
			hi_pct = (ratio[r] - 1) * 100;
	}
}

/* Warm: the median of the rounds' on/off ratios, alternating the order. */
static double warm(const char *path, double *on_med, double *off_med)
{
	double ratio[ROUNDS], on[ROUNDS], off[ROUNDS];
	int r;

	set_switch("1");
	block(path, 2);		/* the page cache, and the kernel remembers */
	for (r = 0; r < ROUNDS; r++) {
		if (r & 1) {
			set_switch("1");
			on[r] = block(path, EXECS);
			set_switch("0");
			off[r] = block(path, EXECS);
		} else {
			set_switch("0");
			off[r] = block(path, EXECS);
			set_switch("1");
			on[r] = block(path, EXECS);
		}
		ratio[r] = on[r] / off[r];
	}
	set_switch("1");
	spread(ratio, ROUNDS);
	*on_med = median(on, ROUNDS);
	*off_med = median(off, ROUNDS);
	return median(ratio, ROUNDS);
}

/* Cold: one exec of files written just before, on and off alternating. */
static double cold(const char *bench, double *on_med, double *off_med)
{
	double ratio[COLD_ROUNDS], on[COLD_ROUNDS], off[COLD_ROUNDS];
	char a[64], b[64];
	const char *pa, *pb;
	int r;

	for (r = 0; r < COLD_ROUNDS; r++) {
		snprintf(a, sizeof(a), "/tmp/exec_cost.%d.on", r);
		snprintf(b, sizeof(b), "/tmp/exec_cost.%d.off", r);
		if (r & 2) {	/* write order: alternating every two rounds */
			pb = fresh_copy(bench, b);
			pa = fresh_copy(bench, a);
		} else {
			pa = fresh_copy(bench, a);
			pb = fresh_copy(bench, b);
		}
		if (r & 1) {
			set_switch("1");
			on[r] = block(pa, 1);
			set_switch("0");
			off[r] = block(pb, 1);
		} else {
			set_switch("0");
			off[r] = block(pb, 1);
			set_switch("1");
			on[r] = block(pa, 1);
		}
		ratio[r] = on[r] / off[r];
		remove_copy(a);
		remove_copy(b);
	}
	set_switch("1");
	spread(ratio, COLD_ROUNDS);
	*on_med = median(on, COLD_ROUNDS);
	*off_med = median(off, COLD_ROUNDS);
	return median(ratio, COLD_ROUNDS);
}

int main(void)
{
	const char *bench = getenv("BENCH");
	double ratio, on, off;
	const char *prog;

	if (!bench || set_switch("1")) {
		printf("# exec_cost: no $BENCH or no %s, nothing to measure\n",
		       SWITCH);
		return 1;
	}
	prog = fresh_copy(bench, "/tmp/exec_cost.warm");
	ratio = warm(prog, &on, &off);
	printf("# exec_cost: fork+exec+exit of nosframe_libs200 (200 libraries without SFrame), files known (every on exec a negative-cache hit): %.0f us on, %.0f us off (medians of %d rounds of %d, order alternating; rounds from %+.1f %% to %+.1f %%)\n",
	       on / 1000, off / 1000, ROUNDS, EXECS, lo_pct, hi_pct);
	printf("bench sframe.nosframe_exec_overhead_pct %.1f %%\n",
	       (ratio - 1) * 100);
	remove_copy("/tmp/exec_cost.warm");

	ratio = cold(bench, &on, &off);
	printf("# exec_cost: the first exec of a fresh copy of it (every on exec a negative-cache miss, 201 files read): %.0f us on, %.0f us off (medians of %d rounds, order alternating; rounds from %+.1f %% to %+.1f %%)\n",
	       on / 1000, off / 1000, COLD_ROUNDS, lo_pct, hi_pct);
	printf("bench sframe.nosframe_exec_cold_overhead_pct %.1f %%\n",
	       (ratio - 1) * 100);

	ratio = warm("/bin/true", &on, &off);
	printf("# exec_cost: fork+exec+exit of /bin/true: %.0f us on, %.0f us off (rounds from %+.1f %% to %+.1f %%)\n",
	       on / 1000, off / 1000, lo_pct, hi_pct);
	printf("bench sframe.nosframe_exec_bintrue_overhead_pct %.1f %%\n",
	       (ratio - 1) * 100);
	return 0;
}
