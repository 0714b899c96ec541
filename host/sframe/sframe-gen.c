// SPDX-License-Identifier: GPL-2.0
/*
 * Synthetic SFrame version 2 sections, written from the format description
 * alone (not from lib/sframe/sframe.c) so that the tests built on it do not
 * share the decoder's assumptions.
 *
 * Layout: 28-byte header, no auxiliary header, function index (20-byte
 * entries, sorted by start) right after it, then the FREs.  Optionally the
 * section is several such tables one after the other, 8-byte aligned with
 * zeros between them, and the tables list their functions in a random
 * order without SFRAME_F_FDE_SORTED, as lld 22 writes .sframe.  Each function
 * gets 1-6 FREs that look like compiler output: CFA = SP + 8 at entry, then
 * pushes, an optional frame pointer setup (CFA = FP + 16, FP saved at
 * CFA - 16) and an epilogue.  PLT-like functions are PCMASK FDEs with a
 * 16-byte repetition block: CFA = SP + 8 at offset 0, SP + 16 from 11 on.
 *
 * sframe_gen_long() writes one function with very many FREs (up to the
 * limits of the format), between a few short ones, with its FREs where the
 * caller wants them in the section, and says which rule every address has.
 */
#include <stdlib.h>
#include <string.h>

#include "sframe-gen.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

#define HDR_SIZE	28
#define FDE_SIZE	20
#define MAX_FRES	6

struct gen_fre {
	uint32_t start;
	uint8_t base;		/* 0 = FP, 1 = SP */
	uint8_t count;		/* 0 (outermost), 1 (CFA) or 2 (CFA, FP) */
	uint8_t osize;		/* 0: 1 byte, 1: 2 bytes, 2: 4 bytes */
	int32_t cfa;
	int32_t fp;
};

struct gen_fde {
	int64_t start;		/* relative to the text start for now */
	uint32_t size;
	uint8_t type;		/* FRE start size: 0, 1, 2 */
	uint8_t pcmask;
	uint32_t nfres;
	struct gen_fre fre[MAX_FRES];
};

static uint32_t rnd_state;

static uint32_t rnd(void)
{
	/* xorshift32 */
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state;
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v;
	p[1] = v >> 8;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v);
	put16(p + 2, v >> 16);
}

/* Smallest offset size that holds @v, sometimes a larger one. */
static uint8_t osize_for(int32_t v)
{
	uint8_t s = 0;

	if (v < -128 || v > 127)
		s = 1;
	if (v < -32768 || v > 32767)
		s = 2;
	if (s < 2 && rnd() % 16 == 0)
		s++;
	return s;
}

static void gen_plt(struct gen_fde *f)
{
	f->size = 16 * (1 + rnd() % 40);
	f->pcmask = 1;
	f->type = 0;
	f->nfres = 2;
	f->fre[0] = (struct gen_fre){ .start = 0, .base = 1, .count = 1,
				      .cfa = 8 };
	f->fre[1] = (struct gen_fre){ .start = 11, .base = 1, .count = 1,
				      .cfa = 16 };
}

static void gen_func(struct gen_fde *f)
{
	uint32_t r = rnd() % 100, i, n, pos;
	int32_t cfa = 8;
	bool fp = false;

	if (r < 60)
		f->size = 1 + rnd() % 200;
	else if (r < 95)
		f->size = 200 + rnd() % 2000;
	else if (r < 99)
		f->size = 2200 + rnd() % 70000;
	else
		f->size = 70000 + rnd() % 300000;

	if (f->size <= 0x100)
		f->type = 0;
	else if (f->size <= 0x10000)
		f->type = 1;
	else
		f->type = 2;
	if (f->type < 2 && rnd() % 32 == 0)
		f->type++;

	n = 1 + rnd() % MAX_FRES;
	if (n > f->size)
		n = f->size;
	pos = 0;
	/* Rarely, the first FRE starts after the function start. */
	if (f->size > n && rnd() % 64 == 0)
		pos = 1;
	for (i = 0; i < n; i++) {
		struct gen_fre *e = &f->fre[i];
		uint32_t room = f->size - pos - (n - i - 1);

		e->start = pos;
		if (i == 0 && rnd() % 100 == 0) {
			/* outermost frame, like _start */
			e->count = 0;
			e->base = 1;
		} else if (fp) {
			e->base = 0;
			e->cfa = 16;
			e->fp = -16;
			e->count = 2;
		} else {
			e->base = 1;
			e->cfa = cfa;
			e->count = 1;
			if (i && rnd() % 8 == 0) {
				/* push %rbp; mov %rsp,%rbp */
				fp = true;
				e->base = 0;
				e->cfa = 16;
				e->fp = -16;
				e->count = 2;
			}
		}
		e->osize = osize_for(e->cfa);
		if (e->count == 2 && osize_for(e->fp) > e->osize)
			e->osize = osize_for(e->fp);
		if (!fp) {
			if (rnd() % 4 == 0)
				cfa += 8 * (1 + rnd() % 4096);
			else
				cfa += 8;
		}
		pos += 1 + rnd() % (room > 64 ? 64 : room);
		if (pos > f->size - (n - i - 1))
			pos = f->size - (n - i - 1);
	}
	f->nfres = n;
}

/* Write the header of one table at @buf; the function index follows it. */
static void put_header(uint8_t *buf, uint8_t flags, uint32_t nfdes,
		       uint64_t nfres, uint64_t fre_len)
{
	uint64_t fdes_len = (uint64_t)nfdes * FDE_SIZE;

	put16(buf, 0xdee2);
	buf[2] = 2;				/* version */
	buf[3] = flags;
	buf[4] = 3;				/* AMD64 little endian */
	buf[5] = 0;				/* no fixed FP offset */
	buf[6] = (uint8_t)-8;			/* RA at CFA - 8 */
	buf[7] = 0;				/* no auxiliary header */
	put32(buf + 8, nfdes);
	put32(buf + 12, nfres);
	put32(buf + 16, fre_len);
	put32(buf + 20, 0);			/* FDEs right after the header */
	put32(buf + 24, fdes_len);		/* then the FREs */
}

/* Write FRE @r with start size 1 << @type at @p; returns the end. */
static uint8_t *put_fre(uint8_t *p, uint8_t type, const struct gen_fre *r)
{
	uint32_t os = 1u << r->osize;
	int32_t offs[2] = { r->cfa, r->fp };
	uint32_t k;

	if (type == 0)
		*p = r->start;
	else if (type == 1)
		put16(p, r->start);
	else
		put32(p, r->start);
	p += 1u << type;
	*p++ = r->base | r->count << 1 | r->osize << 5;
	for (k = 0; k < r->count; k++) {
		if (os == 1)
			*p = (uint8_t)offs[k];
		else if (os == 2)
			put16(p, (uint16_t)offs[k]);
		else
			put32(p, (uint32_t)offs[k]);
		p += os;
	}
	return p;
}

static uint32_t fre_size(uint8_t type, const struct gen_fre *r)
{
	return (1u << type) + 1 + r->count * (1u << r->osize);
}

/* Write the FREs of @f at @p; returns the end. */
static uint8_t *put_fres(uint8_t *p, const struct gen_fde *f)
{
	uint32_t j;

	for (j = 0; j < f->nfres; j++)
		p = put_fre(p, f->type, &f->fre[j]);
	return p;
}

static uint64_t fres_len(const struct gen_fde *f)
{
	uint64_t n = 0;
	uint32_t j;

	for (j = 0; j < f->nfres; j++)
		n += fre_size(f->type, &f->fre[j]);
	return n;
}

uint8_t *sframe_gen(const struct sframe_gen_opts *o, size_t *size,
		    int64_t *text_start, uint64_t *text_len)
{
	uint32_t npieces = o->pieces ? o->pieces : 1;
	struct gen_fde *fdes = calloc(o->nfdes ? o->nfdes : 1, sizeof(*fdes));
	/* the functions of each piece, in the order the piece lists them */
	uint32_t *order = calloc(o->nfdes ? o->nfdes : 1, sizeof(*order));
	uint32_t *piece = calloc(o->nfdes ? o->nfdes : 1, sizeof(*piece));
	uint32_t *first = calloc(npieces + 1, sizeof(*first));
	uint64_t *off = calloc(npieces + 1, sizeof(*off));
	uint64_t cursor = 0;
	uint8_t *buf = NULL;
	uint32_t i, j;
	int64_t base;

	if (!fdes || !order || !piece || !first || !off)
		goto out;
	rnd_state = o->seed ? o->seed : 1;

	for (i = 0; i < o->nfdes; i++) {
		struct gen_fde *f = &fdes[i];

		if (o->pcmask && rnd() % 200 == 0) {
			cursor = (cursor + 15) & ~15ull;
			gen_plt(f);
		} else {
			gen_func(f);
		}
		f->start = cursor;
		cursor += f->size;
		/* gaps of padding between functions, often none */
		if (rnd() % 2)
			cursor += rnd() % 16;
	}

	/*
	 * Deal the functions out to the pieces (at random if shuffled, so
	 * that the pieces' functions interleave), then, if shuffled, list
	 * each piece's functions in a random order.
	 */
	for (i = 0; i < o->nfdes; i++) {
		piece[i] = npieces == 1 ? 0 :
			   o->shuffle ? rnd() % npieces :
			   (uint32_t)((uint64_t)i * npieces / o->nfdes);
		first[piece[i] + 1]++;
	}
	for (j = 0; j < npieces; j++)
		first[j + 1] += first[j];
	{
		uint32_t *fill = calloc(npieces, sizeof(*fill));

		if (!fill)
			goto out;
		for (i = 0; i < o->nfdes; i++)
			order[first[piece[i]] + fill[piece[i]]++] = i;
		free(fill);
	}
	if (o->shuffle) {
		for (j = 0; j < npieces; j++) {
			uint32_t n = first[j + 1] - first[j], *v = order + first[j];

			for (i = n; i > 1; i--) {
				uint32_t k = rnd() % i, t = v[i - 1];

				v[i - 1] = v[k];
				v[k] = t;
			}
		}
	}

	/* Piece sizes; each piece starts 8-byte aligned, zeros between. */
	for (j = 0; j < npieces; j++) {
		uint64_t len = HDR_SIZE +
			       (uint64_t)(first[j + 1] - first[j]) * FDE_SIZE;

		for (i = first[j]; i < first[j + 1]; i++)
			len += fres_len(&fdes[order[i]]);
		off[j + 1] = off[j] + len;
		if (j + 1 < npieces)
			off[j + 1] = (off[j + 1] + 7) & ~7ull;
	}
	*size = off[npieces];
	buf = calloc(1, *size);
	if (!buf)
		goto out;
	/* The text ends 4 KiB before the section. */
	base = -(int64_t)(cursor + 0x1000);
	*text_start = base;
	*text_len = cursor;

	for (j = 0; j < npieces; j++) {
		uint32_t n = first[j + 1] - first[j];
		uint8_t *tab = buf + off[j], *fres, *p;
		uint64_t fdes_len = (uint64_t)n * FDE_SIZE, nfres = 0;

		fres = tab + HDR_SIZE + fdes_len;
		p = fres;
		for (i = 0; i < n; i++) {
			const struct gen_fde *f = &fdes[order[first[j] + i]];
			uint8_t *e = tab + HDR_SIZE + (uint64_t)i * FDE_SIZE;
			/* relative to this table's start */
			int64_t start = base + f->start - (int64_t)off[j];

			if (o->pcrel)
				start -= HDR_SIZE + (int64_t)i * FDE_SIZE;
			put32(e, (uint32_t)start);
			put32(e + 4, f->size);
			put32(e + 8, p - fres);
			put32(e + 12, f->nfres);
			e[16] = f->type | (f->pcmask << 4);
			e[17] = f->pcmask ? 16 : 0;	/* repetition block size */
			p = put_fres(p, f);
			nfres += f->nfres;
		}
		/* sorted unless shuffled, maybe PC-relative */
		put_header(tab, (o->shuffle ? 0 : 0x1) | (o->pcrel ? 0x4 : 0),
			   n, nfres, p - fres);
	}
out:
	free(fdes);
	free(order);
	free(piece);
	free(first);
	free(off);
	return buf;
}

/* ------------------------------------------------------------------ */
/* One long function.                                                 */

#define SHORT_SIZE	32	/* size of an ordinary function */
#define FUNC_GAP	16	/* padding after every function */

/* The FREs of an ordinary function: 1-byte starts. */
static const struct gen_fre short_fres[] = {
	{ .start = 0, .base = 1, .count = 1, .cfa = 8 },	/* entry */
	{ .start = 4, .base = 1, .count = 1, .cfa = 16 },	/* push %rbp */
	{ .start = 9, .base = 0, .count = 2, .cfa = 16, .fp = -16 },
};

#define NR_SHORT_FRES	ARRAY_SIZE(short_fres)

static uint32_t mix32(uint32_t x)
{
	x = (x + 0x9e3779b9u) * 0x85ebca6bu;
	x ^= x >> 13;
	x *= 0xc2b2ae35u;
	return x ^ (x >> 16);
}

/* FRE @i of the long function. */
static void long_fre(const struct sframe_gen_long_opts *o, uint32_t i,
		     struct gen_fre *e)
{
	uint32_t h = mix32(i), v = mix32(h), w = mix32(v);

	memset(e, 0, sizeof(*e));
	e->start = o->wide ? 4 * i + (h & 3) : i;
	e->base = (h >> 2) & 1;
	e->count = 1;
	if (o->mixed) {
		e->count = 1 + ((h >> 3) & 1);
		e->osize = (h >> 4) % 3;
	}
	/* any value that fits the offset size */
	if (e->osize == 0) {
		e->cfa = (int8_t)v;
		e->fp = (int8_t)w;
	} else if (e->osize == 1) {
		e->cfa = (int16_t)v;
		e->fp = (int16_t)w;
	} else {
		e->cfa = (int32_t)v;
		e->fp = (int32_t)w;
	}
	if (e->count < 2)
		e->fp = 0;
}

static uint8_t long_type(const struct sframe_gen_long_opts *o)
{
	return o->wide ? 2 : 1;
}

/* Start of function @k, in address order, relative to the section. */
static int64_t func_start(const struct sframe_gen_long *l, uint32_t k)
{
	uint32_t before = l->o.nshort / 2;

	if (k < before)
		return l->text_start + (int64_t)k * (SHORT_SIZE + FUNC_GAP);
	if (k == before)
		return l->start;
	return l->start + l->size + FUNC_GAP +
	       (int64_t)(k - before - 1) * (SHORT_SIZE + FUNC_GAP);
}

static uint64_t round_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

uint8_t *sframe_gen_long(const struct sframe_gen_long_opts *o, size_t *size,
			 struct sframe_gen_long *l)
{
	uint32_t nfdes = o->nshort + 1, before = o->nshort / 2, i, k;
	uint64_t align = o->align ? o->align : 1, fre_area, end, text;
	uint8_t type = long_type(o), *buf, *p, *sp;
	uint64_t short_len = 0, len = 0;
	struct gen_fre e;

	if (!o->nfres || o->nfres > (o->wide ? 0x3fffffffu : 0x10000u) ||
	    o->nshort > 0xffff)
		return NULL;
	memset(l, 0, sizeof(*l));
	l->o = *o;
	for (i = 0; i < o->nfres; i++) {
		long_fre(o, i, &e);
		len += fre_size(type, &e);
	}
	for (i = 0; i < NR_SHORT_FRES; i++)
		short_len += fre_size(0, &short_fres[i]);

	/* the text, before the section as in an executable */
	l->size = (o->wide ? 4 * o->nfres : o->nfres) + 16;
	text = (uint64_t)o->nshort * (SHORT_SIZE + FUNC_GAP) + l->size +
	       FUNC_GAP;
	l->text_start = -(int64_t)(text + 0x1000);
	l->text_len = text;
	l->start = l->text_start + (int64_t)before * (SHORT_SIZE + FUNC_GAP);

	/* header, function index, short FREs, long FREs, each aligned */
	fre_area = HDR_SIZE + (uint64_t)nfdes * FDE_SIZE;
	l->fres = round_up(fre_area + o->nshort * short_len, align);
	l->fres_len = len;
	end = round_up(l->fres + len, align);
	if (end > 0xffffffffu)
		return NULL;
	buf = calloc(1, end);
	if (!buf)
		return NULL;
	*size = end;

	sp = buf + fre_area;
	for (k = 0; k < nfdes; k++) {
		uint8_t *fde = buf + HDR_SIZE + (uint64_t)k * FDE_SIZE;
		/* PC-relative: from the entry's own start field */
		int64_t start = func_start(l, k) - (int64_t)(fde - buf);

		put32(fde, (uint32_t)start);
		if (k == before) {
			put32(fde + 4, l->size);
			put32(fde + 8, l->fres - fre_area);
			put32(fde + 12, o->nfres);
			fde[16] = type;
			continue;
		}
		put32(fde + 4, SHORT_SIZE);
		put32(fde + 8, sp - (buf + fre_area));
		put32(fde + 12, NR_SHORT_FRES);
		fde[16] = 0;
		for (i = 0; i < NR_SHORT_FRES; i++)
			sp = put_fre(sp, 0, &short_fres[i]);
	}
	p = buf + l->fres;
	for (i = 0; i < o->nfres; i++) {
		long_fre(o, i, &e);
		p = put_fre(p, type, &e);
	}
	/* sorted, PC-relative starts */
	put_header(buf, 0x1 | 0x4, nfdes,
		   (uint64_t)o->nshort * NR_SHORT_FRES + o->nfres,
		   end - fre_area);
	return buf;
}

uint32_t sframe_gen_long_fre_start(const struct sframe_gen_long *l,
				   uint32_t i)
{
	struct gen_fre e;

	long_fre(&l->o, i, &e);
	return e.start;
}

bool sframe_gen_long_rule(const struct sframe_gen_long *l, int64_t off,
			  struct sframe_gen_rule *r)
{
	uint32_t k, i, size;
	struct gen_fre e;
	int64_t start;
	uint64_t ip;

	for (k = 0; k <= l->o.nshort; k++) {
		start = func_start(l, k);
		size = start == l->start ? l->size : SHORT_SIZE;
		if (off >= start && (uint64_t)off - (uint64_t)start < size)
			break;
	}
	if (k > l->o.nshort)
		return false;
	ip = (uint64_t)off - (uint64_t)start;
	if (start != l->start) {
		e = short_fres[ip >= short_fres[2].start ? 2 :
			       ip >= short_fres[1].start ? 1 : 0];
	} else {
		i = l->o.wide ? ip / 4 : ip;
		if (i >= l->o.nfres)
			i = l->o.nfres - 1;
		else if (ip < sframe_gen_long_fre_start(l, i) && !i--)
			return false;	/* before the first FRE */
		long_fre(&l->o, i, &e);
	}
	r->func_start = start;
	r->func_size = size;
	r->base = e.base;
	r->cfa = e.cfa;
	r->fp_saved = e.count == 2;
	r->fp = e.count == 2 ? e.fp : 0;
	return true;
}
