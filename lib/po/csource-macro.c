// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * csource-macro.c - wrapper macros of the message calls: function-like
 * macros such as pci_err(pdev, fmt, ...) -> dev_err(&(pdev)->dev, fmt, ...)
 * or ata_port_printk(level, ap, fmt, ...) -> pr_##level("ata%u: " fmt, ...),
 * learned from #define lines (of the kernel's headers and of the file
 * being scanned) and expanded as text where they are used, so that the
 * call finder sees the message call the compiler would see.  See
 * csource.h and csource-internal.h.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "po/csource-internal.h"
#include "po/cstring.h"
#include "shared/hash.h"

#define PARAMS_MAX	12
#define BUCKETS		1024
#define WRAPPERS_MAX	65536

struct kd_csource_wrapper {
	char name[48];
	unsigned int nparams;		/* the variadic one included */
	bool variadic;			/* the last parameter takes the rest */
	char param[PARAMS_MAX][32];	/* "__VA_ARGS__" for "..." */
	char *body;		/* NULL: a plain macro hiding a wrapper of @also */
	size_t body_len;
	struct kd_csource_wrapper *next;
};

/*
 * A string macro of a header: #define NAME "text" (CUT_HERE,
 * KUNIT_SUBTEST_INDENT).  A name two headers define differently is kept
 * as @conflict and expands to nothing: which one a file sees is not known.
 */
struct strmacro {
	char name[48];
	char *val;
	size_t len;
	bool conflict;
	struct strmacro *next;
};

struct kd_csource_macros {
	struct kd_csource_wrapper *bucket[BUCKETS];
	unsigned int count;
	struct strmacro *sbucket[BUCKETS];
	unsigned int nstrings;
};

int kd_csource_macros_new(struct kd_csource_macros **m)
{
	*m = calloc(1, sizeof(**m));
	return *m ? 0 : -ENOMEM;
}

void kd_csource_macros_free(struct kd_csource_macros *m)
{
	if (!m)
		return;
	for (unsigned int i = 0; i < BUCKETS; i++) {
		struct kd_csource_wrapper *w = m->bucket[i], *next;

		for (; w; w = next) {
			next = w->next;
			free(w->body);
			free(w);
		}
		for (struct strmacro *sm = m->sbucket[i], *sn; sm; sm = sn) {
			sn = sm->next;
			free(sm->val);
			free(sm);
		}
	}
	free(m);
}

static unsigned int hash(const char *s, size_t n)
{
	return kd_hash_bytes(s, n) & (BUCKETS - 1);
}

static const struct kd_csource_wrapper *find(const struct kd_csource_macros *m,
					     const char *s, size_t n)
{
	if (!m || !m->count || n >= sizeof(((struct kd_csource_wrapper *)0)->name))
		return NULL;
	for (const struct kd_csource_wrapper *w = m->bucket[hash(s, n)]; w; w = w->next)
		if (strncmp(w->name, s, n) == 0 && !w->name[n])
			return w;
	return NULL;
}

const struct kd_csource_wrapper *kd_csource_macros_find(const struct kd_csource_macros *m,
							const struct kd_csource_macros *also,
							const char *s, size_t n)
{
	const struct kd_csource_wrapper *w = find(m, s, n);

	if (!w)
		w = find(also, s, n);
	return w && w->body ? w : NULL;
}

static int param_index(const struct kd_csource_wrapper *w, const struct kd_ctoken *t)
{
	for (unsigned int i = 0; i < w->nparams; i++)
		if (kd_ctoken_is(t, w->param[i]))
			return (int)i;
	return -1;
}

/*
 * Whether the body calls a message function or a known wrapper: an
 * identifier followed by '(', or one pasted to a parameter as in
 * pr_ ## level(...) (then "pr_err" must be a call) or DRM's
 * printk ## once(...), whose parameter is empty or "_once" (then the
 * identifier itself must be a call).
 */
static bool calls_message(const struct kd_csource_wrapper *w, const struct kd_csource_macros *m,
			  const struct kd_csource_macros *also)
{
	struct kd_clex lx = { w->body, w->body + w->body_len, 0, false };
	struct kd_ctoken t, n1, n2;

	for (kd_csource_lex_next(&lx, &t); t.t != KD_CTOK_EOF; t = n1) {
		kd_csource_lex_next(&lx, &n1);
		if (t.t != KD_CTOK_IDENT || param_index(w, &t) >= 0)
			continue;
		if (n1.t == KD_CTOK_PUNCT && *n1.s == '(' &&
		    (kd_csource_is_call(t.s, t.n) || kd_csource_macros_find(m, also, t.s, t.n)))
			return true;
		if (n1.t == KD_CTOK_PUNCT && *n1.s == '#' && t.n < 32) {
			struct kd_clex save = lx;
			char name[40];

			kd_csource_lex_next(&lx, &n2);
			lx = save;
			memcpy(name, t.s, t.n);
			memcpy(name + t.n, "err", 3);
			if (n2.t == KD_CTOK_PUNCT && *n2.s == '#' &&
			    (kd_csource_is_call(name, t.n + 3) || kd_csource_is_call(t.s, t.n)))
				return true;
		}
	}
	return false;
}

int kd_csource_macros_define(struct kd_csource_macros *m,
			     const struct kd_csource_macros *also,
			     const struct kd_ctoken *pp)
{
	struct kd_clex lx = { pp->s + 1, pp->s + pp->n, pp->line, false };
	struct kd_csource_wrapper *w, **at;
	struct kd_ctoken t, name;
	unsigned int h;

	kd_csource_lex_next(&lx, &t);
	if (!kd_ctoken_is(&t, "define"))
		return 0;
	kd_csource_lex_next(&lx, &name);
	if (name.t != KD_CTOK_IDENT || name.n >= sizeof(w->name) || kd_csource_is_call(name.s, name.n) ||
	    lx.p >= lx.end || *lx.p != '(')
		return 0;	/* not function-like, or a call of the table itself */
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	memcpy(w->name, name.s, name.n);
	kd_csource_lex_next(&lx, &t);	/* '(' */
	for (;;) {
		kd_csource_lex_next(&lx, &t);
		if (t.t == KD_CTOK_PUNCT && *t.s == ')')
			break;
		if (t.t == KD_CTOK_PUNCT && *t.s == ',')
			continue;
		if (t.t == KD_CTOK_PUNCT && *t.s == '.' && !w->variadic && w->nparams < PARAMS_MAX) {
			/* "...": two more dots follow */
			kd_csource_lex_next(&lx, &t);
			kd_csource_lex_next(&lx, &t);
			strcpy(w->param[w->nparams++], "__VA_ARGS__");
			w->variadic = true;
			continue;
		}
		if (t.t == KD_CTOK_PUNCT && *t.s == '.' && w->variadic) {
			continue;	/* the dots of "args..." */
		}
		if (t.t != KD_CTOK_IDENT || w->nparams >= PARAMS_MAX || t.n >= sizeof(w->param[0]) ||
		    w->variadic) {
			free(w);
			return 0;
		}
		memcpy(w->param[w->nparams++], t.s, t.n);
		if (lx.p < lx.end && *lx.p == '.')
			w->variadic = true;	/* "args..." */
	}
	while (lx.p < lx.end && (*lx.p == ' ' || *lx.p == '\t'))
		lx.p++;
	w->body_len = (size_t)(lx.end - lx.p);
	w->body = malloc(w->body_len + 1);
	if (!w->body) {
		free(w);
		return -ENOMEM;
	}
	memcpy(w->body, lx.p, w->body_len);
	w->body[w->body_len] = '\0';
	h = hash(w->name, strlen(w->name));
	if (!calls_message(w, m, also)) {
		free(w->body);
		w->body = NULL;
		/*
		 * Not a wrapper: it hides a wrapper of the same name in @also
		 * (the file's own DBG() over a header's), but not one of @m,
		 * whose #ifdef DEBUG variant is kept as pr_debug() messages are.
		 */
		if (!also || find(m, w->name, strlen(w->name)) ||
		    !find(also, w->name, strlen(w->name)) || m->count >= WRAPPERS_MAX) {
			free(w);
			return 0;
		}
		w->next = m->bucket[h];
		m->bucket[h] = w;
		m->count++;
		return 0;
	}
	for (at = &m->bucket[h]; *at; at = &(*at)->next) {
		if (strcmp((*at)->name, w->name) == 0) {
			/* A new definition of the name replaces the old one. */
			w->next = (*at)->next;
			free((*at)->body);
			free(*at);
			*at = w;
			return 1;
		}
	}
	if (m->count >= WRAPPERS_MAX) {
		free(w->body);
		free(w);
		return -E2BIG;
	}
	*at = w;
	m->count++;
	return 1;
}

bool kd_csource_macros_string(const struct kd_csource_macros *m, const char *s, size_t n,
			      const char **val, size_t *len)
{
	if (!m || !m->nstrings || n >= sizeof(((struct strmacro *)0)->name))
		return false;
	for (const struct strmacro *sm = m->sbucket[hash(s, n)]; sm; sm = sm->next)
		if (strncmp(sm->name, s, n) == 0 && !sm->name[n]) {
			if (sm->conflict)
				return false;
			*val = sm->val;
			*len = sm->len;
			return true;
		}
	return false;
}

/* #define NAME "a" "b" or NAME of string literals and known string macros. */
static int define_string(struct kd_csource_macros *m, const struct kd_ctoken *pp)
{
	struct kd_clex lx = { pp->s + 1, pp->s + pp->n, pp->line, false };
	struct kd_ctoken t, name;
	char buf[1024];
	size_t at = 0, vl;
	const char *v;
	struct strmacro *sm, **slot;
	unsigned int h, nlit = 0;

	kd_csource_lex_next(&lx, &t);
	if (!kd_ctoken_is(&t, "define"))
		return 0;
	kd_csource_lex_next(&lx, &name);
	if (name.t != KD_CTOK_IDENT || name.n >= sizeof(sm->name) || (lx.p < lx.end && *lx.p == '('))
		return 0;
	for (kd_csource_lex_next(&lx, &t); t.t != KD_CTOK_EOF; kd_csource_lex_next(&lx, &t)) {
		if (t.t == KD_CTOK_STRING) {
			const char *p = t.s + 1, *e = t.s + t.n - 1;

			if (t.n < 2 || *e != '"' || t.s[0] != '"')
				return 0;
			while (p < e) {
				int c = (unsigned char)*p++;

				if (c == '\\' && p < e)
					c = kd_cstring_escape(&p, e);
				if (at >= sizeof(buf))
					return 0;
				buf[at++] = (char)c;
			}
			nlit++;
		} else if (t.t == KD_CTOK_IDENT && kd_csource_macros_string(m, t.s, t.n, &v, &vl)) {
			if (vl > sizeof(buf) - at)
				return 0;
			memcpy(buf + at, v, vl);
			at += vl;
			nlit++;
		} else {
			return 0;
		}
	}
	if (!nlit)
		return 0;
	h = hash(name.s, name.n);
	for (slot = &m->sbucket[h]; *slot; slot = &(*slot)->next)
		if (strncmp((*slot)->name, name.s, name.n) == 0 && !(*slot)->name[name.n]) {
			sm = *slot;
			sm->conflict |= sm->len != at || memcmp(sm->val, buf, at) != 0;
			return 0;
		}
	if (m->nstrings >= WRAPPERS_MAX || !(sm = calloc(1, sizeof(*sm))))
		return m->nstrings >= WRAPPERS_MAX ? 0 : -ENOMEM;
	if (!(sm->val = malloc(at + 1))) {
		free(sm);
		return -ENOMEM;
	}
	memcpy(sm->val, buf, at);
	sm->val[at] = '\0';
	sm->len = at;
	memcpy(sm->name, name.s, name.n);
	*slot = sm;
	m->nstrings++;
	return 1;
}

int kd_csource_macros_learn(struct kd_csource_macros *m, const char *text, size_t len)
{
	struct kd_clex lx = { text, text + len, 1, true };
	struct kd_ctoken t;
	int rc;

	for (kd_csource_lex_next(&lx, &t); t.t != KD_CTOK_EOF; kd_csource_lex_next(&lx, &t))
		if (t.t == KD_CTOK_PP && ((rc = kd_csource_macros_define(m, NULL, &t)) < 0 ||
					  (rc = define_string(m, &t)) < 0))
			return rc;
	return 0;
}

/* Append @n bytes; false when @out is full. */
static bool put(char *out, size_t cap, size_t *at, const char *s, size_t n)
{
	if (n >= cap - *at)
		return false;
	memcpy(out + *at, s, n);
	*at += n;
	return true;
}

ssize_t kd_csource_macros_expand(const struct kd_csource_wrapper *w, struct kd_clex *lx,
				 char *out, size_t cap)
{
	const char *arg_s[PARAMS_MAX] = { NULL }, *arg_e[PARAMS_MAX] = { NULL };
	unsigned int narg = 0, depth = 0;
	int step;
	struct kd_clex body = { w->body, w->body + w->body_len, 0, false };
	struct kd_ctoken t;
	bool paste = false;
	size_t at = 0;

	/* The arguments, as spans of the source text. */
	for (;;) {
		kd_csource_lex_next(lx, &t);
		if (t.t == KD_CTOK_EOF)
			return -1;
		step = kd_ctoken_arg_step(&t, &depth);
		if (step < 0)
			break;
		/* The variadic parameter takes the commas of the rest. */
		if (step > 0 && !(w->variadic && narg == w->nparams - 1)) {
			if (++narg >= PARAMS_MAX)
				return -1;
			continue;
		}
		if (!arg_s[narg])
			arg_s[narg] = t.s;
		arg_e[narg] = t.s + t.n;
	}
	if (arg_s[narg] || narg > 0)
		narg++;
	if (narg + (w->variadic ? 1 : 0) < w->nparams || narg > w->nparams)
		return -1;
	/* The body, parameters replaced; "a ## b" pasted, "#a" left as is. */
	for (kd_csource_lex_next(&body, &t); t.t != KD_CTOK_EOF; kd_csource_lex_next(&body, &t)) {
		int p = t.t == KD_CTOK_IDENT ? param_index(w, &t) : -1;
		const char *s = t.s;
		size_t n = t.n;

		if (t.t == KD_CTOK_PUNCT && *t.s == '#' && body.p < body.end && *body.p == '#') {
			kd_csource_lex_next(&body, &t);
			while (at && out[at - 1] == ' ')
				at--;
			paste = true;
			continue;
		}
		if (p >= 0) {
			s = (unsigned int)p < narg ? arg_s[p] : NULL;
			n = s ? (size_t)(arg_e[p] - s) : 0;
		}
		if ((!paste && !put(out, cap, &at, " ", 1)) || (n && !put(out, cap, &at, s, n)))
			return -1;
		paste = false;
	}
	out[at] = '\0';
	return (ssize_t)at;
}
