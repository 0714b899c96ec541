// SPDX-License-Identifier: GPL-2.0
/*
 * exec_cost: what SFrame discovery costs a process that has no SFrame.
 *
 * With kernel.uwtable=1, the executable file mappings of a
 * process that may be sampled have their ELF headers looked at: those of
 * a process started while something takes callchains, from exec on, and
 * those of one sampled since.  A program whose files carry no SFrame
 * (Debian's own binaries and libraries) pays for that and gets nothing.
 * Files found without a table are remembered, so that cost should fall
 * on the first exec after a file is written, and nowhere else.
 *
 * Everything below is measured twice: with nothing taking callchains
 * (the sframe.* lines: a process that is never sampled should cost
 * nothing at all), then, in this program run again with a perf event
 * that takes callchains open and never enabled, as under a profiler
 * (the sframe.profiled.* lines, /bin/true left out).
 *
 * Measured with the switch on and off, in pairs of one exec each, the
 * order within a pair alternating from pair to pair; each line is the
 * median of the pairs' ratios (on / off - 1), printed with the 95 %
 * confidence interval of that median (from the order statistics), so
 * that "within 1 % of zero" can be read off the line:
 *
 *  - warm (sframe.nosframe_exec_overhead_pct, and _bintrue_ for
 *    /bin/true, which maps itself, ld.so and libc): fork + exec + exit of
 *    nosframe_libs200, a program linked with 200 libraries without
 *    SFrame, from a copy in /tmp.  One exec with the switch on before the
 *    pairs (the warm-up) teaches the kernel the files; turning the switch
 *    off does not make it forget them, so every "on" exec of every pair,
 *    whichever side ran first, finds all its files in the negative cache
 *    and reads none: this line is the cost of those lookups, by design,
 *    not of reading headers.  That cost is the cold line's;
 *  - cold (sframe.nosframe_exec_cold_overhead_pct): one exec of a fresh
 *    copy of the program and its libraries (new files, so nothing is
 *    remembered yet: every "on" exec looks at the headers of its 201
 *    files), written just before; each side has its own copy, and which
 *    copy is written first alternates every two pairs, the exec order
 *    every pair, so each side runs first and last written alike;
 *  - the same two costs for one mapping, without exec's noise
 *    (sframe.nosframe_mmap_cold_ns and _warm_ns): mmap(PROT_EXEC) and
 *    munmap of each of 200 fresh copies of one of the libraries, on and
 *    off alternating by round, then of the same files again.
 * The page cache holds every file for both sides (tmpfs copies, and the
 * warm-up exec for /bin/true's files on 9p).
 *
 * All of that with kernel.uwtable_derive off, so that the files have
 * no table at all.  With it on (the default) the libraries, which have
 * .eh_frame, get tables derived from it when a process that may be
 * sampled maps them, once: a table is kept after its last mapping, so
 * later execs find it.  sframe.profiled.derived_exec_overhead_pct is the
 * warm line of a profiled process with derivation on.  The switch is put
 * back as it was.
 */
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

#define SWITCH	"/proc/sys/kernel/uwtable"
#define DERIVE	"/proc/sys/kernel/uwtable_derive"
#define WARM_PAIRS	201
#define COLD_PAIRS	201
#define MMAP_ROUNDS	31
#define NR_LIBS	200
#define PROFILED_ARG	"--profiled"

static int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	close(fd);
	return ok ? 0 : -1;
}

static int set_switch(const char *val)
{
	return write_file(SWITCH, val);
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

/*
 * The median of @n ratios, as a percentage (ratio - 1), and the bounds of
 * its 95 % confidence interval: the order statistics n/2 -+ 0.98 sqrt(n)
 * (the binomial's normal approximation).  Sorts @ratio.
 */
static double ci_lo, ci_hi;

static double median_pct(double *ratio, int n)
{
	int k = (int)(0.98 * sqrt(n) + 0.5);

	qsort(ratio, n, sizeof(*ratio), cmp_double);
	ci_lo = (ratio[n / 2 - k > 0 ? n / 2 - k : 0] - 1) * 100;
	ci_hi = (ratio[n / 2 + k < n ? n / 2 + k : n - 1] - 1) * 100;
	return (ratio[n / 2] - 1) * 100;
}

/* One exec on each side, @on_path with the switch on, in @first order. */
static double pair(const char *on_path, const char *off_path, bool on_first,
		   double *on, double *off)
{
	if (on_first) {
		set_switch("1");
		*on = block(on_path, 1);
		set_switch("0");
		*off = block(off_path, 1);
	} else {
		set_switch("0");
		*off = block(off_path, 1);
		set_switch("1");
		*on = block(on_path, 1);
	}
	return *on / *off;
}

/* Warm: @path's files known to the kernel, pairs alternating in order. */
static double warm(const char *path, double *on_med, double *off_med)
{
	static double ratio[WARM_PAIRS], on[WARM_PAIRS], off[WARM_PAIRS];
	int p;

	set_switch("1");
	block(path, 2);		/* the page cache, and the kernel remembers */
	for (p = 0; p < WARM_PAIRS; p++)
		ratio[p] = pair(path, path, p & 1, &on[p], &off[p]);
	set_switch("1");
	*on_med = median(on, WARM_PAIRS);
	*off_med = median(off, WARM_PAIRS);
	return median_pct(ratio, WARM_PAIRS);
}

/* Cold: one exec of files written just before, on and off alternating. */
static double cold(const char *bench, double *on_med, double *off_med)
{
	static double ratio[COLD_PAIRS], on[COLD_PAIRS], off[COLD_PAIRS];
	const char *a = "/tmp/exec_cost.on", *b = "/tmp/exec_cost.off";
	char pa[4096], pb[4096];
	int p;

	for (p = 0; p < COLD_PAIRS; p++) {
		if (p & 2) {	/* write order: alternating every two pairs */
			snprintf(pb, sizeof(pb), "%s", fresh_copy(bench, b));
			snprintf(pa, sizeof(pa), "%s", fresh_copy(bench, a));
		} else {
			snprintf(pa, sizeof(pa), "%s", fresh_copy(bench, a));
			snprintf(pb, sizeof(pb), "%s", fresh_copy(bench, b));
		}
		ratio[p] = pair(pa, pb, p & 1, &on[p], &off[p]);
		remove_copy(a);
		remove_copy(b);
	}
	set_switch("1");
	*on_med = median(on, COLD_PAIRS);
	*off_med = median(off, COLD_PAIRS);
	return median_pct(ratio, COLD_PAIRS);
}

/* ns per mmap(PROT_EXEC) + munmap of each of the NR_LIBS files in @fd. */
static double map_all(const int *fd, size_t len)
{
	double t0 = now_ns();
	int i;

	for (i = 0; i < NR_LIBS; i++) {
		void *m = mmap(NULL, len, PROT_READ | PROT_EXEC, MAP_PRIVATE,
			       fd[i], 0);

		if (m == MAP_FAILED) {
			perror("exec_cost: mmap");
			exit(1);
		}
		munmap(m, len);
	}
	return (now_ns() - t0) / NR_LIBS;
}

/*
 * NR_LIBS new copies of the library @src (@len bytes), open, unlinked:
 * files the kernel has not seen.
 */
static void fresh_fds(int *fd, const char *src, size_t len, const char *tag)
{
	char path[64];
	int i;

	for (i = 0; i < NR_LIBS; i++) {
		snprintf(path, sizeof(path), "/tmp/exec_cost.%s.%d", tag, i);
		fd[i] = open(path, O_RDWR | O_CREAT | O_TRUNC, 0755);
		if (fd[i] < 0 || write(fd[i], src, len) != (ssize_t)len) {
			fprintf(stderr, "exec_cost: cannot write %s\n", path);
			exit(1);
		}
		unlink(path);
	}
}

/*
 * The discovery cost of one executable mapping, in ns, on - off: of a
 * file not seen before (*@cold_ns) and of one known (*@warm_ns); medians
 * of MMAP_ROUNDS rounds, the order alternating.
 */
static void map_cost(const char *bench, double *cold_ns, double *warm_ns)
{
	double cold_d[MMAP_ROUNDS], warm_d[MMAP_ROUNDS];
	int a[NR_LIBS], b[NR_LIBS], r, i;
	char path[4096];
	struct stat st;
	char *src;
	int fd;

	snprintf(path, sizeof(path), "%s/libs200/libnosf0.so", bench);
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || !(src = malloc(st.st_size)) ||
	    read(fd, src, st.st_size) != st.st_size) {
		fprintf(stderr, "exec_cost: cannot read %s\n", path);
		exit(1);
	}
	close(fd);
	for (r = 0; r < MMAP_ROUNDS; r++) {
		double on, off;

		fresh_fds(r & 2 ? b : a, src, st.st_size, r & 2 ? "b" : "a");
		fresh_fds(r & 2 ? a : b, src, st.st_size, r & 2 ? "a" : "b");
		if (r & 1) {
			set_switch("1");
			on = map_all(a, st.st_size);
			set_switch("0");
			off = map_all(b, st.st_size);
		} else {
			set_switch("0");
			off = map_all(b, st.st_size);
			set_switch("1");
			on = map_all(a, st.st_size);
		}
		cold_d[r] = on - off;
		/* a's files are known now; off maps them too, no work either */
		if (r & 1) {
			set_switch("1");
			on = map_all(a, st.st_size);
			set_switch("0");
			off = map_all(a, st.st_size);
		} else {
			set_switch("0");
			off = map_all(a, st.st_size);
			set_switch("1");
			on = map_all(a, st.st_size);
		}
		warm_d[r] = on - off;
		for (i = 0; i < NR_LIBS; i++) {
			close(a[i]);
			close(b[i]);
		}
	}
	set_switch("1");
	free(src);
	*cold_ns = median(cold_d, MMAP_ROUNDS);
	*warm_ns = median(warm_d, MMAP_ROUNDS);
}

int main(int argc, char **argv)
{
	bool profiled = argc == 3 && !strcmp(argv[1], PROFILED_ARG);
	char derive[8] = "";
	int fd;
	const char *bench = getenv("BENCH");
	const char *pre = profiled ? "sframe.profiled." : "sframe.";
	double pct, on, off, cold_ns, warm_ns;
	const char *prog;

	if (!bench || set_switch("1")) {
		printf("# exec_cost: no $BENCH or no %s, nothing to measure\n",
		       SWITCH);
		return 1;
	}
	/* the switch as it was: read now, or passed on by the first run */
	if (profiled) {
		snprintf(derive, sizeof(derive), "%s", argv[2]);
	} else if ((fd = open(DERIVE, O_RDONLY)) >= 0) {
		if (read(fd, derive, sizeof(derive) - 1) < 0)
			derive[0] = 0;
		close(fd);
		derive[strcspn(derive, "\n")] = 0;
	}
	if (derive[0] && derive[0] != '-')
		write_file(DERIVE, "0");
	printf("# exec_cost: %s\n", profiled ?
	       "with a perf event that takes callchains open (a profiler running): every process is looked at from exec on" :
	       "nothing takes callchains: a process is looked at only once sampled");
	prog = fresh_copy(bench, "/tmp/exec_cost.warm");
	pct = warm(prog, &on, &off);
	printf("# exec_cost: fork+exec+exit of nosframe_libs200 (200 libraries without SFrame), files known (every on exec a negative-cache hit): %.0f us on, %.0f us off (medians of %d pairs, order alternating; 95 %% CI of the median ratio %+.1f %% to %+.1f %%)\n",
	       on / 1000, off / 1000, WARM_PAIRS, ci_lo, ci_hi);
	printf("bench %snosframe_exec_overhead_pct %.1f %%\n", pre, pct);
	remove_copy("/tmp/exec_cost.warm");

	pct = cold(bench, &on, &off);
	printf("# exec_cost: the first exec of a fresh copy of it (every on exec a negative-cache miss, 201 files looked at): %.0f us on, %.0f us off (medians of %d pairs, order alternating; 95 %% CI of the median ratio %+.1f %% to %+.1f %%)\n",
	       on / 1000, off / 1000, COLD_PAIRS, ci_lo, ci_hi);
	printf("bench %snosframe_exec_cold_overhead_pct %.1f %%\n", pre, pct);

	map_cost(bench, &cold_ns, &warm_ns);
	printf("# exec_cost: one mmap(PROT_EXEC)+munmap of a library without SFrame, on - off (medians of %d rounds of %d files, order alternating); x 201 files that is %.1f %% of the cold exec's %.0f us\n",
	       MMAP_ROUNDS, NR_LIBS, cold_ns * 201 / off * 100, off / 1000);
	printf("bench %snosframe_mmap_cold_ns %.0f ns\n", pre, cold_ns);
	printf("bench %snosframe_mmap_warm_ns %.0f ns\n", pre, warm_ns);
	if (profiled) {
		if (derive[0] && derive[0] != '-' && !write_file(DERIVE, "1")) {
			prog = fresh_copy(bench, "/tmp/exec_cost.derive");
			pct = warm(prog, &on, &off);
			printf("# exec_cost: the same warm exec with tables derived from .eh_frame (uwtable_derive=1): %.0f us on, %.0f us off (medians of %d pairs, order alternating; 95 %% CI of the median ratio %+.1f %% to %+.1f %%)\n",
			       on / 1000, off / 1000, WARM_PAIRS, ci_lo, ci_hi);
			printf("bench %sderived_exec_overhead_pct %.1f %%\n", pre,
			       pct);
			remove_copy("/tmp/exec_cost.derive");
		}
		if (derive[0] && derive[0] != '-')
			write_file(DERIVE, derive);
		return 0;
	}

	pct = warm("/bin/true", &on, &off);
	printf("# exec_cost: fork+exec+exit of /bin/true: %.0f us on, %.0f us off (95 %% CI of the median ratio %+.1f %% to %+.1f %%)\n",
	       on / 1000, off / 1000, ci_lo, ci_hi);
	printf("bench %snosframe_exec_bintrue_overhead_pct %.1f %%\n", pre,
	       pct);

	/* the same again, in a process started with the event open */
	if (callchain_holder() < 0) {
		perror("exec_cost: perf_event_open");
		goto fail;
	}
	fflush(stdout);
	execl("/proc/self/exe", argv[0], PROFILED_ARG, derive[0] ? derive : "-",
	      (char *)NULL);
	perror("exec_cost: exec");
fail:
	if (derive[0])
		write_file(DERIVE, derive);
	return 1;
}
