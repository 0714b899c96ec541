// SPDX-License-Identifier: GPL-2.0
/*
 * buildid: what one build-ID parse of a cached binary costs in the kernel,
 * fault-free and sleepable, next to user space doing the same job.
 *
 * Each kernel cost is the difference of two otherwise identical calls
 * timed side by side in one run (buildid.nofault_call_ns and
 * buildid.noid_call_ns are the whole calls, with and without build IDs,
 * so that kernels whose paths without build IDs differ can be compared):
 *  - fault-free: a raw-tracepoint BPF program run with BPF_PROG_TEST_RUN
 *    takes one user frame with bpf_get_stack(BPF_F_USER_STACK), with and
 *    without BPF_F_USER_BUILD_ID; the program is static, so the frame
 *    lies in its own file, whose build ID the first call parses with the
 *    fault-free parser;
 *  - sleepable: PROCMAP_QUERY on the program's executable mapping, with
 *    and without a build-ID buffer.
 * Neither kernel side resolves a path or opens a file: both parse the file
 * the mapping already holds (vma->vm_file), and the cost is the difference
 * of calls with and without the build ID.  So the user-space baseline
 * that does the same work, buildid.userspace_ratio, parses the same file
 * from a descriptor opened once beforehand: one pread() of the first
 * 4 KiB, which holds the headers and the note (user_build_id_fd() in
 * common.h).  buildid.userspace_open_ratio adds what a tool that only has
 * the path (from /proc/PID/maps) must also do: open() by path and close(),
 * work the kernel sides do not do.  The program first copies itself to
 * tmpfs and runs from there, so that every side reads the same cached
 * file (the guest's root is 9p, where user-space reads would cost a round
 * trip each).
 *
 * Rounds alternate the order of everything: even rounds run nofault
 * (with, then without), sleepable (with, without), user space (fd, then
 * path); odd rounds run the same in reverse.  The median round counts.
 * There is no cold case: nothing caches a build ID, and the setup's
 * checks have parsed the file (and filled the page cache) once each way
 * before the first timed call, so every call is a warm one.
 */
#include <elf.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/fs.h>

#include "common.h"

#define ROUNDS 9
#define COPY "/tmp/buildid-bench"
#define ITERS 2000

/* ---- fault-free: bpf_get_stack with a build ID, from BPF_PROG_TEST_RUN */

/*
 * The buffer holds one entry either way, a struct bpf_stack_build_id with
 * build IDs and one IP without: both calls then walk the same single
 * frame (a 32-byte buffer would have the call without build IDs walk four
 * frames, and its difference would not be the cost of a parse).
 */
static int load_stack_prog(__u64 flags)
{
	int size = flags & BPF_F_USER_BUILD_ID ? 32 : 8;
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = 6, .src_reg = 1 },
		{ .code = BPF_ST | BPF_MEM | BPF_DW, .dst_reg = 10, .off = -8 },
		{ .code = BPF_ST | BPF_MEM | BPF_DW, .dst_reg = 10, .off = -16 },
		{ .code = BPF_ST | BPF_MEM | BPF_DW, .dst_reg = 10, .off = -24 },
		{ .code = BPF_ST | BPF_MEM | BPF_DW, .dst_reg = 10, .off = -32 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = 1, .src_reg = 6 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = 2, .src_reg = 10 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = 2, .imm = -32 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 3, .imm = size },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 4, .imm = (int)flags },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_get_stack },
		/* return the first entry's status (or low bits of its IP) */
		{ .code = BPF_LDX | BPF_MEM | BPF_W, .dst_reg = 0, .src_reg = 10, .off = -32 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	char log[4096] = "";
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_RAW_TRACEPOINT;
	attr.insns = (__u64)(uintptr_t)insns;
	attr.insn_cnt = sizeof(insns) / sizeof(insns[0]);
	attr.license = (__u64)(uintptr_t)"GPL";
	attr.log_buf = (__u64)(uintptr_t)log;
	attr.log_size = sizeof(log);
	attr.log_level = 1;
	fd = syscall(__NR_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));
	if (fd < 0)
		fprintf(stderr, "# BPF_PROG_LOAD: %s\n%s\n", strerror(errno), log);
	return fd;
}

static int run_prog(int fd, __u32 *retval)
{
	union bpf_attr attr;
	int err;

	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = fd;
	err = syscall(__NR_bpf, BPF_PROG_TEST_RUN, &attr, sizeof(attr));
	*retval = attr.test.retval;
	return err;
}

/*
 * Calls whose first frame came back without a build ID, over all timed
 * calls of the program with BPF_F_USER_BUILD_ID: a kernel that falls back
 * to IPs would look fast for doing less work.
 */
static long missed, timed;

static double time_prog(int fd, bool with_id)
{
	double t0 = now_ns(), t;
	__u32 r[ITERS];
	int i;

	for (i = 0; i < ITERS; i++)
		run_prog(fd, &r[i]);
	t = (now_ns() - t0) / ITERS;
	for (i = 0; with_id && i < ITERS; i++)
		missed += r[i] != BPF_STACK_BUILD_ID_VALID;
	timed += with_id ? ITERS : 0;
	return t;
}

/* ---- sleepable: PROCMAP_QUERY with and without a build ID */

static int query(int fd, unsigned long addr, unsigned char *id)
{
	struct procmap_query q;

	memset(&q, 0, sizeof(q));
	q.size = sizeof(q);
	q.query_addr = addr;
	if (id) {
		q.build_id_addr = (__u64)(uintptr_t)id;
		q.build_id_size = 20;
	}
	if (ioctl(fd, PROCMAP_QUERY, &q))
		return -errno;
	return id ? (int)q.build_id_size : 0;
}

static double time_query(int fd, unsigned long addr, unsigned char *id)
{
	double t0 = now_ns();
	int i;

	for (i = 0; i < ITERS; i++)
		query(fd, addr, id);
	return (now_ns() - t0) / ITERS;
}

/* User space, from a descriptor it holds (@fd >= 0) or by @path. */
static double time_user(int fd, const char *path)
{
	unsigned char id[20];
	double t0 = now_ns();
	int i;

	if (fd >= 0)
		for (i = 0; i < ITERS; i++)
			user_build_id_fd(fd, id);
	else
		for (i = 0; i < ITERS; i++)
			user_build_id(path, id);
	return (now_ns() - t0) / ITERS;
}

/* The program's executable mapping: its start address and path. */
static int find_self(unsigned long *addr, char *path, size_t size)
{
	char line[512], perms[8], file[400];
	unsigned long s, e;
	FILE *f = fopen("/proc/self/maps", "r");
	int found = 0;

	while (f && !found && fgets(line, sizeof(line), f)) {
		file[0] = 0;
		if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %399s", &s, &e, perms, file) >= 3 &&
		    perms[2] == 'x' && !strcmp(file, COPY)) {
			*addr = s;
			snprintf(path, size, "%s", file);
			found = 1;
		}
	}
	if (f)
		fclose(f);
	return found ? 0 : -1;
}

int main(int argc, char **argv)
{
	double nofault[ROUNDS], sleepable[ROUNDS], user[ROUNDS], user_open[ROUNDS];
	double call[ROUNDS], call_ip[ROUNDS];
	double t_with, t_without, q_with, q_without;
	unsigned char kid[20], uid[20], fid[20];
	int with, without, mfd, r, ulen, have_query, sfd;
	unsigned long self_addr;
	char self[400];
	__u32 ret;

	run_from_tmpfs(argv, COPY);
	if (find_self(&self_addr, self, sizeof(self))) {
		printf("# buildid: no executable mapping of %s\n", COPY);
		return 1;
	}
	ulen = user_build_id(self, uid);
	sfd = open(self, O_RDONLY | O_CLOEXEC);
	if (sfd < 0 || user_build_id_fd(sfd, fid) != ulen || memcmp(fid, uid, ulen)) {
		printf("# buildid: %s read by descriptor and by path differ\n", self);
		return 1;
	}
	with = load_stack_prog(BPF_F_USER_STACK | BPF_F_USER_BUILD_ID);
	without = load_stack_prog(BPF_F_USER_STACK);
	if (ulen <= 0 || with < 0 || without < 0) {
		printf("# buildid: setup failed (%s, id %d)\n", self, ulen);
		return 1;
	}
	/* The measured call must really take the build-ID path. */
	if (run_prog(with, &ret) || ret != BPF_STACK_BUILD_ID_VALID) {
		printf("# buildid: bpf_get_stack gave status %u, not VALID\n", ret);
		return 1;
	}
	mfd = open("/proc/self/maps", O_RDONLY);
	r = query(mfd, self_addr, kid);
	have_query = r == ulen && !memcmp(kid, uid, ulen);
	if (!have_query)
		printf("# buildid: PROCMAP_QUERY unavailable or wrong (%d)\n", r);

	for (r = 0; r < ROUNDS; r++) {
		q_with = q_without = 0;
		if (!(r & 1)) {
			t_with = time_prog(with, true);
			t_without = time_prog(without, false);
			if (have_query) {
				q_with = time_query(mfd, self_addr, kid);
				q_without = time_query(mfd, self_addr, NULL);
			}
			user[r] = time_user(sfd, NULL);
			user_open[r] = time_user(-1, self);
		} else {
			user_open[r] = time_user(-1, self);
			user[r] = time_user(sfd, NULL);
			if (have_query) {
				q_without = time_query(mfd, self_addr, NULL);
				q_with = time_query(mfd, self_addr, kid);
			}
			t_without = time_prog(without, false);
			t_with = time_prog(with, true);
		}
		nofault[r] = t_with - t_without;
		call[r] = t_with;
		call_ip[r] = t_without;
		sleepable[r] = q_with - q_without;
	}
	printf("# buildid: %s, %d-byte ID, %d rounds of %d calls\n", self, ulen,
	       ROUNDS, ITERS);
	printf("# buildid: %ld of %ld timed calls with BPF_F_USER_BUILD_ID gave no build ID\n",
	       missed, timed);
	printf("# buildid: one BPF_PROG_TEST_RUN of bpf_get_stack(BPF_F_USER_STACK): %.0f ns with BPF_F_USER_BUILD_ID, %.0f ns without\n",
	       median(call, ROUNDS), median(call_ip, ROUNDS));
	if (!missed)
		printf("bench buildid.nofault_call_ns %.0f ns\n",
		       median(call, ROUNDS));
	printf("bench buildid.noid_call_ns %.0f ns\n", median(call_ip, ROUNDS));
	if (missed)
		printf("# buildid: so buildid.nofault_ns is not the cost of a parse\n");
	else
		printf("bench buildid.nofault_ns %.0f ns\n",
		       median(nofault, ROUNDS));
	if (have_query)
		printf("bench buildid.sleepable_ns %.0f ns\n", median(sleepable, ROUNDS));
	printf("# buildid: user space %.0f ns from a held descriptor (one pread), %.0f ns by path (open, pread, close)\n",
	       median(user, ROUNDS), median(user_open, ROUNDS));
	printf("bench buildid.userspace_ratio %.1f x\n",
	       median(user, ROUNDS) / median(nofault, ROUNDS));
	printf("bench buildid.userspace_open_ratio %.1f x\n",
	       median(user_open, ROUNDS) / median(nofault, ROUNDS));
	if (have_query)
		printf("bench buildid.userspace_vs_sleepable_ratio %.1f x\n",
		       median(user, ROUNDS) / median(sleepable, ROUNDS));
	return 0;
}
