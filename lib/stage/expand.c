// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * expand.c - the expansion stage: compact kprint records (SITE)
 * back into full ones with the kernel's site table.  See expand.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/field.h"
#include "shared/drmprefix.h"
#include "shared/kfmt.h"
#include "stage/expand.h"

const char *const kd_expand_keys[] = {
	"SITE", "FORMAT_PART", "ARGS_CUT", "PARTS", KD_KEY_GROUP, NULL
};

/* Past this many bytes a rendering is no record's text (KD_RECORD_MAX). */
#define RENDER_MAX	(2 * KD_RECORD_MAX)
#define PFX_MAX		24	/* "PART4294967295_" and the like */

enum block_kind { B_MAIN, B_LINE, B_PART };

/* One call-site block of a record: "<pfx>SITE=" and what goes with it. */
struct block {
	enum block_kind kind;
	unsigned long k;		/* LINE<k>_ / PART<k>_ */
	char pfx[PFX_MAX];
	size_t pfx_len;
	size_t site_entry;		/* dict index of <pfx>SITE */
	size_t ref_len;			/* of its "<object>:<index>", before the spans */
	bool format_part;
	long args_cut;			/* -1: no ARGS_CUT */
	const struct kd_site *site;
	unsigned int nspans;
	size_t s[KD_KFMT_MAX_CONV], e[KD_KFMT_MAX_CONV];
};

struct kd_expand {
	kd_expand_table_fn table, refresh;
	void *data;
	struct kd_expand_stats st;
	struct block b[KD_DICT_MAX];
	unsigned int nb;
	struct kd_kfmt f;
	unsigned int ends[KD_KFMT_MAX_CONV + 1];
	char lit[RENDER_MAX];
	char out[RENDER_MAX];
	size_t off[KD_KFMT_MAX_CONV];	/* where each argument is in x->out */
	char *scratch;			/* the kept entries while the dictionary is rebuilt */
	size_t scratch_cap;
};

int kd_expand_new(struct kd_expand **out, kd_expand_table_fn fn, void *data)
{
	struct kd_expand *x = calloc(1, sizeof(*x));

	if (!x)
		return -ENOMEM;
	x->table = fn;
	x->data = data;
	*out = x;
	return 0;
}

void kd_expand_set_refresh(struct kd_expand *x, kd_expand_table_fn fn)
{
	x->refresh = fn;
}

const struct kd_expand_stats *kd_expand_stats(const struct kd_expand *x)
{
	return &x->st;
}

void kd_expand_free(struct kd_expand *x)
{
	if (!x)
		return;
	free(x->scratch);
	free(x);
}

/*
 * The block prefix of @key ("", "LINE<k>_", "PART<k>_") and, in *@base,
 * the key after it.  Returns the prefix length, or -1 for other keys
 * with a '_' that are no block's ("SUBSYSTEM", "CODE_FILE" give 0).
 */
static size_t block_prefix(const char *key, enum block_kind *kind, unsigned long *k)
{
	size_t len = strlen(key), d;

	*kind = B_MAIN;
	*k = 0;
	if ((d = kd_dict_index_prefix(key, len, "LINE", 4)))
		*kind = B_LINE;
	else if ((d = kd_dict_index_prefix(key, len, "PART", 4)))
		*kind = B_PART;
	if (d) {
		unsigned long v = 0;

		for (size_t i = 4; i + 1 < d; i++) {
			v = v * 10 + (unsigned long)(key[i] - '0');
			if (v > 1000000)
				return (size_t)-1;
		}
		*k = v;
	}
	return d;
}

static struct block *find_block(struct kd_expand *x, enum block_kind kind, unsigned long k)
{
	for (unsigned int i = 0; i < x->nb; i++)
		if (x->b[i].kind == kind && x->b[i].k == k)
			return &x->b[i];
	return NULL;
}

/* A decimal number of at most 9 digits, the whole of @s. */
static bool small_number(const char *s, size_t n, unsigned long *v)
{
	*v = 0;
	if (!n || n > 9)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		*v = *v * 10 + (unsigned long)(s[i] - '0');
	}
	return true;
}

/* "<s0>-<e0>,<s1>-<e1>,..." into @b, each within @text_len. */
static bool parse_spans(struct block *b, const char *v, size_t n, size_t text_len)
{
	const char *p = v, *end = v + n;

	b->nspans = 0;
	while (p < end) {
		const char *comma = memchr(p, ',', (size_t)(end - p)), *dash;
		unsigned long s, e;

		if (!comma)
			comma = end;
		dash = memchr(p, '-', (size_t)(comma - p));
		if (!dash || b->nspans == KD_KFMT_MAX_CONV ||
		    !small_number(p, (size_t)(dash - p), &s) ||
		    !small_number(dash + 1, (size_t)(comma - dash - 1), &e) ||
		    s > e || e > text_len)
			return false;
		b->s[b->nspans] = s;
		b->e[b->nspans++] = e;
		p = comma == end ? end : comma + 1;
		if (comma != end && p == end)
			return false;	/* a trailing comma */
	}
	return b->nspans > 0;
}

/*
 * SITE's value "<object>:<index>[ <start>-<end>,...]": the length of the
 * site reference, and the spans of the arguments (none without the
 * space); false when they do not parse or leave the text.
 */
static bool site_value(struct block *b, const char *v, size_t n, size_t text_len)
{
	const char *sp = memchr(v, ' ', n);

	b->ref_len = sp ? (size_t)(sp - v) : n;
	b->nspans = 0;
	return !sp || parse_spans(b, sp + 1, (size_t)(v + n - sp - 1), text_len);
}

/* The "<object>:<index>" of SITE's value in @t, or NULL. */
static const struct kd_site *lookup(const struct kd_sites *t, const char *v, size_t n)
{
	const char *colon = n ? memrchr(v, ':', n) : NULL;
	unsigned long index;

	if (!colon || colon == v ||
	    !small_number(colon + 1, (size_t)(v + n - colon - 1), &index))
		return NULL;
	return kd_sites_get(t, v, (size_t)(colon - v), index);
}

/*
 * The length of @fmt up to its conversion @n (from 0), or 0 when it has
 * no more than @n: a format of more conversions than a parse takes
 * (KD_KFMT_MAX_CONV) is cut there when only its first @n arguments are
 * given (ARGS_CUT=n).
 */
static size_t cut_prefix(const char *fmt, size_t len, unsigned long n)
{
	unsigned long k = 0;

	for (size_t i = 0; i + 1 < len; i++) {
		if (fmt[i] != '%')
			continue;
		if (fmt[i + 1] == '%') {
			i++;
			continue;
		}
		if (k++ == n)
			return i;
	}
	return 0;
}

/* How a block's rendering must end in its region. */
enum end_mode {
	END_EXACT,	/* at the region's end */
	END_BEFORE,	/* FORMAT_PART: anywhere up to it */
	END_CUT,	/* ARGS_CUT: compared as far as the text goes */
};

/*
 * Render @b's format (parsed in x->f) with its spans' texts into x->out,
 * conversions up to @nconv (the literal after the last one included).
 */
static long render(struct kd_expand *x, const struct block *b, const char *text,
		   unsigned int nconv)
{
	size_t at = 0;

	for (unsigned int k = 0; k <= nconv; k++) {
		size_t ls = k ? x->ends[k - 1] : 0, ln = x->ends[k] - ls;

		if (at + ln > RENDER_MAX)
			return -1;
		memcpy(x->out + at, x->lit + ls, ln);
		at += ln;
		if (k < nconv && k < b->nspans) {
			size_t an = b->e[k] - b->s[k];

			x->off[k] = at;
			if (at + an > RENDER_MAX)
				return -1;
			memcpy(x->out + at, text + b->s[k], an);
			at += an;
		}
	}
	return (long)at;
}

/* Whether the rendering x->out (@n bytes) is at text[@p] as @mode asks; its end in *@q. */
static bool matches_at(const struct kd_expand *x, const char *text, size_t p, size_t re,
		       size_t n, enum end_mode mode, size_t *q)
{
	if (p > re)
		return false;
	if (mode == END_CUT && n > re - p)
		n = re - p;
	if (n > re - p || (mode == END_EXACT && n != re - p) || memcmp(text + p, x->out, n))
		return false;
	*q = p + n;
	return true;
}

/*
 * DRM's prefix ends at @p (after @rs): "[drm:<function>] " (and
 * "*ERROR* "), drmprefix.h's rule, at @rs or after a device prefix.
 */
static bool drm_prefix(const char *text, size_t rs, size_t p)
{
	const char *o = memmem(text + rs, p - rs, "[drm:", 5);
	size_t e;

	if (!o || !(o == text + rs || (o >= text + rs + 2 && o[-1] == ' ' && o[-2] == ':')))
		return false;
	e = kd_drm_prefix_end(text, p, (size_t)(o - text));
	return e == p || (e != KD_DRM_NONE && kd_drm_error_end(text, p, e) == p);
}

/*
 * A device prefix ends at @p (after @rs): "...: " (dev_printk(),
 * netdev_printk(), ext4_msg()), "...: [name] " (SCSI's
 * sdev_prefix_printk(): the disk's name in brackets after the device), or
 * DRM's (drm_prefix()).
 */
static bool colon_prefix(const char *text, size_t rs, size_t p)
{
	const char *o;

	if (p < rs + 2 || text[p - 1] != ' ')
		return false;
	if (text[p - 2] == ':')
		return true;
	if (text[p - 2] != ']' && text[p - 2] != '*')
		return false;
	if (drm_prefix(text, rs, p))
		return true;
	if (text[p - 2] != ']')
		return false;
	o = memrchr(text + rs, '[', p - 2 - rs);
	return o && o >= text + rs + 2 && o[-1] == ' ' && o[-2] == ':';
}

/* The start of the digits (or identifier bytes) that end at @e, not before @lo. */
static size_t run_before(const char *text, size_t lo, size_t e, bool ident)
{
	for (; e > lo; e--) {
		unsigned char c = (unsigned char)text[e - 1];

		if (!(c >= '0' && c <= '9') &&
		    !(ident && (c == '_' || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z'))))
			break;
	}
	return e;
}

/*
 * ocfs2's __mlog_printk() prefix ends at @p: "(<task>,<pid>,<cpu>):
 * <function>:<line> " (no blank after "):"), from @rs on.  Its ML_ERROR
 * messages add "ERROR: ", which colon_prefix() takes; the others end in
 * the line's number.  The task's name may hold any byte, so the prefix
 * is read from its end.
 */
static bool mlog_prefix(const char *text, size_t rs, size_t p)
{
	size_t e = p - 1, d;

	if (p < rs + 12 || text[rs] != '(' || text[e] != ' ')
		return false;
	d = run_before(text, rs, e, false);			/* <line> */
	if (d == e || text[d - 1] != ':')
		return false;
	e = d - 1;
	d = run_before(text, rs, e, true);			/* <function> */
	if (d == e || d < rs + 3 || text[d - 1] != ':' || text[d - 2] != ')')
		return false;
	e = d - 2;
	for (int k = 0; k < 2; k++) {				/* ",<pid>,<cpu>" */
		d = run_before(text, rs, e, false);
		if (d == e || text[d - 1] != ',')
			return false;
		e = d - 1;
	}
	return e > rs + 1;					/* "(<task>" */
}

/*
 * colon_prefix() or mlog_prefix(), or one colon_prefix() and a word of
 * the wrapper's own and a blank: ath11k_dbg()'s debug mask, iwlwifi's
 * IWL_DEBUG_*()'s and brcmf_dbg()'s function ("iwlwifi 0000:00:14.3:
 * iwl_alive_fn ").
 */
static bool device_prefix(const char *text, size_t rs, size_t p)
{
	size_t w;

	if (colon_prefix(text, rs, p) || mlog_prefix(text, rs, p))
		return true;
	if (p < rs + 4 || text[p - 1] != ' ')
		return false;
	for (w = p - 1; w > rs && text[w - 1] != ' '; w--)
		;
	return w < p - 1 && colon_prefix(text, rs, w);
}

/*
 * Check block @b against text[@rs, @re): where it starts is @at (or
 * unknown: (size_t)-1, then at @rs, after a device prefix when
 * @allow_prefix, or for a block without arguments the first place from
 * @rs on where it fits).  On success *@q is where the rendering ends, or
 * (size_t)-1 when that is not known (a cut or %pV block).
 */
static bool check_block(struct kd_expand *x, const struct block *b, const char *text,
			size_t rs, size_t re, size_t at, bool allow_prefix,
			enum end_mode mode, size_t *q)
{
	const struct kd_site *s = b->site;
	unsigned int nconv;
	bool ok;
	long n;
	size_t p, flen;

	for (unsigned int i = 0; i < b->nspans; i++)
		if (b->s[i] < rs || b->e[i] > re)
			return false;
	*q = (size_t)-1;
	if (!s->fmt_len)
		return b->nspans == 0;	/* nothing to render: the site alone */
	flen = s->fmt_len;
	if (kd_kfmt_parse(s->fmt, flen, &x->f) < 0 &&
	    (mode != END_CUT || !(flen = cut_prefix(s->fmt, flen, (unsigned long)b->args_cut)) ||
	     kd_kfmt_parse(s->fmt, flen, &x->f) < 0 || x->f.nconv != (unsigned long)b->args_cut))
		return false;
	if (x->f.lit_len > RENDER_MAX)
		return false;
	kd_kfmt_literals(s->fmt, flen, &x->f, x->lit, x->ends);
	if (x->f.has_pv) {
		/* The arguments are another format's: the literal before %pV only. */
		size_t l0 = x->ends[0];

		for (unsigned int i = 1; i < b->nspans; i++)
			if (b->s[i] < b->e[i - 1])
				return false;
		if (at != (size_t)-1)
			return at <= re && l0 <= re - at && !memcmp(text + at, x->lit, l0);
		for (p = rs; p + l0 <= re; p++)
			if ((p == rs || (allow_prefix && device_prefix(text, rs, p))) &&
			    !memcmp(text + p, x->lit, l0))
				return true;
		return false;
	}
	nconv = x->f.nconv;
	if (mode == END_CUT) {
		if (b->args_cut >= 0 && (unsigned long)b->args_cut < nconv)
			nconv = (unsigned int)b->args_cut;
		if (b->nspans > x->f.nconv)
			return false;
	} else if (b->nspans != nconv) {
		return false;
	}
	if (b->nspans < nconv)
		return false;	/* an ARGS_CUT beyond the spans given */
	if ((n = render(x, b, text, nconv)) < 0)
		return false;
	ok = false;
	if (b->nspans) {
		/* The spans fix where the rendering starts. */
		size_t l0 = x->ends[0];

		p = b->s[0] - l0;
		/* Each span where the rendering has its argument, not the same bytes elsewhere. */
		for (unsigned int k = 1; k < nconv && k < b->nspans; k++)
			if (b->s[k] != p + x->off[k])
				return false;
		ok = b->s[0] >= rs + l0 &&
		     (at != (size_t)-1 ? p == at :
		      p == rs || (allow_prefix && device_prefix(text, rs, p))) &&
		     matches_at(x, text, p, re, (size_t)n, mode, q);
	} else if (at != (size_t)-1) {
		ok = matches_at(x, text, at, re, (size_t)n, mode, q);
	} else if (!allow_prefix) {
		/* A part after one of unknown length: the first place it fits. */
		for (p = rs; !ok && p <= re; p++)
			ok = matches_at(x, text, p, re, (size_t)n, mode, q);
	} else if (matches_at(x, text, rs, re, (size_t)n, mode, q)) {
		ok = true;
	} else if (mode == END_EXACT) {
		ok = (size_t)n <= re - rs && device_prefix(text, rs, re - (size_t)n) &&
		     matches_at(x, text, re - (size_t)n, re, (size_t)n, mode, q);
	} else {
		for (p = rs + 2; !ok && p <= re; p++)
			ok = device_prefix(text, rs, p) &&
			     matches_at(x, text, p, re, (size_t)n, mode, q);
	}
	/* A cut rendering's end is not known. */
	if (ok && mode == END_CUT)
		*q = (size_t)-1;
	return ok;
}

static enum end_mode block_mode(const struct block *b, bool last)
{
	if (b->args_cut >= 0)
		return END_CUT;
	return b->format_part || !last ? END_BEFORE : END_EXACT;
}

/* Line @k (from 1) of the text: [*@rs, *@re). */
static bool line_region(const char *text, size_t len, unsigned long k, size_t *rs, size_t *re)
{
	size_t p = 0;

	for (unsigned long i = 1; i < k; i++) {
		const char *nl = memchr(text + p, '\n', len - p);

		if (!nl)
			return false;
		p = (size_t)(nl - text) + 1;
	}
	*rs = p;
	{
		const char *nl = memchr(text + p, '\n', len - p);

		*re = nl ? (size_t)(nl - text) : len;
	}
	return true;
}

/* The record's first block and its pr_cont() parts, one after the other. */
static bool check_chain(struct kd_expand *x, const struct kd_record *rec, unsigned long parts)
{
	struct block *main = find_block(x, B_MAIN, 0);
	size_t pos = (size_t)-1, low = 0, q;
	unsigned int seen = main ? 1 : 0;

	if (main) {
		if (!check_block(x, main, rec->text, 0, rec->text_len, (size_t)-1, true,
				 block_mode(main, parts < 2), &q))
			return false;
		pos = q;
		if (main->nspans)
			low = main->e[main->nspans - 1];
	}
	for (unsigned long k = 2; k <= parts; k++) {
		struct block *b = find_block(x, B_PART, k);

		if (!b) {
			pos = (size_t)-1;	/* a fragment without a site */
			continue;
		}
		seen++;
		if (!check_block(x, b, rec->text, pos != (size_t)-1 ? pos : low, rec->text_len,
				 pos, false, block_mode(b, k == parts), &q))
			return false;
		pos = q;
		if (q != (size_t)-1)
			low = q;
		else if (b->nspans)
			low = b->e[b->nspans - 1];
	}
	/* Every PART<k>_ block must be one of the PARTS. */
	for (unsigned int i = 0; i < x->nb; i++)
		if (x->b[i].kind != B_LINE)
			seen--;
	return seen == 0;
}

/*
 * Gather the record's blocks; false when a key is not one to expand.
 * Two passes: the SITE entries make the blocks, then what goes with
 * them, in any order (the journal keeps fields in its own).
 */
static bool gather(struct kd_expand *x, const struct kd_record *rec, unsigned long *parts)
{
	x->nb = 0;
	*parts = 0;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < rec->dict_len; i++) {
			const struct kd_dict_entry *d = &rec->dict[i];
			enum block_kind kind;
			unsigned long k, v;
			size_t pl = block_prefix(d->key, &kind, &k);
			const char *base = pl == (size_t)-1 ? "" : d->key + pl;
			struct block *b;

			if (pass == 0) {
				if (pl == 0 && strcmp(base, "PARTS") == 0 &&
				    !small_number(d->value, d->value_len, parts))
					return false;
				if (strcmp(base, "SITE"))
					continue;
				if (x->nb == KD_DICT_MAX || find_block(x, kind, k) || pl >= PFX_MAX)
					return false;
				b = &x->b[x->nb++];
				*b = (struct block){ .kind = kind, .k = k, .site_entry = i,
						     .args_cut = -1, .pfx_len = pl };
				memcpy(b->pfx, d->key, pl);
				if (!site_value(b, d->value, d->value_len, rec->text_len))
					return false;
				continue;
			}
			if (strcmp(base, "FORMAT_PART") && strcmp(base, "ARGS_CUT"))
				continue;
			if (!(b = find_block(x, kind, k)))
				continue;	/* a block kept in full form */
			if (base[0] == 'F') {
				b->format_part = true;
			} else {
				if (!small_number(d->value, d->value_len, &v))
					return false;
				b->args_cut = (long)v;
			}
		}
	return true;
}

/* Append an entry; the caller checked the count. */
static int put(struct kd_record *rec, const char *pfx, size_t pl, const char *key,
	       const char *value, size_t len)
{
	char k[PFX_MAX + 16];
	size_t kl = strlen(key);

	memcpy(k, pfx, pl);
	memcpy(k + pl, key, kl + 1);
	return kd_record_dict_add(rec, k, pl + kl, value, len);
}

static int put_block(struct kd_record *rec, const struct block *b)
{
	const struct kd_site *s = b->site;
	char argkey[16];
	int rc = 0;

	if (b->kind != B_PART) {
		rc = put(rec, b->pfx, b->pfx_len, KD_KEY_CODE_FILE, s->file, strlen(s->file));
		if (!rc)
			rc = put(rec, b->pfx, b->pfx_len, KD_KEY_CODE_LINE, s->line, strlen(s->line));
		if (!rc && s->func)
			rc = put(rec, b->pfx, b->pfx_len, KD_KEY_CODE_FUNC, s->func, strlen(s->func));
		if (!rc && s->module)
			rc = put(rec, b->pfx, b->pfx_len, KD_KEY_MODULE, s->module, strlen(s->module));
	}
	if (!rc && s->fmt_len)
		rc = put(rec, b->pfx, b->pfx_len, KD_KEY_FORMAT, s->fmt, s->fmt_len);
	for (unsigned int i = 0; !rc && i < b->nspans; i++) {
		snprintf(argkey, sizeof(argkey), "ARG%u", i);
		rc = put(rec, b->pfx, b->pfx_len, argkey, rec->text + b->s[i], b->e[i] - b->s[i]);
	}
	return rc;
}

/* The entries of the full form: each block's lines instead of its SITE. */
static size_t full_count(const struct kd_expand *x, const struct kd_record *rec)
{
	size_t n = rec->dict_len;

	for (unsigned int i = 0; i < x->nb; i++) {
		const struct block *b = &x->b[i];

		n += (b->kind != B_PART ? 3 + (b->site->module != NULL) : 0) +
		     (b->site->fmt_len != 0) + b->nspans - 1;
	}
	return n;
}

/* Rebuild the dictionary: kept entries copied aside first, as they may live in it. */
static int rebuild(struct kd_expand *x, struct kd_record *rec)
{
	size_t need = 0, at = 0, n = rec->dict_len;
	unsigned char origin[KD_DICT_MAX];
	size_t klen[KD_DICT_MAX], vlen[KD_DICT_MAX];
	int rc;

	for (size_t i = 0; i < n; i++)
		need += strlen(rec->dict[i].key) + 1 + rec->dict[i].value_len + 1;
	if (need > x->scratch_cap) {
		char *s = realloc(x->scratch, need);

		if (!s)
			return -ENOMEM;
		x->scratch = s;
		x->scratch_cap = need;
	}
	for (size_t i = 0; i < n; i++) {
		const struct kd_dict_entry *d = &rec->dict[i];

		klen[i] = strlen(d->key);
		vlen[i] = d->value_len;
		origin[i] = d->origin;
		memcpy(x->scratch + at, d->key, klen[i] + 1);
		at += klen[i] + 1;
		memcpy(x->scratch + at, d->value, vlen[i]);
		x->scratch[at + vlen[i]] = '\0';
		at += vlen[i] + 1;
	}
	rec->dict_len = 0;
	at = 0;
	for (size_t i = 0; i < n; i++) {
		const char *key = x->scratch + at, *value = key + klen[i] + 1;
		bool done = false;

		at += klen[i] + 1 + vlen[i] + 1;
		for (unsigned int j = 0; j < x->nb && !done; j++) {
			if (x->b[j].site_entry == i) {
				if ((rc = put_block(rec, &x->b[j])) < 0)
					return rc;
				done = true;
			}
		}
		if (done)
			continue;
		if ((rc = kd_record_dict_add(rec, key, klen[i], value, vlen[i])) < 0)
			return rc;
		rec->dict[rec->dict_len - 1].origin = origin[i];
	}
	return 0;
}

/* Whether @rec has a SITE key of any block. */
static bool has_site(const struct kd_record *rec)
{
	for (size_t i = 0; i < rec->dict_len; i++) {
		const char *k = rec->dict[i].key;
		size_t n = strlen(k);

		if (n >= 4 && memcmp(k + n - 4, "SITE", 4) == 0 && (n == 4 || k[n - 5] == '_'))
			return true;
	}
	return false;
}

int kd_expand_apply(void *data, struct kd_record *rec)
{
	struct kd_expand *x = data;
	const struct kd_sites *t;
	unsigned long parts;
	bool ok = true;

	if (!rec->dict_len || !has_site(rec))
		return 1;
	if (rec->dict_len > KD_DICT_MAX) {
		x->st.records++;
		x->st.too_big++;
		return 1;
	}
	ok = gather(x, rec, &parts);
	if (ok && !x->nb)
		return 1;	/* a key like FOO_SITE: no block */
	x->st.records++;
	if (!(t = x->table(x->data, rec))) {
		x->st.no_table++;
		return 1;
	}
	if (!ok) {
		x->st.inconsistent++;
		return 1;
	}
	for (unsigned int i = 0, retried = 0; i < x->nb; i++) {
		const struct kd_dict_entry *d = &rec->dict[x->b[i].site_entry];
		const struct kd_sites *newer;

		if ((x->b[i].site = lookup(t, d->value, x->b[i].ref_len)))
			continue;
		/* A module loaded since the table was read: a newer table, once. */
		if (!retried++ && x->refresh && (newer = x->refresh(x->data, rec)) && newer != t) {
			t = newer;
			i = (unsigned int)-1;	/* every block again, in the newer table */
			continue;
		}
		x->st.unresolved++;
		return 1;
	}
	for (unsigned int i = 0; ok && i < x->nb; i++) {
		struct block *b = &x->b[i];
		size_t rs, re, q;

		if (b->kind != B_LINE)
			continue;
		ok = line_region(rec->text, rec->text_len, b->k, &rs, &re) &&
		     check_block(x, b, rec->text, rs, re, (size_t)-1, true,
				 block_mode(b, true), &q);
	}
	if (!ok || !check_chain(x, rec, parts)) {
		x->st.inconsistent++;
		return 1;
	}
	if (full_count(x, rec) > KD_DICT_MAX) {
		x->st.too_big++;
		return 1;
	}
	if (rebuild(x, rec) < 0)
		return -ENOMEM;
	x->st.expanded++;
	return 1;
}
