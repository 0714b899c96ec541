// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for lib/ehabi: the input is an image whose first
 * four bytes say where .ARM.exidx starts in it and how long it is (two
 * 16-bit little-endian numbers); the rest is the image.  Every table the
 * decoder accepts is looked up at each row and stepped from a stack made
 * of the input too, at a return address and at a sampled pc.  Built with
 * ASan and UBSan (make fuzz), any read outside the input, overflow or
 * step that moves sp down is a crash.
 */
#include <stdlib.h>
#include <string.h>

#include <linux/ehabi.h>

struct stack {
	const u8 *data;
	size_t len;
	u32 base;
};

static bool read_stack(void *ctx, u32 addr, u32 *val)
{
	const struct stack *s = ctx;
	u32 off = addr - s->base;

	if (off >= s->len || s->len - off < 4)
		return false;
	memcpy(val, s->data + off, 4);
	return true;
}

static void check_step(const struct ehabi_table *t,
		       const struct ehabi_row *row, const struct stack *s,
		       bool at_call)
{
	struct ehabi_regs r;
	u32 i, sp;

	for (i = 0; i < 16; i++)
		r.r[i] = s->base + 4 * i;
	r.known = 0xffff;
	sp = r.r[EHABI_SP];
	if (ehabi_step(t, row, &r, at_call, read_stack, (void *)s))
		return;
	/* a caller's sp is above its callee's, or not known */
	if ((r.known & (1u << EHABI_SP)) &&
	    (r.r[EHABI_SP] < sp || (at_call && r.r[EHABI_SP] == sp)))
		abort();
	if (!(r.known & (1u << EHABI_PC)) || (r.known & (1u << EHABI_LR)))
		abort();
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct ehabi_image img;
	struct ehabi_table t;
	struct ehabi_row *rows;
	struct stack s;
	u32 nr, len, i;
	u8 *ops, *copy;

	if (size < 4 || size > 0x10000 + 4)
		return 0;
	/* an exact-size copy, for ASan to see any read past it */
	copy = malloc(size - 4 ? size - 4 : 1);
	if (!copy)
		return 0;
	memcpy(copy, data + 4, size - 4);
	img.data = copy;
	img.addr = 0x10000;
	img.len = size - 4;
	img.exidx = img.addr + (data[0] | data[1] << 8);
	img.exidx_len = data[2] | data[3] << 8;
	if (ehabi_count(&img, &nr, &len)) {
		free(copy);
		return 0;
	}
	rows = malloc(nr * sizeof(*rows));
	ops = malloc(len ? len : 1);
	if (!rows || !ops || ehabi_build(&img, rows, nr, ops, len, &t))
		abort();
	s.data = copy;
	s.len = img.len;
	s.base = 0x40000000;
	for (i = 0; i < nr; i++) {
		if (ehabi_find(&t, rows[i].start) != &rows[i])
			abort();
		check_step(&t, &rows[i], &s, true);
		check_step(&t, &rows[i], &s, false);
	}
	free(rows);
	free(ops);
	free(copy);
	return 0;
}
