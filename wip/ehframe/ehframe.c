// SPDX-License-Identifier: GPL-2.0
/*
 * Derive SFrame-shaped unwind rows from a .eh_frame section (x86_64).
 *
 * Every read is bounds-checked against the section; a malformed entry
 * refuses the section, a function whose rules SFrame cannot hold gets
 * rows marked as such, and a function with more rows than EHF_MAX_ROWS or
 * deeper remember_state nesting than EHF_MAX_STACK is left out.
 */
#include "ehframe_env.h"
#include "ehframe.h"

/* DWARF register numbers of x86_64 */
#define DW_REG_FP	6
#define DW_REG_SP	7
#define DW_REG_RA	16

enum { RULE_SAME, RULE_OFFSET, RULE_OTHER };

struct ehf_cursor {
	const u8 *p, *end;
	const u8 *sec;
	u64 sec_vaddr;
};

struct ehf_cie {
	u64 code_align;
	s64 data_align;
	u64 ra_reg;
	u8 fde_enc;
	bool has_aug;		/* 'z': FDEs have augmentation data */
	const u8 *insns, *insns_end;
};

struct ehf_state {
	u64 cfa_reg;
	s64 cfa_off;
	bool cfa_expr;
	u8 fp_rule, ra_rule;
	s64 fp_off, ra_off;
};

static bool get_bytes(struct ehf_cursor *c, void *out, size_t n)
{
	if ((size_t)(c->end - c->p) < n)
		return false;
	memcpy(out, c->p, n);
	c->p += n;
	return true;
}

static bool get_u8(struct ehf_cursor *c, u8 *v)
{
	return get_bytes(c, v, 1);
}

static bool get_uleb(struct ehf_cursor *c, u64 *v)
{
	unsigned int shift = 0;
	u64 r = 0;
	u8 b;

	do {
		if (!get_u8(c, &b) || shift > 63)
			return false;
		r |= (u64)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	*v = r;
	return true;
}

static bool get_sleb(struct ehf_cursor *c, s64 *v)
{
	unsigned int shift = 0;
	u64 r = 0;
	u8 b;

	do {
		if (!get_u8(c, &b) || shift > 63)
			return false;
		r |= (u64)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	if (shift < 64 && (b & 0x40))
		r |= ~0ULL << shift;
	*v = (s64)r;
	return true;
}

static bool skip(struct ehf_cursor *c, u64 n)
{
	if ((u64)(c->end - c->p) < n)
		return false;
	c->p += n;
	return true;
}

/* A pointer in encoding @enc (DW_EH_PE_*): pcrel and absolute only. */
static bool get_ptr(struct ehf_cursor *c, u8 enc, u64 *v)
{
	u64 field = c->sec_vaddr + (c->p - c->sec);
	u16 u16v;
	u32 u32v;
	u64 u64v;
	s64 s;

	switch (enc & 0x0f) {
	case 0x00:			/* absptr */
	case 0x04:			/* udata8 */
	case 0x0c:			/* sdata8 */
		if (!get_bytes(c, &u64v, 8))
			return false;
		*v = le64_to_cpu(u64v);
		break;
	case 0x01:			/* uleb128 */
		if (!get_uleb(c, v))
			return false;
		break;
	case 0x09:			/* sleb128 */
		if (!get_sleb(c, &s))
			return false;
		*v = s;
		break;
	case 0x02:			/* udata2 */
		if (!get_bytes(c, &u16v, 2))
			return false;
		*v = le16_to_cpu(u16v);
		break;
	case 0x0a:			/* sdata2 */
		if (!get_bytes(c, &u16v, 2))
			return false;
		*v = (s64)(s16)le16_to_cpu(u16v);
		break;
	case 0x03:			/* udata4 */
		if (!get_bytes(c, &u32v, 4))
			return false;
		*v = le32_to_cpu(u32v);
		break;
	case 0x0b:			/* sdata4 */
		if (!get_bytes(c, &u32v, 4))
			return false;
		*v = (s64)(s32)le32_to_cpu(u32v);
		break;
	default:
		return false;
	}
	switch (enc & 0x70) {
	case 0x00:
		return true;
	case 0x10:			/* pcrel */
		*v += field;
		return true;
	default:			/* textrel, datarel, funcrel, aligned */
		return false;
	}
}

/* Parse the CIE whose entry (after its length) is [@p, @end). */
static bool parse_cie(struct ehf_cursor *in, struct ehf_cie *cie)
{
	struct ehf_cursor c = *in;
	const char *aug;
	u8 version, b;
	u64 len;

	if (!get_u8(&c, &version) || (version != 1 && version != 3))
		return false;
	aug = (const char *)c.p;
	while (c.p < c.end && *c.p)
		c.p++;
	if (!skip(&c, 1))
		return false;
	if (!get_uleb(&c, &cie->code_align) || !get_sleb(&c, &cie->data_align))
		return false;
	if (version == 1) {
		if (!get_u8(&c, &b))
			return false;
		cie->ra_reg = b;
	} else if (!get_uleb(&c, &cie->ra_reg)) {
		return false;
	}
	cie->fde_enc = 0;		/* absptr */
	cie->has_aug = aug[0] == 'z';
	if (cie->has_aug) {
		struct ehf_cursor a;
		const char *s;

		if (!get_uleb(&c, &len) || (u64)(c.end - c.p) < len)
			return false;
		a = c;
		a.end = c.p + len;
		c.p += len;
		for (s = aug + 1; *s; s++) {
			u64 dummy;

			switch (*s) {
			case 'R':
				if (!get_u8(&a, &cie->fde_enc))
					return false;
				break;
			case 'L':
				if (!get_u8(&a, &b))
					return false;
				break;
			case 'P':
				if (!get_u8(&a, &b) ||
				    !get_ptr(&a, b & 0x7f, &dummy))
					return false;
				break;
			case 'S':
			case 'B':
				break;
			default:
				return false;
			}
		}
	} else if (aug[0]) {
		return false;		/* "eh" and others: not for us */
	}
	cie->insns = c.p;
	cie->insns_end = c.end;
	return true;
}

struct ehf_run {
	struct ehf_row *rows;
	unsigned int nr;
	bool overflow;
	u64 loc, end;
};

static void state_row(const struct ehf_state *s, struct ehf_row *r)
{
	if (s->cfa_expr)
		r->base = EHF_CFA_OTHER;
	else if (s->cfa_reg == DW_REG_SP)
		r->base = EHF_CFA_SP;
	else if (s->cfa_reg == DW_REG_FP)
		r->base = EHF_CFA_FP;
	else
		r->base = EHF_CFA_OTHER;
	r->cfa_off = s->cfa_off;
	r->fp_saved = s->fp_rule == RULE_OFFSET;
	r->fp_other = s->fp_rule == RULE_OTHER;
	r->fp_off = s->fp_off;
	r->ra_other = s->ra_rule != RULE_OFFSET || s->ra_off != -8;
}

/* Record the state for the current location (replacing a row there). */
static void emit(struct ehf_run *run, const struct ehf_state *s)
{
	struct ehf_row *r;

	if (run->loc >= run->end)
		return;
	if (run->nr && run->rows[run->nr - 1].loc == run->loc) {
		r = &run->rows[run->nr - 1];
	} else {
		if (run->nr == EHF_MAX_ROWS) {
			run->overflow = true;
			return;
		}
		r = &run->rows[run->nr++];
	}
	state_row(s, r);
	r->loc = run->loc;
}

static void set_rule(struct ehf_state *s, u64 reg, u8 rule, s64 off)
{
	if (reg == DW_REG_FP) {
		s->fp_rule = rule;
		s->fp_off = off;
	} else if (reg == DW_REG_RA) {
		s->ra_rule = rule;
		s->ra_off = off;
	}
}

static void restore_rule(struct ehf_state *s, const struct ehf_state *init,
			 u64 reg)
{
	if (reg == DW_REG_FP) {
		s->fp_rule = init->fp_rule;
		s->fp_off = init->fp_off;
	} else if (reg == DW_REG_RA) {
		s->ra_rule = init->ra_rule;
		s->ra_off = init->ra_off;
	}
}

/*
 * Run the CFA program [@p, @end) on @s.  With @run, rows are emitted as
 * the location advances; @init is the state after the CIE's program.
 */
static int run_cfa(struct ehf_cursor *in, const struct ehf_cie *cie,
		   struct ehf_state *s, const struct ehf_state *init,
		   struct ehf_run *run, u8 fde_enc)
{
	struct ehf_state stack[EHF_MAX_STACK];
	unsigned int depth = 0;
	struct ehf_cursor c = *in;

	while (c.p < c.end) {
		u64 reg, off, delta, len;
		s64 soff;
		u8 op, arg;
		u16 u16v;
		u32 u32v;

		if (!get_u8(&c, &op))
			return -EINVAL;
		arg = op & 0x3f;
		switch (op >> 6) {
		case 1:				/* advance_loc */
			delta = arg;
			goto advance;
		case 2:				/* offset */
			if (!get_uleb(&c, &off))
				return -EINVAL;
			set_rule(s, arg, RULE_OFFSET, (s64)off * cie->data_align);
			continue;
		case 3:				/* restore */
			if (!init)
				return -EINVAL;
			restore_rule(s, init, arg);
			continue;
		}
		switch (op) {
		case 0x00:			/* nop */
			continue;
		case 0x01:			/* set_loc */
			if (!get_ptr(&c, fde_enc, &off))
				return -EINVAL;
			if (run) {
				emit(run, s);
				run->loc = off;
			}
			continue;
		case 0x02:			/* advance_loc1 */
			if (!get_u8(&c, &arg))
				return -EINVAL;
			delta = arg;
			goto advance;
		case 0x03:			/* advance_loc2 */
			if (!get_bytes(&c, &u16v, 2))
				return -EINVAL;
			delta = le16_to_cpu(u16v);
			goto advance;
		case 0x04:			/* advance_loc4 */
			if (!get_bytes(&c, &u32v, 4))
				return -EINVAL;
			delta = le32_to_cpu(u32v);
			goto advance;
		case 0x05:			/* offset_extended */
			if (!get_uleb(&c, &reg) || !get_uleb(&c, &off))
				return -EINVAL;
			set_rule(s, reg, RULE_OFFSET, (s64)off * cie->data_align);
			continue;
		case 0x06:			/* restore_extended */
			if (!get_uleb(&c, &reg) || !init)
				return -EINVAL;
			restore_rule(s, init, reg);
			continue;
		case 0x07:			/* undefined */
		case 0x08:			/* same_value */
			if (!get_uleb(&c, &reg))
				return -EINVAL;
			set_rule(s, reg, reg == DW_REG_RA ? RULE_OTHER : RULE_SAME, 0);
			continue;
		case 0x09:			/* register */
			if (!get_uleb(&c, &reg) || !get_uleb(&c, &off))
				return -EINVAL;
			set_rule(s, reg, RULE_OTHER, 0);
			continue;
		case 0x0a:			/* remember_state */
			if (depth == EHF_MAX_STACK)
				return -E2BIG;
			stack[depth++] = *s;
			continue;
		case 0x0b:			/* restore_state */
			/* the CFA rule comes back too, as compilers expect */
			if (!depth)
				return -EINVAL;
			*s = stack[--depth];
			continue;
		case 0x0c:			/* def_cfa */
			if (!get_uleb(&c, &reg) || !get_uleb(&c, &off))
				return -EINVAL;
			s->cfa_reg = reg;
			s->cfa_off = off;
			s->cfa_expr = false;
			continue;
		case 0x0d:			/* def_cfa_register */
			if (!get_uleb(&c, &reg))
				return -EINVAL;
			s->cfa_reg = reg;
			s->cfa_expr = false;
			continue;
		case 0x0e:			/* def_cfa_offset */
			if (!get_uleb(&c, &off))
				return -EINVAL;
			s->cfa_off = off;
			continue;
		case 0x0f:			/* def_cfa_expression */
			if (!get_uleb(&c, &len) || !skip(&c, len))
				return -EINVAL;
			s->cfa_expr = true;
			continue;
		case 0x10:			/* expression */
		case 0x16:			/* val_expression */
			if (!get_uleb(&c, &reg) || !get_uleb(&c, &len) ||
			    !skip(&c, len))
				return -EINVAL;
			set_rule(s, reg, RULE_OTHER, 0);
			continue;
		case 0x11:			/* offset_extended_sf */
			if (!get_uleb(&c, &reg) || !get_sleb(&c, &soff))
				return -EINVAL;
			set_rule(s, reg, RULE_OFFSET, soff * cie->data_align);
			continue;
		case 0x12:			/* def_cfa_sf */
			if (!get_uleb(&c, &reg) || !get_sleb(&c, &soff))
				return -EINVAL;
			s->cfa_reg = reg;
			s->cfa_off = soff * cie->data_align;
			s->cfa_expr = false;
			continue;
		case 0x13:			/* def_cfa_offset_sf */
			if (!get_sleb(&c, &soff))
				return -EINVAL;
			s->cfa_off = soff * cie->data_align;
			continue;
		case 0x14:			/* val_offset */
			if (!get_uleb(&c, &reg) || !get_uleb(&c, &off))
				return -EINVAL;
			set_rule(s, reg, RULE_OTHER, 0);
			continue;
		case 0x15:			/* val_offset_sf */
			if (!get_uleb(&c, &reg) || !get_sleb(&c, &soff))
				return -EINVAL;
			set_rule(s, reg, RULE_OTHER, 0);
			continue;
		case 0x2e:			/* GNU_args_size */
			if (!get_uleb(&c, &off))
				return -EINVAL;
			continue;
		case 0x2f:			/* GNU_negative_offset_extended */
			if (!get_uleb(&c, &reg) || !get_uleb(&c, &off))
				return -EINVAL;
			set_rule(s, reg, RULE_OFFSET, -(s64)off * cie->data_align);
			continue;
		default:
			return -EOPNOTSUPP;
		}
advance:
		if (!run)
			return -EINVAL;	/* no advancing in a CIE */
		emit(run, s);
		run->loc += delta * cie->code_align;
	}
	if (run)
		emit(run, s);
	return 0;
}

/**
 * ehf_parse() - derive the rows of every function of a .eh_frame section
 * @sec: the section's bytes
 * @size: their number
 * @sec_vaddr: the address the section is linked at
 * @rows: room for EHF_MAX_ROWS rows, reused for each function
 * @fn: called with each function's rows (none if SFrame cannot hold them)
 * @arg: passed to @fn
 * @why: set to what is wrong when the section is refused
 *
 * Return: 0, -EINVAL if the section is malformed, or what @fn returned.
 */
int ehf_parse(const u8 *sec, size_t size, u64 sec_vaddr,
	      struct ehf_row *rows, ehf_fde_fn fn, void *arg,
	      const char **why)
{
	size_t off = 0;

	while (off < size) {
		struct ehf_cursor c = { sec + off, sec + size, sec, sec_vaddr };
		struct ehf_state init, s;
		struct ehf_cursor e, ce;
		struct ehf_cie cie;
		struct ehf_run run;
		struct ehf_fde fde;
		u32 len32, id;
		u64 start, range, auglen;
		size_t id_off;
		int ret;

		if (!get_bytes(&c, &len32, 4)) {
			*why = "truncated entry length";
			return -EINVAL;
		}
		len32 = le32_to_cpu(len32);
		if (!len32)
			break;			/* terminator */
		if (len32 == 0xffffffff || len32 > size - off - 4) {
			*why = "entry length";
			return -EINVAL;
		}
		e = c;
		e.end = c.p + len32;
		off += 4 + len32;
		id_off = e.p - sec;
		if (!get_bytes(&e, &id, 4)) {
			*why = "truncated entry";
			return -EINVAL;
		}
		id = le32_to_cpu(id);
		if (!id)
			continue;		/* a CIE: read through its FDEs */
		if (id > id_off) {
			*why = "CIE pointer";
			return -EINVAL;
		}
		/* the CIE, from its length field */
		ce.sec = sec;
		ce.sec_vaddr = sec_vaddr;
		ce.p = sec + id_off - id;
		ce.end = sec + size;
		if (!get_bytes(&ce, &len32, 4) || !len32 ||
		    (len32 = le32_to_cpu(len32)) == 0xffffffff ||
		    len32 > (size_t)(ce.end - ce.p)) {
			*why = "CIE length";
			return -EINVAL;
		}
		ce.end = ce.p + len32;
		if (!get_bytes(&ce, &id, 4) || id) {
			*why = "CIE pointer to no CIE";
			return -EINVAL;
		}
		if (!parse_cie(&ce, &cie)) {
			*why = "CIE";
			return -EINVAL;
		}
		if (!get_ptr(&e, cie.fde_enc, &start) ||
		    !get_ptr(&e, cie.fde_enc & 0x0f, &range)) {
			*why = "FDE address";
			return -EINVAL;
		}
		if (cie.has_aug &&
		    (!get_uleb(&e, &auglen) || !skip(&e, auglen))) {
			*why = "FDE augmentation";
			return -EINVAL;
		}

		memset(&init, 0, sizeof(init));
		init.fp_rule = RULE_SAME;
		init.ra_rule = RULE_OTHER;
		ce.p = cie.insns;
		ce.end = cie.insns_end;
		ret = run_cfa(&ce, &cie, &init, NULL, NULL, cie.fde_enc);
		fde.start = start;
		fde.end = start + range;
		fde.rows = rows;
		fde.nr_rows = 0;
		if (!ret) {
			s = init;
			run = (struct ehf_run){ rows, 0, false, start, start + range };
			ret = run_cfa(&e, &cie, &s, &init, &run, cie.fde_enc);
			if (!ret && !run.overflow)
				fde.nr_rows = run.nr;
		}
		if (ret == -EINVAL) {
			*why = "CFA program";
			return -EINVAL;
		}
		ret = fn(arg, &fde);
		if (ret)
			return ret;
	}
	return 0;
}

#define EHF_SFRAME_HDR		28
#define EHF_SFRAME_FDE		20

static bool row_ok(const struct ehf_row *r)
{
	return r->base != EHF_CFA_OTHER && !r->fp_other && !r->ra_other &&
	       r->cfa_off == (s32)r->cfa_off &&
	       (!r->fp_saved || r->fp_off == (s32)r->fp_off);
}

static bool fits(s64 v, unsigned int bytes)
{
	s64 lim = 1LL << (8 * bytes - 1);

	return v >= -lim && v < lim;
}

/* The offset size code of @r: 0, 1, 2 for 1, 2, 4 bytes. */
static unsigned int off_size(const struct ehf_row *r)
{
	unsigned int os;

	for (os = 0; os < 2; os++)
		if (fits(r->cfa_off, 1 << os) &&
		    (!r->fp_saved || fits(r->fp_off, 1 << os)))
			break;
	return os;
}

static void put_le(u8 *p, u64 v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		p[i] = v >> (8 * i);
}

/* One SFrame function for rows [@first, @last) of @f. */
static void emit_seg(struct ehf_emit *e, const struct ehf_fde *f,
		     unsigned int first, unsigned int last)
{
	u64 start = f->rows[first].loc;
	u64 end = last < f->nr_rows ? f->rows[last].loc : f->end;
	s64 rel = (s64)(start - e->vaddr);
	unsigned int i, addr_type, addr_bytes;
	u32 fre_off = e->fre_len;
	u8 *fde;

	if (rel != (s32)rel || end - start > U32_MAX) {
		e->left_out++;
		return;
	}
	addr_type = end - start <= 0x100 ? 0 : end - start <= 0x10000 ? 1 : 2;
	addr_bytes = 1 << addr_type;

	for (i = first; i < last; i++) {
		const struct ehf_row *r = &f->rows[i];
		unsigned int os = off_size(r), count = r->fp_saved ? 2 : 1;
		unsigned int len = addr_bytes + 1 + count * (1 << os);

		if (e->buf) {
			u8 *p = e->buf + EHF_SFRAME_HDR +
				e->fde_total * EHF_SFRAME_FDE + e->fre_len;

			put_le(p, r->loc - start, addr_bytes);
			p += addr_bytes;
			/* CFA base (1: SP), offset count, offset size */
			*p++ = (r->base == EHF_CFA_SP) | count << 1 | os << 5;
			put_le(p, (u64)r->cfa_off, 1 << os);
			if (r->fp_saved)
				put_le(p + (1 << os), (u64)r->fp_off, 1 << os);
		}
		e->fre_len += len;
		e->nr_fres++;
	}
	if (e->buf) {
		fde = e->buf + EHF_SFRAME_HDR + e->nr_fdes * EHF_SFRAME_FDE;
		put_le(fde, (u64)rel, 4);
		put_le(fde + 4, end - start, 4);
		put_le(fde + 8, fre_off, 4);
		put_le(fde + 12, last - first, 4);
		fde[16] = addr_type;		/* PCINC, FRE start size */
		fde[17] = 0;
		fde[18] = 0;
		fde[19] = 0;
	}
	e->nr_fdes++;
}

/**
 * ehf_emit_fde() - ehf_parse() callback that writes one function
 * @arg: the struct ehf_emit
 * @f: the function and its rows
 *
 * Return: 0.
 */
int ehf_emit_fde(void *arg, const struct ehf_fde *f)
{
	struct ehf_emit *e = arg;
	unsigned int i = 0, first;

	while (i < f->nr_rows) {
		while (i < f->nr_rows && !row_ok(&f->rows[i]))
			i++;
		first = i;
		while (i < f->nr_rows && row_ok(&f->rows[i]))
			i++;
		if (i > first)
			emit_seg(e, f, first, i);
	}
	return 0;
}

size_t ehf_emit_size(const struct ehf_emit *e)
{
	return EHF_SFRAME_HDR + (size_t)e->nr_fdes * EHF_SFRAME_FDE + e->fre_len;
}

void ehf_emit_header(struct ehf_emit *e)
{
	u8 *h = e->buf;

	put_le(h, 0xdee2, 2);		/* magic */
	h[2] = 2;			/* version */
	h[3] = 0;			/* flags: not sorted */
	h[4] = 3;			/* AMD64, little-endian */
	h[5] = 0;			/* no fixed FP offset */
	h[6] = (u8)-8;			/* RA at CFA - 8 */
	h[7] = 0;			/* no auxiliary header */
	put_le(h + 8, e->nr_fdes, 4);
	put_le(h + 12, e->nr_fres, 4);
	put_le(h + 16, e->fre_len, 4);
	put_le(h + 20, 0, 4);		/* FDEs right after the header */
	put_le(h + 24, (u64)e->nr_fdes * EHF_SFRAME_FDE, 4);
}
