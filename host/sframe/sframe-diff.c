// SPDX-License-Identifier: GPL-2.0
/*
 * sframe-diff: compare lib/sframe/sframe.c, built in user space, with an
 * independent SFrame decoder on real ELF files, address by address.
 *
 *   sframe-diff [-v] [-R READOBJ] [-S FILE]... FILE...
 *   sframe-diff -x OUT FILE		(only copy FILE's .sframe to OUT)
 *
 * Our side is the index over the whole .sframe section: sframe_count(),
 * arrays of exactly the sizes it gives, sframe_index_init() and
 * sframe_index_find().  A linker that does not merge .sframe input
 * sections (lld 22) leaves one complete SFrame table per input object, one
 * after the other with zero padding between them, and the tables need not
 * list their functions in address order; the index handles that, so must
 * the reference.
 *
 * The reference side splits the section into its tables itself, from the
 * headers, decodes each table on its own and moves its functions to
 * addresses relative to the start of the whole section:
 *
 *  - version 1: binutils 2.40's libsframe (oracle-libsframe.c), i.e.
 *    sframe_find_fre() and the sframe_fre_get_*() accessors, except inside
 *    PCMASK functions where sframe_find_fre() is known to be wrong (see
 *    oracle-libsframe.c); there the reference is libsframe's FRE list
 *    looked up with the 16-byte PLT entry size, and the addresses where
 *    sframe_find_fre() itself disagrees are counted and reported apart.
 *
 *  - version 2: the output of "llvm-readobj-22 --sframe=.sframe", on the
 *    file itself if its .sframe is one table, else on a small ELF file
 *    written for each table (llvm-readobj decodes only the first table of
 *    a section), parsed here into functions and FREs and looked up here:
 *    the last FRE whose start is <= the address (for PCMASK functions, <=
 *    the address's offset modulo the repetition size).
 *
 * Compared: the tables (number and offsets), the sorted function lists
 * (start, size, which table), then at every byte of every function of
 * either side, plus the byte before and the byte after it: found or not,
 * the function's start and size, the CFA base register and offset, whether
 * the FP is saved and where, the RA offset and the outermost-frame marker.
 *
 * Our decoder leaves out functions that fail its checks and functions
 * that overlap another one; real binaries should have none, and any are
 * reported.  A function of the reference that our index does not hold is
 * a mismatch, unless the reference shows it overlapping another function
 * and our decoder left out at least that many for overlapping; then its
 * addresses are not compared (which of the overlapping functions
 * describes them cannot be known), and they are counted apart.
 *
 * -S FILE is a self-check: the same comparison, but with the CFA offset
 * byte of one FRE corrupted in our copy of the section (a change the
 * decoder has no reason to refuse), in the last table that has one.  It
 * passes only if the diff reports mismatches, which shows that the diff
 * can fail.
 *
 * Output: KTAP, one test per file: its details as "#" lines, then
 * "ok N FILE: N addresses compared, M mismatches" (or "not ok"), and the
 * totals at the end.  A file passes if it has no mismatch, at least one
 * address was compared and the compact table the kernel would keep is no
 * larger than the section; a file without .sframe, one with a version 3
 * table (no reference decoder here), or a version 2 file when
 * llvm-readobj is not there, is skipped.
 * Exit status: 0 if nothing failed, 1 otherwise, 2 for usage errors.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <elf.h>

#include <linux/sframe.h>
#include <asm/uwtable.h>

#include "compact-check.h"
#include "elf-sframe.h"
#include "sframe-diff.h"

#define MAX_SHOWN	10	/* mismatches printed per file */
#define MAX_PARTS	65536	/* tables in one .sframe */

static const char *readobj = "llvm-readobj-22";
/* Details of the current file, printed after its summary line. */
static FILE *detail;
static bool have_readobj;
static bool verbose;

/* The number of the current KTAP test. */
static unsigned int nr_test;

struct counts {
	unsigned long passed, failed, skipped;
	unsigned long long addresses, excused, dropped;
};

/* One SFrame table of the section, as the reference sees it. */
struct part {
	uint64_t off, len;	/* in .sframe; @len includes padding after it */
	struct ref_table ref;	/* starts relative to the whole .sframe */
	struct v1_ref *v1;	/* libsframe, for version 1 */
	uint8_t *bytes;		/* the copy libsframe decodes */
	bool ascending;		/* functions in ascending order, disjoint */
};

/* A function of the reference, in the whole .sframe. */
struct ref_func {
	int64_t start;		/* relative to the whole .sframe */
	uint32_t size;
	uint32_t part;
	uint32_t fde;		/* its index in its table */
	const struct ref_fde *f;
	bool overlaps;		/* with another function of the reference */
	bool ours;		/* our index holds it */
	bool excused;		/* left out by ours for overlapping */
};

/* Per-file state of one comparison. */
struct run {
	const char *path;
	uint8_t *data;			/* our copy of .sframe */
	size_t size;
	/* our decoder */
	struct sframe_index idx;
	struct sframe_sizes n;
	struct sframe_table *pieces;
	struct sframe_func *funcs;
	u32 *marks;
	/* its compact table (lib/sframe/compact.c), which the lookups use */
	struct sframe_compact cidx;
	void *cbuf;
	size_t csize;
	/* the reference */
	struct part *parts;
	uint32_t nparts;
	struct ref_func *rf;		/* sorted by start */
	uint32_t nrf;
	/* counts */
	unsigned long long compared;
	unsigned long long excused;	/* addresses of excused functions */
	unsigned long long mismatches;
	unsigned long long lib_pcmask_disagree;
	unsigned long long lib_pcmask_total;
};

static void disagree(struct run *r, const char *fmt, ...)
{
	va_list ap;

	r->mismatches++;
	if (r->mismatches > MAX_SHOWN && !verbose)
		return;
	fprintf(detail, "  mismatch: ");
	va_start(ap, fmt);
	vfprintf(detail, fmt, ap);
	va_end(ap);
	fprintf(detail, "\n");
}

static void oom(void)
{
	fprintf(stderr, "sframe-diff: out of memory\n");
	exit(2);
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		oom();
	return p;
}

static uint32_t ld32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ------------------------------------------------------------------ */
/* The reference: functions of all tables, sorted, and lookup.        */

static int cmp_ref_func(const void *a, const void *b)
{
	const struct ref_func *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	if (x->part != y->part)
		return x->part < y->part ? -1 : 1;
	return x->fde < y->fde ? -1 : x->fde > y->fde;
}

/* Number of functions whose start is <= @off. */
static uint32_t ref_count_below(const struct run *r, int64_t off)
{
	uint32_t lo = 0, hi = r->nrf;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (r->rf[mid].start <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The function with the greatest start <= @off, or NULL. */
static const struct ref_func *ref_func_below(const struct run *r, int64_t off)
{
	uint32_t n = ref_count_below(r, off);

	return n ? &r->rf[n - 1] : NULL;
}

/*
 * The function containing @off, or NULL.  Real sections have neither
 * empty nor overlapping functions (the shape line reports them); if some
 * show up, look a few functions back for one that holds @off.
 */
static const struct ref_func *ref_func_at(const struct run *r, int64_t off)
{
	uint32_t n = ref_count_below(r, off), k;

	for (k = 0; k < 16 && k < n; k++) {
		const struct ref_func *f = &r->rf[n - 1 - k];

		if (off - f->start < (int64_t)f->size)
			return f;
	}
	return NULL;
}

/* Last FRE of @f that starts at or before @off (relative to .sframe). */
static void ref_lookup_in(const struct ref_fde *f, int64_t off,
			  struct expect *e)
{
	uint64_t ip = off - f->start;
	const struct ref_fre *best = NULL;
	uint32_t i;

	memset(e, 0, sizeof(*e));
	if (f->pcmask)
		ip %= f->rep_size;
	for (i = 0; i < f->num_fres; i++)
		if (f->fres[i].start <= ip &&
		    (!best || f->fres[i].start >= best->start))
			best = &f->fres[i];
	if (best)
		*e = best->rule;
}

/* ------------------------------------------------------------------ */
/* Version 2 reference: llvm-readobj's dump.                          */

static const char *after(const char *line, const char *key)
{
	size_t n = strlen(key);

	return strncmp(line, key, n) ? NULL : line + n;
}

/* The value in "NAME (0xN)". */
static long paren_value(const char *s)
{
	const char *p = strrchr(s, '(');

	return p ? strtol(p + 1, NULL, 0) : -1;
}

/*
 * Decode the .sframe of @path with llvm-readobj into @t.  Function starts
 * are made relative to @sh_addr.
 */
static int readobj_table(struct ref_table *t, const char *path,
			 uint64_t sh_addr)
{
	struct ref_fde *f = NULL;
	struct ref_fre *e = NULL;
	uint64_t fde_pc = 0;
	uint32_t cap = 0, fcap = 0;
	char *cmd, *line = NULL;
	size_t len = 0;
	FILE *p;
	int status, bad = 0;

	memset(t, 0, sizeof(*t));
	if (asprintf(&cmd, "'%s' --sframe=.sframe '%s' 2>&1", readobj, path) < 0)
		return -1;
	p = popen(cmd, "r");
	free(cmd);
	if (!p)
		return -1;

	while (getline(&line, &len, p) > 0) {
		const char *s = line, *v;

		while (*s == ' ')
			s++;
		v = after(s, "Version: ");
		if (v) {
			t->version = paren_value(v);
			continue;
		}
		v = after(s, "Flags [");
		if (v) {
			t->flags = paren_value(v);
			continue;
		}
		if (after(s, "FuncDescEntry [")) {
			if (t->num_fdes == cap) {
				cap = cap ? 2 * cap : 256;
				t->fdes = realloc(t->fdes, cap * sizeof(*f));
				if (!t->fdes)
					oom();
			}
			f = &t->fdes[t->num_fdes++];
			memset(f, 0, sizeof(*f));
			e = NULL;
			fcap = 0;
			continue;
		}
		if (!f)
			continue;
		v = after(s, "PC: ");
		if (v) {
			fde_pc = strtoull(v, NULL, 0);
			f->start = (int64_t)(fde_pc - sh_addr);
			continue;
		}
		v = after(s, "Size: ");
		if (v) {
			f->size = strtoul(v, NULL, 0);
			continue;
		}
		v = after(s, "FDE Type: ");
		if (v) {
			f->pcmask = paren_value(v) == 1;
			continue;
		}
		v = after(s, "Repetitive block size");
		if (v) {
			v = strchr(v, ':');
			f->rep_size = v ? strtoul(v + 1, NULL, 0) : 0;
			continue;
		}
		if (after(s, "Frame Row Entry {")) {
			if (f->num_fres == fcap) {
				fcap = fcap ? 2 * fcap : 8;
				f->fres = realloc(f->fres, fcap * sizeof(*e));
				if (!f->fres)
					oom();
			}
			e = &f->fres[f->num_fres++];
			memset(e, 0, sizeof(*e));
			e->rule.found = true;
			/* until a CFA offset shows up: no offsets at all */
			e->rule.ra_undefined = true;
			continue;
		}
		if (!e)
			continue;
		v = after(s, "Start Address: ");
		if (v) {
			uint64_t a = strtoull(v, NULL, 0);

			/* absolute for PCINC, the offset in the block for PCMASK */
			e->start = f->pcmask ? a : a - fde_pc;
			continue;
		}
		v = after(s, "Base Register: ");
		if (v) {
			e->rule.cfa_reg = paren_value(v);
			continue;
		}
		v = after(s, "CFA Offset: ");
		if (v) {
			e->rule.cfa_off = strtol(v, NULL, 0);
			e->rule.ra_undefined = false;
			continue;
		}
		v = after(s, "FP Offset: ");
		if (v) {
			e->rule.fp_off = strtol(v, NULL, 0);
			e->rule.fp_saved = true;
			continue;
		}
		v = after(s, "RA Offset: ");
		if (v) {
			e->rule.ra_off = strtol(v, NULL, 0);
			e->rule.ra_known = true;
			continue;
		}
		if (strstr(s, "error") || strstr(s, "warning")) {
			fprintf(detail, "  llvm-readobj: %s", s);
			bad = 1;
		}
	}
	free(line);
	status = pclose(p);
	if (status) {
		fprintf(detail, "  %s exited with status %d\n", readobj,
			status);
		bad = 1;
	}
	return bad ? -1 : 0;
}

/*
 * A minimal ELF64 relocatable file holding @n bytes of @d as .sframe at
 * load address @addr, so that llvm-readobj can decode one table of a
 * section on its own.  Returns 0 on success.
 */
static int write_elf(const char *path, const uint8_t *d, size_t n,
		     uint64_t addr)
{
	static const char names[] = "\0.sframe\0.shstrtab";
	Elf64_Ehdr eh = { 0 };
	Elf64_Shdr sh[3] = { 0 };
	uint64_t names_off = sizeof(eh) + n;
	uint64_t shoff = (names_off + sizeof(names) + 7) & ~7ull;
	uint8_t pad[8] = { 0 };
	FILE *f = fopen(path, "wb");
	int ok;

	if (!f)
		return -1;
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_REL;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_shoff = shoff;
	eh.e_ehsize = sizeof(eh);
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = 3;
	eh.e_shstrndx = 2;
	sh[1].sh_name = 1;
	sh[1].sh_type = SHT_PROGBITS;
	sh[1].sh_flags = SHF_ALLOC;
	sh[1].sh_addr = addr;
	sh[1].sh_offset = sizeof(eh);
	sh[1].sh_size = n;
	sh[1].sh_addralign = 1;
	sh[2].sh_name = 9;
	sh[2].sh_type = SHT_STRTAB;
	sh[2].sh_offset = names_off;
	sh[2].sh_size = sizeof(names);
	sh[2].sh_addralign = 1;
	ok = fwrite(&eh, sizeof(eh), 1, f) == 1 &&
	     fwrite(d, 1, n, f) == n &&
	     fwrite(names, sizeof(names), 1, f) == 1 &&
	     fwrite(pad, 1, shoff - names_off - sizeof(names), f) ==
		shoff - names_off - sizeof(names) &&
	     fwrite(sh, sizeof(sh), 1, f) == 1;
	return fclose(f) || !ok ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* Splitting .sframe into its tables, independently of the decoder.   */

/*
 * Where the SFrame table that starts at @d ends, from its header: the end
 * of its function index or of its FREs, whichever is last.  0 if @d does
 * not start with an SFrame header or its areas are not inside @n bytes.
 */
static uint64_t part_end(const uint8_t *d, uint64_t n)
{
	uint64_t hdr, fde_end, fre_end, fde_size;

	if (n < SFRAME_HDR_SIZE || d[0] != 0xe2 || d[1] != 0xde)
		return 0;
	switch (d[2]) {
	case SFRAME_VERSION_1:
		fde_size = 17;
		break;
	case SFRAME_VERSION_2:
		fde_size = 20;
		break;
	case SFRAME_VERSION_3:
		fde_size = 16;
		break;
	default:
		return 0;
	}
	hdr = SFRAME_HDR_SIZE + d[7];
	fde_end = hdr + ld32(d + 20) + (uint64_t)ld32(d + 8) * fde_size;
	fre_end = hdr + ld32(d + 24) + ld32(d + 16);
	if (fre_end > fde_end)
		fde_end = fre_end;
	return fde_end <= n ? fde_end : 0;
}

/*
 * Length of the table at @off whose data ends @end bytes in, padding
 * included if another table follows at the next 1-, 4- or 8-byte boundary
 * with zeros between.
 */
static uint64_t next_part(const uint8_t *d, uint64_t size, uint64_t off,
			  uint64_t end)
{
	static const uint64_t align[] = { 1, 4, 8 };
	unsigned int i;

	for (i = 0; i < 3; i++) {
		uint64_t e = (off + end + align[i] - 1) & ~(align[i] - 1);
		uint64_t k;

		for (k = off + end; k < e && k < size && !d[k]; k++)
			;
		if (k == e && e < size && part_end(d + e, size - e))
			return e - off;
	}
	return end;
}

/* Split @d into tables; returns their number, 0 if it is no table. */
static uint32_t split(const uint8_t *d, uint64_t size, uint64_t *offs)
{
	uint32_t n = 0;

	offs[0] = 0;
	while (offs[n] < size && n < MAX_PARTS) {
		uint64_t end = part_end(d + offs[n], size - offs[n]);

		if (!end)
			break;
		offs[n + 1] = offs[n] + next_part(d, size, offs[n], end);
		n++;
	}
	return n;
}

/* ------------------------------------------------------------------ */
/* Loading the reference.                                             */

/*
 * Decode table @p (@len bytes of @es at @off, which is @path's whole
 * .sframe if @whole) with the reference decoder.  Returns 0, 1 to skip
 * the file, -1 on a failure reported in detail.
 */
static int load_part(struct part *pt, const char *path,
		     const struct elf_sframe *es, bool whole)
{
	const uint8_t *d = es->data + pt->off;
	char tmp[64];
	const char *why = NULL;
	uint32_t i;
	int fd, ret;

	if (d[2] == SFRAME_VERSION_1) {
		pt->bytes = malloc(pt->len);
		if (!pt->bytes)
			oom();
		memcpy(pt->bytes, d, pt->len);
		pt->v1 = v1_ref_open(pt->bytes, pt->len, &why);
		if (!pt->v1 || v1_ref_table(pt->v1, &pt->ref, &why)) {
			fprintf(detail, "  libsframe refuses table at %" PRIu64 ": %s\n",
				pt->off, why);
			return -1;
		}
		pt->ref.flags = d[3];
	} else if (d[2] != SFRAME_VERSION_2) {
		printf("ok %u %s # SKIP SFrame version %u has no reference decoder here\n",
		       nr_test, path, d[2]);
		return 1;
	} else if (!have_readobj) {
		printf("ok %u %s # SKIP %s not found\n", nr_test, path, readobj);
		return 1;
	} else if (whole) {
		if (readobj_table(&pt->ref, path, es->addr))
			return -1;
	} else {
		/* llvm-readobj decodes only the first table of several */
		snprintf(tmp, sizeof(tmp), "%s/sframe-diff-XXXXXX",
			 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		fd = mkstemp(tmp);
		if (fd < 0) {
			fprintf(detail, "  cannot create %s\n", tmp);
			return -1;
		}
		close(fd);
		ret = write_elf(tmp, d, pt->len, es->addr + pt->off);
		if (!ret)
			ret = readobj_table(&pt->ref, tmp, es->addr + pt->off);
		unlink(tmp);
		if (ret)
			return -1;
	}
	/* relative to the whole .sframe, and in ascending order? */
	pt->ascending = true;
	for (i = 0; i < pt->ref.num_fdes; i++) {
		struct ref_fde *f = &pt->ref.fdes[i];

		f->start += pt->off;
		if (i && f->start < f[-1].start + (int64_t)f[-1].size)
			pt->ascending = false;
	}
	return 0;
}

/*
 * Mark the non-empty functions of the reference that overlap another one:
 * a function that starts before the end of an earlier one, and that one.
 */
static void mark_overlaps(struct run *r)
{
	int64_t max_end = 0;
	uint32_t i, owner = 0;
	bool any = false;

	for (i = 0; i < r->nrf; i++) {
		struct ref_func *f = &r->rf[i];
		int64_t end = f->start + (int64_t)f->size;

		if (!f->size)
			continue;
		if (any && f->start < max_end) {
			f->overlaps = true;
			r->rf[owner].overlaps = true;
		}
		if (!any || end > max_end) {
			max_end = end;
			owner = i;
		}
		any = true;
	}
}

/*
 * The repetition block of a PCMASK function is the size of a PLT entry.
 * Version 1 has no field for it: the decoder takes 16, and so does the
 * reference built on libsframe's FRE list.  Check it against what the
 * linker wrote, independently of both: the entry size (sh_entsize) of the
 * executable section that holds the function, .plt or .plt.sec.
 */
static void check_plt_blocks(struct run *r, const struct elf_sframe *es)
{
	uint32_t i, k, checked = 0;

	/* synthetic sections come in relocatable objects, not linked */
	if (!es->linked)
		return;
	for (i = 0; i < r->nrf; i++) {
		const struct ref_func *rf = &r->rf[i];
		const struct part *pt = &r->parts[rf->part];
		uint64_t a = es->addr + rf->start, want;
		const struct elf_exec_sec *sec = NULL;

		if (!rf->f->pcmask)
			continue;
		want = pt->ref.version == 1 ? 16 : rf->f->rep_size;
		for (k = 0; k < es->nexec; k++)
			if (a >= es->exec[k].addr &&
			    a + rf->size <= es->exec[k].addr + es->exec[k].size)
				sec = &es->exec[k];
		if (!sec) {
			disagree(r, "PCMASK function at %" PRId64 " is in no executable section",
				 rf->start);
			continue;
		}
		if (sec->entsize != want)
			disagree(r, "PCMASK function at %" PRId64 ": blocks of %" PRIu64
				 ", its section's entries are %" PRIu64 " bytes",
				 rf->start, want, sec->entsize);
		checked++;
	}
	if (checked)
		fprintf(detail,
			"  %u PCMASK functions: block size = the entry size of their section\n",
			checked);
}

/*
 * Load the reference for every table and sort all their functions.
 * Describe the section's shape as the reference sees it.
 */
static int load_reference(struct run *r, const struct elf_sframe *es,
			  const uint64_t *offs)
{
	unsigned long fres = 0, pcmask = 0, empty = 0, overlaps = 0;
	unsigned long unordered = 0, interleave = 0;
	uint8_t flags = 0;
	int version = 0;
	uint32_t p, i, n = 0;
	int ret;

	r->parts = xcalloc(r->nparts, sizeof(*r->parts));
	for (p = 0; p < r->nparts; p++) {
		struct part *pt = &r->parts[p];

		pt->off = offs[p];
		pt->len = offs[p + 1] - offs[p];
		ret = load_part(pt, r->path, es, r->nparts == 1);
		if (ret)
			return ret;
		r->nrf += pt->ref.num_fdes;
		flags |= pt->ref.flags;
		if (version && version != pt->ref.version)
			fprintf(detail, "  tables of different versions\n");
		version = pt->ref.version;
		unordered += !pt->ascending;
	}
	r->rf = xcalloc(r->nrf, sizeof(*r->rf));
	for (p = 0; p < r->nparts; p++) {
		const struct ref_table *t = &r->parts[p].ref;

		for (i = 0; i < t->num_fdes; i++) {
			const struct ref_fde *f = &t->fdes[i];

			r->rf[n++] = (struct ref_func){
				.start = f->start, .size = f->size,
				.part = p, .fde = i, .f = f };
			fres += f->num_fres;
			pcmask += f->pcmask;
			empty += !f->size;
		}
	}
	qsort(r->rf, r->nrf, sizeof(*r->rf), cmp_ref_func);
	for (i = 1; i < r->nrf; i++) {
		const struct ref_func *a = &r->rf[i - 1], *b = &r->rf[i];

		if (a->start + (int64_t)a->size > b->start)
			overlaps++;
		/* a later table's function before an earlier one's */
		if (b->part < a->part)
			interleave++;
	}
	mark_overlaps(r);
	if (r->nparts > 1)
		fprintf(detail,
			"  .sframe holds %u SFrame tables one after the other (the linker did not merge them)\n",
			r->nparts);
	fprintf(detail,
		"  reference: v%d flags=0x%x (FDE_SORTED %s), %u functions, %lu FREs, %lu PCMASK; %lu of %u tables NOT in ascending order; %s; %lu overlapping, %lu empty\n",
		version, flags,
		flags & SFRAME_F_FDE_SORTED ? "set" : "not set",
		r->nrf, fres, pcmask, unordered, r->nparts,
		interleave ? "the tables' functions interleave" :
			     "tables in address order",
		overlaps, empty);
	return 0;
}

static void free_reference(struct run *r)
{
	uint32_t p, i;

	for (p = 0; p < r->nparts; p++) {
		struct part *pt = &r->parts[p];

		for (i = 0; i < pt->ref.num_fdes; i++)
			free(pt->ref.fdes[i].fres);
		free(pt->ref.fdes);
		v1_ref_close(pt->v1);
		free(pt->bytes);
	}
	free(r->parts);
	free(r->rf);
}

/* ------------------------------------------------------------------ */
/* The comparison.                                                    */

/*
 * What the reference says for @off, and which function it is in.
 *
 * For version 1, libsframe's sframe_find_fre() on the table of the
 * function is the reference, except inside a PCMASK function and in the
 * gap after one: there libsframe 2.40 is wrong (see oracle-libsframe.c;
 * past the end of the PLT it even returns PLT rules for addresses that no
 * function covers), so the reference is its FRE list, looked up here.
 * Where sframe_find_fre() differs from that it is counted apart, as a
 * libsframe problem.
 */
static const struct ref_func *reference(struct run *r, int64_t off,
					struct expect *e)
{
	const struct ref_func *below = ref_func_below(r, off);
	const struct ref_func *f = ref_func_at(r, off);
	const struct part *pt;
	struct expect lib;

	memset(e, 0, sizeof(*e));
	pt = &r->parts[f ? f->part : below ? below->part : 0];
	if (pt->v1 && !(below && below->f->pcmask)) {
		v1_ref_lookup(pt->v1, off - (int64_t)pt->off, e);
		return f;
	}
	if (f)
		ref_lookup_in(f->f, off, e);
	if (pt->v1) {
		v1_ref_lookup(pt->v1, off - (int64_t)pt->off, &lib);
		r->lib_pcmask_total++;
		if (lib.found != e->found ||
		    (lib.found && (lib.cfa_off != e->cfa_off ||
				   lib.cfa_reg != e->cfa_reg)))
			r->lib_pcmask_disagree++;
	}
	return f;
}

static void compare_at(struct run *r, int64_t off)
{
	const struct ref_func *f;
	struct sframe_rule got, idx_got;
	struct expect want;
	bool found;

	memset(&got, 0, sizeof(got));
	memset(&idx_got, 0, sizeof(idx_got));
	found = !sframe_compact_find(&r->cidx, off, &got);
	if (found != !sframe_index_find(&r->idx, off, &idx_got) ||
	    (found && (got.cfa_off != idx_got.cfa_off ||
		       got.fp_off != idx_got.fp_off ||
		       got.fp_saved != idx_got.fp_saved ||
		       got.func_start != idx_got.func_start)))
		disagree(r, "off %lld: the compact table differs from the index",
			 (long long)off);
	f = reference(r, off, &want);
	if (!found && f && f->excused) {
		r->excused++;
		return;
	}
	r->compared++;

	if (found != want.found) {
		disagree(r, "off %" PRId64 ": ours %s, reference %s", off,
			 found ? "found" : "not found",
			 want.found ? "found" : "not found");
		return;
	}
	if (!found)
		return;
	if (f && (got.func_start != f->start || got.func_size != f->size))
		disagree(r, "off %" PRId64 ": function %" PRId64 "+%u, reference %" PRId64 "+%u",
			 off, (int64_t)got.func_start, got.func_size, f->start,
			 f->size);
	if (got.ra_undefined != want.ra_undefined) {
		disagree(r, "off %" PRId64 ": outermost frame: ours %d, reference %d",
			 off, got.ra_undefined, want.ra_undefined);
		return;
	}
	if (got.ra_undefined)
		return;
	if (got.cfa_reg != want.cfa_reg || got.cfa_off != want.cfa_off)
		disagree(r, "off %" PRId64 ": CFA %s%+d, reference %s%+d", off,
			 got.cfa_reg == SFRAME_REG_SP ? "sp" : "fp",
			 got.cfa_off,
			 want.cfa_reg == SFRAME_REG_SP ? "sp" : "fp",
			 want.cfa_off);
	if (got.fp_saved != want.fp_saved ||
	    (got.fp_saved && got.fp_off != want.fp_off))
		disagree(r, "off %" PRId64 ": FP %s%+d, reference %s%+d", off,
			 got.fp_saved ? "cfa" : "unsaved", got.fp_off,
			 want.fp_saved ? "cfa" : "unsaved", want.fp_off);
	if (!want.ra_known || got.ra_off != want.ra_off || got.ra_off != -8)
		disagree(r, "off %" PRId64 ": RA at cfa%+d, reference %s%+d",
			 off, got.ra_off, want.ra_known ? "cfa" : "unknown ",
			 want.ra_off);
}

/* Does function @i of the reference tie with a neighbour? */
static bool ref_tie(const struct run *r, uint32_t i)
{
	const struct ref_func *f = &r->rf[i];

	return (i && f[-1].start == f->start && f[-1].size == f->size) ||
	       (i + 1 < r->nrf && f[1].start == f->start &&
		f[1].size == f->size);
}

/* Our function that starts at @start, or NULL. */
static const struct sframe_func *ours_at(const struct run *r, int64_t start)
{
	uint32_t lo = 0, hi = r->idx.nr_funcs;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (r->idx.funcs[mid].start < start)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->idx.nr_funcs && r->idx.funcs[lo].start == start ?
	       &r->idx.funcs[lo] : NULL;
}

/*
 * Compare the tables and the function lists.  Ours holds no empty
 * function; any other function of the reference that it does not hold
 * must be one it left out for overlapping another.
 */
static void compare_lists(struct run *r)
{
	uint32_t i, matched = 0, overlapping = 0;
	uint32_t left_out = r->n.funcs - r->idx.nr_funcs;

	if (r->idx.nr_pieces != r->nparts)
		disagree(r, "%u tables, reference %u", r->idx.nr_pieces,
			 r->nparts);
	for (i = 0; i < r->idx.nr_pieces && i < r->nparts; i++) {
		uint64_t off = r->idx.pieces[i].data - r->data;

		if (off != r->parts[i].off)
			disagree(r, "table %u at %" PRIu64 ", reference %" PRIu64,
				 i, off, r->parts[i].off);
	}
	for (i = 0; i < r->nrf; i++) {
		struct ref_func *f = &r->rf[i];
		const struct sframe_func *fn;

		if (!f->size)
			continue;
		fn = ours_at(r, f->start);
		if (fn && fn->size == f->size && !f->overlaps) {
			f->ours = true;
			matched++;
			if (!ref_tie(r, i) &&
			    (fn->piece != f->part || fn->fde != f->fde))
				disagree(r, "function at %" PRId64 ": table %u/%u, reference %u/%u",
					 f->start, fn->piece, fn->fde, f->part,
					 f->fde);
		} else if (fn && fn->size == f->size) {
			/* ours kept one of functions that overlap */
			f->ours = true;
			disagree(r, "function %" PRId64 "+%u overlaps only in the reference",
				 f->start, f->size);
		} else if (f->overlaps) {
			f->excused = true;
			overlapping++;
		} else {
			disagree(r, "function %" PRId64 "+%u (table %u/%u) not in our index%s",
				 f->start, f->size, f->part, f->fde,
				 fn ? ", which has another size there" : "");
		}
	}
	if (matched != r->idx.nr_funcs)
		disagree(r, "%u functions, of which %u are in the reference",
			 r->idx.nr_funcs, matched);
	if (overlapping)
		fprintf(detail,
			"  %u functions overlap others in the reference and are not in our index; ours left out %u for overlapping\n",
			overlapping, left_out);
	if (overlapping > left_out)
		disagree(r, "%u overlapping functions missing, %u left out for overlaps",
			 overlapping - left_out, left_out);
}

/* Every address of a function, and the byte before and after it. */
static void compare_function(struct run *r, int64_t start, uint32_t size)
{
	uint64_t a;

	compare_at(r, start - 1);
	for (a = 0; a < size; a++)
		compare_at(r, start + (int64_t)a);
	compare_at(r, start + (int64_t)size);
}

/* All functions of ours, and those of the reference that ours lacks. */
static void compare_addresses(struct run *r)
{
	uint32_t i;

	for (i = 0; i < r->idx.nr_funcs; i++)
		compare_function(r, r->idx.funcs[i].start,
				 r->idx.funcs[i].size);
	for (i = 0; i < r->nrf; i++)
		if (!r->rf[i].ours)
			compare_function(r, r->rf[i].start, r->rf[i].size);
}

/*
 * Corrupt the first CFA offset byte of the first PCINC function that has
 * an FRE with offsets, in the last table that has one, in our copy only.
 * Returns the byte's position in .sframe.
 */
static long corrupt_fre_offset(const struct sframe_index *idx, uint8_t *data,
			       uint32_t *piece)
{
	static const uint32_t ssize[] = { 1, 2, 4 };
	uint32_t p, i, j;

	for (p = idx->nr_pieces; p-- > 0;) {
		const struct sframe_table *tab = &idx->pieces[p];
		uint8_t *d = data + (tab->data - data);	/* not const */

		if (tab->version != SFRAME_VERSION_1 &&
		    tab->version != SFRAME_VERSION_2)
			continue;
		for (i = 0; i < tab->num_fdes; i++) {
			const uint8_t *e = d + tab->fde_area + i * tab->fde_size;
			uint32_t pos = tab->fre_area + ld32(e + 8);
			uint32_t nfres = ld32(e + 12), ss;
			uint8_t info = e[16];

			if ((info & 0x10) || (info & 0xf) > 2 || !ld32(e + 4))
				continue;
			ss = ssize[info & 0xf];
			for (j = 0; j < nfres; j++) {
				uint8_t finfo = d[pos + ss];
				uint32_t count = (finfo >> 1) & 0xf;

				if (count) {
					d[pos + ss + 1] += 8;
					*piece = p;
					return (d - data) + pos + ss + 1;
				}
				pos += ss + 1 +
				       count * (1u << ((finfo >> 5) & 3));
			}
		}
	}
	return -1;
}

/*
 * Our decoder: count, allocate exactly, index.  Returns 0, or -1 with the
 * reason in detail.
 */
static int index_ours(struct run *r, bool quiet)
{
	const char *why = NULL;
	int ret;

	free(r->pieces);
	free(r->funcs);
	free(r->marks);
	free(r->cbuf);
	r->pieces = NULL;
	r->funcs = NULL;
	r->marks = NULL;
	r->cbuf = NULL;
	ret = sframe_count(&x86_64_sframe_abi, r->data, r->size, &r->n, &why);
	if (!ret) {
		r->pieces = xcalloc(r->n.pieces, sizeof(*r->pieces));
		r->funcs = xcalloc(r->n.funcs, sizeof(*r->funcs));
		r->marks = xcalloc(r->n.marks, sizeof(*r->marks));
		ret = sframe_index_init(&x86_64_sframe_abi, &r->idx, r->data, r->size, &r->n,
					r->pieces, r->funcs, r->marks, &why);
		if (!ret)
			ret = compact_make(&r->idx, &r->cidx, &r->cbuf,
					   &r->csize, &why);
	}
	if (ret) {
		fprintf(detail, "  our decoder REFUSES the section: %s (%d)\n",
			why, ret);
		return -1;
	}
	if (quiet)
		return 0;
	fprintf(detail,
		"  ours: %u table(s), %u functions, %u FRE marks (sframe_count, sframe_index_init)\n",
		r->idx.nr_pieces, r->idx.nr_funcs, r->n.marks);
	fprintf(detail, "  compact table: %zu bytes, %.3f of the section's %zu\n",
		r->csize, (double)r->csize / r->size, r->size);
	if (r->idx.nr_dropped)
		fprintf(detail,
			"  our decoder LEAVES OUT %u functions: %u invalid, %u overlapping another\n",
			r->idx.nr_dropped, r->n.dropped,
			r->idx.nr_dropped - r->n.dropped);
	return 0;
}

/* Print the file's details as KTAP diagnostics, then its result line. */
static void report(const char *path, const char *tag, struct run *r,
		   char **buf, bool ok)
{
	char *line, *next;

	fclose(detail);
	detail = NULL;
	for (line = *buf; *line; line = next) {
		next = strchrnul(line, '\n');
		printf("#%.*s\n", (int)(next - line), line);
		if (*next)
			next++;
	}
	printf("%sok %u %s%s: %llu addresses compared, %llu mismatches\n",
	       ok ? "" : "not ", nr_test, path, tag, r->compared,
	       r->mismatches);
	free(*buf);
	*buf = NULL;
}

static void run_file(const char *path, bool self_check, struct counts *c)
{
	const char *tag = self_check ? " [self-check]" : "";
	static uint64_t offs[MAX_PARTS + 1];
	struct run r = { .path = path };
	struct elf_sframe es;
	char *buf = NULL;
	size_t len = 0;
	bool failed = true, ok = false;
	uint32_t piece = 0;
	long corrupted;
	int ret;

	nr_test++;
	ret = elf_read_sframe(path, &es);
	if (ret > 0) {
		printf("ok %u %s # SKIP %s\n", nr_test, path, es.err);
		c->skipped++;
		return;
	}
	detail = open_memstream(&buf, &len);
	if (!detail)
		oom();
	if (ret) {
		fprintf(detail, "  cannot read it: %s\n", es.err);
		goto out;
	}

	r.nparts = split(es.data, es.size, offs);
	if (!r.nparts) {
		fprintf(detail, "  .sframe does not start with an SFrame table\n");
		goto out;
	}
	if (offs[r.nparts] < es.size)
		fprintf(detail, "  %zu bytes after the last SFrame table\n",
			es.size - (size_t)offs[r.nparts]);
	ret = load_reference(&r, &es, offs);
	if (ret > 0) {
		fclose(detail);
		free(buf);
		c->skipped++;
		goto free;
	}
	if (ret)
		goto out;

	check_plt_blocks(&r, &es);
	r.size = es.size;
	r.data = xcalloc(r.size, 1);
	memcpy(r.data, es.data, r.size);
	if (index_ours(&r, false))
		goto out;
	if (self_check) {
		corrupted = corrupt_fre_offset(&r.idx, r.data, &piece);
		if (corrupted < 0) {
			fprintf(detail, "  no FRE offset to corrupt\n");
			goto out;
		}
		fprintf(detail,
			"  FRE offset byte at %ld (table %u of %u) corrupted in our copy: mismatches expected\n",
			corrupted, piece + 1, r.nparts);
		if (index_ours(&r, true))
			goto out;
	}
	compare_lists(&r);
	compare_addresses(&r);
	failed = false;

	if (r.excused)
		fprintf(detail,
			"  %llu addresses in functions that overlap in the reference not compared\n",
			r.excused);
	if (r.lib_pcmask_total)
		fprintf(detail,
			"  libsframe 2.40 sframe_find_fre() differs at %llu of %llu addresses in or after PCMASK (PLT) functions (libsframe bug, not counted)\n",
			r.lib_pcmask_disagree, r.lib_pcmask_total);
out:
	if (failed) {
		ok = false;
	} else if (self_check) {
		ok = r.mismatches > 0;
		fprintf(detail, "  self-check %s\n", ok ?
			"passed: the corruption was detected" :
			"FAILED: the corruption went unnoticed");
	} else {
		ok = !r.mismatches && r.compared;
		if (r.csize > r.size) {
			fprintf(detail, "  the compact table is LARGER than the section\n");
			ok = false;
		}
		c->addresses += r.compared;
		c->excused += r.excused;
		c->dropped += r.idx.nr_dropped;
	}
	report(path, tag, &r, &buf, ok);
	if (ok)
		c->passed++;
	else
		c->failed++;
free:
	free_reference(&r);
	free(r.pieces);
	free(r.funcs);
	free(r.marks);
	free(r.cbuf);
	free(r.data);
	elf_sframe_free(&es);
}

static int extract(const char *out, const char *path)
{
	struct elf_sframe es;
	FILE *f;

	if (elf_read_sframe(path, &es)) {
		fprintf(stderr, "sframe-diff: %s: %s\n", path, es.err);
		return 1;
	}
	f = fopen(out, "wb");
	if (!f || fwrite(es.data, 1, es.size, f) != es.size || fclose(f)) {
		perror(out);
		return 1;
	}
	elf_sframe_free(&es);
	return 0;
}

static bool has_program(const char *prog)
{
	char *cmd;
	bool ok;

	if (asprintf(&cmd, "command -v '%s' >/dev/null 2>&1", prog) < 0)
		return false;
	ok = system(cmd) == 0;
	free(cmd);
	return ok;
}

static void print_usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-v] [-R LLVM_READOBJ] [-S SELF_CHECK_FILE]... FILE...\n"
		"       %s -x OUT FILE\n", prog, prog);
	exit(2);
}

int main(int argc, char **argv)
{
	const char *self[64];
	struct counts c = { 0 };
	int nself = 0, opt, i;

	if (getenv("LLVM_READOBJ"))
		readobj = getenv("LLVM_READOBJ");
	while ((opt = getopt(argc, argv, "vR:S:x:")) != -1) {
		switch (opt) {
		case 'v':
			verbose = true;
			break;
		case 'R':
			readobj = optarg;
			break;
		case 'S':
			if (nself == 64)
				print_usage(argv[0]);
			self[nself++] = optarg;
			break;
		case 'x':
			if (optind != argc - 1)
				print_usage(argv[0]);
			return extract(optarg, argv[optind]);
		default:
			print_usage(argv[0]);
		}
	}
	if (optind == argc && !nself)
		print_usage(argv[0]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	have_readobj = has_program(readobj);
	printf("KTAP version 1\n1..%d\n", argc - optind + nself);

	for (i = optind; i < argc; i++)
		run_file(argv[i], false, &c);
	for (i = 0; i < nself; i++)
		run_file(self[i], true, &c);

	printf("# total: %llu addresses compared, %llu not (overlaps), %llu functions left out\n",
	       c.addresses, c.excused, c.dropped);
	printf("# Totals: pass:%lu fail:%lu xfail:0 xpass:0 skip:%lu error:0\n",
	       c.passed, c.failed, c.skipped);
	return c.failed ? 1 : 0;
}
