// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * translate.c - the translation of one record: catalogue lookup, the
 * verdict on the translation (worked out once per catalogue entry and
 * kept), the prefix, the rendering.  See translate.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "charset.h"
#include "mo.h"
#include "translate.h"

/*
 * The literal parts of a format (kd_kfmt_literals()), so that each record
 * costs a few memcmp() and memcpy() calls, not a new read of the format.
 */
struct lits {
	char *buf;
	unsigned int ends[KD_KFMT_MAX_CONV + 1];
};

/* A catalogue entry as used: its msgstr in the output charset, both formats parsed. */
struct entry {
	unsigned char verdict;		/* enum kd_kfmt_reason */
	char *msgstr;
	size_t msgstr_len;
	struct kd_kfmt orig, tr;
	unsigned char map[KD_KFMT_MAX_CONV];
	struct lits orig_lits, tr_lits;	/* when the verdict is KD_KFMT_TRUSTED */
	char *fmt;			/* the FORMAT (msgid), for the memo */
	size_t fmt_len;
};

/*
 * Recent (FORMAT, MODULE) pairs and their entry, by a hash of FORMAT: a
 * log repeats a few hundred formats, and a hit costs one comparison
 * instead of a search through every catalogue with and without context.
 */
#define MEMO_SLOTS	512
struct memo {
	const struct entry *e;	/* NULL: empty */
	char module[40];	/* "" for none */
};

struct kd_translate {
	const struct kd_catalog *cat;
	struct kd_charset *cs;
	struct entry **cache;		/* by catalogue id, NULL until first used */
	unsigned int ncache;
	struct kd_translate_stats st;
	struct memo memo[MEMO_SLOTS];
	bool keep_text;
	struct kd_karg args[KD_KFMT_MAX_CONV];
	char work[KD_TRANSLATE_MAX];
	char out[KD_TRANSLATE_MAX];
};

int kd_translate_new(struct kd_translate **tp, const struct kd_catalog *cat,
		     const char *tocode)
{
	struct kd_translate *t = calloc(1, sizeof(*t));
	int rc;

	if (!t)
		return -ENOMEM;
	t->cat = cat;
	t->ncache = kd_catalog_entries(cat);
	t->cache = calloc(t->ncache ? t->ncache : 1, sizeof(*t->cache));
	if (!t->cache) {
		free(t);
		return -ENOMEM;
	}
	rc = kd_charset_new(&t->cs, tocode);
	if (rc < 0) {
		kd_translate_free(t);
		return rc;
	}
	*tp = t;
	return 0;
}

static void free_entry(struct entry *e)
{
	if (!e)
		return;
	free(e->msgstr);
	free(e->fmt);
	free(e->orig_lits.buf);
	free(e->tr_lits.buf);
	free(e);
}

void kd_translate_free(struct kd_translate *t)
{
	if (!t)
		return;
	for (unsigned int i = 0; i < t->ncache; i++)
		free_entry(t->cache[i]);
	free(t->cache);
	kd_charset_free(t->cs);
	free(t);
}

const struct kd_translate_stats *kd_translate_stats(const struct kd_translate *t)
{
	return &t->st;
}

/* What a record's text and ARGn count say before any comparison. */
static enum kd_kfmt_reason check_args(const struct kd_kfmt *f, size_t text_len,
				      unsigned int nargs)
{
	if (f->has_pv)
		return KD_KFMT_PV;
	if (f->has_n)
		return KD_KFMT_PERCENT_N;
	if (f->nconv > 0 && nargs == 0)
		return KD_KFMT_CONTINUATION;
	if (text_len >= KD_TRANSLATE_TEXT_LIMIT || nargs < f->nconv)
		return KD_KFMT_CUT;
	if (nargs > f->nconv)
		return KD_KFMT_COUNT;
	return KD_KFMT_TRUSTED;
}

enum kd_kfmt_reason kd_translate_prefix(const char *text, size_t text_len,
					const char *fmt, size_t fmt_len,
					const struct kd_kfmt *f,
					const struct kd_karg *args, unsigned int nargs,
					char *work, size_t cap, size_t *prefix_len)
{
	enum kd_kfmt_reason why = check_args(f, text_len, nargs);
	ssize_t r;

	if (why != KD_KFMT_TRUSTED)
		return why;
	/* The common case without writing anything: the rendering ends the text. */
	if (kd_kfmt_match_tail(fmt, fmt_len, f, args, nargs, text, text_len, prefix_len))
		return KD_KFMT_TRUSTED;
	r = kd_kfmt_render(fmt, fmt_len, f, NULL, args, nargs, work, cap);
	if (r < 0)
		return KD_KFMT_TOO_LONG;
	if ((size_t)r <= text_len &&
	    memcmp(text + text_len - (size_t)r, work, (size_t)r) == 0) {
		*prefix_len = text_len - (size_t)r;
		return KD_KFMT_TRUSTED;
	}
	if (r > 0 && memmem(text, text_len, work, (size_t)r))
		return KD_KFMT_CONTINUATION;	/* pr_cont() fragments follow it */
	return KD_KFMT_MISMATCH;
}

static int lits_new(struct lits *l, const char *fmt, size_t len, const struct kd_kfmt *f)
{
	l->buf = malloc(f->lit_len + 1);
	if (!l->buf)
		return -ENOMEM;
	kd_kfmt_literals(fmt, len, f, l->buf, l->ends);
	return 0;
}

/*
 * kd_kfmt_match_tail() with the parts of @l: whether the original format
 * rendered with @args ends @text; then *@start is where it begins.
 */
static bool lits_match_tail(const struct lits *l, const struct kd_kfmt *f,
			    const struct kd_karg *args, const char *text, size_t text_len,
			    size_t *start)
{
	size_t total = f->lit_len, at, prev = 0;

	for (unsigned int k = 0; k < f->nconv; k++)
		total += args[k].len;
	if (total > text_len)
		return false;
	at = text_len - total;
	*start = at;
	for (unsigned int k = 0; k < f->nconv; k++) {
		size_t n = l->ends[k] - prev;

		if (memcmp(text + at, l->buf + prev, n) != 0 ||
		    memcmp(text + at + n, args[k].s, args[k].len) != 0)
			return false;
		at += n + args[k].len;
		prev = l->ends[k];
	}
	return memcmp(text + at, l->buf + prev, l->ends[f->nconv] - prev) == 0;
}

/* kd_kfmt_render() of the translation with the parts of @l and the map of @e. */
static ssize_t lits_render(const struct lits *l, const struct entry *e,
			   const struct kd_karg *args, char *out, size_t cap)
{
	const struct kd_kfmt *f = &e->tr;
	size_t total = f->lit_len, at = 0, prev = 0;

	for (unsigned int k = 0; k < f->nconv; k++)
		total += args[e->map[k]].len;
	if (total > cap)
		return -E2BIG;
	for (unsigned int k = 0; k <= f->nconv; k++) {
		memcpy(out + at, l->buf + prev, l->ends[k] - prev);
		at += l->ends[k] - prev;
		prev = l->ends[k];
		if (k < f->nconv) {
			memcpy(out + at, args[e->map[k]].s, args[e->map[k]].len);
			at += args[e->map[k]].len;
		}
	}
	return (ssize_t)at;
}

/* The verdict on a catalogue entry, worked out on its first use. */
static struct entry *prepare(struct kd_translate *t, unsigned int id,
			     const char *fmt, size_t fmt_len,
			     const char *msgstr, size_t msgstr_len)
{
	struct entry *e;
	int rc;

	if (id < t->ncache && t->cache[id])
		return t->cache[id];
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	if (kd_charset_convert(t->cs, msgstr, msgstr_len, &e->msgstr, &e->msgstr_len) < 0) {
		free(e);
		return NULL;
	}
	if (kd_kfmt_parse(fmt, fmt_len, &e->orig) < 0) {
		e->verdict = KD_KFMT_CONVERSION;
	} else if ((rc = kd_kfmt_parse(e->msgstr, e->msgstr_len, &e->tr)) < 0) {
		e->verdict = rc == -ERANGE ? KD_KFMT_POSITION : KD_KFMT_CONVERSION;
	} else {
		e->verdict = kd_kfmt_compare(fmt, &e->orig, e->msgstr, &e->tr, e->map);
	}
	e->fmt = malloc(fmt_len);	/* without it, no memo */
	if (e->fmt) {
		memcpy(e->fmt, fmt, fmt_len);
		e->fmt_len = fmt_len;
	}
	/* Without memory for the parts, records take the slower path. */
	if (e->verdict == KD_KFMT_TRUSTED && lits_new(&e->orig_lits, fmt, fmt_len, &e->orig) == 0)
		lits_new(&e->tr_lits, e->msgstr, e->msgstr_len, &e->tr);
	if (id < t->ncache)
		t->cache[id] = e;
	return e;
}

/*
 * FORMAT, MODULE and ARG0... of @rec; returns the number of arguments
 * (ARG0 up to the first one missing).
 */
static unsigned int collect(struct kd_translate *t, const struct kd_record *rec,
			    const struct kd_dict_entry **format,
			    const struct kd_dict_entry **module)
{
	uint64_t seen = 0;

	*format = *module = NULL;
	for (size_t i = 0; i < rec->dict_len; i++) {
		const struct kd_dict_entry *d = &rec->dict[i];
		const char *k = d->key;

		if (k[0] == 'A' && k[1] == 'R' && k[2] == 'G' && k[3] >= '0' && k[3] <= '9') {
			unsigned int n = 0;

			if (k[3] == '0' && k[4])
				continue;	/* ARG01 is no ARGn */
			for (k += 3; *k >= '0' && *k <= '9' && n < KD_KFMT_MAX_CONV; k++)
				n = n * 10 + (unsigned int)(*k - '0');
			if (*k || n >= KD_KFMT_MAX_CONV || (seen & (1ull << n)))
				continue;
			seen |= 1ull << n;
			t->args[n].s = d->value;
			t->args[n].len = d->value_len;
		} else if (k[0] == 'F' && !*format && strcmp(k, "FORMAT") == 0) {
			*format = d;
		} else if (k[0] == 'M' && !*module && strcmp(k, "MODULE") == 0) {
			*module = d;
		}
	}
	return (unsigned int)__builtin_ctzll(~seen);
}

int kd_translate_record(struct kd_translate *t, const struct kd_record *rec,
			const char **text, size_t *len)
{
	const struct kd_dict_entry *format, *module;
	const char *msgstr, *mod;
	size_t msgstr_len, prefix = 0;
	struct memo *m;
	unsigned int nargs, id = 0;
	struct entry *e;
	int reason;
	ssize_t r;

	if (!rec->dict_len)
		return KD_TRANSLATE_NONE;
	nargs = collect(t, rec, &format, &module);
	if (!format || !format->value_len)
		return KD_TRANSLATE_NONE;
	t->st.records++;
	mod = module ? module->value : "";
	m = &t->memo[kd_mo_hash(format->value, format->value_len) & (MEMO_SLOTS - 1)];
	if (m->e && m->e->fmt_len == format->value_len &&
	    memcmp(m->e->fmt, format->value, format->value_len) == 0 &&
	    strcmp(m->module, mod) == 0) {
		e = (struct entry *)m->e;
		id = 0;	/* memo entries are in the cache */
	} else {
		msgstr = kd_catalog_lookup(t->cat, module ? module->value : NULL, format->value,
					   format->value_len, &msgstr_len, &id);
		if (!msgstr) {
			t->st.missing++;
			return KD_TRANSLATE_NONE;
		}
		e = prepare(t, id, format->value, format->value_len, msgstr, msgstr_len);
		if (!e) {
			t->st.missing++;	/* out of memory: show the original */
			return KD_TRANSLATE_NONE;
		}
		if (id < t->ncache && e->fmt && strlen(mod) < sizeof(m->module)) {
			m->e = e;
			strcpy(m->module, mod);
		}
	}
	reason = e->verdict;
	if (reason == KD_KFMT_TRUSTED)
		reason = check_args(&e->orig, rec->text_len, nargs);
	/* The rendering of FORMAT ends the text (else find out why not). */
	if (reason == KD_KFMT_TRUSTED &&
	    !(e->tr_lits.buf && lits_match_tail(&e->orig_lits, &e->orig, t->args, rec->text,
						rec->text_len, &prefix)))
		reason = kd_translate_prefix(rec->text, rec->text_len, format->value,
					     format->value_len, &e->orig, t->args, nargs,
					     t->work, sizeof(t->work), &prefix);
	if (reason == KD_KFMT_TRUSTED) {
		memcpy(t->out, rec->text, prefix);
		r = e->tr_lits.buf ?
		    lits_render(&e->tr_lits, e, t->args, t->out + prefix, sizeof(t->out) - prefix) :
		    kd_kfmt_render(e->msgstr, e->msgstr_len, &e->tr, e->map, t->args,
				   nargs, t->out + prefix, sizeof(t->out) - prefix);
		if (r < 0)
			reason = KD_KFMT_TOO_LONG;
		else
			*len = prefix + (size_t)r;
	}
	if (id >= t->ncache)
		free_entry(e);
	if (reason != KD_KFMT_TRUSTED) {
		t->st.untrusted[reason]++;
		return reason;
	}
	t->st.translated++;
	*text = t->out;
	return KD_KFMT_TRUSTED;
}

void kd_translate_set_keep_text(struct kd_translate *t, bool keep)
{
	t->keep_text = keep;
}

int kd_translate_apply(void *data, struct kd_record *rec)
{
	struct kd_translate *t = data;
	const char *text;
	size_t len;
	int rc;

	if (kd_translate_record(t, rec, &text, &len) != KD_KFMT_TRUSTED)
		return 1;
	if (t->keep_text) {
		rc = kd_record_dict_add(rec, KD_TRANSLATE_KEY, sizeof(KD_TRANSLATE_KEY) - 1,
					text, len);
		if (rc == -E2BIG)
			return 1;	/* a full dictionary: the original alone */
		if (rc < 0)
			return rc;
		rec->dict[rec->dict_len - 1].origin = KD_ORIGIN_TRANSLATED;
		return 1;
	}
	rc = kd_record_set_text(rec, text, len);
	if (rc < 0)
		return rc;
	rec->text_origin = KD_ORIGIN_TRANSLATED;
	return 1;
}
