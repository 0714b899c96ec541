// SPDX-License-Identifier: GPL-2.0
/* Host checks of lib/sframe/compact.c; see compact-check.h. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compact-check.h"
#include <lib/sframe/compact.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

int compact_make(const struct sframe_index *idx, struct sframe_compact *c,
		 void **buf, size_t *size, const char **why)
{
	size_t scratch_size = sframe_compact_scratch_size(idx);
	struct sframe_cbuild b;
	void *scratch = malloc(scratch_size ? scratch_size : 1);
	int ret;

	*buf = NULL;
	if (!scratch)
		return -ENOMEM;
	memset(&b, 0, sizeof(b));
	b.seed = 0x5f3759dfu;
	ret = sframe_compact_prepare(&b, idx, scratch, scratch_size, why);
	if (!ret) {
		*size = b.size;
		*buf = malloc(b.size ? b.size : 1);
		ret = *buf ? sframe_compact_write(c, &b, *buf, b.size) : -ENOMEM;
		if (ret) {
			free(*buf);
			*buf = NULL;
		}
	}
	free(scratch);
	return ret;
}

struct diff {
	const struct sframe_index *idx;
	const struct sframe_compact *c;
	unsigned long checked, bad;
	u32 last_func;
	u32 prev_start;
};

static bool same(const struct sframe_rule *a, const struct sframe_rule *b)
{
	return a->func_start == b->func_start && a->func_size == b->func_size &&
	       a->cfa_reg == b->cfa_reg && a->cfa_off == b->cfa_off &&
	       a->ra_off == b->ra_off && a->fp_off == b->fp_off &&
	       a->fp_saved == b->fp_saved && a->ra_undefined == b->ra_undefined &&
	       a->ra_mangled == b->ra_mangled && a->signal == b->signal;
}

static void one(struct diff *d, s64 off)
{
	struct sframe_rule a, b;
	int ra, rb;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	ra = sframe_index_find(d->idx, off, &a);
	rb = sframe_compact_find(d->c, off, &b);
	d->checked++;
	if (ra == rb && (ra || same(&a, &b)))
		return;
	if (d->bad++ < 10)
		printf("# %#llx: index %d cfa %u%+d fp %d/%d, compact %d cfa %u%+d fp %d/%d\n",
		       (unsigned long long)off, ra, a.cfa_reg, a.cfa_off,
		       a.fp_saved, a.fp_off, rb, b.cfa_reg, b.cfa_off,
		       b.fp_saved, b.fp_off);
}

static int diff_row(void *arg, u32 i, const struct sframe_func_desc *fd,
		    u32 row, u32 start, const struct sframe_rule *rule)
{
	struct diff *d = arg;
	s64 s = fd->start;
	u32 k;

	if (!row || i != d->last_func) {
		d->last_func = i;
		one(d, s - 1);
		one(d, s);
		one(d, s + (s64)fd->size - 1);
		one(d, s + (s64)fd->size);
	} else {
		one(d, s + d->prev_start + (start - d->prev_start) / 2);
	}
	one(d, s + start);
	if (start)
		one(d, s + start - 1);
	for (k = 1; fd->rep_size && k < 3; k++)
		if ((u64)start + (u64)k * fd->rep_size < fd->size)
			one(d, s + start + (s64)k * fd->rep_size);
	d->prev_start = start;
	return 0;
}

unsigned long compact_diff(const struct sframe_index *idx,
			   const struct sframe_compact *c,
			   unsigned long *checked)
{
	static const s64 far[] = { INT64_MIN, INT64_MIN + 1, -1, 0, 1, INT64_MAX };
	struct diff d = { .idx = idx, .c = c, .last_func = ~0u };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(far); i++)
		one(&d, far[i]);
	sframe_index_rows(idx, diff_row, &d);
	*checked = d.checked;
	return d.bad;
}

void compact_check_all(const struct sframe_index *idx)
{
	struct sframe_compact c;
	unsigned long checked;
	const char *why = NULL;
	size_t size;
	void *buf;
	int ret;

	ret = compact_make(idx, &c, &buf, &size, &why);
	if (ret == -E2BIG) {
		free(buf);
		return;
	}
	if (ret) {
		fprintf(stderr, "compact: %d (%s)\n", ret, why ? why : "");
		abort();
	}
	if (compact_diff(idx, &c, &checked)) {
		fprintf(stderr, "compact: differs from the index\n");
		abort();
	}
	free(buf);
}
