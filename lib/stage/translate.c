// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * translate.c - the translation of one record: catalogue lookup, the
 * verdict on the translation (worked out once per catalogue entry and
 * kept), the prefix, the rendering.  See translate.h.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "record/field.h"
#include "stage/charset.h"
#include "shared/escape.h"
#include "shared/hash.h"
#include "record/group.h"
#include "stage/mo.h"
#include "stage/translate.h"

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
	/*
	 * Each literal part of @tr_lits is copied unchanged by the text
	 * writer's escaping in this locale and holds no newline: rendered
	 * with the arguments of a record whose text a reader proved plain,
	 * the translation is as plain for the writer (text_plain).
	 */
	bool tr_clean;
	char *fmt;			/* the FORMAT (msgid), for the memo */
	size_t fmt_len;
};

/*
 * Recent (FORMAT, MODULE) pairs and their entry, by a hash of FORMAT: a
 * log repeats a few hundred formats, and a hit costs one comparison
 * instead of a search through every catalogue with and without context.
 * Formats no catalogue has are kept too (@miss), each slot with its own
 * copy of the format, so that memory stays bounded by the slots.
 */
#define MEMO_SETS	256
#define MEMO_WAYS	2	/* two formats of one set take turns without a search */
#define MEMO_SLOTS	(MEMO_SETS * MEMO_WAYS)
struct memo {
	const struct entry *e;	/* NULL: empty, or a miss */
	bool miss;		/* no catalogue has (@fmt, @module) */
	char *fmt;		/* a miss's FORMAT, @fmt_len bytes of @fmt_cap */
	size_t fmt_len, fmt_cap;
	char module[40];	/* "" for none */
	unsigned char module_len;
	unsigned char next;	/* first slot of a set: the way to replace next */
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
	bool clean;			/* the last translation is plain (struct entry) */
	struct kd_kfmt pvf;		/* a wrapper's FORMAT, then PV_FORMAT (translate_pv()) */
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
	for (unsigned int i = 0; i < MEMO_SLOTS; i++)
		free(t->memo[i].fmt);
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

/*
 * memcmp() == 0 and memcpy() for the short pieces of a format and its
 * arguments (most are under 16 bytes): overlapping word moves instead of
 * a call per piece, which was a quarter of the translation stage.
 */
#define LOAD(t, p) ({ t v_; memcpy(&v_, (p), sizeof(v_)); v_; })
static inline bool same_bytes(const char *a, const char *b, size_t n)
{
	if (n >= 8 && n <= 16)
		return LOAD(uint64_t, a) == LOAD(uint64_t, b) &&
		       LOAD(uint64_t, a + n - 8) == LOAD(uint64_t, b + n - 8);
	if (n >= 4 && n < 8)
		return LOAD(uint32_t, a) == LOAD(uint32_t, b) &&
		       LOAD(uint32_t, a + n - 4) == LOAD(uint32_t, b + n - 4);
	if (n < 4)
		return n == 0 || (a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1]);
	return memcmp(a, b, n) == 0;
}

static inline void copy_bytes(char *dst, const char *src, size_t n)
{
	if (n >= 8 && n <= 16) {
		uint64_t x = LOAD(uint64_t, src), y = LOAD(uint64_t, src + n - 8);

		memcpy(dst, &x, 8);
		memcpy(dst + n - 8, &y, 8);
	} else if (n >= 4 && n < 8) {
		uint32_t x = LOAD(uint32_t, src), y = LOAD(uint32_t, src + n - 4);

		memcpy(dst, &x, 4);
		memcpy(dst + n - 4, &y, 4);
	} else if (n < 4) {
		if (n) {
			dst[0] = src[0];
			dst[n / 2] = src[n / 2];
			dst[n - 1] = src[n - 1];
		}
	} else {
		memcpy(dst, src, n);
	}
}
#undef LOAD

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

		if (!same_bytes(text + at, l->buf + prev, n) ||
		    !same_bytes(text + at + n, args[k].s, args[k].len))
			return false;
		at += n + args[k].len;
		prev = l->ends[k];
	}
	return same_bytes(text + at, l->buf + prev, l->ends[f->nconv] - prev);
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
		copy_bytes(out + at, l->buf + prev, l->ends[k] - prev);
		at += l->ends[k] - prev;
		prev = l->ends[k];
		if (k < f->nconv) {
			copy_bytes(out + at, args[e->map[k]].s, args[e->map[k]].len);
			at += args[e->map[k]].len;
		}
	}
	return (ssize_t)at;
}

/* Whether kd_escape_append() copies @s unchanged and it has no newline. */
static bool clean_part(const char *s, size_t n)
{
	struct kd_escape_buf b = { 0 };
	bool ok;

	/* An empty part (two conversions in a row) is clean; b.data is NULL. */
	if (n == 0)
		return true;
	if (memchr(s, '\n', n))
		return false;
	kd_escape_append(&b, s, n, 0, false);
	ok = !b.failed && b.len == n && memcmp(b.data, s, n) == 0;
	free(b.data);
	return ok;
}

/* tr_clean of struct entry: every part alone (a character split by a conversion is not clean). */
static bool clean_lits(const struct lits *l, const struct kd_kfmt *f)
{
	unsigned int prev = 0;

	for (unsigned int k = 0; k <= f->nconv; k++) {
		if (!clean_part(l->buf + prev, l->ends[k] - prev))
			return false;
		prev = l->ends[k];
	}
	return true;
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
	if (e->verdict == KD_KFMT_TRUSTED && lits_new(&e->orig_lits, fmt, fmt_len, &e->orig) == 0 &&
	    lits_new(&e->tr_lits, e->msgstr, e->msgstr_len, &e->tr) == 0)
		e->tr_clean = clean_lits(&e->tr_lits, &e->tr);
	if (id < t->ncache)
		t->cache[id] = e;
	return e;
}

/* What one message (a record, or a line of a group) is translated with. */
struct msg {
	const struct kd_dict_entry *format, *module;
	const struct kd_dict_entry *pv;	/* PV_FORMAT */
	uint64_t seen;		/* bit n: ARGn is in t->args */
	bool part;		/* FORMAT_PART=1: FORMAT renders only the start */
	bool cut;		/* ARGS_CUT=<n>: an argument is cut or missing */
};

/*
 * Take @d, whose key without its LINE<k>_ prefix is @k, if it is FORMAT,
 * MODULE or ARGn (the first of each), and note FORMAT_PART and ARGS_CUT.
 * Inline: once per dictionary line of every record, where a call was 5% of
 * a translated run.
 */
static inline __attribute__((always_inline)) void take(struct kd_translate *t, struct msg *m, const char *k,
		 const struct kd_dict_entry *d)
{
	if (k[0] == 'A' && k[1] == 'R' && k[2] == 'G' && k[3] >= '0' && k[3] <= '9') {
		unsigned int n = 0;

		if (k[3] == '0' && k[4])
			return;	/* ARG01 is no ARGn */
		for (k += 3; *k >= '0' && *k <= '9' && n < KD_KFMT_MAX_CONV; k++)
			n = n * 10 + (unsigned int)(*k - '0');
		if (*k || n >= KD_KFMT_MAX_CONV || (m->seen & (1ull << n)))
			return;
		m->seen |= 1ull << n;
		t->args[n].s = d->value;
		t->args[n].len = d->value_len;
	} else if (k[0] == 'F' && k[1] == 'O' && k[2] == 'R' && k[3] == 'M' && k[4] == 'A' &&
		   k[5] == 'T') {
		/* byte by byte: each test stops at the key's NUL (a call was 1.7%) */
		if (!k[6] && !m->format)
			m->format = d;
		else if (k[6] == '_' && strcmp(k + 7, "PART") == 0)
			m->part = true;
	} else if (k[0] == 'A' && strcmp(k, "ARGS_CUT") == 0) {
		m->cut = true;
	} else if (k[0] == 'P' && k[1] == 'V' && strcmp(k, KD_KEY_PV_FORMAT) == 0 && !m->pv) {
		m->pv = d;
	} else if (k[0] == 'M' && k[1] == 'O' && k[2] == 'D' && k[3] == 'U' && k[4] == 'L' &&
		   k[5] == 'E' && !k[6] && !m->module) {
		m->module = d;
	}
}

/*
 * The memo set of a FORMAT: kd_hash_ends(), not every byte
 * (kd_mo_hash() of every format was 3% of a translated run).
 */
static inline unsigned int memo_set(const char *s, size_t len)
{
	return kd_hash_ends(s, len) & (MEMO_SETS - 1);
}

/* Whether a memo slot can hold @mod (@mod_len bytes, no NUL among them). */
static bool memo_fits(const char *mod, size_t mod_len)
{
	return mod_len < sizeof(((struct memo *)0)->module) && strlen(mod) == mod_len;
}

/* Keep @mod in @m; false if it does not fit. */
static bool memo_module(struct memo *m, const char *mod, size_t mod_len)
{
	if (!memo_fits(mod, mod_len))
		return false;
	memcpy(m->module, mod, mod_len + 1);
	m->module_len = (unsigned char)mod_len;
	return true;
}

/* Remember in @m that no catalogue has (@fmt, @mod); nothing when out of memory. */
static void memo_miss(struct memo *m, const char *fmt, size_t len, const char *mod,
		      size_t mod_len)
{
	if (!memo_fits(mod, mod_len))
		return;
	if (len > m->fmt_cap) {
		char *p = realloc(m->fmt, len);

		if (!p)
			return;
		m->fmt = p;
		m->fmt_cap = len;
	}
	memcpy(m->fmt, fmt, len);
	m->fmt_len = len;
	m->e = NULL;
	m->miss = true;
	memo_module(m, mod, mod_len);
}

/* The number of arguments of @m: ARG0 up to the first one missing. */
static unsigned int nargs_of(const struct msg *m)
{
	return (unsigned int)__builtin_ctzll(~m->seen);
}

/*
 * Translate one message, @text (@text_len bytes; @at_limit: it may have
 * been cut at the kernel's limit), into @out (@cap bytes), as
 * kd_translate_record() does, counting the outcome.  Inline: the call
 * cost 1% of a translated run.
 */
static inline __attribute__((always_inline)) int
translate_msg(struct kd_translate *t, const struct msg *msg,
	      const char *text, size_t text_len, bool at_limit,
	      char *out, size_t cap, size_t *len)
{
	const struct kd_dict_entry *format = msg->format, *module = msg->module;
	const char *msgstr, *mod;
	size_t msgstr_len, prefix = 0, mod_len;
	struct memo *set, *m;
	unsigned int nargs = nargs_of(msg), id = 0;
	struct entry *e;
	int reason;
	ssize_t r;

	if (!format || !format->value_len)
		return KD_TRANSLATE_NONE;
	t->st.records++;
	mod = module ? module->value : "";
	mod_len = module ? module->value_len : 0;
	set = &t->memo[memo_set(format->value, format->value_len) * MEMO_WAYS];
	for (m = set; m < set + MEMO_WAYS; m++) {
		const char *f = m->miss ? m->fmt : m->e ? m->e->fmt : NULL;
		size_t n = m->miss ? m->fmt_len : m->e ? m->e->fmt_len : 0;

		if (f && n == format->value_len && memcmp(f, format->value, n) == 0 &&
		    m->module_len == mod_len && same_bytes(m->module, mod, mod_len))
			break;
	}
	if (m < set + MEMO_WAYS && m->miss) {
		t->st.missing++;
		return KD_TRANSLATE_NONE;
	}
	if (m < set + MEMO_WAYS) {
		e = (struct entry *)m->e;
		id = 0;	/* memo entries are in the cache */
	} else {
		m = &set[set->next];
		set->next = (unsigned char)((set->next + 1) % MEMO_WAYS);
		msgstr = kd_catalog_lookup(t->cat, module ? module->value : NULL, format->value,
					   format->value_len, &msgstr_len, &id);
		if (!msgstr) {
			memo_miss(m, format->value, format->value_len, mod, mod_len);
			t->st.missing++;
			return KD_TRANSLATE_NONE;
		}
		e = prepare(t, id, format->value, format->value_len, msgstr, msgstr_len);
		if (!e) {
			t->st.missing++;	/* out of memory: show the original */
			return KD_TRANSLATE_NONE;
		}
		if (id < t->ncache && e->fmt && memo_module(m, mod, mod_len)) {
			m->e = e;
			m->miss = false;
		}
	}
	reason = e->verdict;
	/*
	 * pr_cont() fragments follow what FORMAT renders (the kernel says
	 * so): its rendering may still end the text by chance.
	 */
	if (reason == KD_KFMT_TRUSTED && msg->part)
		reason = KD_KFMT_CONTINUATION;
	/* and an argument was cut with the text: its rendering still may */
	else if (reason == KD_KFMT_TRUSTED && msg->cut)
		reason = KD_KFMT_CUT;
	if (reason == KD_KFMT_TRUSTED)
		reason = check_args(&e->orig, at_limit ? KD_TRANSLATE_TEXT_LIMIT : text_len, nargs);
	/*
	 * The rendering of FORMAT ends the text (else find out why not).
	 * Matched so, the arguments are bytes of the text: as plain as it.
	 */
	t->clean = false;
	if (reason == KD_KFMT_TRUSTED && e->tr_lits.buf &&
	    lits_match_tail(&e->orig_lits, &e->orig, t->args, text, text_len, &prefix))
		t->clean = e->tr_clean;
	else if (reason == KD_KFMT_TRUSTED)
		reason = kd_translate_prefix(text, text_len, format->value,
					     format->value_len, &e->orig, t->args, nargs,
					     t->work, sizeof(t->work), &prefix);
	if (reason == KD_KFMT_TRUSTED && prefix > cap)
		reason = KD_KFMT_TOO_LONG;
	if (reason == KD_KFMT_TRUSTED) {
		memcpy(out, text, prefix);
		r = e->tr_lits.buf ?
		    lits_render(&e->tr_lits, e, t->args, out + prefix, cap - prefix) :
		    kd_kfmt_render(e->msgstr, e->msgstr_len, &e->tr, e->map, t->args,
				   nargs, out + prefix, cap - prefix);
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
	return KD_KFMT_TRUSTED;
}

/*
 * Translate the piece @p (@plen bytes) of a record's text with @m into
 * t->out at *@at, or copy it there when that fails; @rest bytes of the
 * original text follow it, so a piece copied as it is always fits.
 * Returns translate_msg()'s outcome.
 */
static int put_piece(struct kd_translate *t, const struct msg *m, const char *p,
		     size_t plen, bool at_limit, size_t *at, size_t rest)
{
	size_t n;
	int r = translate_msg(t, m, p, plen, at_limit, t->out + *at,
			      sizeof(t->out) - *at - rest, &n);

	if (r != KD_KFMT_TRUSTED) {
		n = plen;
		memcpy(t->out + *at, p, n);
	}
	*at += n;
	return r;
}

/*
 * A group stored as one record (GROUP=<count>, man/kprint.7): each line
 * translated with its own LINE<k>_FORMAT, _MODULE and _ARGn, prefix
 * included; a line that cannot be translated stays as it is.  The text
 * is taken when at least one line was translated.
 */
static int translate_group(struct kd_translate *t, const struct kd_record *rec,
			   const char **text, size_t *len)
{
	const char *p = rec->text, *end = rec->text + rec->text_len;
	struct kd_group g;
	size_t at = 0;
	bool any = false;

	if (rec->text_len > sizeof(t->out))
		return KD_TRANSLATE_NONE;	/* no reader makes one */
	kd_group_keys(&g, rec);
	for (unsigned long k = 1;; k++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t line_len = (size_t)((nl ? nl : end) - p);
		struct msg m = { 0 };

		for (size_t i = 0; k <= g.last && i < g.n; i++)
			if (g.keys[i].line == k)
				take(t, &m, g.keys[i].name, g.keys[i].entry);
		if (put_piece(t, &m, p, line_len, !nl && rec->text_len >= KD_TRANSLATE_TEXT_LIMIT,
			      &at, (size_t)(end - p - line_len)) == KD_KFMT_TRUSTED)
			any = true;
		if (!nl)
			break;
		t->out[at++] = '\n';
		p = nl + 1;
	}
	if (!any)
		return KD_TRANSLATE_NONE;
	*text = t->out;
	*len = at;
	return KD_KFMT_TRUSTED;
}

/* PARTS=<n> of @rec with n from 2 to what a dictionary can key, or 0. */
static unsigned long parts_of(const struct kd_record *rec)
{
	const struct kd_dict_entry *e = kd_record_dict_get(rec, KD_KEY_PARTS);
	unsigned long n = 0;

	if (!e || !e->value_len || e->value_len > 3)
		return 0;
	for (size_t i = 0; i < e->value_len; i++) {
		if (e->value[i] < '0' || e->value[i] > '9')
			return 0;
		n = n * 10 + (unsigned long)(e->value[i] - '0');
	}
	return n >= 2 && n <= KD_DICT_MAX ? n : 0;
}

/* Take the keys of part @k (1: the record's own FORMAT, MODULE, ARGn). */
static void take_part(struct kd_translate *t, struct msg *m, const struct kd_record *rec,
		      const struct kd_group *parts, unsigned long k)
{
	memset(m, 0, sizeof(*m));
	if (k == 1) {
		for (size_t i = 0; i < rec->dict_len; i++)
			take(t, m, rec->dict[i].key, &rec->dict[i]);
		m->part = false;	/* FORMAT_PART=1 is what the parts resolve */
		return;
	}
	for (size_t i = 0; i < parts->n; i++)
		if (parts->keys[i].line == k)
			take(t, m, parts->keys[i].name, parts->keys[i].entry);
	/* Later parts carry no MODULE: they continue the first part's line. */
	if (!m->module)
		m->module = kd_record_dict_get(rec, KD_KEY_MODULE);
}

/*
 * A record continued by pr_cont() whose parts the kernel kept (PARTS=<n>,
 * man/kprint.7): the text is a prefix, then each part's FORMAT rendered
 * with its ARGn.  First find where each part begins, from the last one
 * back; a part that does not render its piece of the text (no format, an
 * argument cut, another rendering) leaves the record as it is, counted by
 * that reason.  Then translate each piece alone: one the catalogues lack,
 * or whose translation cannot be trusted, stays as it is, as a group's
 * lines do.  The record counts once: translated when a piece was.
 */
static int translate_parts(struct kd_translate *t, const struct kd_record *rec,
			   unsigned long nparts, const char **text, size_t *len)
{
	struct kd_translate_stats before;
	size_t start[KD_DICT_MAX + 2], at = 0, end = rec->text_len;
	int reason = KD_KFMT_TRUSTED, r, first_bad = KD_TRANSLATE_NONE;
	struct kd_group parts;
	struct kd_kfmt f;
	struct msg m;
	bool any = false;

	if (rec->text_len > sizeof(t->out))
		return KD_TRANSLATE_NONE;	/* no reader makes one */
	kd_group_part_keys(&parts, rec);
	if (rec->text_len >= KD_TRANSLATE_TEXT_LIMIT)
		reason = KD_KFMT_CUT;
	for (unsigned long k = nparts; k >= 1 && reason == KD_KFMT_TRUSTED; k--) {
		take_part(t, &m, rec, &parts, k);
		if (!m.format)
			reason = KD_KFMT_CONTINUATION;	/* a fragment without a call site */
		else if (m.cut)
			reason = KD_KFMT_CUT;
		else if (kd_kfmt_parse(m.format->value, m.format->value_len, &f) < 0)
			reason = KD_KFMT_CONVERSION;
		else
			reason = kd_translate_prefix(rec->text, end, m.format->value,
						     m.format->value_len, &f, t->args,
						     nargs_of(&m), t->work, sizeof(t->work),
						     &start[k]);
		end = start[k];
	}
	if (reason != KD_KFMT_TRUSTED) {
		t->st.records++;
		t->st.untrusted[reason]++;
		return reason;
	}
	start[nparts + 1] = rec->text_len;
	start[1] = 0;	/* the prefix goes with the first part */
	before = t->st;	/* translate_msg() counts each piece */
	for (unsigned long k = 1; k <= nparts; k++) {
		take_part(t, &m, rec, &parts, k);
		r = put_piece(t, &m, rec->text + start[k], start[k + 1] - start[k], false, &at,
			      rec->text_len - start[k + 1]);
		if (r == KD_KFMT_TRUSTED)
			any = true;
		else if (first_bad == KD_TRANSLATE_NONE)
			first_bad = r;
	}
	t->st = before;
	t->st.records++;
	if (any) {
		t->st.translated++;
		*text = t->out;
		*len = at;
		return KD_KFMT_TRUSTED;
	}
	if (first_bad == KD_TRANSLATE_NONE) {
		t->st.missing++;
		return KD_TRANSLATE_NONE;
	}
	t->st.untrusted[first_bad]++;
	return first_bad;
}

/* Count a record that translate_msg() did not see as untrusted for @why. */
static int untrusted(struct kd_translate *t, enum kd_kfmt_reason why)
{
	t->st.records++;
	t->st.untrusted[why]++;
	return why;
}

/*
 * A wrapper's record that kept the format its %pV carried (PV_FORMAT,
 * man/kprint.7): the caller's message is PV_FORMAT with the ARGn that
 * follow those of FORMAT's conversions before the %pV.  Translate it as a
 * message of its own and keep the text the wrapper put around it, as the
 * prefix of a dev_*() message is kept: the text before the caller's
 * message is found by translate_msg(), the text after it must be the
 * rendering of what follows the %pV in FORMAT.
 */
static int translate_pv(struct kd_translate *t, const struct kd_record *rec,
			const struct msg *m, size_t *len)
{
	const char *fmt = m->format->value, *tail;
	size_t fmt_len = m->format->value_len, tail_len, sfx_at, sfx_len;
	unsigned int nargs = nargs_of(m), inner, k, rest;
	struct msg pm = *m;
	int pv, reason;

	if (kd_kfmt_parse(fmt, fmt_len, &t->pvf) < 0)
		return untrusted(t, KD_KFMT_CONVERSION);
	pv = kd_kfmt_first_pv(fmt, &t->pvf);
	if (pv < 0)
		return untrusted(t, KD_KFMT_MISMATCH);	/* PV_FORMAT without a %pV */
	k = (unsigned int)pv;
	tail = fmt + t->pvf.conv[k].end;
	tail_len = fmt_len - t->pvf.conv[k].end;
	rest = t->pvf.nconv - k - 1;
	if (kd_kfmt_parse(m->pv->value, m->pv->value_len, &t->pvf) < 0)
		return untrusted(t, KD_KFMT_CONVERSION);
	inner = t->pvf.nconv;
	if (nargs < k + inner + rest)
		return untrusted(t, nargs ? KD_KFMT_CUT : KD_KFMT_CONTINUATION);
	if (nargs > k + inner + rest)
		return untrusted(t, KD_KFMT_COUNT);
	/* what follows the %pV, rendered with the last ARGn: the text's end */
	if (kd_kfmt_parse(tail, tail_len, &t->pvf) < 0 || t->pvf.nconv != rest)
		return untrusted(t, KD_KFMT_CONVERSION);
	if (!kd_kfmt_match_tail(tail, tail_len, &t->pvf, t->args + k + inner, rest,
				rec->text, rec->text_len, &sfx_at))
		return untrusted(t, KD_KFMT_MISMATCH);
	sfx_len = rec->text_len - sfx_at;
	/* the caller's message: PV_FORMAT with its own ARGn from ARG0 */
	memmove(t->args, t->args + k, inner * sizeof(t->args[0]));
	pm.format = m->pv;
	pm.pv = NULL;
	pm.seen = inner ? (inner >= 64 ? ~0ull : (1ull << inner) - 1) : 0;
	reason = translate_msg(t, &pm, rec->text, rec->text_len - sfx_len,
			       rec->text_len >= KD_TRANSLATE_TEXT_LIMIT,
			       t->out, sizeof(t->out) - sfx_len, len);
	if (reason == KD_KFMT_TRUSTED) {
		memcpy(t->out + *len, rec->text + rec->text_len - sfx_len, sfx_len);
		*len += sfx_len;
	}
	return reason;
}

int kd_translate_record(struct kd_translate *t, const struct kd_record *rec,
			const char **text, size_t *len)
{
	struct msg m = { 0 };
	int reason;

	if (!rec->dict_len)
		return KD_TRANSLATE_NONE;
	for (size_t i = 0; i < rec->dict_len; i++)
		take(t, &m, rec->dict[i].key, &rec->dict[i]);
	/* A group has no FORMAT of its own: only then look for GROUP. */
	if (!m.format && kd_group_is(rec)) {
		reason = translate_group(t, rec, text, len);
		t->clean = false;	/* lines: newlines */
		return reason;
	}
	if (m.format && m.part) {
		unsigned long nparts = parts_of(rec);

		if (nparts) {
			reason = translate_parts(t, rec, nparts, text, len);
			t->clean = false;	/* pieces: the writer looks again */
			return reason;
		}
	}
	if (m.format && m.pv && m.format->value_len && m.pv->value_len)
		reason = translate_pv(t, rec, &m, len);
	else
		reason = translate_msg(t, &m, rec->text, rec->text_len,
				       rec->text_len >= KD_TRANSLATE_TEXT_LIMIT,
				       t->out, sizeof(t->out), len);
	/* The prefix is the text's too. */
	t->clean = t->clean && rec->text_plain;
	if (reason == KD_KFMT_TRUSTED)
		*text = t->out;
	return reason;
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
	rec->text_plain = t->clean;
	return 1;
}
