// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kfmt.c - kernel format strings: parser, comparison of a translation
 * with its original, rendering with ARGn texts.  See kfmt.h.
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "shared/kfmt.h"

static const char *const reason_names[KD_KFMT_NREASONS] = {
	[KD_KFMT_TRUSTED] = "trusted",
	[KD_KFMT_CONVERSION] = "conversion",
	[KD_KFMT_COUNT] = "count",
	[KD_KFMT_PEXT] = "pointer-extension",
	[KD_KFMT_SKIPPED] = "skipped-argument",
	[KD_KFMT_PERCENT_N] = "percent-n",
	[KD_KFMT_POSITION] = "position",
	[KD_KFMT_CONTINUATION] = "continuation",
	[KD_KFMT_PV] = "percent-pV",
	[KD_KFMT_CUT] = "cut",
	[KD_KFMT_MISMATCH] = "mismatch",
	[KD_KFMT_TOO_LONG] = "too-long",
};

int kd_kfmt_first_pv(const char *fmt, const struct kd_kfmt *f)
{
	for (unsigned int k = 0; k < f->nconv; k++) {
		const struct kd_kfmt_arg *a = &f->arg[f->conv[k].pos];

		if (a->kind == 'p' && a->pext_len >= 1 && fmt[a->pext_off] == 'V')
			return (int)k;
	}
	return -1;
}

const char *kd_kfmt_reason_name(enum kd_kfmt_reason r)
{
	if ((unsigned int)r >= KD_KFMT_NREASONS)
		return "?";
	return reason_names[r];
}

/*
 * Digits at *@p (before @end) followed by '$': their value, and *@p moved
 * past the '$'.  0 when there is no such position (nothing moved), -1 for
 * a position out of range.
 */
static int read_position(const char **p, const char *end)
{
	const char *q = *p;
	unsigned int v = 0;

	while (q < end && *q >= '0' && *q <= '9') {
		if (v <= KD_KFMT_MAX_POS)
			v = v * 10 + (unsigned int)(*q - '0');
		q++;
	}
	if (q == *p || q == end || *q != '$')
		return 0;
	*p = q + 1;
	return (v == 0 || v > KD_KFMT_MAX_POS) ? -1 : (int)v;
}

static void skip_digits(const char **p, const char *end)
{
	while (*p < end && **p >= '0' && **p <= '9')
		(*p)++;
}

/* Record that position @pos takes @a; the same position twice must agree. */
static int use_position(struct kd_kfmt *f, unsigned int pos, const struct kd_kfmt_arg *a,
			const char *fmt)
{
	struct kd_kfmt_arg *old = &f->arg[pos];

	if (old->kind) {
		if (old->kind != a->kind || old->len != a->len ||
		    old->pext_len != a->pext_len ||
		    memcmp(fmt + old->pext_off, fmt + a->pext_off, a->pext_len) != 0)
			return -EINVAL;
		return 0;
	}
	*old = *a;
	if (pos + 1 > f->nargs)
		f->nargs = pos + 1;
	return 0;
}

/*
 * A '*' width or precision at *@p: the position it takes (next sequential
 * one, or its own *N$).  Returns 0, or a negative errno.
 */
static int read_star(struct kd_kfmt *f, const char *fmt, const char **p,
		     const char *end, unsigned int *seq)
{
	static const struct kd_kfmt_arg star = { .kind = '*' };
	unsigned int pos;

	(*p)++;
	if (f->positional) {
		int n = read_position(p, end);

		if (n == 0)
			return -EINVAL;
		if (n < 0)
			return -ERANGE;
		pos = (unsigned int)n - 1;
	} else {
		if (*seq >= KD_KFMT_MAX_POS)
			return -ERANGE;
		pos = (*seq)++;
	}
	return use_position(f, pos, &star, fmt);
}

/* Length modifier at *@p, as one letter (see struct kd_kfmt_arg). */
static char read_length(const char **p, const char *end)
{
	char c;

	if (*p >= end)
		return 0;
	c = **p;
	switch (c) {
	case 'h':
	case 'l':
		(*p)++;
		if (*p < end && **p == c) {
			(*p)++;
			return c == 'h' ? 'H' : 'q';
		}
		return c;
	case 'L':		/* the kernel reads %Ld as %lld */
	case 'q':
		(*p)++;
		return 'q';
	case 'z':
	case 'Z':
		(*p)++;
		return 'z';
	case 't':
	case 'j':
		(*p)++;
		return c;
	default:
		return 0;
	}
}

static char conversion_kind(char c)
{
	switch (c) {
	case 'd': case 'i':
		return 'i';
	case 'o': case 'u': case 'x': case 'X':
		return 'u';
	case 'c': case 's': case 'p': case 'n':
		return c;
	case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A':
		return 'f';
	default:
		return 0;
	}
}

/* One conversion starting after the '%' at *@p.  Returns 0 or -errno. */
static int parse_conversion(struct kd_kfmt *f, const char *fmt, const char **p,
			    const char *end, unsigned int *seq, int *mode)
{
	struct kd_kfmt_arg a = { 0 };
	unsigned int pos = 0;
	int n, rc;

	n = read_position(p, end);
	if (n < 0)
		return -ERANGE;
	/* mode: 0 not known yet, 1 sequential, 2 positional; never both. */
	if (*mode && *mode != (n ? 2 : 1))
		return -EINVAL;
	*mode = n ? 2 : 1;
	f->positional = n != 0;
	if (n)
		pos = (unsigned int)n - 1;

	while (*p < end && (**p == '-' || **p == '+' || **p == ' ' || **p == '#' ||
			    **p == '0' || **p == '\''))
		(*p)++;
	if (*p < end && **p == '*') {
		if ((rc = read_star(f, fmt, p, end, seq)) < 0)
			return rc;
	} else {
		skip_digits(p, end);
	}
	if (*p < end && **p == '.') {
		(*p)++;
		if (*p < end && **p == '*') {
			if ((rc = read_star(f, fmt, p, end, seq)) < 0)
				return rc;
		} else {
			skip_digits(p, end);
		}
	}
	if (!f->positional) {
		if (*seq >= KD_KFMT_MAX_POS)
			return -ERANGE;
		pos = (*seq)++;
	}
	a.len = read_length(p, end);
	if (*p >= end || !(a.kind = conversion_kind(**p)))
		return -EINVAL;
	(*p)++;
	if (a.kind == 'p') {
		/* The kernel's rule: every alphanumeric byte after %p. */
		const char *e = *p;

		while (e < end && isalnum((unsigned char)*e) && e - *p < 255)
			e++;
		a.pext_off = (unsigned int)(*p - fmt);
		a.pext_len = (unsigned char)(e - *p);
		if (a.pext_len >= 1 && fmt[a.pext_off] == 'V')
			f->has_pv = true;
		*p = e;
	}
	if (a.kind == 'n')
		f->has_n = true;
	return use_position(f, pos, &a, fmt) < 0 ? -EINVAL : (int)pos;
}

int kd_kfmt_parse(const char *fmt, size_t len, struct kd_kfmt *f)
{
	const char *p = fmt, *end = fmt + len;
	unsigned int seq = 0;
	int mode = 0;

	f->nconv = 0;
	f->nargs = 0;
	f->lit_len = len;
	f->positional = f->has_n = f->has_pv = false;
	memset(f->arg, 0, sizeof(f->arg));
	if (len > 0xffffff)
		return -EINVAL;
	while (p < end) {
		const char *pc = memchr(p, '%', (size_t)(end - p));
		int pos;

		if (!pc)
			break;
		p = pc + 1;
		if (p == end)
			return -EINVAL;
		if (*p == '%') {
			p++;
			f->lit_len--;
			continue;
		}
		if (f->nconv >= KD_KFMT_MAX_CONV)
			return -EINVAL;
		pos = parse_conversion(f, fmt, &p, end, &seq, &mode);
		if (pos < 0)
			return pos;
		f->conv[f->nconv].start = (unsigned int)(pc - fmt);
		f->conv[f->nconv].end = (unsigned int)(p - fmt);
		f->conv[f->nconv].pos = (unsigned char)pos;
		f->nconv++;
		f->lit_len -= (size_t)(p - pc);
	}
	return 0;
}

enum kd_kfmt_reason kd_kfmt_compare(const char *ofmt, const struct kd_kfmt *orig,
				    const char *trfmt, const struct kd_kfmt *tr,
				    unsigned char *map)
{
	unsigned char first[KD_KFMT_MAX_POS];
	unsigned int pos, k;

	if (orig->has_pv)
		return KD_KFMT_PV;
	if (orig->has_n || tr->has_n)
		return KD_KFMT_PERCENT_N;
	if (tr->positional) {
		if (tr->nargs > orig->nargs)
			return KD_KFMT_POSITION;
	} else if (tr->nargs != orig->nargs) {
		return KD_KFMT_COUNT;
	}
	for (pos = 0; pos < orig->nargs; pos++) {
		const struct kd_kfmt_arg *o = &orig->arg[pos], *t = &tr->arg[pos];

		if (o->kind && !t->kind)
			return KD_KFMT_SKIPPED;
		if (o->kind != t->kind || o->len != t->len)
			return KD_KFMT_CONVERSION;
		if (o->kind == 'p' &&
		    (o->pext_len != t->pext_len ||
		     memcmp(ofmt + o->pext_off, trfmt + t->pext_off, o->pext_len) != 0))
			return KD_KFMT_PEXT;
	}
	/* Which ARGn each position is: the original's first conversion of it. */
	memset(first, 0xff, sizeof(first));
	for (k = orig->nconv; k-- > 0;)
		first[orig->conv[k].pos] = (unsigned char)k;
	for (k = 0; k < tr->nconv; k++) {
		if (first[tr->conv[k].pos] == 0xff)
			return KD_KFMT_CONVERSION;
		map[k] = first[tr->conv[k].pos];
	}
	return KD_KFMT_TRUSTED;
}

/* Literal bytes of a format, "%%" written as "%": copied in runs between them. */
static ssize_t put_literal(const char *s, size_t n, char *out, size_t at, size_t cap)
{
	while (n) {
		const char *pc = memchr(s, '%', n);
		size_t run = pc ? (size_t)(pc - s) + 1 : n;	/* up to and with one '%' */

		if (run > cap - at)
			return -E2BIG;
		memcpy(out + at, s, run);
		at += run;
		if (!pc)
			break;
		run = run + 1 <= n ? run + 1 : n;	/* and skip the second '%' */
		s += run;
		n -= run;
	}
	return (ssize_t)at;
}

ssize_t kd_kfmt_render(const char *fmt, size_t fmt_len, const struct kd_kfmt *f,
		       const unsigned char *map, const struct kd_karg *args,
		       unsigned int nargs, char *out, size_t cap)
{
	size_t lit = 0;
	ssize_t at = 0;

	for (unsigned int k = 0; k < f->nconv; k++) {
		const struct kd_karg *a;
		unsigned int idx = map ? map[k] : k;

		at = put_literal(fmt + lit, f->conv[k].start - lit, out, (size_t)at, cap);
		if (at < 0)
			return at;
		if (idx >= nargs)
			return -ERANGE;
		a = &args[idx];
		if (a->len > cap - (size_t)at)
			return -E2BIG;
		memcpy(out + at, a->s, a->len);
		at += (ssize_t)a->len;
		lit = f->conv[k].end;
	}
	return put_literal(fmt + lit, fmt_len - lit, out, (size_t)at, cap);
}

void kd_kfmt_literals(const char *fmt, size_t fmt_len, const struct kd_kfmt *f,
		      char *out, unsigned int *ends)
{
	size_t lit = 0, at = 0;

	for (unsigned int k = 0; k <= f->nconv; k++) {
		size_t stop = k < f->nconv ? f->conv[k].start : fmt_len;

		ssize_t r = put_literal(fmt + lit, stop - lit, out, at, f->lit_len);

		if (r >= 0)	/* it fits: lit_len is what the parser counted */
			at = (size_t)r;
		ends[k] = (unsigned int)at;
		if (k < f->nconv)
			lit = f->conv[k].end;
	}
}

/* Literal bytes of a format ("%%" as "%") against @n bytes of @t. */
static bool same_literal(const char *s, size_t n, const char *t, size_t *at)
{
	while (n) {
		const char *pc = memchr(s, '%', n);
		size_t run = pc ? (size_t)(pc - s) + 1 : n;

		if (memcmp(s, t + *at, run) != 0)
			return false;
		*at += run;
		if (!pc)
			break;
		run = run + 1 <= n ? run + 1 : n;
		s += run;
		n -= run;
	}
	return true;
}

bool kd_kfmt_match_tail(const char *fmt, size_t fmt_len, const struct kd_kfmt *f,
			const struct kd_karg *args, unsigned int nargs,
			const char *text, size_t text_len, size_t *start)
{
	size_t total = f->lit_len, at, lit = 0;

	if (nargs < f->nconv)
		return false;
	for (unsigned int k = 0; k < f->nconv; k++) {
		total += args[k].len;
		if (total > text_len)
			return false;
	}
	if (total > text_len)
		return false;
	at = text_len - total;
	for (unsigned int k = 0; k < f->nconv; k++) {
		if (!same_literal(fmt + lit, f->conv[k].start - lit, text, &at) ||
		    memcmp(args[k].s, text + at, args[k].len) != 0)
			return false;
		at += args[k].len;
		lit = f->conv[k].end;
	}
	if (!same_literal(fmt + lit, fmt_len - lit, text, &at))
		return false;
	*start = text_len - total;
	return true;
}
