// SPDX-License-Identifier: GPL-2.0
/*
 * ehabi-step: unwind recorded ARM stacks with lib/ehabi and judge every
 * frame against the calls the recording saw in progress.
 *
 * step-record.py writes one line per instruction a program's main ran:
 * the registers, the stack from sp up, and the true return addresses.
 * For each, this unwinds as the kernel would from a sample there: the
 * interrupted pc first (ehabi_step() with at_call false), then from each
 * return address (at_call true), until a step gives no caller.  A sample
 * is complete if it reaches main's return address, stopped if what it
 * gives is right but shorter, wrong if any return address differs from
 * the true one at that depth.
 *
 * Usage: ehabi-step [--at-call-everywhere] PROG RECORDS
 *   --at-call-everywhere  trust the table at the interrupted pc too (the
 *			   mistake this test is there to catch); with it,
 *			   the exit status is 0 only if some sample is wrong
 * Exits 1 if a sample is wrong.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ehabi-elf.h"

#define MAX_WORDS	65536
#define MAX_DEPTH	64

struct record {
	u32 regs[16];
	u32 lo;
	u32 nwords;
	u32 words[MAX_WORDS];
	u32 ntruth;
	u32 truth[MAX_DEPTH];
};

static bool read_stack(void *ctx, u32 addr, u32 *val)
{
	const struct record *r = ctx;
	u32 i = (addr - r->lo) / 4;

	if ((addr & 3) || addr < r->lo || i >= r->nwords)
		return false;
	*val = r->words[i];
	return true;
}

/* "pc cpsr r0 .. r15 ; lo w.. ; ra..", hex */
static bool parse(char *line, struct record *r)
{
	char *part[3], *tok, *save;
	unsigned int i, n;

	part[0] = strtok_r(line, ";", &save);
	part[1] = strtok_r(NULL, ";", &save);
	part[2] = strtok_r(NULL, ";\n", &save);
	if (!part[0] || !part[1] || !part[2])
		return false;
	n = 0;
	for (tok = strtok(part[0], " "); tok; tok = strtok(NULL, " "), n++)
		if (n >= 2 && n < 18)
			r->regs[n - 2] = strtoul(tok, NULL, 16);
	if (n != 18)
		return false;
	tok = strtok(part[1], " ");
	if (!tok)
		return false;
	r->lo = strtoul(tok, NULL, 16);
	for (i = 0; (tok = strtok(NULL, " ")) && i < MAX_WORDS; i++)
		r->words[i] = strtoul(tok, NULL, 16);
	r->nwords = i;
	for (i = 0, tok = strtok(part[2], "\n "); tok && i < MAX_DEPTH;
	     tok = strtok(NULL, "\n "))
		r->truth[i++] = strtoul(tok, NULL, 16);
	r->ntruth = i;
	return i > 0;
}

int main(int argc, char **argv)
{
	unsigned long steps = 0, complete = 0, stopped = 0, wrong = 0;
	unsigned long frames = 0, right_frames = 0, shown = 0;
	bool everywhere = false;
	static struct record r;
	struct ehabi_table t;
	char *line = NULL;
	size_t cap = 0;
	FILE *f;

	if (argc > 1 && !strcmp(argv[1], "--at-call-everywhere")) {
		everywhere = true;
		argc--;
		argv++;
	}
	if (argc != 3) {
		fprintf(stderr,
			"usage: ehabi-step [--at-call-everywhere] PROG RECORDS\n");
		return 2;
	}
	if (ehabi_elf_table(argv[1], &t))
		return 2;
	f = fopen(argv[2], "r");
	if (!f) {
		perror(argv[2]);
		return 2;
	}

	while (getline(&line, &cap, f) > 0) {
		struct ehabi_regs regs;
		u32 got[MAX_DEPTH], depth = 0, i;
		bool at_call = everywhere, bad = false;

		if (!parse(line, &r)) {
			fprintf(stderr, "%s: bad line %lu\n", argv[2], steps + 1);
			return 2;
		}
		steps++;
		memcpy(regs.r, r.regs, sizeof(regs.r));
		regs.known = 0xffff;
		while (depth < MAX_DEPTH) {
			u32 pc = regs.r[15];
			const struct ehabi_row *row;

			row = ehabi_find(&t, depth ? ehabi_call_site(pc) : pc);

			if (ehabi_step(&t, row, &regs, at_call, read_stack, &r))
				break;
			got[depth++] = regs.r[15];
			at_call = true;
		}

		for (i = 0; i < depth && i < r.ntruth; i++) {
			frames++;
			if ((got[i] ^ r.truth[i]) & ~1u) {
				bad = true;
				break;
			}
			right_frames++;
		}
		if (bad) {
			wrong++;
			if (shown++ < 5) {
				printf("wrong at pc %x:", r.regs[15]);
				for (i = 0; i < depth; i++)
					printf(" %x", got[i]);
				printf("; true:");
				for (i = 0; i < r.ntruth; i++)
					printf(" %x", r.truth[i]);
				printf("\n");
			}
		} else if (depth >= r.ntruth) {
			complete++;
		} else {
			stopped++;
		}
	}
	printf("%s: %lu samples: complete %lu, stopped %lu, wrong %lu; ",
	       argv[1], steps, complete, stopped, wrong);
	printf("%lu of %lu return addresses right\n", right_frames, frames);
	if (everywhere)
		return wrong ? 0 : 1;
	return wrong ? 1 : 0;
}
