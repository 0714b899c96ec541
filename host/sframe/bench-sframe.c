// SPDX-License-Identifier: GPL-2.0
/*
 * Lookup benchmark for lib/sframe/sframe.c, run in user space.
 *
 *   bench-sframe [-n NFDES] [-l LOOKUPS] [-r RUNS] [ELF...]
 *	Build a synthetic, valid version 2 section with NFDES functions
 *	(default 20000, several FREs each), index it with sframe_count() and
 *	sframe_index_init(), look up LOOKUPS pseudo-random addresses inside
 *	its text with sframe_index_find() RUNS times and print the median
 *	cost of one lookup:
 *
 *	    bench sframe.lookup_ns VALUE ns
 *
 *	then the worst case, measured the same way, at random addresses
 *	inside one long function: the larger of (a) a section whose only
 *	function has 10,000,000 FREs, more than SFRAME_MAX_FUNC_FRES, which
 *	the decoder must leave out, and (b) a function of exactly
 *	SFRAME_MAX_FUNC_FRES FREs (4-byte starts, every FRE size) among 8
 *	ordinary ones:
 *
 *	    bench sframe.worst_lookup_ns VALUE ns   DESCRIPTION
 *
 *	Comment lines ("# ...") follow: the two worst cases,
 *	sframe_index_find() on the same functions split into 40 tables in
 *	random order (as lld writes .sframe), the cost of sframe_index_init(),
 *	and the lookup cost in the .sframe section of each ELF file given.
 *
 *   bench-sframe -w OUT [-n NFDES] [-s SEED] [-a] [-m] [-p PIECES] [-u]
 *	Only write a synthetic section to OUT (-a: section-relative starts
 *	instead of PC-relative ones; -m: add PLT-like PCMASK functions;
 *	-p: that many tables one after the other; -u: functions in random
 *	order, not flagged sorted, dealt to the tables at random).
 *
 *   bench-sframe -w OUT -L NFRES
 *	Only write a section with one function of NFRES FREs (4-byte
 *	starts, every FRE size) among 8 ordinary ones.
 *
 * Build: make -C host/sframe KSRC=TREE O=DIR bench-sframe, run DIR/bench-sframe.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/sframe.h>
#include <asm/uwtable.h>

#include "compact-check.h"
#include "elf-sframe.h"
#include "sframe-gen.h"

static volatile long sink;

/*
 * A section indexed as the kernel would: exactly sized arrays, then the
 * compact table the kernel keeps (and looks up in).
 */
struct indexed {
	struct sframe_index idx;
	struct sframe_sizes n;
	struct sframe_table *pieces;
	struct sframe_func *funcs;
	u32 *marks;
	struct sframe_compact c;
	void *cbuf;
	size_t csize;
};

/* Lookups in the index instead of the compact table (for comparison). */
static bool use_index;

static int index_section(struct indexed *x, const void *data, size_t size,
			 const char **why)
{
	int ret;

	memset(x, 0, sizeof(*x));
	ret = sframe_count(&x86_64_sframe_abi, data, size, &x->n, why);
	if (ret)
		return ret;
	x->pieces = malloc(x->n.pieces * sizeof(*x->pieces) + 1);
	x->funcs = malloc(x->n.funcs * sizeof(*x->funcs) + 1);
	x->marks = malloc(x->n.marks * sizeof(*x->marks) + 1);
	if (!x->pieces || !x->funcs || !x->marks) {
		*why = "out of memory";
		return -1;
	}
	ret = sframe_index_init(&x86_64_sframe_abi, &x->idx, data, size, &x->n, x->pieces,
				x->funcs, x->marks, why);
	if (ret)
		return ret;
	return compact_make(&x->idx, &x->c, &x->cbuf, &x->csize, why);
}

static void free_indexed(struct indexed *x)
{
	free(x->pieces);
	free(x->funcs);
	free(x->marks);
	free(x->cbuf);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Median over @runs runs of the cost of one lookup in the index @x of
 * addresses drawn from [lo, lo + len).  The addresses are computed before
 * timing so that only the lookups are measured.  Unless @may_miss, some
 * lookup must find a rule.
 */
static double run_lookups(const struct indexed *x, int64_t lo, uint64_t len,
			  unsigned long lookups, int runs, bool may_miss)
{
	int64_t *addr = malloc(lookups * sizeof(*addr));
	double *res = calloc(runs, sizeof(*res));
	uint64_t z, seed = 0x9e3779b97f4a7c15ull;
	unsigned long i, found = 0;
	double med;
	int r;

	if (!addr || !res || !len) {
		fprintf(stderr, "bench-sframe: out of memory or empty text\n");
		exit(2);
	}
	for (i = 0; i < lookups; i++) {
		/* splitmix64 */
		z = (seed += 0x9e3779b97f4a7c15ull);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		z ^= z >> 31;
		addr[i] = lo + (int64_t)(z % len);
	}
	for (r = 0; r < runs; r++) {
		struct sframe_rule rule;
		uint64_t t0 = now_ns();
		long acc = 0;

		for (i = 0; i < lookups; i++) {
			if (!(use_index ?
			      sframe_index_find(&x->idx, addr[i], &rule) :
			      sframe_compact_find(&x->c, addr[i], &rule))) {
				acc += rule.cfa_off;
				found++;
			}
		}
		res[r] = (double)(now_ns() - t0) / lookups;
		sink += acc;
	}
	if (!found && !may_miss) {
		fprintf(stderr, "bench-sframe: no lookup found a rule\n");
		exit(2);
	}
	qsort(res, runs, sizeof(*res), cmp_double);
	med = res[runs / 2];
	free(addr);
	free(res);
	return med;
}

/* Median cost of sframe_count() + sframe_index_init(), in microseconds. */
static double bench_init(const void *data, size_t size, int runs)
{
	double *res = calloc(runs, sizeof(*res));
	const char *why;
	double med;
	int r;

	if (!res)
		exit(2);
	for (r = 0; r < runs; r++) {
		struct indexed x;
		uint64_t t0 = now_ns();

		if (index_section(&x, data, size, &why)) {
			fprintf(stderr, "bench-sframe: refused: %s\n", why);
			exit(1);
		}
		res[r] = (double)(now_ns() - t0) / 1000;
		free_indexed(&x);
	}
	qsort(res, runs, sizeof(*res), cmp_double);
	med = res[runs / 2];
	free(res);
	return med;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* Lookups in the .sframe section of an ELF file, as comment lines. */
static int bench_file(const char *path, unsigned long lookups, int runs)
{
	struct elf_sframe es;
	struct indexed x;
	const struct sframe_func *first, *last;
	const char *why;

	if (elf_read_sframe(path, &es)) {
		fprintf(stderr, "bench-sframe: %s: %s\n", path, es.err);
		return 1;
	}
	if (index_section(&x, es.data, es.size, &why)) {
		fprintf(stderr, "bench-sframe: %s: refused: %s\n", path, why);
		return 1;
	}
	if (x.idx.nr_funcs) {
		first = &x.idx.funcs[0];
		last = &x.idx.funcs[x.idx.nr_funcs - 1];
		printf("# sframe.lookup_ns.%s %.1f ns (%u tables, %u functions, index %.0f us)\n",
		       base_name(path),
		       run_lookups(&x, first->start,
				   last->start + last->size - first->start,
				   lookups, runs, false),
		       x.idx.nr_pieces, x.idx.nr_funcs,
		       bench_init(es.data, es.size, runs));
	}
	free_indexed(&x);
	elf_sframe_free(&es);
	return 0;
}

/* The cost of lookups inside the long function of a section. */
struct long_result {
	const char *what;
	double ns;
	size_t size;
	u32 used, dropped;	/* functions of the index, and left out */
};

/*
 * Lookups at random addresses inside the long function of a section from
 * sframe_gen_long().
 */
static void bench_long(const struct sframe_gen_long_opts *o,
		       struct long_result *res, unsigned long lookups,
		       int runs)
{
	const char *what = res->what, *why;
	struct sframe_gen_long l;
	struct indexed x;
	size_t size;
	uint8_t *sec;

	sec = sframe_gen_long(o, &size, &l);
	if (!sec) {
		fprintf(stderr, "bench-sframe: cannot build %s\n", what);
		exit(2);
	}
	if (index_section(&x, sec, size, &why)) {
		fprintf(stderr, "bench-sframe: %s refused: %s\n", what, why);
		exit(1);
	}
	/* a function over the limit may be left out: then nothing is found */
	res->ns = run_lookups(&x, l.start, l.size, lookups, runs,
			      o->nfres > SFRAME_MAX_FUNC_FRES);
	res->size = size;
	res->used = x.idx.nr_funcs;
	res->dropped = x.idx.nr_dropped;
	free_indexed(&x);
	free(sec);
}

static void print_usage(const char *prog)
{
	fprintf(stderr, "usage: %s [-n NFDES] [-l LOOKUPS] [-r RUNS] [ELF...]\n"
		"       %s -w OUT [-n NFDES] [-s SEED] [-a] [-m] [-p PIECES] [-u]\n"
		"       %s -w OUT -L NFRES\n",
		prog, prog, prog);
	exit(2);
}

int main(int argc, char **argv)
{
	struct sframe_gen_opts o = { .nfdes = 20000, .seed = 12345,
				     .pcrel = true, .pcmask = false };
	unsigned long lookups = 1000000;
	struct sframe_gen_long_opts huge = { .nfres = 10000000, .wide = true };
	struct sframe_gen_long_opts most = {
		.nfres = SFRAME_MAX_FUNC_FRES, .wide = true, .mixed = true,
		.nshort = 8,
	};
	struct long_result worst[2] = {
		{ .what = "one function of 10000000 FREs" },
		{ .what = "a function of 65535 FREs among 8" },
	};
	const char *out = NULL, *why;
	struct sframe_gen_long l;
	bool one_long = false;
	struct indexed x;
	uint64_t text_len;
	int64_t text_start;
	size_t size;
	uint8_t *sec;
	int runs = 7, c, i;

	while ((c = getopt(argc, argv, "n:l:r:s:w:amp:uL:")) != -1) {
		switch (c) {
		case 'n':
			o.nfdes = strtoul(optarg, NULL, 0);
			break;
		case 'l':
			lookups = strtoul(optarg, NULL, 0);
			break;
		case 'r':
			runs = atoi(optarg);
			break;
		case 's':
			o.seed = strtoul(optarg, NULL, 0);
			break;
		case 'w':
			out = optarg;
			break;
		case 'a':
			o.pcrel = false;
			break;
		case 'm':
			o.pcmask = true;
			break;
		case 'p':
			o.pieces = strtoul(optarg, NULL, 0);
			break;
		case 'u':
			o.shuffle = true;
			break;
		case 'L':
			most.nfres = strtoul(optarg, NULL, 0);
			one_long = true;
			break;
		default:
			print_usage(argv[0]);
		}
	}
	if (runs < 1 || !lookups || (!out && (o.pieces > 1 || o.shuffle)) ||
	    (one_long && !out))
		print_usage(argv[0]);

	if (one_long)
		sec = sframe_gen_long(&most, &size, &l);
	else
		sec = sframe_gen(&o, &size, &text_start, &text_len);
	if (!sec) {
		fprintf(stderr, "bench-sframe: cannot build a section\n");
		return 2;
	}
	/* the generator and the decoder must agree that it is valid */
	if (index_section(&x, sec, size, &why)) {
		fprintf(stderr, "bench-sframe: synthetic section refused: %s\n",
			why);
		return 1;
	}
	if (out) {
		FILE *f = fopen(out, "wb");

		if (!f || fwrite(sec, 1, size, f) != size || fclose(f)) {
			perror(out);
			return 2;
		}
		return 0;
	}
	if (x.idx.nr_funcs < 10000)
		fprintf(stderr, "bench-sframe: note: only %u functions\n",
			x.idx.nr_funcs);

	printf("bench sframe.lookup_ns %.1f ns\n",
	       run_lookups(&x, text_start, text_len, lookups, runs, false));
	fflush(stdout);
	use_index = true;
	printf("# the same in the index the compact table is made from: %.1f ns\n",
	       run_lookups(&x, text_start, text_len, lookups, runs, false));
	use_index = false;
	printf("# compact table %zu bytes, the section %zu and its index %zu\n",
	       x.csize, size, (size_t)x.n.funcs * sizeof(*x.funcs) +
	       (size_t)x.n.marks * sizeof(*x.marks));
	bench_long(&huge, &worst[0], lookups, runs);
	bench_long(&most, &worst[1], lookups, runs);
	printf("bench sframe.worst_lookup_ns %.1f ns   10,000,000 FREs (left out) or 65,535\n",
	       worst[0].ns > worst[1].ns ? worst[0].ns : worst[1].ns);
	for (i = 0; i < 2; i++)
		printf("# worst case: %s: %.1f ns (%.1f MB; index: %u functions, %u left out)\n",
		       worst[i].what, worst[i].ns, worst[i].size / 1e6,
		       worst[i].used, worst[i].dropped);
	printf("# synthetic: %u functions, %zu bytes, %lu lookups x %d runs, median\n",
	       x.idx.nr_funcs, size, lookups, runs);
	printf("# sframe_count() + sframe_index_init() of it: %.0f us\n",
	       bench_init(sec, size, runs));
	free_indexed(&x);
	free(sec);

	/* the same functions as 40 shuffled tables, as lld writes them */
	o.pieces = 40;
	o.shuffle = true;
	sec = sframe_gen(&o, &size, &text_start, &text_len);
	if (!sec || index_section(&x, sec, size, &why)) {
		fprintf(stderr, "bench-sframe: 40-table synthetic section refused: %s\n",
			sec ? why : "out of memory");
		return 1;
	}
	printf("# the same functions in 40 shuffled tables: %.1f ns\n",
	       run_lookups(&x, text_start, text_len, lookups, runs, false));
	printf("# sframe_count() + sframe_index_init() of those: %.0f us\n",
	       bench_init(sec, size, runs));
	free_indexed(&x);
	free(sec);

	for (i = optind; i < argc; i++)
		if (bench_file(argv[i], lookups, runs))
			return 1;
	return 0;
}
