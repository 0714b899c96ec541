// SPDX-License-Identifier: GPL-2.0
/*
 * ehabi-dump: what lib/ehabi makes of the EHABI table of a 32-bit ARM ELF
 * file, one line per row:
 *
 *	START KIND [cfa=rN+OFF ra=SRC rK=[rN+OFF] ...]
 *
 * KIND is unwind, cantunwind, refuse or unsupported.  For unwind rows the
 * opcodes are run on registers that each hold a distinct base (rN = N << 27)
 * and a stack whose every word holds its own address, so the popped values
 * say where each register was saved: cfa is the caller's sp, SRC "lr" or
 * the slot of the return address; r0-r3 are skipped ("?").
 * ehabi-diff.py compares this with binutils' readelf -u.
 *
 * Usage: ehabi-dump FILE
 * Exits 3, printing nothing, if FILE has no PT_ARM_EXIDX.
 */
#include <stdio.h>

/* The decoder itself, so that its opcode interpreter can be watched. */
#include <lib/ehabi/ehabi.c>
#include "ehabi-elf.h"

#define BASE_SHIFT	27

static bool read_own_address(void *ctx, u32 addr, u32 *val)
{
	*val = addr;
	return true;
}

static void print_addr(u32 a)
{
	printf("r%u+%u", a >> BASE_SHIFT, a & ((1u << BASE_SHIFT) - 1));
}

static void print_effect(const struct ehabi_table *t,
			 const struct ehabi_row *row)
{
	struct vm vm = { .read = read_own_address, .vsp_known = true };
	unsigned int r;
	int err;

	for (r = 0; r < 16; r++)
		vm.regs.r[r] = r << BASE_SHIFT;
	vm.regs.known = 0xffff;
	vm.vsp = vm.regs.r[EHABI_SP];
	err = vm_run(&vm, t->ops + row->ops, row->len, NULL);
	if (err) {
		printf(" error=%d", err);
		return;
	}
	printf(" cfa=");
	print_addr(vm.vsp);
	printf(" ra=");
	if (vm.popped & (BIT(EHABI_PC) | BIT(EHABI_LR))) {
		putchar('[');
		print_addr(vm.regs.r[vm.popped & BIT(EHABI_PC) ?
				     EHABI_PC : EHABI_LR]);
		putchar(']');
	} else {
		printf("lr");
	}
	for (r = 0; r < 16; r++) {
		if (!(vm.popped & BIT(r)))
			continue;
		printf(" r%u=", r);
		if (r < 4) {
			printf("?");
			continue;
		}
		putchar('[');
		print_addr(vm.regs.r[r]);
		putchar(']');
	}
}

static const char *const kinds[] = {
	[EHABI_UNWIND] = "unwind", [EHABI_CANTUNWIND] = "cantunwind",
	[EHABI_REFUSE] = "refuse", [EHABI_UNSUPPORTED] = "unsupported",
};

int main(int argc, char **argv)
{
	struct ehabi_table t;
	u32 i;
	int err;

	if (argc != 2) {
		fprintf(stderr, "usage: %s FILE\n", argv[0]);
		return 2;
	}
	err = ehabi_elf_table(argv[1], &t);
	if (err)
		return err;
	for (i = 0; i < t.nr_rows; i++) {
		printf("%08x %s", t.rows[i].start, kinds[t.rows[i].kind]);
		if (t.rows[i].kind == EHABI_UNWIND)
			print_effect(&t, &t.rows[i]);
		putchar('\n');
	}
	return 0;
}
