// SPDX-License-Identifier: GPL-2.0
/*
 * sframe-bound: show, without timing, that one sframe_index_find() reads
 * only a bounded part of a function's frame row entries (FREs), however
 * many the function has.
 *
 *   sframe-bound [-v]
 *
 * Each case is a synthetic version 2 section (sframe_gen_long()) with one
 * function of SFRAME_MAX_FUNC_FRES FREs, the most a function may have,
 * between 6 ordinary functions.  The section is copied into an mmap()ed,
 * page-aligned buffer, with the long function's FREs starting on a page
 * boundary and alone in their pages, and indexed.  Then those pages are
 * made PROT_NONE; a SIGSEGV handler counts the faults and makes the page
 * that faulted readable again, and all of them are protected again before
 * every lookup, so that the faults of one lookup are the distinct FRE pages
 * it read.  Lookups: the first and last byte of the long function, both
 * sides of the start of a sample of its FREs, random addresses in it, and
 * the ordinary functions, the gaps and far away.  Each rule is checked
 * against the one the generator wrote for the address, not against any
 * decoder.
 *
 * What one lookup may read of the long function's FREs (the function's
 * index entry and the marks lie elsewhere): with N FREs it has
 * M = (N - 1) / SFRAME_MARK_STEP marks, the offsets of every
 * SFRAME_MARK_STEP-th FRE;
 *  - the binary search over the marks makes at most P = ceil(log2(M + 1))
 *    probes (12 for N = 65535), each reading the start field of one FRE:
 *    one page, two if the field straddles a page boundary;
 *  - then at most SFRAME_MARK_STEP consecutive FREs are read, from the
 *    mark the search ends on (or the first FRE): at most 16 * 13 bytes
 *    with 4-byte starts and two 4-byte offsets, so at most 2 pages.
 * That is at most 2 * P + 2 pages.  With 2-byte starts and FREs of 4
 * bytes, the first one page-aligned, no start field straddles a page and
 * the FREs one scan reads are an aligned 64-byte block, in one page: at
 * most P + 1 pages.  Either bound is far below the number of pages the
 * FREs fill (64 and about 136), which a linear scan of them reads in the
 * worst case.  A third case has one FRE more than allowed: the function
 * must be left out, so a lookup in it finds nothing and reads none of its
 * FREs.
 *
 * Output: KTAP, one "ok N - ..." or "not ok N - ..." line per check, "# "
 * lines with the largest page counts and any wrong rules, and the totals
 * last.  Exit status: 0 if all checks passed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/sframe.h>
#include <asm/uwtable.h>

#include "sframe-gen.h"

#define NR_SHORT	6
#define NR_RANDOM	5000
#define MAX_SHOWN	5	/* wrong rules printed per check */
#define MAX_FAULTS	1024	/* pages one lookup may make readable */

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const struct {
	const char *name;
	struct sframe_gen_long_opts o;
} cases[] = {
	{ "2-byte starts",
	  { .nfres = SFRAME_MAX_FUNC_FRES, .nshort = NR_SHORT } },
	{ "4-byte starts, every FRE size",
	  { .nfres = SFRAME_MAX_FUNC_FRES, .wide = true, .mixed = true,
	    .nshort = NR_SHORT } },
	{ "one FRE too many",
	  { .nfres = SFRAME_MAX_FUNC_FRES + 1, .nshort = NR_SHORT } },
};

static const int64_t far[] = {
	INT64_MIN, INT32_MIN, -1, 0, 1, INT32_MAX, INT64_MAX,
};

static bool verbose;
static unsigned int passed, failed, nr_checks;
static size_t page;

/*
 * The protected FRE pages, and the faults taken in them since they were
 * all protected: one per page, as the handler leaves the page readable.
 */
static uint8_t *prot_lo, *prot_hi;
static uint8_t *faulted[MAX_FAULTS];
static volatile sig_atomic_t faults;

static void on_segv(int sig, siginfo_t *si, void *ctx)
{
	uint8_t *a = si->si_addr;

	if (a < prot_lo || a >= prot_hi) {
		/* a real bug: fault again, without this handler */
		signal(SIGSEGV, SIG_DFL);
		return;
	}
	a = prot_lo + (size_t)(a - prot_lo) / page * page;
	if (faults == MAX_FAULTS || mprotect(a, page, PROT_READ))
		_exit(3);
	faulted[faults++] = a;
}

/* Protect again the pages that the last lookup made readable. */
static void protect(void)
{
	int i;

	for (i = 0; i < faults; i++) {
		if (mprotect(faulted[i], page, PROT_NONE)) {
			perror("sframe-bound: mprotect");
			exit(2);
		}
	}
	faults = 0;
}

/* One section under test, and what its lookups did. */
struct run {
	const char *name;
	struct sframe_gen_long l;
	struct sframe_index idx;
	bool left_out;		/* the long function must not be used */
	unsigned int bound;	/* FRE pages one lookup may read */
	/* the current check */
	unsigned long lookups, wrong;
	unsigned int max_pages;
	int64_t max_off;
};

static void check(bool ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void check(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %u - ", ok ? "" : "not ", ++nr_checks);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (ok)
		passed++;
	else
		failed++;
}

/*
 * Is @got the rule the generator wrote for @off?  @found: whether a rule
 * is to be found, and @want then.
 */
static bool right_rule(const struct run *r, int64_t off, int ret,
		       const struct sframe_rule *got, bool *found,
		       struct sframe_gen_rule *want)
{
	*found = sframe_gen_long_rule(&r->l, off, want);
	if (*found && r->left_out && want->func_start == r->l.start)
		*found = false;
	if (!*found)
		return ret == -ENOENT;
	return !ret && got->func_start == want->func_start &&
	       got->func_size == want->func_size &&
	       got->cfa_reg == want->base && got->cfa_off == want->cfa &&
	       got->fp_saved == want->fp_saved && got->fp_off == want->fp &&
	       got->ra_off == -8 && !got->ra_undefined &&
	       !got->ra_mangled && !got->signal;
}

/* Look @off up with all FRE pages protected; tally pages and rule. */
static void lookup(struct run *r, int64_t off)
{
	struct sframe_gen_rule want;
	struct sframe_rule got;
	unsigned int pages;
	bool found;
	int ret;

	protect();
	memset(&got, 0, sizeof(got));
	ret = sframe_index_find(&r->idx, off, &got);
	pages = faults;

	r->lookups++;
	if (pages > r->max_pages || r->lookups == 1) {
		r->max_pages = pages;
		r->max_off = off;
	}
	if (right_rule(r, off, ret, &got, &found, &want) ||
	    (r->wrong++ >= MAX_SHOWN && !verbose))
		return;
	printf("# %s: at %+" PRId64 " (long function %+" PRId64 "): ",
	       r->name, off, off - r->l.start);
	if (ret)
		printf("no rule (%d)", ret);
	else
		printf("CFA %s%+d, FP %s%+d",
		       got.cfa_reg == SFRAME_REG_SP ? "sp" : "fp",
		       got.cfa_off, got.fp_saved ? "cfa" : "not saved",
		       got.fp_off);
	if (found)
		printf("; want CFA %s%+d, FP %s%+d\n",
		       want.base == SFRAME_REG_SP ? "sp" : "fp", want.cfa,
		       want.fp_saved ? "cfa" : "not saved", want.fp);
	else
		printf("; want no rule\n");
}

static void start_check(struct run *r)
{
	r->lookups = 0;
	r->wrong = 0;
	r->max_pages = 0;
	r->max_off = 0;
}

/* Report a check of lookups: all rules right, at most @bound pages. */
static void end_check(struct run *r, const char *what, unsigned int bound)
{
	check(!r->wrong && r->max_pages <= bound,
	      "%s: %s: %lu lookups, %lu wrong rules, at most %u FRE pages read (bound %u)",
	      r->name, what, r->lookups, r->wrong, r->max_pages, bound);
	if (r->max_pages)
		printf("# %s: %u pages read at function offset %+" PRId64 "\n",
		       r->name, r->max_pages, r->max_off - r->l.start);
}

static uint64_t rnd(uint64_t *s)
{
	/* xorshift64 */
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* ceil(log2(m + 1)): the most probes of a binary search over m entries. */
static unsigned int probes(uint32_t m)
{
	unsigned int p = 0;

	while ((1ull << p) < (uint64_t)m + 1)
		p++;
	return p;
}

static void run_case(const char *name, const struct sframe_gen_long_opts *opt)
{
	struct sframe_gen_long_opts o = *opt;
	struct run r = { .name = name };
	struct sframe_table *pieces;
	struct sframe_func *funcs;
	struct sframe_sizes n;
	const struct sframe_gen_long *l = &r.l;
	uint32_t nfres = o.nfres, i, m, total_pages, want_funcs;
	uint64_t seed = 0x2545f4914f6cdd1dull;
	size_t size, len;
	const char *why = NULL;
	uint8_t *sec, *buf;
	u32 *marks;
	int ret, k;

	o.align = page;
	sec = sframe_gen_long(&o, &size, &r.l);
	if (!sec) {
		fprintf(stderr, "sframe-bound: cannot build a section\n");
		exit(2);
	}
	len = (size + page - 1) / page * page;
	buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		perror("sframe-bound: mmap");
		exit(2);
	}
	memcpy(buf, sec, size);
	free(sec);

	r.left_out = nfres > SFRAME_MAX_FUNC_FRES;
	want_funcs = NR_SHORT + !r.left_out;
	m = (nfres - 1) / SFRAME_MARK_STEP;
	if (r.left_out)
		r.bound = 0;
	else if (!o.wide && !o.mixed && page % (SFRAME_MARK_STEP * 4) == 0)
		r.bound = probes(m) + 1;
	else
		r.bound = 2 * probes(m) + 2;
	prot_lo = buf + l->fres;
	prot_hi = buf + (l->fres + l->fres_len + page - 1) / page * page;
	total_pages = (prot_hi - prot_lo) / page;
	faults = 0;

	ret = sframe_count(&x86_64_sframe_abi, buf, size, &n, &why);
	if (ret) {
		check(false, "%s: section refused: %s (%d)", name, why, ret);
		goto out;
	}
	pieces = malloc(n.pieces * sizeof(*pieces) + 1);
	funcs = malloc(n.funcs * sizeof(*funcs) + 1);
	marks = malloc(n.marks * sizeof(*marks) + 1);
	if (!pieces || !funcs || !marks) {
		fprintf(stderr, "sframe-bound: out of memory\n");
		exit(2);
	}
	ret = sframe_index_init(&x86_64_sframe_abi, &r.idx, buf, size, &n, pieces, funcs, marks,
				&why);
	check(!ret && r.idx.nr_funcs == want_funcs &&
	      r.idx.nr_dropped == r.left_out && n.dropped == r.left_out,
	      "%s: %u FREs: indexed (%d), %u functions, %u left out",
	      name, nfres, ret, r.idx.nr_funcs, r.idx.nr_dropped);
	if (ret)
		goto free;
	if (mprotect(prot_lo, prot_hi - prot_lo, PROT_NONE)) {
		perror("sframe-bound: mprotect");
		exit(2);
	}
	printf("# %s: the FREs of the long function fill %u pages; bound %u\n",
	       name, total_pages, r.bound);

	start_check(&r);
	lookup(&r, l->start);
	lookup(&r, l->start + l->size - 1);
	end_check(&r, "first and last byte", r.bound);

	/*
	 * Both sides of the start of the first and last FREs, of every
	 * marked FRE, and of every 61st.
	 */
	start_check(&r);
	for (i = 0; i < nfres; i++) {
		int64_t a;

		if (i >= 48 && i + 48 < nfres &&
		    i % SFRAME_MARK_STEP != 0 && i % 61)
			continue;
		a = l->start + sframe_gen_long_fre_start(l, i);
		lookup(&r, a);
		lookup(&r, a - 1);
	}
	end_check(&r, "FRE boundaries", r.bound);

	start_check(&r);
	for (i = 0; i < NR_RANDOM; i++)
		lookup(&r, l->start + (int64_t)(rnd(&seed) % l->size));
	end_check(&r, "random addresses", r.bound);

	/* everything else: no FRE of the long function may be read */
	start_check(&r);
	for (k = -2; k < (int)l->text_len + 2; k++) {
		int64_t a = l->text_start + k;

		if (a < l->start || a >= l->start + l->size)
			lookup(&r, a);
	}
	for (k = 0; k < (int)ARRAY_SIZE(far); k++)
		lookup(&r, far[k]);
	end_check(&r, "ordinary functions, gaps, far addresses", 0);
free:
	free(pieces);
	free(funcs);
	free(marks);
out:
	munmap(buf, len);
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	unsigned int i;
	int c;

	while ((c = getopt(argc, argv, "v")) != -1) {
		if (c != 'v') {
			fprintf(stderr, "usage: %s [-v]\n", argv[0]);
			return 2;
		}
		verbose = true;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	page = sysconf(_SC_PAGESIZE);

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, NULL)) {
		perror("sframe-bound: sigaction");
		return 2;
	}
	/* KTAP: each case checks its index and four sets of lookups. */
	printf("KTAP version 1\n1..%zu\n", ARRAY_SIZE(cases) * 5);
	printf("# sframe-bound: FRE pages one sframe_index_find() reads in a function of %u FREs\n",
	       SFRAME_MAX_FUNC_FRES);
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		run_case(cases[i].name, &cases[i].o);
	printf("# Totals: pass:%u fail:%u xfail:0 xpass:0 skip:0 error:0\n",
	       passed, failed);
	return failed ? 1 : 0;
}
