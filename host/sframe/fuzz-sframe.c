// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for lib/sframe/sframe.c.
 *
 * The input is taken as a whole .sframe section.  It is copied into a
 * buffer of exactly its size, so that AddressSanitizer catches any read
 * past the end, counted with sframe_count(), indexed by
 * sframe_index_init() into arrays of exactly the counted sizes
 * (malloc()ed, so that ASan catches a write past them) and looked up with
 * sframe_index_find().  Checked:
 *
 *  - a refused section gives a reason and the same error without one, and
 *    sframe_index_init() refuses it too and leaves the index zeroed;
 *  - a counted section is indexed; its tables follow each other in the
 *    buffer with only zeros between them, each with a header this decoder
 *    handles (AMD64, RA at CFA - 8, only flags its version defines);
 *  - the functions of the index are not empty, sorted by start and
 *    disjoint, each an entry of its table (as read here from the raw
 *    bytes) and none twice;
 *  - every function in the index passes, as walked here, the checks that
 *    make a function usable: FREs inside the FRE area, starts increasing
 *    and inside the function (or repetition block), offset counts and
 *    sizes AMD64 allows, at most SFRAME_MAX_FUNC_FRES of them, only FDE
 *    info bits its version defines, no version 3 flexible entries;
 *  - the counts agree: the usable and the invalid functions are at most
 *    the entries of all tables and at least the non-empty ones; the
 *    functions left out for overlapping are none or at least two, none if
 *    no two non-empty entries overlap, and otherwise there are two
 *    entries outside the index that overlap; nr_dropped is the invalid
 *    ones plus those, so never less than sframe_count()'s dropped;
 *  - the FRE marks of every function are the offsets of its every
 *    SFRAME_MARK_STEP-th FRE, and no two functions share one;
 *  - at the start of every FRE of every function and the byte before it,
 *    the first, middle and last byte of every function and just outside
 *    it, and at far offsets, a rule is found exactly when the function
 *    that holds the address (found here by a separate search) has an FRE
 *    at or before it, and then it is that FRE's rule as decoded here,
 *    with the function's start and size: the rule lies inside the
 *    function, rule.signal is only set in version 3 tables, the RA offset
 *    is -8, a fixed FP offset is applied, an outermost frame has no
 *    offsets;
 *  - arrays one entry too small or too large are refused (and, too small,
 *    not written past), leaving the index zeroed.
 *
 * Any violation calls abort(), which libFuzzer reports as a crash.
 *
 * Build: make -C host/sframe KSRC=TREE O=DIR fuzz (clang-22, -fsanitize=fuzzer,
 * address,undefined).  Run: host/sframe/fuzz.sh OUTDIR SECONDS.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/sframe.h>
#include <asm/uwtable.h>

#include "compact-check.h"

#define check(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "fuzz-sframe: %s:%d: %s\n",	\
				__FILE__, __LINE__, #cond);		\
			abort();					\
		}							\
	} while (0)

static const s64 far[] = {
	INT64_MIN, INT64_MIN + 1, -(1ll << 62) - 1, INT32_MIN - 1ll,
	INT32_MIN, -1, 0, 1, 27, INT32_MAX, INT32_MAX + 1ll,
	UINT32_MAX, 1ll << 62, INT64_MAX - 1, INT64_MAX,
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* The format, as this harness reads it (see lib/sframe/sframe.c). */
#define FDE_V3_ATTR	5		/* u16 num_fres, info, info2, rep_size */
#define FDE_V3_SIGNAL	0x80
#define V1_PCMASK_REP	16

static u16 ld16(const u8 *p)
{
	return p[0] | p[1] << 8;
}

static u32 ld32(const u8 *p)
{
	return ld16(p) | (u32)ld16(p + 2) << 16;
}

static u64 ld64(const u8 *p)
{
	return ld32(p) | (u64)ld32(p + 4) << 32;
}

static s32 ld_signed(const u8 *p, u32 size)
{
	return size == 1 ? (s8)p[0] : size == 2 ? (s16)ld16(p) : (s32)ld32(p);
}

static bool same_rule(const struct sframe_rule *a, const struct sframe_rule *b)
{
	return a->func_start == b->func_start &&
	       a->func_size == b->func_size && a->cfa_reg == b->cfa_reg &&
	       a->cfa_off == b->cfa_off && a->ra_off == b->ra_off &&
	       a->fp_off == b->fp_off && a->fp_saved == b->fp_saved &&
	       a->ra_undefined == b->ra_undefined &&
	       a->ra_mangled == b->ra_mangled && a->signal == b->signal;
}

/* A function index entry, read from the raw bytes. */
struct raw_fde {
	s64 start;		/* relative to the whole section */
	u32 size;
	/* the rest only for functions in the index */
	u64 fres;		/* offset of the first FRE in the table */
	u32 num_fres;
	u8 info;
	u8 info2;
	u32 rep_size;
};

/* One FRE of a function in the index, as walked here. */
struct ref_fre {
	u32 start;
	u32 pos;		/* offset of its start field in the table */
};

struct ictx {
	const u8 *buf;
	size_t size;
	struct sframe_sizes n;
	struct sframe_index idx;
	struct sframe_table *pieces;
	struct sframe_func *funcs;
	u32 *marks;
	/* per function of the index: its entry and its FREs */
	struct raw_fde *fde;
	u32 *first_fre;		/* into @fres */
	struct ref_fre *fres;
};

/* Exactly @n entries of @size bytes, so that ASan sees any overrun. */
static void *alloc(size_t n, size_t size)
{
	void *p = malloc(n * size);	/* not NULL even for 0 bytes */

	check(p);
	return p;
}

static bool is_zero(const void *p, size_t n)
{
	const u8 *b = p;

	while (n--)
		if (*b++)
			return false;
	return true;
}

/* Offset of table @k in the buffer. */
static s64 piece_off(const struct ictx *c, u32 k)
{
	return c->pieces[k].data - c->buf;
}

/* Entry @i of table @k; with @full, also where its FREs are. */
static void raw_fde(const struct ictx *c, u32 k, u32 i, struct raw_fde *f,
		    bool full)
{
	const struct sframe_table *t = &c->pieces[k];
	u32 pos = t->fde_area + i * t->fde_size;
	const u8 *p = t->data + pos;
	u64 start;

	memset(f, 0, sizeof(*f));
	if (t->version == SFRAME_VERSION_3) {
		u32 attr = ld32(p + 12);

		start = ld64(p);
		f->size = ld32(p + 8);
		if (full) {
			const u8 *a;

			check((u64)attr + FDE_V3_ATTR <= t->fre_len);
			a = t->data + t->fre_area + attr;
			f->num_fres = ld16(a);
			f->info = a[2];
			f->info2 = a[3];
			f->rep_size = a[4];
			f->fres = (u64)t->fre_area + attr + FDE_V3_ATTR;
		}
	} else {
		start = (u64)(s64)(s32)ld32(p);
		f->size = ld32(p + 4);
		f->fres = (u64)t->fre_area + ld32(p + 8);
		f->num_fres = ld32(p + 12);
		f->info = p[16];
		f->rep_size = t->version == SFRAME_VERSION_1 ?
			      V1_PCMASK_REP : p[17];
	}
	if (t->flags & SFRAME_F_FDE_FUNC_START_PCREL)
		start += pos;
	f->start = (s64)(start + (u64)piece_off(c, k));
}

/*
 * Walk the FREs of function @i of the index into @fres, checking all that
 * makes a function usable; returns their number.
 */
static u32 walk_fres(const struct ictx *c, u32 i, struct ref_fre *fres)
{
	const struct sframe_func *fn = &c->funcs[i];
	const struct sframe_table *t = &c->pieces[fn->piece];
	const struct raw_fde *f = &c->fde[i];
	u32 type = f->info & 0xf, ssize, j, nm;
	u64 end = (u64)t->fre_area + t->fre_len, pos = f->fres;
	u64 limit = f->info & 0x10 ? f->rep_size : f->size;

	check(f->info2 == 0);
	check(!(f->info & ~(t->version == SFRAME_VERSION_3 ?
			    0x1f | FDE_V3_SIGNAL : 0x1f)));
	check(type <= 2);
	check(!(f->info & 0x10) || f->rep_size);
	check(f->num_fres <= SFRAME_MAX_FUNC_FRES);
	ssize = 1u << type;
	nm = f->num_fres ? (f->num_fres - 1) / SFRAME_MARK_STEP : 0;
	check(fn->mark <= c->n.marks && nm <= c->n.marks - fn->mark);

	for (j = 0; j < f->num_fres; j++) {
		u32 n, osz;
		u8 info;

		check(pos + ssize + 1 <= end);
		fres[j].start = ssize == 1 ? t->data[pos] :
				ssize == 2 ? ld16(t->data + pos) :
					     ld32(t->data + pos);
		fres[j].pos = pos;
		check(fres[j].start < limit);
		check(!j || fres[j].start > fres[j - 1].start);
		if (j && j % SFRAME_MARK_STEP == 0)
			check(c->marks[fn->mark + j / SFRAME_MARK_STEP - 1] ==
			      pos);
		info = t->data[pos + ssize];
		n = (info >> 1) & 0xf;
		check(((info >> 5) & 3) != 3);
		check(!(info & 0x80));		/* RA mangling: AArch64 only */
		check(n <= (t->fixed_fp ? 1u : 2u));
		osz = 1u << ((info >> 5) & 3);
		pos += ssize + 1 + n * osz;
		check(pos <= end);
	}
	return f->num_fres;
}

/* The rule of the FRE at @pos of function @i, decoded here. */
static void ref_rule(const struct ictx *c, u32 i, u32 pos,
		     struct sframe_rule *r)
{
	const struct sframe_func *fn = &c->funcs[i];
	const struct sframe_table *t = &c->pieces[fn->piece];
	const u8 *p = t->data + pos + (1u << (c->fde[i].info & 0xf));
	u8 info = p[0];
	u32 n = (info >> 1) & 0xf, sz = 1u << ((info >> 5) & 3);

	memset(r, 0, sizeof(*r));
	r->func_start = fn->start;
	r->func_size = fn->size;
	r->cfa_reg = info & 1;
	r->cfa_off = n ? ld_signed(p + 1, sz) : 0;
	r->ra_off = t->fixed_ra;
	r->ra_undefined = !n;
	r->ra_mangled = info >> 7;
	r->signal = t->version == SFRAME_VERSION_3 &&
		    (c->fde[i].info & FDE_V3_SIGNAL);
	if (t->fixed_fp) {
		r->fp_saved = n >= 1;
		r->fp_off = n >= 1 ? t->fixed_fp : 0;
	} else {
		r->fp_saved = n >= 2;
		r->fp_off = n >= 2 ? ld_signed(p + 1 + sz, sz) : 0;
	}
}

/* The function of the index holding @off, by a search of its own. */
static long holder(const struct ictx *c, s64 off)
{
	u32 lo = 0, hi = c->idx.nr_funcs;
	const struct sframe_func *f;

	/* the last function that starts at or before @off */
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (c->funcs[mid].start <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -1;
	f = &c->funcs[lo - 1];
	/* the functions do not overlap: no earlier one can hold @off */
	return (u64)off - (u64)f->start < f->size ? (long)lo - 1 : -1;
}

/* What sframe_index_find() must say for @off: 0 and @want, or -ENOENT. */
static int expect(const struct ictx *c, s64 off, struct sframe_rule *want)
{
	long h = holder(c, off);
	const struct ref_fre *fres;
	u32 lo = 0, hi;
	u64 ip;

	if (h < 0)
		return -ENOENT;
	fres = c->fres + c->first_fre[h];
	hi = c->fde[h].num_fres;
	ip = (u64)off - (u64)c->funcs[h].start;
	if (c->fde[h].info & 0x10)
		ip %= c->fde[h].rep_size;
	/* the last FRE that starts at or before @ip */
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (fres[mid].start <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -ENOENT;
	ref_rule(c, h, fres[lo - 1].pos, want);
	return 0;
}

static void probe(const struct ictx *c, s64 off)
{
	struct sframe_rule r, want;
	int ret, exp;

	memset(&r, 0xa5, sizeof(r));
	ret = sframe_index_find(&c->idx, off, &r);
	exp = expect(c, off, &want);
	check(ret == exp);
	if (ret)
		return;
	check(same_rule(&r, &want));
	/* what any rule must be */
	check(r.func_start <= off);
	check((u64)off - (u64)r.func_start < r.func_size);
	check(r.cfa_reg == SFRAME_REG_SP || r.cfa_reg == SFRAME_REG_FP);
	check(r.ra_off == -8 && !r.ra_mangled);
	if (!r.fp_saved)
		check(r.fp_off == 0);
	if (r.ra_undefined)
		check(!r.fp_saved && r.cfa_off == 0);
	if (r.signal)
		check(c->pieces[c->funcs[holder(c, off)].piece].version ==
		      SFRAME_VERSION_3);
}

/* A function's extent, for the overlap checks. */
struct extent {
	__int128 start, end;
};

static int cmp_extent(const void *a, const void *b)
{
	const struct extent *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* Do any two of @v overlap?  Sorts @v. */
static bool any_overlap(struct extent *v, size_t n)
{
	__int128 max_end = 0;
	size_t i;

	qsort(v, n, sizeof(*v), cmp_extent);
	for (i = 0; i < n; i++) {
		if (i && v[i].start < max_end)
			return true;
		if (!i || v[i].end > max_end)
			max_end = v[i].end;
	}
	return false;
}

static void check_tables(const struct ictx *c)
{
	static const u8 version_flags[] = {
		[SFRAME_VERSION_1] = SFRAME_F_FDE_SORTED |
				     SFRAME_F_FRAME_POINTER,
		[SFRAME_VERSION_2] = SFRAME_F_FDE_SORTED |
				     SFRAME_F_FRAME_POINTER |
				     SFRAME_F_FDE_FUNC_START_PCREL,
		[SFRAME_VERSION_3] = SFRAME_F_FDE_SORTED |
				     SFRAME_F_FDE_FUNC_START_PCREL,
	};
	u32 k;

	for (k = 0; k < c->n.pieces; k++) {
		const struct sframe_table *t = &c->pieces[k];
		s64 off = piece_off(c, k);

		check(off >= 0 && (u64)off < c->size);
		check(t->size == c->size - off);
		check(t->used <= t->size);
		check(t->abi == SFRAME_ABI_AMD64_LE);
		check(t->fixed_ra == -8);
		check(t->version >= SFRAME_VERSION_1 &&
		      t->version <= SFRAME_VERSION_3);
		check(!(t->flags & ~version_flags[t->version]));
		if (k) {
			const struct sframe_table *p = &c->pieces[k - 1];
			s64 end = piece_off(c, k - 1) + p->used;

			check(end <= off);
			check(is_zero(c->buf + end, off - end));
		} else {
			check(off == 0);
		}
	}
}

static void check_index(struct ictx *c)
{
	u32 k, i, nf = c->idx.nr_funcs, *base, ov, nfres = 0;
	u64 total = 0, nonempty = 0;
	struct extent *all, *out;
	size_t nall = 0, nout = 0;
	u8 *seen, *mark_used;

	check(c->idx.pieces == c->pieces && c->idx.funcs == c->funcs &&
	      c->idx.marks == c->marks);
	check(c->idx.nr_pieces == c->n.pieces);
	check(nf <= c->n.funcs);
	check_tables(c);

	/* the entries of all tables, and which of them the index holds */
	base = alloc(c->n.pieces, sizeof(*base));
	for (k = 0; k < c->n.pieces; k++) {
		base[k] = total;
		total += c->pieces[k].num_fdes;
	}
	seen = calloc(total + 1, 1);
	check(seen);
	c->fde = alloc(nf, sizeof(*c->fde));
	for (i = 0; i < nf; i++) {
		const struct sframe_func *fn = &c->funcs[i];

		check(fn->piece < c->n.pieces);
		check(fn->fde < c->pieces[fn->piece].num_fdes);
		check(!seen[base[fn->piece] + fn->fde]);
		seen[base[fn->piece] + fn->fde] = 1;
		raw_fde(c, fn->piece, fn->fde, &c->fde[i], true);
		check(c->fde[i].start == fn->start);
		check(c->fde[i].size == fn->size);
		check(fn->size);
		/* sorted, disjoint */
		if (i)
			check(fn->start >= fn[-1].start + fn[-1].size);
		nfres += c->fde[i].num_fres;
	}

	/* the counts */
	all = alloc(total + 1, sizeof(*all));
	out = alloc(total + 1, sizeof(*out));
	for (k = 0; k < c->n.pieces; k++) {
		for (i = 0; i < c->pieces[k].num_fdes; i++) {
			struct raw_fde f;
			struct extent e;

			raw_fde(c, k, i, &f, false);
			if (!f.size)
				continue;
			e.start = f.start;
			e.end = (__int128)f.start + f.size;
			all[nall++] = e;
			if (!seen[base[k] + i])
				out[nout++] = e;
		}
	}
	nonempty = nall;
	check((u64)c->n.funcs + c->n.dropped <= total);
	check((u64)c->n.funcs + c->n.dropped >= nonempty);
	ov = c->n.funcs - nf;
	check(ov != 1);
	check(c->idx.nr_dropped == c->n.dropped + ov);
	check(c->idx.nr_dropped >= c->n.dropped);
	if (!any_overlap(all, nall))
		check(ov == 0);
	if (ov)
		check(any_overlap(out, nout));

	/* the FREs and marks of every function */
	c->first_fre = alloc(nf, sizeof(*c->first_fre));
	c->fres = alloc(nfres, sizeof(*c->fres));
	mark_used = calloc(c->n.marks + 1, 1);
	check(mark_used);
	nfres = 0;
	for (i = 0; i < nf; i++) {
		u32 j, nm = c->fde[i].num_fres ?
			    (c->fde[i].num_fres - 1) / SFRAME_MARK_STEP : 0;

		c->first_fre[i] = nfres;
		nfres += walk_fres(c, i, c->fres + nfres);
		for (j = 0; j < nm; j++) {
			check(!mark_used[c->funcs[i].mark + j]);
			mark_used[c->funcs[i].mark + j] = 1;
		}
	}

	/* lookups */
	for (i = 0; i < nf; i++) {
		const struct sframe_func *fn = &c->funcs[i];
		const struct ref_fre *fres = c->fres + c->first_fre[i];
		u32 j, rep = c->fde[i].info & 0x10 ? c->fde[i].rep_size : 0;

		probe(c, fn->start - 1);
		probe(c, fn->start);
		probe(c, fn->start + fn->size / 2);
		probe(c, fn->start + fn->size - 1);
		probe(c, fn->start + fn->size);
		for (j = 0; j < c->fde[i].num_fres; j++) {
			u64 s = fres[j].start;

			if (s < fn->size) {
				probe(c, fn->start + s);
				probe(c, fn->start + s - 1);
			}
			/* the same place in the next repetition block */
			if (rep && s + rep < fn->size)
				probe(c, fn->start + s + rep);
		}
	}
	for (k = 0; k < ARRAY_SIZE(far); k++)
		probe(c, far[k]);

	free(base);
	free(seen);
	free(all);
	free(out);
	free(mark_used);
	free(c->fde);
	free(c->first_fre);
	free(c->fres);
}

/*
 * Index with arrays of the sizes @w: must be refused, with -EINVAL or the
 * error @err of sframe_count(), and leave the index zeroed.
 */
static void wrong_sizes(const u8 *buf, size_t size,
			const struct sframe_sizes *w, int err)
{
	static const struct sframe_index zero;
	struct sframe_table *pieces = alloc(w->pieces, sizeof(*pieces));
	struct sframe_func *funcs = alloc(w->funcs, sizeof(*funcs));
	u32 *marks = alloc(w->marks, sizeof(*marks));
	struct sframe_index idx;
	const char *why = NULL;
	int ret;

	memset(&idx, 0xa5, sizeof(idx));
	ret = sframe_index_init(&x86_64_sframe_abi, &idx, buf, size, w, pieces, funcs, marks,
				&why);
	check(ret == -EINVAL || ret == err);
	check(why);
	check(!memcmp(&idx, &zero, sizeof(idx)));
	free(pieces);
	free(funcs);
	free(marks);
}

static void fuzz_index(const u8 *buf, size_t size)
{
	struct ictx c = { .buf = buf, .size = size };
	struct sframe_sizes w;
	u32 *fields[] = { &w.pieces, &w.funcs, &w.marks };
	const char *why = NULL;
	u32 nf, k;
	int ret;

	memset(&c.n, 0xa5, sizeof(c.n));
	ret = sframe_count(&x86_64_sframe_abi, buf, size, &c.n, &why);
	if (ret) {
		check(ret == -EINVAL || ret == -EOPNOTSUPP || ret == -E2BIG);
		check(why);
		check(sframe_count(&x86_64_sframe_abi, buf, size, &c.n, NULL) == ret);
		/* the index refuses it too, whatever the arrays */
		w = (struct sframe_sizes){ .pieces = 1 };
		wrong_sizes(buf, size, &w, ret);
		return;
	}
	check(!why);
	check(c.n.pieces >= 1 && c.n.funcs <= SFRAME_MAX_FUNCS);

	c.pieces = alloc(c.n.pieces, sizeof(*c.pieces));
	c.funcs = alloc(c.n.funcs, sizeof(*c.funcs));
	c.marks = alloc(c.n.marks, sizeof(*c.marks));
	memset(&c.idx, 0xa5, sizeof(c.idx));
	/* counted, so valid: overlaps only leave functions out */
	ret = sframe_index_init(&x86_64_sframe_abi, &c.idx, buf, size, &c.n, c.pieces, c.funcs,
				c.marks, &why);
	check(!ret && !why);
	check_index(&c);
	compact_check_all(&c.idx);
	/* and the NULL @why */
	nf = c.idx.nr_funcs;
	check(sframe_index_init(&x86_64_sframe_abi, &c.idx, buf, size, &c.n, c.pieces, c.funcs,
				c.marks, NULL) == 0);
	check(c.idx.nr_funcs == nf);

	/* arrays of the wrong size are refused, and not overrun */
	for (k = 0; k < ARRAY_SIZE(fields); k++) {
		w = c.n;
		if (*fields[k]) {
			(*fields[k])--;
			wrong_sizes(buf, size, &w, -EINVAL);
			(*fields[k])++;
		}
		(*fields[k])++;
		wrong_sizes(buf, size, &w, -EINVAL);
	}

	free(c.pieces);
	free(c.funcs);
	free(c.marks);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	u8 *buf;

	buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	fuzz_index(buf, size);
	free(buf);
	return 0;
}
