// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pot.c - the message set behind `kdmesg-po extract`: a hash table of
 * entries in insertion order, written as a gettext template.  See pot.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "record/priority.h"
#include "shared/hash.h"
#include "shared/kfmt.h"
#include "shared/utf8.h"
#include "po/pot.h"

/* Places, functions and modules kept per entry; more are only counted. */
#define KEEP	4

struct pot_entry {
	char *ctx;
	char *msgid;
	size_t msgid_len;
	char *ref[KEEP];
	unsigned int nref, more_refs;
	char *func[KEEP];
	unsigned int nfunc;
	char *module[KEEP];
	unsigned int nmodule;
	char level;
	uint64_t count;
	size_t order;
	struct pot_entry *next;	/* hash chain */
	/* Module contexts: the per-module entries of a context-free one. */
	struct pot_entry *children, *sibling;
	bool child;
};

struct kd_pot {
	struct pot_entry **list;
	size_t n, cap;
	struct pot_entry **bucket;
	size_t nbuckets;	/* a power of two */
	size_t nentries;	/* in the hash table: list and children */
	bool module_contexts;
	bool sorted_by_count;
	/* kd_pot_set_header(): Report-Msgid-Bugs-To, POT-Creation-Date. */
	char *bugs_to;
	char created[32];
};

int kd_pot_new(struct kd_pot **pot)
{
	*pot = calloc(1, sizeof(**pot));
	if (!*pot)
		return -ENOMEM;
	(*pot)->nbuckets = 4096;
	(*pot)->bucket = calloc((*pot)->nbuckets, sizeof(*(*pot)->bucket));
	if (!(*pot)->bucket) {
		free(*pot);
		return -ENOMEM;
	}
	return 0;
}

/* No context and an empty one hash alike, as they did. */
static size_t hash(const char *ctx, const char *s, size_t n)
{
	uint32_t h = kd_hash_bytes(s, n);

	if (ctx && *ctx)
		h ^= kd_hash_bytes(ctx, strlen(ctx)) * 0x85ebca6bu + 1;
	return h;
}

static int grow(struct kd_pot *pot)
{
	size_t nb = pot->nbuckets * 2;
	struct pot_entry **b = calloc(nb, sizeof(*b));

	if (!b)
		return -ENOMEM;
	for (size_t i = 0; i < pot->nbuckets; i++) {
		struct pot_entry *e = pot->bucket[i], *next;

		for (; e; e = next) {
			size_t h = hash(e->ctx, e->msgid, e->msgid_len) & (nb - 1);

			next = e->next;
			e->next = b[h];
			b[h] = e;
		}
	}
	free(pot->bucket);
	pot->bucket = b;
	pot->nbuckets = nb;
	return 0;
}

/* Add @s to the small set @v of @n (no duplicates); false when full. */
static bool keep(char **v, unsigned int *n, const char *s)
{
	for (unsigned int i = 0; i < *n; i++)
		if (strcmp(v[i], s) == 0)
			return true;
	if (*n >= KEEP)
		return false;
	v[*n] = strdup(s);
	if (v[*n])
		(*n)++;
	return true;
}

static struct pot_entry *find(struct kd_pot *pot, const struct kd_pot_msg *m, size_t h)
{
	for (struct pot_entry *e = pot->bucket[h & (pot->nbuckets - 1)]; e; e = e->next)
		if (e->msgid_len == m->msgid_len &&
		    memcmp(e->msgid, m->msgid, m->msgid_len) == 0 &&
		    ((!e->ctx && !m->ctx) || (e->ctx && m->ctx && strcmp(e->ctx, m->ctx) == 0)))
			return e;
	return NULL;
}

/* The entry of (@ctx, @msgid), made when new; @listed: a top-level entry. */
static struct pot_entry *get(struct kd_pot *pot, const char *ctx, const char *msgid,
			     size_t msgid_len, bool listed, bool *made)
{
	const struct kd_pot_msg key = { .ctx = ctx, .msgid = msgid, .msgid_len = msgid_len };
	size_t h = hash(ctx, msgid, msgid_len);
	struct pot_entry *e = find(pot, &key, h);

	*made = false;
	if (e)
		return e;
	if (listed && pot->n == pot->cap) {
		size_t cap = pot->cap ? pot->cap * 2 : 1024;
		struct pot_entry **l = realloc(pot->list, cap * sizeof(*l));

		if (!l)
			return NULL;
		pot->list = l;
		pot->cap = cap;
	}
	if (pot->nentries >= pot->nbuckets && grow(pot) < 0)
		return NULL;
	e = calloc(1, sizeof(*e));
	if (!e || !(e->msgid = malloc(msgid_len + 1)) || (ctx && !(e->ctx = strdup(ctx)))) {
		if (e)
			free(e->msgid);
		free(e);
		return NULL;
	}
	memcpy(e->msgid, msgid, msgid_len);
	e->msgid[msgid_len] = '\0';
	e->msgid_len = msgid_len;
	e->order = pot->nentries++;
	e->next = pot->bucket[h & (pot->nbuckets - 1)];
	pot->bucket[h & (pot->nbuckets - 1)] = e;
	if (listed)
		pot->list[pot->n++] = e;
	*made = true;
	return e;
}

/* Add the places, function, module, level and count of @m to @e. */
static void note(struct pot_entry *e, const struct kd_pot_msg *m)
{
	if (m->file) {
		char ref[4200];

		if (m->line)
			snprintf(ref, sizeof(ref), "%s:%u", m->file, m->line);
		else
			snprintf(ref, sizeof(ref), "%s", m->file);
		if (!keep(e->ref, &e->nref, ref))
			e->more_refs++;
	}
	if (m->func)
		keep(e->func, &e->nfunc, m->func);
	if (m->module)
		keep(e->module, &e->nmodule, m->module);
	if (m->level && !e->level)
		e->level = m->level;
	e->count += m->count;
}

/*
 * Whether @s (@n bytes) has a letter outside its conversions: a
 * continuation fragment without one (", ", "%d ") has nothing to
 * translate.  A format that does not parse is kept.
 */
static bool has_words(const char *s, size_t n)
{
	struct kd_kfmt f;
	unsigned int k = 0;

	if (kd_kfmt_parse(s, n, &f) < 0)
		return true;
	for (size_t i = 0; i < n; i++) {
		if (k < f.nconv && i >= f.conv[k].start) {
			i = f.conv[k++].end - 1;
			continue;
		}
		if ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		    (unsigned char)s[i] >= 0x80)
			return true;
	}
	return false;
}

int kd_pot_add(struct kd_pot *pot, const struct kd_pot_msg *m)
{
	struct pot_entry *e, *c, **tail;
	bool made;

	if (m->level == 'c' && !has_words(m->msgid, m->msgid_len))
		return 0;
	e = get(pot, m->ctx, m->msgid, m->msgid_len, true, &made);
	if (!e)
		return -ENOMEM;
	note(e, m);
	if (!pot->module_contexts || m->ctx || !m->module)
		return 0;
	/* The entry of this module, written if the format has several. */
	c = get(pot, m->module, m->msgid, m->msgid_len, false, &made);
	if (!c)
		return -ENOMEM;
	if (made) {
		c->child = true;
		for (tail = &e->children; *tail; tail = &(*tail)->sibling)
			;
		*tail = c;
	}
	note(c, m);
	return 0;
}

void kd_pot_set_module_contexts(struct kd_pot *pot, bool on)
{
	pot->module_contexts = on;
}

size_t kd_pot_count(const struct kd_pot *pot)
{
	return pot->n;
}

static int by_count(const void *a, const void *b)
{
	const struct pot_entry *x = *(struct pot_entry *const *)a;
	const struct pot_entry *y = *(struct pot_entry *const *)b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

void kd_pot_sort_count(struct kd_pot *pot)
{
	if (pot->n)
		qsort(pot->list, pot->n, sizeof(*pot->list), by_count);
	/* Each module's entries too: insertion into a sorted list. */
	for (size_t i = 0; i < pot->n; i++) {
		struct pot_entry *rest = pot->list[i]->children, *sorted = NULL;

		while (rest) {
			struct pot_entry *c = rest, **at = &sorted;

			rest = rest->sibling;
			while (*at && by_count(at, &c) <= 0)
				at = &(*at)->sibling;
			c->sibling = *at;
			*at = c;
		}
		pot->list[i]->children = sorted;
	}
}

/* A C1 control (U+0080..U+009F): what a terminal may take for CSI or OSC. */
static bool is_c1(const unsigned char *p, size_t n)
{
	return n == 2 && p[0] == 0xc2 && p[1] < 0xa0;
}

/*
 * The file says charset=UTF-8 and msgfmt -c holds it to that: a byte
 * outside valid UTF-8 (a "\xff" in the C source) is written as an octal
 * escape, which msgfmt turns back into the same byte, so the msgid still
 * matches the kernel's format.  Controls (C0, DEL, C1) are escaped too,
 * so that the file shown on a terminal stays inert.
 */
void kd_pot_write_string(FILE *out, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', out);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = p[i];
		size_t n;

		switch (c) {
		case '"': fputs("\\\"", out); continue;
		case '\\': fputs("\\\\", out); continue;
		case '\n': fputs("\\n", out); continue;
		case '\t': fputs("\\t", out); continue;
		case '\r': fputs("\\r", out); continue;
		default:
			break;
		}
		if (c < 0x20 || c == 0x7f) {
			fprintf(out, "\\%03o", c);
		} else if (c < 0x80) {
			fputc(c, out);
		} else if ((n = kd_utf8_len(p + i, len - i)) == 0 || is_c1(p + i, n)) {
			fprintf(out, "\\%03o", c);
		} else {
			fwrite(p + i, 1, n, out);
			i += n - 1;
		}
	}
	fputc('"', out);
}

/*
 * Comment text (places, functions, modules) is kernel or source bytes,
 * and a comment has no escapes: what is not printable valid UTF-8 becomes
 * the text "\xNN", so that neither the file nor a terminal sees it.
 */
static void write_comment_text(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s);

	for (size_t i = 0; i < len; i++) {
		size_t n;

		if (p[i] >= 0x20 && p[i] < 0x7f) {
			fputc(p[i], out);
		} else if (p[i] >= 0x80 && (n = kd_utf8_len(p + i, len - i)) &&
			   !is_c1(p + i, n)) {
			fwrite(p + i, 1, n, out);
			i += n - 1;
		} else {
			fprintf(out, "\\x%02x", p[i]);
		}
	}
}

static void write_list(FILE *out, const char *what, char *const *v, unsigned int n)
{
	if (!n)
		return;
	fprintf(out, "#. %s:", what);
	for (unsigned int i = 0; i < n; i++) {
		fputc(' ', out);
		write_comment_text(out, v[i]);
	}
	fputc('\n', out);
}

/* kdmesg's level names (record/priority.c), so "#. level:" reads as -l takes it. */
static const char *level_name(char l)
{
	return l >= '0' && l <= '7' ? kd_priority_level_name(l - '0') : l == 'c' ? "cont" : NULL;
}

static void write_entry(FILE *out, const struct pot_entry *e)
{
	fputc('\n', out);
	write_list(out, "function", e->func, e->nfunc);
	write_list(out, "module", e->module, e->nmodule);
	if (level_name(e->level))
		fprintf(out, "#. level: %s\n", level_name(e->level));
	if (e->count)
		fprintf(out, "#. count: %llu\n", (unsigned long long)e->count);
	for (unsigned int r = 0; r < e->nref; r++) {
		fputs("#: ", out);
		write_comment_text(out, e->ref[r]);
		fputc('\n', out);
	}
	if (e->more_refs)
		fprintf(out, "#. and %u more places\n", e->more_refs);
	fputs("#, c-format\n", out);
	if (e->ctx) {
		fputs("msgctxt ", out);
		kd_pot_write_string(out, e->ctx, strlen(e->ctx));
		fputc('\n', out);
	}
	fputs("msgid ", out);
	kd_pot_write_string(out, e->msgid, e->msgid_len);
	fputs("\nmsgstr \"\"\n", out);
}

int kd_pot_set_header(struct kd_pot *pot, const char *bugs_to, int64_t created)
{
	time_t t = (time_t)created;
	struct tm tm;
	char *b = strdup(bugs_to ? bugs_to : "");

	if (!b)
		return -ENOMEM;
	/* A header value is one line of text: no quote, backslash or control byte. */
	for (char *p = b; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == '"' || *p == '\\' || *p == 0x7f)
			*p = ' ';
	free(pot->bugs_to);
	pot->bugs_to = b;
	pot->created[0] = '\0';
	if (gmtime_r(&t, &tm))
		strftime(pot->created, sizeof(pot->created), "%Y-%m-%d %H:%M+0000", &tm);
	return 0;
}

int kd_pot_write(const struct kd_pot *pot, FILE *out, size_t limit)
{
	fputs("# Kernel messages of Linux, for kdmesg (text domain linux-kmsg).\n"
	      "# Written by kdmesg-po extract; msgids are kernel format strings.\n"
	      "#, fuzzy\n"
	      "msgid \"\"\n"
	      "msgstr \"\"\n"
	      "\"Project-Id-Version: linux-kmsg\\n\"\n", out);
	/* msginit copies both; without them it leaves the translator to guess. */
	if (pot->bugs_to)
		fprintf(out, "\"Report-Msgid-Bugs-To: %s\\n\"\n"
			"\"POT-Creation-Date: %s\\n\"\n", pot->bugs_to, pot->created);
	fputs("\"Language: \\n\"\n"
	      "\"MIME-Version: 1.0\\n\"\n"
	      "\"Content-Type: text/plain; charset=UTF-8\\n\"\n"
	      "\"Content-Transfer-Encoding: 8bit\\n\"\n", out);
	for (size_t i = 0; i < pot->n && (!limit || i < limit); i++) {
		const struct pot_entry *e = pot->list[i];

		write_entry(out, e);
		/* A format of one module needs no context: the lookup falls back. */
		if (e->nmodule >= 2)
			for (const struct pot_entry *c = e->children; c; c = c->sibling)
				write_entry(out, c);
	}
	return ferror(out) ? -EIO : 0;
}

static void free_entry(struct pot_entry *e)
{
	for (unsigned int k = 0; k < e->nref; k++)
		free(e->ref[k]);
	for (unsigned int k = 0; k < e->nfunc; k++)
		free(e->func[k]);
	for (unsigned int k = 0; k < e->nmodule; k++)
		free(e->module[k]);
	free(e->ctx);
	free(e->msgid);
	free(e);
}

void kd_pot_free(struct kd_pot *pot)
{
	if (!pot)
		return;
	for (size_t i = 0; i < pot->n; i++) {
		struct pot_entry *e = pot->list[i], *c, *next;

		for (c = e->children; c; c = next) {
			next = c->sibling;
			free_entry(c);
		}
		free_entry(e);
	}
	free(pot->bugs_to);
	free(pot->list);
	free(pot->bucket);
	free(pot);
}
