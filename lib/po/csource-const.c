// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * csource-const.c - the constant strings of a C file: its string macros
 * (#define NAME "text", #define SIZE 42 for __stringify()), its pr_fmt()
 * and dev_fmt(), and the evaluation of a format argument made of
 * literals, KERN_* levels, KBUILD_MODNAME and those macros.  Apart from
 * the call finder (csource.c) because it is a small evaluator of its own:
 * what a format is, not where the calls are.  See csource-internal.h.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "po/csource-internal.h"
#include "po/cstring.h"

/* Append the bytes a C string literal token stands for. */
static bool put_literal(const struct kd_ctoken *t, char *out, size_t *at)
{
	const char *p = t->s + 1, *e = t->s + t->n - 1;

	if (t->n < 2 || *e != '"')
		return false;
	while (p < e) {
		int c = (unsigned char)*p++;

		if (c == '\\' && p < e) {
			if (*p == '\n') {
				p++;	/* a backslash-newline inside the literal */
				continue;
			}
			c = kd_cstring_escape(&p, e);
		}
		if (*at >= FMT_MAX)
			return false;
		out[(*at)++] = (char)c;
	}
	return true;
}

static const struct kd_cmacro *find_macro(const struct kd_cscan *sc, const char *s, size_t n)
{
	for (unsigned int i = 0; i < sc->nmacros; i++)
		if (strlen(sc->macro[i].name) == n && memcmp(sc->macro[i].name, s, n) == 0)
			return &sc->macro[i];
	return NULL;
}

/* Append @n bytes of @s within FMT_MAX. */
static bool put(char *out, size_t *at, const char *s, size_t n)
{
	if (n > FMT_MAX - *at)
		return false;
	if (n)
		memcpy(out + *at, s, n);
	*at += n;
	return true;
}

/*
 * pr_fmt(...) written out in a format, as con_printk() does: the file's
 * pr_fmt() around what is inside.  *@i is at "pr_fmt", left at its ')'.
 */
static bool eval_pr_fmt(const struct kd_cscan *sc, const struct kd_ctoken *t, unsigned int n,
			unsigned int *i, char *out, size_t *at)
{
	unsigned int j = *i + 2, depth = 0;

	for (; j < n; j++) {
		if (t[j].t != KD_CTOK_PUNCT)
			continue;
		if (*t[j].s == '(')
			depth++;
		else if (*t[j].s == ')' && depth-- == 0)
			break;
	}
	if (j >= n || sc->pr.bad || !put(out, at, sc->pr.pre, sc->pr.pre_len) ||
	    !kd_csource_eval(sc, t + *i + 2, j - *i - 2, out, at) ||
	    !put(out, at, sc->pr.post, sc->pr.post_len))
		return false;
	*i = j;
	return true;
}

/*
 * The bytes of a constant string expression: literals, KERN_* levels,
 * KBUILD_MODNAME and the file's string macros.  false when it is not one.
 */
bool kd_csource_eval(const struct kd_cscan *sc, const struct kd_ctoken *t, unsigned int n,
		 char *out, size_t *at)
{
	static const char *const levels[] = { "KERN_EMERG", "KERN_ALERT", "KERN_CRIT",
		"KERN_ERR", "KERN_WARNING", "KERN_NOTICE", "KERN_INFO", "KERN_DEBUG" };

	for (unsigned int i = 0; i < n; i++) {
		const struct kd_cmacro *m;
		const char *add = NULL;
		char lv[3] = "\001";
		size_t add_len = 0;

		if (t[i].t == KD_CTOK_STRING) {
			if (!put_literal(&t[i], out, at))
				return false;
			continue;
		}
		if (t[i].t != KD_CTOK_IDENT)
			return false;
		if (kd_ctoken_is(&t[i], "pr_fmt") && i + 1 < n && t[i + 1].t == KD_CTOK_PUNCT &&
		    *t[i + 1].s == '(') {
			if (!eval_pr_fmt(sc, t, n, &i, out, at))
				return false;
			continue;
		}
		for (int l = 0; l < 8 && !add; l++)
			if (kd_ctoken_is(&t[i], levels[l]))
				lv[1] = (char)('0' + l), add = lv, add_len = 2;
		if (add) {
		} else if (kd_ctoken_is(&t[i], "KERN_CONT")) {
			add = "\001c", add_len = 2;
		} else if (kd_ctoken_is(&t[i], "KERN_DEFAULT") || kd_ctoken_is(&t[i], "KERN_SOH")) {
			add = "", add_len = 0;
		} else if (kd_ctoken_is(&t[i], "KBUILD_MODNAME")) {
			add = sc->module, add_len = strlen(sc->module);
		} else if (kd_ctoken_is(&t[i], "KBUILD_BASENAME")) {
			add = sc->basename, add_len = strlen(sc->basename);
		} else if (kd_ctoken_is(&t[i], "__stringify") && i + 3 < n &&
			   t[i + 1].t == KD_CTOK_PUNCT && *t[i + 1].s == '(' &&
			   t[i + 3].t == KD_CTOK_PUNCT && *t[i + 3].s == ')') {
			/* __stringify(42) or __stringify(SIZE) of "#define SIZE 42" */
			const struct kd_cmacro *nm = t[i + 2].t == KD_CTOK_IDENT ?
						 find_macro(sc, t[i + 2].s, t[i + 2].n) : NULL;

			if (t[i + 2].t == KD_CTOK_NUM)
				add = t[i + 2].s, add_len = t[i + 2].n;
			else if (nm && nm->number)
				add = nm->val, add_len = nm->len;
			else
				return false;
			i += 3;
		} else if ((m = find_macro(sc, t[i].s, t[i].n)) && !m->number) {
			add = m->val, add_len = m->len;
		} else if (kd_csource_macros_string(sc->global, t[i].s, t[i].n, &add, &add_len)) {
		} else {
			return false;
		}
		if (!put(out, at, add, add_len))
			return false;
	}
	return true;
}

/* The tokens of one preprocessor line after "#define NAME". */
static unsigned int pp_tokens(const struct kd_ctoken *pp, struct kd_ctoken *t, unsigned int max)
{
	struct kd_clex lx = { pp->s + 1, pp->s + pp->n, pp->line, false };
	unsigned int n = 0;

	while (n < max) {
		kd_csource_lex_next(&lx, &t[n]);
		if (t[n].t == KD_CTOK_EOF)
			break;
		n++;
	}
	return n;
}

static void set_wrap(const struct kd_cscan *sc, struct kd_cwrap *w, const struct kd_ctoken *t,
		     unsigned int n)
{
	char buf[FMT_MAX];
	size_t at = 0;
	unsigned int i;

	free(w->pre);
	free(w->post);
	memset(w, 0, sizeof(*w));
	/* "define" NAME "(" "fmt" ")" expansion... */
	for (i = 5; i < n && !kd_ctoken_is(&t[i], "fmt"); i++)
		;
	if (n == 9 && w == &sc->dev && kd_ctoken_is(&t[5], "pr_fmt")) {
		/* #define dev_fmt(fmt) pr_fmt(fmt) */
		w->pre = sc->pr.pre ? strndup(sc->pr.pre, sc->pr.pre_len) : NULL;
		w->post = sc->pr.post ? strndup(sc->pr.post, sc->pr.post_len) : NULL;
		w->pre_len = w->pre ? sc->pr.pre_len : 0;
		w->post_len = w->post ? sc->pr.post_len : 0;
		w->bad = sc->pr.bad;
		return;
	}
	if (i >= n || !kd_csource_eval(sc, t + 5, i - 5, buf, &at) || !(w->pre = strndup(buf, at))) {
		w->bad = true;
		return;
	}
	w->pre_len = at;
	/* After fmt: literals up to a comma (the extra arguments do not matter). */
	at = 0;
	{
		unsigned int j = i + 1, k = j;

		while (k < n && !(t[k].t == KD_CTOK_PUNCT && *t[k].s == ','))
			k++;
		if (!kd_csource_eval(sc, t + j, k - j, buf, &at) || !(w->post = strndup(buf, at))) {
			w->bad = true;
			return;
		}
		w->post_len = at;
	}
}

void kd_csource_define(struct kd_cscan *sc, const struct kd_ctoken *pp)
{
	struct kd_ctoken t[64];
	unsigned int n = pp_tokens(pp, t, 64);
	struct kd_cmacro *m;
	char buf[FMT_MAX];
	size_t at = 0;
	bool number = false;

	if (n >= 2 && kd_ctoken_is(&t[0], "undef")) {
		if (kd_ctoken_is(&t[1], "pr_fmt"))
			set_wrap(sc, &sc->pr, t, 0), sc->pr.bad = false;
		if (kd_ctoken_is(&t[1], "dev_fmt"))
			set_wrap(sc, &sc->dev, t, 0), sc->dev.bad = false;
		return;
	}
	if (n < 3 || !kd_ctoken_is(&t[0], "define") || t[1].t != KD_CTOK_IDENT)
		return;
	if (n >= 6 && t[2].t == KD_CTOK_PUNCT && *t[2].s == '(' && t[2].s == t[1].s + t[1].n &&
	    kd_ctoken_is(&t[3], "fmt") &&
	    (kd_ctoken_is(&t[1], "pr_fmt") || kd_ctoken_is(&t[1], "dev_fmt"))) {
		set_wrap(sc, kd_ctoken_is(&t[1], "pr_fmt") ? &sc->pr : &sc->dev, t, n);
		return;
	}
	if (n >= 3 && t[2].t == KD_CTOK_PUNCT && *t[2].s == '(' && t[2].s == t[1].s + t[1].n) {
		if (sc->local || kd_csource_macros_new(&sc->local) == 0)
			kd_csource_macros_define(sc->local, sc->global, pp);
		return;
	}
	if (t[1].n >= sizeof(m->name))
		return;
	if (n == 3 && t[2].t == KD_CTOK_NUM && t[2].n < sizeof(buf)) {
		memcpy(buf, t[2].s, t[2].n);
		at = t[2].n;
		number = true;
	} else if (!(t[2].t == KD_CTOK_STRING || t[2].t == KD_CTOK_IDENT) ||
		   !kd_csource_eval(sc, t + 2, n - 2, buf, &at)) {
		return;
	}
	/*
	 * A second definition is the #else branch of an #if: replace the
	 * first, as call_args() keeps the #else branch (the option off).
	 */
	m = (struct kd_cmacro *)find_macro(sc, t[1].s, t[1].n);
	if (!m && sc->nmacros >= MACROS_MAX)
		return;
	{
		char *v = malloc(at + 1);

		if (!v)
			return;
		memcpy(v, buf, at);
		if (m) {
			free(m->val);
		} else {
			m = &sc->macro[sc->nmacros++];
			memcpy(m->name, t[1].s, t[1].n);
			m->name[t[1].n] = '\0';
		}
		m->val = v;
		m->len = at;
		m->number = number;
	}
}
