/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Synthetic SFrame version 2 sections for the host tests: a written-from-
 * the-format generator, independent of lib/sframe/sframe.c, that makes valid
 * AMD64 sections of any size.  Used by the benchmark, by the corpus (wrapped
 * in an ELF file so that llvm-readobj can decode it independently), as
 * fuzz seeds and by the lookup bound test.
 */
#ifndef SFRAME_GEN_H
#define SFRAME_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sframe_gen_opts {
	uint32_t nfdes;		/* number of functions */
	uint32_t seed;		/* pseudo-random seed; same seed, same bytes */
	bool pcrel;		/* SFRAME_F_FDE_FUNC_START_PCREL starts */
	bool pcmask;		/* sprinkle PLT-like PCMASK functions */
	uint32_t pieces;	/* tables one after the other (0 means 1) */
	/* functions in random order, not flagged sorted, dealt at random */
	bool shuffle;
};

/*
 * Build a section.  Returns a malloc()ed buffer of *size bytes, or NULL.
 * Function starts (relative to the whole section, i.e. to the start of the
 * first table) all lie in
 * [*text_start, *text_start + *text_len), i.e. before the section, as in a
 * real executable where .text precedes .sframe.
 */
uint8_t *sframe_gen(const struct sframe_gen_opts *o, size_t *size,
		    int64_t *text_start, uint64_t *text_len);

/*
 * A section with one long function, for the bounds on the cost of a
 * lookup (bench-sframe, sframe-bound): @nfres FREs, between @nshort
 * ordinary functions of 3 FREs each, half of them before it.
 */
struct sframe_gen_long_opts {
	uint32_t nfres;		/* FREs of the long function */
	bool wide;		/* 4-byte FRE starts; else 2-byte, nfres <= 65536 */
	bool mixed;		/* FREs of every offset count and size */
	uint32_t nshort;	/* ordinary functions */
	uint32_t align;		/* its FREs start and end at a multiple of this */
};

/* Where sframe_gen_long() put things, relative to the section start. */
struct sframe_gen_long {
	struct sframe_gen_long_opts o;
	int64_t text_start;	/* all functions lie in */
	uint64_t text_len;	/* [text_start, text_start + text_len) */
	int64_t start;		/* the long function */
	uint32_t size;
	uint64_t fres;		/* its FREs, [fres, fres + fres_len) */
	uint64_t fres_len;
};

/* The rule a decoder must give for an address. */
struct sframe_gen_rule {
	int64_t func_start;
	uint32_t func_size;
	uint8_t base;		/* CFA base register: 0 = FP, 1 = SP */
	int32_t cfa;		/* CFA offset from it */
	bool fp_saved;
	int32_t fp;		/* FP saved at CFA + fp, if @fp_saved */
};

/*
 * Build such a section: a malloc()ed buffer of *size bytes, or NULL.  The
 * long function's FRE i starts at byte i (2-byte starts) or at 4 * i plus
 * 0-3 (4-byte starts) of it; all its FREs have one 1-byte offset unless
 * @mixed.
 */
uint8_t *sframe_gen_long(const struct sframe_gen_long_opts *o, size_t *size,
			 struct sframe_gen_long *l);

/* Where FRE @i of the long function starts, relative to the function. */
uint32_t sframe_gen_long_fre_start(const struct sframe_gen_long *l,
				   uint32_t i);

/*
 * The rule for @off (relative to the section), from how the section was
 * built.  False if no function, or no FRE of the function, covers @off.
 */
bool sframe_gen_long_rule(const struct sframe_gen_long *l, int64_t off,
			  struct sframe_gen_rule *r);

#endif /* SFRAME_GEN_H */
