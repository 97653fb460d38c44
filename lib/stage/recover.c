// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * recover.c - the recovery stage: match each plain kernel record against
 * the format indexes and add the proven fields.  See recover.h.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shared/decimal.h"
#include "shared/kfmt.h"
#include "stage/fidx-lines.h"
#include "stage/fmatch.h"
#include "stage/recover.h"

#define INDEXES_MAX	8
#define RELEASE_MAX	128

/*
 * A record with one of the first three carries kprint fields: not
 * recovered, but named its function when it has a file and a line and no
 * function (a kernel without CONFIG_KPRINT_FUNC_NAMES).
 */
const char *const kd_recover_keys[] = { "FORMAT", "CODE_FILE", "GROUP", "DEVICE", "CODE_LINE",
					"CODE_FUNC", NULL };
#define KPRINT_KEYS	3

struct kd_recover {
	struct kd_fidx *idx[INDEXES_MAX];
	unsigned int n;
	struct kd_fidx_lines *lines[INDEXES_MAX];	/* idx[i] by file and line, when needed */
	struct kd_fidx *fb[INDEXES_MAX];	/* kd_recover_add_fallback() */
	unsigned int nfb;
	int (*choose)(void *data, struct kd_recover *r, const char *release);
	void *choose_data;
	bool chosen;
	struct kd_recover_stats st;
};

int kd_recover_new(struct kd_recover **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

int kd_recover_add(struct kd_recover *r, struct kd_fidx *x)
{
	if (r->n == INDEXES_MAX) {
		kd_fidx_free(x);
		return -E2BIG;
	}
	r->idx[r->n++] = x;
	return 0;
}

int kd_recover_add_fallback(struct kd_recover *r, struct kd_fidx *x)
{
	if (r->nfb == INDEXES_MAX) {
		kd_fidx_free(x);
		return -E2BIG;
	}
	r->fb[r->nfb++] = x;
	return 0;
}

void kd_recover_set_chooser(struct kd_recover *r,
			    int (*fn)(void *data, struct kd_recover *r, const char *release),
			    void *data)
{
	r->choose = fn;
	r->choose_data = data;
}

unsigned int kd_recover_count(const struct kd_recover *r)
{
	return r->n;
}

unsigned int kd_recover_fallbacks(const struct kd_recover *r)
{
	return r->nfb;
}

const struct kd_recover_stats *kd_recover_stats(const struct kd_recover *r)
{
	return &r->st;
}

void kd_recover_free(struct kd_recover *r)
{
	if (!r)
		return;
	for (unsigned int i = 0; i < r->n; i++) {
		kd_fidx_lines_free(r->lines[i]);
		kd_fidx_free(r->idx[i]);
	}
	for (unsigned int i = 0; i < r->nfb; i++)
		kd_fidx_free(r->fb[i]);
	free(r);
}

static int add_key(struct kd_record *rec, const char *key, size_t key_len, const char *v,
		   size_t len)
{
	int rc = kd_record_dict_add(rec, key, key_len, v, len);

	if (rc == 0) {
		rec->dict[rec->dict_len - 1].origin = KD_ORIGIN_RECOVERED;
		rec->dict[rec->dict_len - 1].key_plain = (unsigned char)key_len;
	}
	/* A full dictionary keeps what it has: the record is still shown. */
	return rc == -E2BIG ? 0 : rc;
}

/*
 * @key is a string literal (key "" takes no other): its length is known
 * when compiled.  Every key this stage adds is [A-Z][A-Z0-9_]*: the
 * entries say so (key_plain).
 */
#define add(rec, key, v, len)	add_key(rec, key "", sizeof(key "") - 1, v, len)

/*
 * A string of the index into the record without a copy, as a reader lends
 * its input: FORMAT, CODE_FILE, CODE_FUNC and MODULE are most of the bytes
 * put() adds.  The caller frees the stage after the last use of its
 * records (recover.h).  @v[@len] is a NUL.  A full dictionary keeps what
 * it has.
 */
static int lend_key(struct kd_record *rec, const char *key, size_t key_len, const char *v,
		    size_t len)
{
	if (rec->dict_len >= KD_DICT_MAX)
		return 0;
	if (kd_record_dict_lend(rec, (char *)(uintptr_t)key, (char *)(uintptr_t)v, len) < 0)
		return -ENOMEM;
	rec->dict[rec->dict_len - 1].origin = KD_ORIGIN_RECOVERED;
	rec->dict[rec->dict_len - 1].key_plain = (unsigned char)key_len;
	return 0;
}

#define lend(rec, key, v, len)	lend_key(rec, key "", sizeof(key "") - 1, v, len)

#define add_str(rec, key, v)	lend(rec, key, v, strlen(v))

/* decimal.h, not snprintf(): its parsing of the format cost more than the digits. */
static int add_num_key(struct kd_record *rec, const char *key, size_t key_len, uint64_t v)
{
	char buf[KD_DECIMAL_MAX];

	return add_key(rec, key, key_len, buf, kd_decimal_u64(buf, v));
}

#define add_num(rec, key, v)	add_num_key(rec, key "", sizeof(key "") - 1, v)

/* The keys ARG0..ARG31 (KD_FMATCH_MAX_ARGS), each 5 bytes apart. */
static const char arg_keys[] =
	"ARG0\0ARG1\0ARG2\0ARG3\0ARG4\0ARG5\0ARG6\0ARG7\0ARG8\0ARG9\0"
	"ARG10ARG11ARG12ARG13ARG14ARG15ARG16ARG17ARG18ARG19"
	"ARG20ARG21ARG22ARG23ARG24ARG25ARG26ARG27ARG28ARG29ARG30ARG31";

_Static_assert(sizeof(arg_keys) - 1 == 5 * KD_FMATCH_MAX_ARGS, "a key per ARGn");

/* The release of a boot banner, "Linux version 6.12.38+deb12-amd64 (...", into @out. */
static const char *banner_release(const struct kd_record *rec, char *out)
{
	static const char pre[] = "Linux version ";
	size_t n = sizeof(pre) - 1, k = 0;

	if (rec->text_len <= n || memcmp(rec->text, pre, n) != 0)
		return NULL;
	while (n + k < rec->text_len && k < RELEASE_MAX - 1 && rec->text[n + k] != ' ' &&
	       rec->text[n + k] != '\n') {
		out[k] = rec->text[n + k];
		k++;
	}
	out[k] = '\0';
	return k ? out : NULL;
}

static int put(struct kd_record *rec, const struct kd_fidx *x, const struct kd_fmatch_result *m,
	       bool partial)
{
	struct kd_fidx_entry e;
	int rc;

	kd_fidx_get(x, m->id, &e);
	if ((rc = e.fmt_nul ? lend(rec, "FORMAT", e.fmt, e.fmt_len) :
			      add(rec, "FORMAT", e.fmt, e.fmt_len)) < 0)
		return rc;
	for (int k = 0; k < m->nargs && k < KD_FMATCH_MAX_ARGS; k++)
		if ((rc = add_key(rec, arg_keys + 5 * k, k < 10 ? 4 : 5, rec->text + m->arg[k].off,
				  m->arg[k].len)) < 0)
			return rc;
	if ((m->same_file && (rc = add_str(rec, "CODE_FILE", e.file)) < 0) ||
	    (m->same_line && (rc = add_num(rec, "CODE_LINE", e.line)) < 0) ||
	    (m->same_func && (rc = add_str(rec, "CODE_FUNC", e.func)) < 0) ||
	    (m->same_module && (rc = add_str(rec, "MODULE", e.module)) < 0))
		return rc;
	if (partial && (rc = add(rec, "FORMAT_PART", "1", 1)) < 0)
		return rc;
	if (m->nsites > 1 && (rc = add_num(rec, "RECOVER_AMBIGUOUS", m->nsites)) < 0)
		return rc;
	return 0;
}

/* Whether conversion @k of @f prints free text, as fmatch-read.c reads it (%s, %pV, %pR...). */
static bool free_text(const char *fmt, const struct kd_kfmt *f, unsigned int k)
{
	const struct kd_kfmt_arg *a = &f->arg[f->conv[k].pos];
	const char *e = fmt + a->pext_off;

	if (a->kind == 's')
		return true;
	if (a->kind != 'p' || !a->pext_len)
		return false;
	if (e[0] == 'I' || e[0] == 'i')
		return a->pext_len < 2 || !strchr("46S", e[1]);
	if (e[0] == 'x' || e[0] == 'K')
		return a->pext_len > 1;
	return !strchr("aMmUeSsBh", e[0]);
}

/*
 * A fallback is a sample of the kernel's formats (a catalogue holds those
 * a translator chose), not its whole list: the format that printed a
 * text may be missing, and then a loose one among the few there would win
 * ("%s found" for "AGP: No AGP bridge found").  Its pick is claimed only
 * where the kernel's prefixes are certain -- a record with a DEVICE was
 * printed by dev_printk() and the format starts after its prefix, any
 * other at the start (netdev_printk() of a device without a parent is
 * given up) -- the text reads in one way, and free text (%s, %pV...)
 * other than a last conversion reads no more bytes than literal text and
 * typed conversions prove: "Command line: %s" reads the rest of the text
 * as its argument, "%s %s registered" does not read "acpiphp: Slot [2]".
 */
static bool fallback_proven(const struct kd_record *rec, const struct kd_fidx *x,
			    const struct kd_fmatch_result *m)
{
	static struct kd_kfmt f;	/* large: not on the stack */
	struct kd_fidx_entry e;
	size_t inner;

	if ((m->start != 0) != (kd_record_dict_get(rec, "DEVICE") != NULL) || m->nargs < 0)
		return false;
	kd_fidx_get(x, m->id, &e);
	if (kd_kfmt_parse(e.fmt, e.fmt_len, &f) < 0 || f.nconv != (unsigned int)m->nargs)
		return false;
	inner = m->free;
	if (f.nconv && f.conv[f.nconv - 1].end == e.fmt_len && free_text(e.fmt, &f, f.nconv - 1))
		inner -= m->arg[f.nconv - 1].len <= inner ? m->arg[f.nconv - 1].len : inner;
	return inner <= m->score;
}

/*
 * Match @rec against the first tier, then, when that claims nothing
 * (no match, or formats without literal text only, which prove nothing),
 * the fallbacks.  *@x is the index of the winner.
 */
static enum kd_fmatch_status match(struct kd_recover *r, const struct kd_record *rec,
				   struct kd_fmatch_result *m, const struct kd_fidx **x)
{
	enum kd_fmatch_status s = KD_FMATCH_NONE;
	struct kd_fmatch_result fm;

	if (r->n) {
		s = kd_fmatch_text((const struct kd_fidx *const *)r->idx, r->n, rec->text,
				   rec->text_len, m);
		*x = r->idx[m->index];
	}
	if ((s == KD_FMATCH_FULL || s == KD_FMATCH_PARTIAL) || !r->nfb)
		return s;
	switch (kd_fmatch_text((const struct kd_fidx *const *)r->fb, r->nfb, rec->text,
			       rec->text_len, &fm)) {
	case KD_FMATCH_FULL:
	case KD_FMATCH_PARTIAL:
		if (!fallback_proven(rec, r->fb[fm.index], &fm))
			return s == KD_FMATCH_NOLIT ? s : KD_FMATCH_NONE;
		*m = fm;
		*x = r->fb[fm.index];
		r->st.fallback++;
		return fm.status;
	case KD_FMATCH_NOLIT:
		return KD_FMATCH_NOLIT;
	default:
		return s;
	}
}

/*
 * A kernel record with CODE_FILE and CODE_LINE but no CODE_FUNC: the
 * function the first index that knows that line names, marked recovered.
 * Catalogue msgids (the fallbacks) have no call sites.
 */
static int name_function(struct kd_recover *r, struct kd_record *rec, const char *file,
			 const char *line)
{
	/* an index's line numbers are 32-bit */
	unsigned int n = (unsigned int)kd_decimal_parse(line, UINT32_MAX);
	const char *func = NULL;
	int rc;

	if (!*file || !n)
		return 1;
	for (unsigned int i = 0; i < r->n && !func; i++) {
		if (!r->lines[i] && (rc = kd_fidx_lines_new(r->idx[i], &r->lines[i])) < 0)
			return rc;
		func = kd_fidx_lines_func(r->lines[i], file, n);
	}
	if (!func)
		return 1;
	r->st.func_named++;
	return (rc = add_str(rec, "CODE_FUNC", func)) < 0 ? rc : 1;
}

int kd_recover_apply(void *data, struct kd_record *rec)
{
	struct kd_recover *r = data;
	const struct kd_dict_entry *file = NULL, *line = NULL;
	struct kd_fmatch_result m;
	const struct kd_fidx *x = NULL;
	bool kprint = false;
	int rc;

	if (!rec->text_len || (rec->facility != KD_NO_FACILITY && rec->facility != 0))
		return 1;
	/* A stock kernel's plain record has no dictionary: no look-ups then. */
	for (unsigned int k = 0; rec->dict_len && k < KPRINT_KEYS && !kprint; k++)
		kprint = kd_record_dict_get(rec, kd_recover_keys[k]) != NULL;
	if (kprint && (!(file = kd_record_dict_get(rec, "CODE_FILE")) ||
		       !(line = kd_record_dict_get(rec, "CODE_LINE")) ||
		       kd_record_dict_get(rec, "CODE_FUNC")))
		return 1;
	if (!r->chosen) {
		char buf[RELEASE_MAX];

		r->chosen = true;
		if (r->choose && (rc = r->choose(r->choose_data, r, banner_release(rec, buf))) < 0)
			return rc;
	}
	if (kprint)
		return name_function(r, rec, file->value, line->value);
	if (!r->n && !r->nfb)
		return 1;
	r->st.records++;
	switch (match(r, rec, &m, &x)) {
	case KD_FMATCH_FULL:
		r->st.recovered++;
		r->st.ambiguous += m.nsites > 1;
		r->st.no_args += m.nargs < 0;
		rc = put(rec, x, &m, false);
		break;
	case KD_FMATCH_PARTIAL:
		r->st.partial++;
		rc = put(rec, x, &m, true);
		break;
	case KD_FMATCH_NOLIT:
		r->st.nolit++;
		rc = 0;
		break;
	default:
		r->st.unmatched++;
		rc = 0;
	}
	return rc < 0 ? rc : 1;
}
