// SPDX-License-Identifier: GPL-2.0
/*
 * procmap: resolving profiler addresses with /proc/self/maps text against
 * the PROCMAP_QUERY ioctl, side by side in one run.
 *
 * The process gets about 650 VMAs (anonymous, file-backed, executable and
 * not) and a batch of 3,200 "captured" addresses of which 460 are unique.
 *  sparse:        the unique addresses fall into 5 executable file mappings
 *                 (as real samples do); the text path reads and parses the
 *                 whole maps file per batch, the ioctl path keeps a small
 *                 cache of VMAs it was given and asks only on a miss.
 *                 Past that, both resolve addresses with the same code: a
 *                 front cache by page, then a binary search of their
 *                 sorted VMAs;
 *  sparse_spread: every unique address lies in a different mapping;
 *  exec_list:     list every executable file-backed VMA with its name;
 *  build_id:      the same with build IDs.  The ioctl parses the file the
 *                 VMA holds and resolves no path; so that both sides do
 *                 the same work, the text path reads each file through a
 *                 descriptor it opened before (found by the name the maps
 *                 line gives): one pread() of the first 4 KiB per file;
 *  build_id_open: the same, the text path opening each file by the path
 *                 the maps line gives (open, pread, close): what a tool
 *                 without a descriptor cache does, and work (the path
 *                 walk, the open) the ioctl side does not do;
 *  query_over_floor: one query (no name, no build ID) over an unknown
 *                 ioctl command on the same fd.
 * Every path checks its answers against the other's.
 *
 * The text path is written to be fast: one pread() loop into a 1 MiB
 * buffer (seq_file hands out about a page per call whatever the buffer),
 * hand-rolled hex parsing, names left in the buffer (no copy), and for the
 * exec lists the permissions checked before the rest of a line is parsed.
 * The batches parse every line, since their addresses may lie in any VMA
 * (the ioctl side asks for any VMA too).  Which side of a pair runs first
 * alternates from call to call; every variant runs once (the checks)
 * before anything is timed, so every timed call is a warm one.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/fs.h>
#include "common.h"

#define ROUNDS 7
#define FLOOR_ROUNDS 21		/* of 1,000 calls each way */
#define NADDR 3200
#define NUNIQ 460
#define MAXV 2048
#define NEXEC_COPIES 4
#define COPY "/tmp/procmap-bench"

struct vma {
	unsigned long start, end, off;
	int exec;
	const char *name;	/* in mapsbuf (text) or in a name buffer (ioctl) */
};

struct res {
	unsigned long off;
	const char *name;
};

/* VMAs sorted by address: all of them (text) or those seen (ioctl). */
struct table {
	struct vma *v[MAXV];
	int n;
};

static struct vma text[MAXV];
static struct table text_tab;
static int ntext;
static char mapsbuf[1 << 20];

static inline unsigned long parse_hex(const char **pp)
{
	const char *p = *pp;
	unsigned long v = 0;

	for (;; p++) {
		unsigned int c = (unsigned char)*p, d;

		if (c - '0' < 10)
			d = c - '0';
		else if ((c | 0x20) - 'a' < 6)
			d = (c | 0x20) - 'a' + 10;
		else
			break;
		v = v << 4 | d;
	}
	*pp = p;
	return v;
}

/*
 * Text path: read the whole file and parse its lines,
 *   start-end perms offset dev inode [padding name]
 * every line, or (@exec_only) only those whose permissions have an x.
 */
static void parse_text_lines(int fd, int exec_only)
{
	const char *p, *end;
	ssize_t n, len = 0;

	while ((n = pread(fd, mapsbuf + len, sizeof(mapsbuf) - 1 - len, len)) > 0)
		len += n;
	mapsbuf[len] = 0;
	end = mapsbuf + len;
	ntext = 0;
	for (p = mapsbuf; p < end && ntext < MAXV; p++) {
		struct vma *v = &text[ntext];
		unsigned long start, lim;
		char *nl;

		start = parse_hex(&p);
		p++;				/* '-' */
		lim = parse_hex(&p);
		p++;				/* ' ' */
		if (exec_only && p[2] != 'x') {
			p = memchr(p, '\n', end - p);
			if (!p)
				break;
			continue;
		}
		v->start = start;
		v->end = lim;
		v->exec = p[2] == 'x';
		p += 5;				/* "rwxp " */
		v->off = parse_hex(&p);
		p++;
		while (*p != ' ' && *p != '\n')	/* dev */
			p++;
		p++;
		while (*p != ' ' && *p != '\n')	/* inode */
			p++;
		while (*p == ' ')
			p++;
		nl = memchr(p, '\n', end - p);
		if (!nl)
			break;
		*nl = 0;
		v->name = p;
		text_tab.v[ntext++] = v;
		p = nl;
	}
	text_tab.n = ntext;
}

static void parse_text(int fd)
{
	parse_text_lines(fd, 0);
}

/* The VMA of @t that covers @a, or the index where it would go. */
static struct vma *table_find(const struct table *t, unsigned long a, int *at)
{
	int lo = 0, hi = t->n - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (a < t->v[mid]->start)
			hi = mid - 1;
		else if (a >= t->v[mid]->end)
			lo = mid + 1;
		else
			return t->v[mid];
	}
	*at = lo;
	return NULL;
}

/* The front cache: the VMA last found for a page, if of this batch. */
#define FRONT_BITS 12
static struct {
	unsigned int gen;
	struct vma *v;
} front[1 << FRONT_BITS];
static unsigned int front_gen;

/*
 * Resolve a batch of addresses: front cache, else @t, else @miss (which
 * may add to @t).
 */
static void resolve(struct table *t, const unsigned long *addr, struct res *out,
		    struct vma *(*miss)(struct table *t, unsigned long a, int at))
{
	int i, at;

	front_gen++;
	for (i = 0; i < NADDR; i++) {
		unsigned long a = addr[i];
		unsigned int slot = (a >> 12) & ((1 << FRONT_BITS) - 1);
		struct vma *v = front[slot].v;

		if (front[slot].gen != front_gen || a - v->start >= v->end - v->start) {
			v = table_find(t, a, &at);
			if (!v && miss)
				v = miss(t, a, at);
			front[slot].gen = front_gen;
			front[slot].v = v;
			if (!v)		/* a hole: never a front hit */
				front[slot].gen--;
		}
		out[i].off = v ? a - v->start + v->off : 0;
		out[i].name = v ? v->name : "";
	}
}

static void text_batch(int fd, const unsigned long *addr, struct res *out)
{
	parse_text(fd);
	resolve(&text_tab, addr, out, NULL);
}

/* ioctl path: a small cache of the VMAs the kernel gave us. */
static struct vma cache[MAXV];
static char cache_names[MAXV][256];
static struct table cache_tab;
static int ncache, nqueries, query_fd;

static int query(int fd, unsigned long a, __u64 flags, struct vma *v,
		 char *name, unsigned char *id, __u32 *idlen)
{
	struct procmap_query q;

	memset(&q, 0, sizeof(q));
	q.size = sizeof(q);
	q.query_addr = a;
	q.query_flags = flags;
	q.vma_name_addr = (__u64)(uintptr_t)name;
	q.vma_name_size = 256;
	if (id) {
		q.build_id_addr = (__u64)(uintptr_t)id;
		q.build_id_size = 20;
	}
	nqueries++;
	if (ioctl(fd, PROCMAP_QUERY, &q))
		return -errno;
	v->start = q.vma_start;
	v->end = q.vma_end;
	v->off = q.vma_offset;
	v->exec = !!(q.vma_flags & PROCMAP_QUERY_VMA_EXECUTABLE);
	if (!q.vma_name_size)
		name[0] = 0;
	v->name = name;
	if (idlen)
		*idlen = q.build_id_size;
	return 0;
}

/* A cache miss: ask the kernel, keep the answer in @t at @at. */
static struct vma *ioctl_miss(struct table *t, unsigned long a, int at)
{
	struct vma *v = &cache[ncache];

	if (ncache == MAXV || query(query_fd, a, 0, v, cache_names[ncache], NULL, NULL))
		return NULL;
	ncache++;
	memmove(&t->v[at + 1], &t->v[at], (t->n - at) * sizeof(t->v[0]));
	t->v[at] = v;
	t->n++;
	return v;
}

static void ioctl_batch(int fd, const unsigned long *addr, struct res *out)
{
	ncache = 0;
	cache_tab.n = 0;
	query_fd = fd;
	resolve(&cache_tab, addr, out, ioctl_miss);
}

static int same(const struct res *a, const struct res *b)
{
	int i;

	for (i = 0; i < NADDR; i++)
		if (a[i].off != b[i].off || strcmp(a[i].name, b[i].name))
			return 0;
	return 1;
}

/* ---- the workload */

static unsigned long uniq_sparse[NUNIQ], uniq_spread[NUNIQ];
static unsigned long batch_sparse[NADDR], batch_spread[NADDR];

static void make_batch(const unsigned long *uniq, unsigned long *batch)
{
	int i;

	for (i = 0; i < NADDR; i++)
		batch[i] = uniq[i % NUNIQ];
	for (i = NADDR - 1; i > 0; i--) {
		int j = rand() % (i + 1);
		unsigned long t = batch[i];

		batch[i] = batch[j];
		batch[j] = t;
	}
}

static int make_vmas(const char *self)
{
	long pg = sysconf(_SC_PAGESIZE);
	int i, fd, nexec = 0, k = 0;
	char path[64];

	/* Executable copies of this program on tmpfs, mapped like a library. */
	for (i = 0; i < NEXEC_COPIES; i++) {
		char buf[65536];
		ssize_t n;
		int in = open(self, O_RDONLY), out;

		snprintf(path, sizeof(path), "/tmp/procmap-bench-lib%d", i);
		out = open(path, O_RDWR | O_CREAT | O_TRUNC, 0755);
		while ((n = read(in, buf, sizeof(buf))) > 0)
			if (write(out, buf, n) != n)
				return -1;
		close(in);
		if (mmap(NULL, 64 * pg, PROT_READ | PROT_EXEC, MAP_PRIVATE, out, 0) == MAP_FAILED)
			return -1;
		close(out);
	}
	/* File-backed, not executable: pages of a data file, not adjacent. */
	fd = open("/tmp/procmap-bench-data", O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, 256 * pg))
		return -1;
	for (i = 0; i < 100; i++) {
		char *p = mmap(NULL, 2 * pg, PROT_READ, MAP_PRIVATE, fd, (i * 2 % 256) * pg);

		if (p == MAP_FAILED)
			return -1;
		munmap(p + pg, pg);	/* a hole keeps neighbours apart */
	}
	close(fd);
	/* Anonymous: two VMAs each (the protections differ), none merge. */
	for (i = 0; i < 250; i++) {
		char *p = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			return -1;
		mprotect(p, pg, i & 1 ? PROT_READ : PROT_NONE);
	}

	/* Pick the addresses from the text view (the ground truth). */
	fd = open("/proc/self/maps", O_RDONLY);
	parse_text(fd);
	close(fd);
	for (i = 0; i < ntext; i++)
		nexec += text[i].exec && text[i].name[0] == '/';
	for (i = 0; i < NUNIQ; i++) {
		int n = i % nexec, j;

		for (j = 0; j < ntext; j++)
			if (text[j].exec && text[j].name[0] == '/' && !n--)
				break;
		uniq_sparse[i] = text[j].start +
			(unsigned long)rand() % (text[j].end - text[j].start);
	}
	for (i = 0; i < ntext && k < NUNIQ; i++)
		if (strcmp(text[i].name, "[vsyscall]"))
			uniq_spread[k++] = text[i].start;
	printf("# procmap: %d VMAs, %d executable file-backed, %d addresses, %d unique\n",
	       ntext, nexec, NADDR, NUNIQ);
	return k == NUNIQ ? 0 : -1;
}

/* ---- listing executable file-backed VMAs, with and without build IDs */

/* Descriptors of the executable files, opened once by name (build_id). */
#define MAXFD 16
static struct {
	char name[256];
	int fd;
} fds[MAXFD];
static int nfds;

static int fd_of(const char *name)
{
	int i;

	for (i = 0; i < nfds; i++)
		if (!strcmp(fds[i].name, name))
			return fds[i].fd;
	if (nfds == MAXFD)
		return -1;
	snprintf(fds[nfds].name, sizeof(fds[nfds].name), "%s", name);
	fds[nfds].fd = open(name, O_RDONLY | O_CLOEXEC);
	return fds[nfds++].fd;
}

/* @with_id: 0 none, 1 through a held descriptor, 2 opening by path. */
static unsigned char text_ids[MAXFD][20], ioctl_ids[MAXFD][20];

static int text_exec_list(int fd, int with_id)
{
	int i, n = 0;

	parse_text_lines(fd, 1);
	for (i = 0; i < ntext; i++)
		if (text[i].name[0] == '/') {
			unsigned char *id = text_ids[n < MAXFD ? n : MAXFD - 1];

			if (with_id == 1)
				user_build_id_fd(fd_of(text[i].name), id);
			else if (with_id == 2)
				user_build_id(text[i].name, id);
			n++;
		}
	return n;
}

static int ioctl_exec_list(int fd, int with_id)
{
	unsigned long a = 0;
	char name[256];
	struct vma v;
	__u32 len;
	int n = 0;

	while (!query(fd, a, PROCMAP_QUERY_COVERING_OR_NEXT_VMA |
		      PROCMAP_QUERY_VMA_EXECUTABLE | PROCMAP_QUERY_FILE_BACKED_VMA,
		      &v, name, with_id ? ioctl_ids[n < MAXFD ? n : MAXFD - 1] : NULL,
		      &len)) {
		a = v.end;
		n++;
	}
	return n;
}

/* The variants timed against each other, one call each. */
static struct res rt[NADDR], ri[NADDR];

static void text_sparse(int fd) { text_batch(fd, batch_sparse, rt); }
static void ioctl_sparse(int fd) { ioctl_batch(fd, batch_sparse, ri); }
static void text_spread(int fd) { text_batch(fd, batch_spread, rt); }
static void ioctl_spread(int fd) { ioctl_batch(fd, batch_spread, ri); }
static void text_list(int fd) { text_exec_list(fd, 0); }
static void ioctl_list(int fd) { ioctl_exec_list(fd, 0); }
static void text_list_ids(int fd) { text_exec_list(fd, 1); }
static void ioctl_list_ids(int fd) { ioctl_exec_list(fd, 1); }
static void text_list_ids_open(int fd) { text_exec_list(fd, 2); }

/*
 * The cheapest query, the covering VMA without name or build ID, against
 * the floor: the same ioctl() on the same struct, built once on both
 * sides so that only the kernel's work differs.
 */
static void bare_queries(int fd)
{
	struct procmap_query q = { .size = sizeof(q), .query_addr = uniq_sparse[0] };
	int i;

	for (i = 0; i < 1000; i++)
		ioctl(fd, PROCMAP_QUERY, &q);
}

static void unknown_ioctls(int fd)
{
	struct procmap_query q = { .size = sizeof(q) };
	int i;

	for (i = 0; i < 1000; i++)
		ioctl(fd, _IOWR('f', 99, struct procmap_query), &q);
}

/* Resolve BATCH both ways; the ioctl queries it took, or -1 on a mismatch. */
static int check_batch(int fd, const unsigned long *batch)
{
	text_batch(fd, batch, rt);
	nqueries = 0;
	ioctl_batch(fd, batch, ri);
	return same(rt, ri) ? nqueries : -1;
}

static double time_calls(void (*f)(int), int fd, int n)
{
	double t0 = now_ns();
	int i;

	for (i = 0; i < n; i++)
		f(fd);
	return now_ns() - t0;
}

/* ns per call of the fast side in the last side_by_side() */
static double fast_ns;

/*
 * How many times longer N calls of @slow take than N calls of @fast;
 * which goes first alternates from call to call.
 */
static double side_by_side(void (*slow)(int), void (*fast)(int), int fd, int n)
{
	static int flip;
	double ts, tf;

	if (flip++ & 1) {
		tf = time_calls(fast, fd, n);
		ts = time_calls(slow, fd, n);
	} else {
		ts = time_calls(slow, fd, n);
		tf = time_calls(fast, fd, n);
	}
	fast_ns = tf / n;
	return ts / tf;
}

int main(int argc, char **argv)
{
	double a[ROUNDS], b[ROUNDS], c[ROUNDS], d[ROUNDS], d2[ROUNDS], e[FLOOR_ROUNDS];
	/* the ioctl side alone, in ns: for comparing kernels (anchor-bench.sh) */
	double na[ROUNDS], nc[ROUNDS], nd[ROUNDS], ne[FLOOR_ROUNDS];
	int fd, r, nq_sparse, nq_spread, nx;

	run_from_tmpfs(argv, COPY);
	srand(1);
	if (make_vmas(COPY))
		return printf("# procmap: could not build the workload\n"), 1;
	fd = open("/proc/self/maps", O_RDONLY);
	make_batch(uniq_sparse, batch_sparse);
	make_batch(uniq_spread, batch_spread);

	/* Both paths must agree before anything is timed. */
	nq_sparse = check_batch(fd, batch_sparse);
	nq_spread = check_batch(fd, batch_spread);
	if (nq_sparse < 0 || nq_spread < 0)
		return printf("# procmap: text and ioctl disagree\n"), 1;
	nx = text_exec_list(fd, 0);
	if (nx != ioctl_exec_list(fd, 0) || nx > MAXFD)
		return printf("# procmap: exec lists differ\n"), 1;
	/* The build IDs too, each way (this opens the text path's descriptors). */
	memset(text_ids, 0, sizeof(text_ids));
	memset(ioctl_ids, 1, sizeof(ioctl_ids));
	text_exec_list(fd, 1);
	ioctl_exec_list(fd, 1);
	if (memcmp(text_ids, ioctl_ids, nx * 20))
		return printf("# procmap: build IDs differ\n"), 1;
	memset(text_ids, 0, sizeof(text_ids));
	text_exec_list(fd, 2);
	if (memcmp(text_ids, ioctl_ids, nx * 20))
		return printf("# procmap: build IDs by path differ\n"), 1;
	printf("# procmap: ioctl queries per batch: sparse %d, spread %d\n",
	       nq_sparse, nq_spread);

	for (r = 0; r < ROUNDS; r++) {
		a[r] = side_by_side(text_sparse, ioctl_sparse, fd, 5);
		na[r] = fast_ns;
		b[r] = side_by_side(text_spread, ioctl_spread, fd, 5);
		c[r] = side_by_side(text_list, ioctl_list, fd, 5);
		nc[r] = fast_ns;
		d[r] = side_by_side(text_list_ids, ioctl_list_ids, fd, 1);
		nd[r] = fast_ns;
		d2[r] = side_by_side(text_list_ids_open, ioctl_list_ids, fd, 1);
	}
	for (r = 0; r < FLOOR_ROUNDS; r++) {
		/* the floor is the fast side here: time the queries alone */
		e[r] = side_by_side(bare_queries, unknown_ioctls, fd, 1);
		ne[r] = time_calls(bare_queries, fd, 1) / 1000;
	}
	printf("bench procmap.sparse.speedup %.1f x\n", median(a, ROUNDS));
	printf("bench procmap.sparse_spread.speedup %.1f x\n", median(b, ROUNDS));
	printf("bench procmap.exec_list.speedup %.1f x\n", median(c, ROUNDS));
	printf("bench procmap.build_id.speedup %.1f x\n", median(d, ROUNDS));
	printf("bench procmap.build_id_open.speedup %.1f x\n", median(d2, ROUNDS));
	printf("bench procmap.query_over_floor %.2f x\n", median(e, FLOOR_ROUNDS));
	printf("bench procmap.query_ns %.0f ns\n", median(ne, FLOOR_ROUNDS));
	printf("bench procmap.sparse_ns %.0f ns\n", median(na, ROUNDS));
	printf("bench procmap.exec_list_ns %.0f ns\n", median(nc, ROUNDS));
	printf("bench procmap.build_id_ns %.0f ns\n", median(nd, ROUNDS));
	return 0;
}
