// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pofile.c - a line-based reader of PO files (the syntax of the GNU
 * gettext manual, "The Format of PO Files"), enough for kdmesg-po check.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "po/cstring.h"
#include "po/pofile.h"

/* A growing byte buffer. */
struct buf {
	char *s;
	size_t len, cap;
};

static int buf_put(struct buf *b, char c)
{
	if (b->len + 2 > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 256;
		char *s = realloc(b->s, cap);

		if (!s)
			return -ENOMEM;
		b->s = s;
		b->cap = cap;
	}
	b->s[b->len++] = c;
	b->s[b->len] = '\0';
	return 0;
}

/* Append the string literal at @p (up to @e) to @b, unescaped. */
static int append_quoted(struct buf *b, const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	if (p >= e || *p != '"')
		return -EINVAL;
	for (p++; p < e && *p != '"'; p++) {
		int c = (unsigned char)*p;

		if (c == '\\') {
			if (++p >= e)
				return -EINVAL;
			c = kd_cstring_escape(&p, e);
			p--;	/* the loop steps past the escape's last byte */
		}
		if (buf_put(b, (char)c) < 0)
			return -ENOMEM;
	}
	return p < e ? 0 : -EINVAL;
}

enum field { NONE, CTX, ID, PLURAL, STR, STR_OTHER };

struct state {
	struct buf ctx, id, str;
	bool has_ctx, has_id, has_str, fuzzy, c_format, plural;
	unsigned int id_line, str_line;
};

static void reset(struct state *st)
{
	st->ctx.len = st->id.len = st->str.len = 0;
	st->has_ctx = st->has_id = st->has_str = st->fuzzy = st->c_format = st->plural = false;
}

static int flush(struct state *st, int (*fn)(void *, const struct kd_po_entry *), void *data)
{
	struct kd_po_entry e;
	int rc;

	if (!st->has_id)
		return 0;
	buf_put(&st->id, 0), st->id.len--;
	buf_put(&st->str, 0), st->str.len--;
	e.ctx = st->has_ctx ? (buf_put(&st->ctx, 0), st->ctx.len--, st->ctx.s) : NULL;
	e.msgid = st->id.s;
	e.msgid_len = st->id.len;
	e.msgstr = st->str.s;
	e.msgstr_len = st->str.len;
	e.line = st->id_line;
	e.msgstr_line = st->str_line;
	e.fuzzy = st->fuzzy;
	e.c_format = st->c_format;
	e.plural = st->plural;
	rc = fn(data, &e);
	reset(st);
	return rc;
}

static bool keyword(const char **p, const char *e, const char *kw)
{
	size_t n = strlen(kw);

	if ((size_t)(e - *p) > n && memcmp(*p, kw, n) == 0 && (*p)[n] == ' ') {
		*p += n;
		return true;
	}
	return false;
}

int kd_po_read(const char *text, size_t len,
	       int (*fn)(void *data, const struct kd_po_entry *e), void *data,
	       unsigned int *err_line)
{
	struct state st = { 0 };
	enum field cur = NONE;
	const char *p = text, *end = text + len;
	unsigned int line = 0;
	int rc = 0;

	reset(&st);
	while (p < end && rc == 0) {
		const char *e = memchr(p, '\n', (size_t)(end - p)), *q = p;

		if (!e)
			e = end;
		line++;
		while (q < e && (*q == ' ' || *q == '\t' || *q == '\r'))
			q++;
		if (q == e || (q[0] == '#' && (q + 1 == e || q[1] != ','))) {
			/* blank or comment line (also "#~" obsolete entries) */
		} else if (q[0] == '#') {
			if (st.has_str && (rc = flush(&st, fn, data)) < 0)
				break;
			if (memmem(q, (size_t)(e - q), "fuzzy", 5))
				st.fuzzy = true;
			if (memmem(q, (size_t)(e - q), " c-format", 9))
				st.c_format = true;
		} else if (*q == '"') {
			struct buf *b = cur == CTX ? &st.ctx : cur == ID ? &st.id :
					cur == STR ? &st.str : NULL;

			if (cur == NONE)
				rc = -EINVAL;
			else if (b)
				rc = append_quoted(b, q, e);
			else {
				struct buf junk = { 0 };

				rc = append_quoted(&junk, q, e);
				free(junk.s);
			}
		} else {
			const char *k = q;

			if (st.has_str && (keyword(&k, e, "msgctxt") || keyword(&k, e, "msgid")) &&
			    (rc = flush(&st, fn, data)) < 0)
				break;
			if (keyword(&q, e, "msgctxt")) {
				cur = CTX, st.has_ctx = true;
				rc = append_quoted(&st.ctx, q, e);
			} else if (keyword(&q, e, "msgid")) {
				cur = ID, st.has_id = true, st.id_line = line;
				rc = append_quoted(&st.id, q, e);
			} else if (keyword(&q, e, "msgid_plural")) {
				struct buf junk = { 0 };

				cur = PLURAL, st.plural = true;
				rc = append_quoted(&junk, q, e);
				free(junk.s);
			} else if (keyword(&q, e, "msgstr") || keyword(&q, e, "msgstr[0]")) {
				cur = STR, st.has_str = true, st.str_line = line;
				rc = append_quoted(&st.str, q, e);
			} else if (e - q > 7 && memcmp(q, "msgstr[", 7) == 0) {
				const char *sp = memchr(q, ' ', (size_t)(e - q));

				cur = STR_OTHER;
				rc = sp ? 0 : -EINVAL;
				if (sp) {
					struct buf junk = { 0 };

					rc = append_quoted(&junk, sp, e);
					free(junk.s);
				}
			} else {
				rc = -EINVAL;
			}
		}
		if (rc == -EINVAL && err_line)
			*err_line = line;
		p = e < end ? e + 1 : end;
	}
	if (rc == 0)
		rc = flush(&st, fn, data);
	free(st.ctx.s);
	free(st.id.s);
	free(st.str.s);
	return rc;
}
