/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared types of sframe-diff: what an independent decoder says about a
 * section.  Kept free of both <linux/sframe.h> and <sframe-api.h>, whose
 * macro names collide.
 */
#ifndef SFRAME_DIFF_H
#define SFRAME_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the reference decoder says about one address. */
struct expect {
	bool found;
	uint8_t cfa_reg;	/* 0 = FP, 1 = SP (the SFrame encoding) */
	int32_t cfa_off;
	bool fp_saved;
	int32_t fp_off;
	bool ra_known;		/* the reference gave an RA offset */
	int32_t ra_off;
	bool ra_undefined;	/* FRE without offsets: outermost frame */
};

struct ref_fre {
	uint32_t start;		/* relative to the function (or rep block) */
	struct expect rule;	/* .found is always true */
};

struct ref_fde {
	/*
	 * Relative to the section's load address; sframe-diff makes it
	 * relative to the whole .sframe when the table is one of several.
	 */
	int64_t start;
	uint32_t size;
	bool pcmask;
	uint32_t rep_size;	/* PCMASK repetition block */
	uint32_t num_fres;
	struct ref_fre *fres;
};

/* A whole section as the reference decoder sees it. */
struct ref_table {
	int version;
	uint8_t flags;
	uint32_t num_fdes;
	struct ref_fde *fdes;	/* in section order */
};

/* libsframe (binutils 2.40) reference for version 1, oracle-libsframe.c */
struct v1_ref;
struct v1_ref *v1_ref_open(const void *data, size_t size, const char **err);
int v1_ref_table(struct v1_ref *r, struct ref_table *t, const char **err);
void v1_ref_lookup(struct v1_ref *r, int64_t off, struct expect *e);
void v1_ref_close(struct v1_ref *r);

#endif /* SFRAME_DIFF_H */
