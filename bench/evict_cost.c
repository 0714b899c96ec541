// SPDX-License-Identifier: GPL-2.0
/*
 * evict_cost: what the eviction of inodes that never had a table costs
 * while many tables are kept.  Every inode the host frees goes through
 * uwtable_inode_evict(); one whose file never had a table must cost the
 * same whether no table or tens of thousands are kept.
 *
 * The program holds a callchain event on itself across an exec of itself
 * (as perf record -g does for its command), so that its mappings get
 * tables.  In a tmpfs of its
 * own it times the creation and the unlink of NR_INODES empty files (on
 * tmpfs an unlink evicts the inode), in rounds: one with no table kept
 * (after echo 2 > drop_caches drops the kept ones), one with
 * NR_TABLES kept, each table that of a one-page ELF file of its own
 * with a small SFrame section, mapped once and unmapped.  The ratio of
 * the medians of unlink time per inode, with / without, is the bench
 * line; the goal is within noise, at most 1.05.
 *
 *   evict_cost [NR_TABLES [NR_INODES [ROUNDS]]]
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "common.h"

#define NR_TABLES	30000
#define NR_INODES	200000
#define ROUNDS		3
#define DIR		"/tmp/evict_cost"
#define STATS		"/sys/kernel/debug/uwtable/"
#define PAGE		4096

#ifndef PT_GNU_SFRAME
#define PT_GNU_SFRAME	0x6474e554
#endif

/*
 * An SFrame section (version 2, self-relative starts, AMD64) of one
 * function, 0x800-0x80f, CFA = SP + 8; at file offset and address 0x200.
 */
static const unsigned char sframe[] = {
	0xe2, 0xde, 0x02, 0x05, 0x03, 0x00, 0xf8, 0x00,
	0x01, 0x00, 0x00, 0x00,		/* 1 function */
	0x01, 0x00, 0x00, 0x00,		/* 1 FRE */
	0x03, 0x00, 0x00, 0x00,		/* FRE area: 3 bytes */
	0x00, 0x00, 0x00, 0x00,		/* index at 0 (section offset 28) */
	0x14, 0x00, 0x00, 0x00,		/* FRE area at 20 (section offset 48) */
	/* start 0x800 - (0x200 + 28), size 0x10, FREs at 0, 1 FRE */
	0xe4, 0x05, 0x00, 0x00,  0x10, 0, 0, 0,  0, 0, 0, 0,  1, 0, 0, 0,
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x03, 0x08,		/* at 0: CFA = SP + 8 */
};

static unsigned char image[PAGE];

static void make_image(void)
{
	Elf64_Ehdr *eh = (void *)image;
	Elf64_Phdr *ph = (void *)(image + sizeof(*eh));

	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_DYN;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_phoff = sizeof(*eh);
	eh->e_ehsize = sizeof(*eh);
	eh->e_phentsize = sizeof(*ph);
	eh->e_phnum = 2;
	ph[0].p_type = PT_LOAD;
	ph[0].p_flags = PF_R | PF_X;
	ph[0].p_filesz = PAGE;
	ph[0].p_memsz = PAGE;
	ph[0].p_align = PAGE;
	ph[1].p_type = PT_GNU_SFRAME;
	ph[1].p_flags = PF_R;
	ph[1].p_offset = 0x200;
	ph[1].p_vaddr = 0x200;
	ph[1].p_paddr = 0x200;
	ph[1].p_filesz = sizeof(sframe);
	ph[1].p_memsz = sizeof(sframe);
	ph[1].p_align = 8;
	memcpy(image + 0x200, sframe, sizeof(sframe));
	image[0x800] = 0xc3;	/* ret */
}

static long stat_of(const char *name)
{
	char path[128];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), STATS "%s", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static int write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	int ret = 0;

	if (fd < 0)
		return -1;
	if (len && write(fd, buf, len) != (ssize_t)len)
		ret = -1;
	close(fd);
	return ret;
}

/* Write @n table files, wait for their ctime to be in the past, map each. */
static int keep_tables(int n)
{
	char path[64];
	void *p;
	int i, fd;

	if (mkdir(DIR "/t", 0755) && errno != EEXIST)
		return -1;
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), DIR "/t/%d", i);
		if (write_file(path, image, sizeof(image)))
			return -1;
	}
	/* a table of a file changed in the current clock tick is not kept */
	usleep(100 * 1000);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), DIR "/t/%d", i);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -1;
		p = mmap(NULL, PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
		close(fd);
		if (p == MAP_FAILED)
			return -1;
		munmap(p, PAGE);
	}
	return 0;
}

static void drop_kept(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);

	sync();
	if (fd >= 0) {
		if (write(fd, "2", 1) != 1)
			perror("evict_cost: drop_caches");
		close(fd);
	}
}

/* ns per inode of unlinking @n empty files made just before */
static double unlink_ns(int n)
{
	char path[64];
	double t0;
	int i;

	if (mkdir(DIR "/e", 0755) && errno != EEXIST)
		return -1;
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), DIR "/e/%d", i);
		if (write_file(path, NULL, 0))
			return -1;
	}
	t0 = now_ns();
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), DIR "/e/%d", i);
		if (unlink(path))
			return -1;
	}
	return (now_ns() - t0) / n;
}

int main(int argc, char **argv)
{
	int nr_tables = argc > 1 ? atoi(argv[1]) : NR_TABLES;
	int nr_inodes = argc > 2 ? atoi(argv[2]) : NR_INODES;
	int rounds = argc > 3 ? atoi(argv[3]) : ROUNDS;
	double with[16], without[16], w, wo;
	long kept0, kept1;
	int r;

	if (rounds < 1 || rounds > 16 || nr_tables < 1 || nr_inodes < 1)
		return 2;
	/*
	 * A process is looked at for tables from its exec on if something
	 * takes its callchains then: hold the event, and exec again.
	 */
	if (!getenv("EVICT_COST_PROFILED")) {
		if (callchain_holder() < 0) {
			perror("evict_cost: perf_event_open");
			return 1;
		}
		setenv("EVICT_COST_PROFILED", "1", 1);
		execv("/proc/self/exe", argv);
		perror("evict_cost: exec");
		return 1;
	}
	make_image();
	if (stat_of("kept_tables") < 0)
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	mkdir(DIR, 0755);
	if (mount("tmpfs", DIR, "tmpfs", 0, "size=512m")) {
		perror("evict_cost: tmpfs");
		return 1;
	}
	for (r = 0; r < rounds; r++) {
		drop_kept();
		kept0 = stat_of("kept_tables");
		without[r] = unlink_ns(nr_inodes);
		if (keep_tables(nr_tables))
			break;
		kept1 = stat_of("kept_tables");
		with[r] = unlink_ns(nr_inodes);
		printf("# round %d: %ld kept tables: %.0f ns an unlink; %ld kept: %.0f ns\n",
		       r + 1, kept0, without[r], kept1, with[r]);
		if (without[r] < 0 || with[r] < 0 || kept1 - kept0 < nr_tables * 9 / 10) {
			printf("# evict_cost: round %d failed (%ld tables kept of %d)\n",
			       r + 1, kept1 - kept0, nr_tables);
			break;
		}
	}
	umount2(DIR, MNT_DETACH);
	drop_kept();
	if (r < rounds)
		return 1;
	w = median(with, rounds);
	wo = median(without, rounds);
	printf("bench evict.unlink_ns %.0f ns   an empty tmpfs file's unlink (its inode evicted), none kept, median of %d rounds of %d\n",
	       wo, rounds, nr_inodes);
	printf("bench evict.kept_tables_ratio %.3f x   the same with %d tables kept, over none kept\n",
	       w / wo, nr_tables);
	printf("# target: within noise, at most 1.05: %s\n", w / wo <= 1.05 ? "met" : "NOT met");
	return 0;
}
