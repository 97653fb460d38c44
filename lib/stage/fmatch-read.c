// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fmatch-read.c - the reader of fmatch.c: a candidate's program is run
 * by a small backtracking reader: literal bytes must be there; a
 * conversion reads what the kernel's vsnprintf() prints for it (digits
 * with their padding and sign for %d, dotted quads for %pI4, hex pairs
 * for %*ph, a symbol for %pS, any bytes for %s and %pV) and tries each
 * length it could have had, longest first for the classes of bytes,
 * shortest first for free text (at the places the next literal occurs).
 * Every step costs from a budget, so a crafted text cannot make matching
 * slow: a candidate that runs out of it does not match.
 */
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "stage/fmatch.h"
#include "stage/fmatch-internal.h"

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool cut_here(const struct run *r, unsigned int i, size_t extra);

/*
 * memmem() for the literal pieces of formats in a short text: the first
 * byte by memchr(), up to 16 more compared in place, the rest of a long
 * piece by memcmp(), without the set-up of a general search.  A text
 * that repeats the start of a long piece many times (made to) goes to
 * memmem(), whose time stays linear in the text for any text.
 */
static const char *find(const char *h, size_t hn, const char *nd, size_t nn)
{
	const char *end, *hend = h + hn;
	size_t pre = nn < 16 ? nn : 16;
	unsigned int misses = 0;

	if (nn == 0)
		return memmem(h, hn, nd, nn);
	if (nn > hn)
		return NULL;
	for (end = h + hn - nn + 1; h < end; h++) {
		size_t k = 1;

		if (!(h = memchr(h, nd[0], (size_t)(end - h))))
			return NULL;
		while (k < pre && h[k] == nd[k])
			k++;
		if (k < pre)
			continue;
		if (nn == pre || memcmp(h + pre, nd + pre, nn - pre) == 0)
			return h;
		if (++misses == 8)
			return memmem(h + 1, (size_t)(hend - h - 1), nd, nn);
	}
	return NULL;
}

#ifdef __SSE2__
/*
 * find() in the text of @r from byte @p on, when the text lies in the
 * run's padded copy (at least KD_FMATCH_PAD readable bytes after it):
 * sixteen starts at a time are tested for the needle's first and last
 * bytes with two SSE2 compares, and only starts that have both are
 * compared further.  As in find(), after 8 starts that failed the
 * compare the rest goes to memmem(), whose time stays linear.
 */
static const char *find_padded(const struct run *r, size_t p, const char *nd, size_t nn)
{
	const char *t = r->t;
	size_t last, i;
	unsigned int misses = 0;
	__m128i first, lastb;

	if (nn == 0 || nn > r->n - p)
		return nn == 0 ? t + p : NULL;
	last = r->n - nn;	/* the last start */
	first = _mm_set1_epi8(nd[0]);
	lastb = _mm_set1_epi8(nd[nn - 1]);
	for (i = p; i <= last; i += 16) {
		/* Both loads end before t + n + 15: inside the padding. */
		__m128i a = _mm_loadu_si128((const __m128i *)(const void *)(t + i));
		__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(t + i + nn - 1));
		unsigned int m = (unsigned int)_mm_movemask_epi8(
			_mm_and_si128(_mm_cmpeq_epi8(a, first), _mm_cmpeq_epi8(b, lastb)));

		/* Starts past the last one read the padding: not starts. */
		if (last - i < 15)
			m &= (2u << (last - i)) - 1;
		while (m) {
			size_t at = i + (size_t)__builtin_ctz(m);

			m &= m - 1;
			if (kd_fmatch_eq(t + at, nd, nn))
				return t + at;
			if (++misses == 8)
				return memmem(t + at + 1, r->n - at - 1, nd, nn);
		}
	}
	return NULL;
}
#endif

/* find() of @nn bytes at @nd in the text of @r from byte @p on. */
static const char *find_in(const struct run *r, size_t p, const char *nd, size_t nn)
{
#ifdef __SSE2__
	if (r->padded)
		return find_padded(r, p, nd, nn);
#endif
	return find(r->t + p, r->n - p, nd, nn);
}

/* Try conversion @i (number @conv) ending at @end, then the rest. */
static bool try_end(struct run *r, unsigned int i, size_t pos, size_t end, unsigned int conv)
{
	if (--r->budget < 0)
		return false;
	if (i + 1 < r->nops && r->ops[i + 1].kind == KD_OP_LIT) {
		const struct kd_fidx_op *l = &r->ops[i + 1];

		/* Cheap: the next literal's first byte must follow. */
		if (end >= r->n ? !cut_here(r, i, 0) : r->t[end] != r->str[l->arg])
			return true;
	}
	if (conv < 256) {
		r->cur[2 * conv] = (uint32_t)pos;
		r->cur[2 * conv + 1] = (uint32_t)end;
	}
	kd_fmatch_solve(r, i + 1, end, conv + 1);
	return r->nsol < r->want && r->budget >= 0;
}

/* Leading spaces a padded conversion may print. */
static size_t pad_left(const struct run *r, const struct kd_fidx_op *op, size_t p)
{
	if ((op->flags & KD_OPF_WIDTH) && !(op->flags & KD_OPF_LEFT))
		while (p < r->n && r->t[p] == ' ')
			p++;
	return p;
}

/*
 * The ends a number may have: [*@lo, *@hi] (longest tried first).  Returns
 * false when no digit is there.
 */
static bool number(const struct run *r, const struct kd_fidx_op *op, size_t pos,
		   size_t *lo, size_t *hi)
{
	size_t p = pad_left(r, op, pos), d, de;
	const char *t = r->t;
	bool padded = p > pos;

	if (p < r->n && ((t[p] == '-' && op->kind == KD_OP_INT) ||
			 (t[p] == '+' && (op->flags & KD_OPF_PLUS)) ||
			 (t[p] == ' ' && (op->flags & KD_OPF_SPACE))))
		p++;
	if ((op->flags & KD_OPF_ALT) && (op->kind == KD_OP_HEX || op->kind == KD_OP_HEXU) &&
	    p + 2 < r->n && t[p] == '0' && (t[p + 1] == 'x' || t[p + 1] == 'X') && is_hex(t[p + 2]))
		p += 2;
	d = p;
	switch (op->kind) {
	case KD_OP_HEX:
	case KD_OP_HEXU:
		while (p < r->n && is_hex(t[p]))
			p++;
		break;
	case KD_OP_OCT:
		while (p < r->n && t[p] >= '0' && t[p] <= '7')
			p++;
		break;
	default:
		while (p < r->n && is_digit(t[p]))
			p++;
	}
	if (p == d)
		return false;
	*lo = d + 1;
	de = p;
	if ((op->flags & KD_OPF_WIDTH) && (op->flags & KD_OPF_LEFT))
		while (p < r->n && t[p] == ' ')
			p++;
	*hi = p;
	/*
	 * A written width (op->len): a field is that wide at least, and
	 * exactly that wide when it was padded ("%5d": "    9", "123456").
	 */
	if (op->len) {
		size_t w = pos + op->len;

		if (padded) {
			if (w < *lo || w > de)
				return false;
			*lo = *hi = w;
		} else {
			if (*lo < w)
				*lo = w;
			/* left-justified: past the digits only up to the width */
			if (*hi > de && *hi > w)
				*hi = w > de ? w : de;
			if (*lo > *hi)
				return false;
		}
	}
	return true;
}

/* The end of a dotted quad at @p, or NONE. */
static size_t ip4(const struct run *r, size_t p)
{
	for (int k = 0; k < 4; k++) {
		size_t d = p;

		if (k && (p >= r->n || r->t[p++] != '.'))
			return NONE;
		d = p;
		while (p < r->n && p - d < 3 && is_digit(r->t[p]))
			p++;
		if (p == d)
			return NONE;
	}
	return p;
}

/* The longest run from @p of bytes in @set (hex digits too when @hex). */
static size_t run_of(const struct run *r, size_t p, const char *set, bool hex)
{
	while (p < r->n && ((hex && is_hex(r->t[p])) || (r->t[p] && strchr(set, r->t[p]))))
		p++;
	return p;
}

static void conversion(struct run *r, unsigned int i, size_t pos, unsigned int conv)
{
	const struct kd_fidx_op *op = &r->ops[i];
	size_t lo = pos, hi = pos, p;

	switch (op->kind) {
	case KD_OP_INT:
	case KD_OP_UINT:
	case KD_OP_HEX:
	case KD_OP_HEXU:
	case KD_OP_OCT:
		if (!number(r, op, pos, &lo, &hi))
			return;
		break;
	case KD_OP_CHAR:
		p = pad_left(r, op, pos);
		if (p >= r->n)
			return;
		lo = hi = p + 1;
		if ((op->flags & KD_OPF_WIDTH) && (op->flags & KD_OPF_LEFT))
			hi = run_of(r, hi, " ", false);
		break;
	case KD_OP_PTR:
		p = pad_left(r, op, pos);
		if (r->n - p >= 16 && memcmp(r->t + p, "(____ptrval____)", 16) == 0) {
			lo = hi = p + 16;
		} else if (r->n - p >= 6 && memcmp(r->t + p, "(null)", 6) == 0) {
			lo = hi = p + 6;
		} else {
			hi = run_of(r, p, "", true);
			if (hi == p)
				return;
			lo = p + 1;
		}
		break;
	case KD_OP_ADDR:
		p = pad_left(r, op, pos);
		if (r->n - p < 3 || r->t[p] != '0' || r->t[p + 1] != 'x')
			return;
		hi = run_of(r, p + 2, "", true);
		if (hi == p + 2)
			return;
		lo = p + 3;
		break;
	case KD_OP_IP4:
		if ((hi = ip4(r, pos)) == NONE)
			return;
		lo = hi;
		break;
	case KD_OP_IP6:
		hi = run_of(r, pos, ":.[]%", true);
		if (hi - pos < 2)
			return;
		lo = pos + 2;
		break;
	case KD_OP_MAC:
		hi = run_of(r, pos, ":-", true);
		if (hi - pos < 12)
			return;
		if (hi - pos > 17)
			hi = pos + 17;
		lo = pos + 12;
		break;
	case KD_OP_HEXDUMP: {
		/* hh, hh?hh, ... for separator ?: each whole pair is an end. */
		size_t e = pos;

		if (!try_end(r, i, pos, pos, conv))
			return;
		for (p = pos; p + 2 <= r->n && is_hex(r->t[p]) && is_hex(r->t[p + 1]);) {
			e = p + 2;
			if (!try_end(r, i, pos, e, conv))
				return;
			if (!op->arg)
				p = e;
			else if (e < r->n && r->t[e] == (char)op->arg)
				p = e + 1;
			else
				break;
		}
		return;
	}
	case KD_OP_UUID:
		hi = run_of(r, pos, "-", true);
		if (hi == pos)
			return;
		lo = pos + 1;
		break;
	case KD_OP_SYM: {
		/* symbol_string(): name+0xoff/0xsize, then " [module]" or not */
		size_t m;

		p = pad_left(r, op, pos);
		hi = p;
		while (hi < r->n && (kd_fmatch_is_word(r->t[hi]) || r->t[hi] == '.' ||
				     r->t[hi] == '$' || r->t[hi] == '+' || r->t[hi] == '/'))
			hi++;
		if (hi == p)
			return;
		if (hi + 2 < r->n && r->t[hi] == ' ' && r->t[hi + 1] == '[') {
			for (m = hi + 2; m < r->n && r->t[m] != ']' && r->t[m] != ' '; m++)
				;
			if (m < r->n && r->t[m] == ']' && !try_end(r, i, pos, m + 1, conv))
				return;
		}
		lo = p + 1;
		break;
	}
	case KD_OP_RES: {
		/* resource_string(): "[" type and range, flags "]" */
		const char *e;

		if (pos >= r->n || r->t[pos] != '[' ||
		    !(e = memchr(r->t + pos + 1, ']', r->n - pos - 1)))
			return;
		lo = hi = (size_t)(e - r->t) + 1;
		break;
	}
	case KD_OP_ERR:
		hi = run_of(r, pos, "-_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", false);
		if (hi == pos)
			return;
		lo = pos + 1;
		break;
	default: {	/* free text: shortest first, where the next literal occurs */
		const struct kd_fidx_op *nx = i + 1 < r->nops ? &r->ops[i + 1] : NULL;
		/* the last end a precision allows ("%.8s": 8 bytes on) */
		size_t last = op->kind == KD_OP_STR && op->arg && op->arg - 1 < r->n - pos ?
			      pos + op->arg - 1 : r->n;

		if (op->flags & KD_OPF_EXACT) {
			if (r->n - pos >= op->len)
				try_end(r, i, pos, pos + op->len, conv);
			else if (cut_here(r, i, 0))
				try_end(r, i, pos, r->n, conv);
			return;
		}

		if (!nx) {
			if (last == r->n)
				try_end(r, i, pos, r->n, conv);
			return;
		}
		if (nx->kind == KD_OP_LIT) {
			const char *lit = r->str + nx->arg;

			for (p = pos; p + nx->len <= r->n && p <= last;) {
				const char *f = find_in(r, p, lit, nx->len);

				if (!f) {
					if (last == r->n && cut_here(r, i, 0))
						try_end(r, i, pos, r->n, conv);
					return;
				}
				p = (size_t)(f - r->t);
				if (p > last || !try_end(r, i, pos, p, conv))
					return;
				p++;
			}
			return;
		}
		for (p = pos; p <= last; p++)
			if (!try_end(r, i, pos, p, conv))
				return;
		return;
	}
	}
	for (p = hi; p >= lo && p >= pos; p--) {
		if (!try_end(r, i, pos, p, conv))
			return;
		if (p == 0)
			break;
	}
}

static void solved(struct run *r, size_t pos, unsigned int conv)
{
	if (r->nsol++ == 0) {
		r->end = pos;
		r->solconv = conv < 256 ? conv : 256;
		memcpy(r->sol, r->cur, sizeof(uint32_t) * 2 * (conv < 256 ? conv : 256));
	}
}

/*
 * Whether the text may end here, at op @i, cut by the record limit: when
 * most of the format's literal text was read before (a format that
 * starts with %s is not "cut" after one literal byte).
 */
static bool cut_here(const struct run *r, unsigned int i, size_t extra)
{
	size_t lit = extra;

	if (!r->cut)
		return false;
	for (unsigned int k = 0; k < i; k++)
		if (r->ops[k].kind == KD_OP_LIT)
			lit += r->ops[k].len;
	return lit >= STRONG_LIT && 2 * lit >= r->flit;
}

void kd_fmatch_solve(struct run *r, unsigned int i, size_t pos, unsigned int conv)
{
	/* Literal ops in a row: no choice, no recursion. */
	while (i < r->nops && r->ops[i].kind == KD_OP_LIT) {
		const struct kd_fidx_op *l = &r->ops[i];

		if (r->n - pos < l->len || !kd_fmatch_eq(r->t + pos, r->str + l->arg, l->len)) {
			/* The record limit cut the text inside this literal. */
			if (r->n - pos < l->len && cut_here(r, i, r->n - pos) &&
			    memcmp(r->t + pos, r->str + l->arg, r->n - pos) == 0)
				solved(r, r->n, conv);
			return;
		}
		pos += l->len;
		i++;
	}
	if (i == r->nops) {
		if (pos != r->n && !(r->partial && pos > 0))
			return;
		/* A partial reading leaves text to a continuation: else it is whole. */
		if (r->partial && pos == r->n && !r->cut)
			return;
		solved(r, pos, conv);
		return;
	}
	if (pos == r->n && cut_here(r, i, 0)) {
		solved(r, pos, conv);
		return;
	}
	conversion(r, i, pos, conv);
}

/*
 * What any reading needs, checked before the backtracking one: the
 * literal pieces occur in the text in their order, and a format that
 * ends in literal text ends the text with it (unless partial).
 */
bool kd_fmatch_feasible(const struct run *r)
{
	const struct kd_fidx_op *last = &r->ops[r->nops - 1];
	size_t p = 0;

	if (!r->nops)
		return r->n == 0 || r->partial;
	if (!r->partial && last->kind == KD_OP_LIT &&
	    (r->n < last->len ||
	     !kd_fmatch_eq(r->t + r->n - last->len, r->str + last->arg, last->len)))
		return false;
	for (unsigned int i = 0; i < r->nops; i++) {
		const struct kd_fidx_op *op = &r->ops[i];
		const char *f;

		if (op->kind != KD_OP_LIT)
			continue;
		if (!(f = find_in(r, p, r->str + op->arg, op->len)))
			return false;
		p = (size_t)(f - r->t) + op->len;
	}
	return true;
}

