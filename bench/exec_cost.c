// SPDX-License-Identifier: GPL-2.0
/*
 * exec_cost: what SFrame discovery costs a process that has no SFrame.
 *
 * With kernel.perf_sframe_unwind=1 every executable file mapping queues a
 * look at the file's ELF headers; a program whose files carry no SFrame
 * (Debian's own binaries and libraries) pays for that and gets nothing.
 * Time fork + exec + exit of /bin/true (dynamically linked: the kernel
 * maps it and ld.so, ld.so maps libc) with the switch on and off, in
 * alternating blocks, and print the median of the blocks' ratios.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

#define SWITCH	"/proc/sys/kernel/perf_sframe_unwind"
#define ROUNDS	11
#define EXECS	40

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

/* ns per fork + exec + wait of @path */
static double block(const char *path)
{
	double t0 = now_ns();
	int i, st;

	for (i = 0; i < EXECS; i++) {
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
	return (now_ns() - t0) / EXECS;
}

int main(void)
{
	double ratio[ROUNDS], on[ROUNDS], off[ROUNDS];
	const char *path = "/bin/true";
	int r;

	if (set_switch("1")) {
		printf("# exec_cost: %s: not there, nothing to measure\n", SWITCH);
		return 1;
	}
	block(path);		/* warm the page cache */
	for (r = 0; r < ROUNDS; r++) {
		set_switch("0");
		off[r] = block(path);
		set_switch("1");
		on[r] = block(path);
		ratio[r] = on[r] / off[r];
	}
	set_switch("1");
	printf("# exec_cost: fork+exec+exit of %s: %.0f us with the switch on, %.0f us off (medians of %d blocks of %d)\n",
	       path, median(on, ROUNDS) / 1000, median(off, ROUNDS) / 1000,
	       ROUNDS, EXECS);
	printf("bench sframe.nosframe_exec_overhead_pct %.1f %%\n",
	       (median(ratio, ROUNDS) - 1) * 100);
	return 0;
}
