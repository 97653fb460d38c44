/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * csource-internal.h - what the pieces of the C source scanner share: the
 * lexer (csource-lex.c), the wrapper macros (csource-macro.c) and the
 * call finder (csource.c).  Not installed; see csource.h for the API.
 */
#ifndef KDMESG_CSOURCE_INTERNAL_H
#define KDMESG_CSOURCE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <sys/types.h>

#include "po/csource.h"

enum kd_ctok {
	KD_CTOK_EOF, KD_CTOK_IDENT, KD_CTOK_STRING, KD_CTOK_CHAR, KD_CTOK_NUM,
	KD_CTOK_PUNCT, KD_CTOK_PP,
};

struct kd_ctoken {
	enum kd_ctok t;
	const char *s;
	size_t n;
	unsigned int line;
};

struct kd_clex {
	const char *p, *end;
	unsigned int line;
	bool bol;		/* only white space since the last newline */
};

/**
 * kd_csource_lex_next() - the next token of @lx into @t: an identifier, a
 * literal, a number, one punctuation character, or a whole preprocessor
 * line (KD_CTOK_PP, continuations included); comments are skipped.
 */
void kd_csource_lex_next(struct kd_clex *lx, struct kd_ctoken *t);

static inline bool kd_ctoken_is(const struct kd_ctoken *t, const char *s)
{
	return t->t == KD_CTOK_IDENT && t->n == strlen(s) && memcmp(t->s, s, t->n) == 0;
}

/*
 * One token of a call's arguments: 1 for a comma between two of them,
 * -1 for the ')' that ends the call, else 0; @depth counts the brackets.
 */
static inline int kd_ctoken_arg_step(const struct kd_ctoken *t, unsigned int *depth)
{
	if (t->t != KD_CTOK_PUNCT)
		return 0;
	if (*t->s == '(' || *t->s == '[' || *t->s == '{') {
		++*depth;
	} else if (*t->s == ')' || *t->s == ']' || *t->s == '}') {
		if (*depth == 0)
			return -1;
		--*depth;
	} else if (*t->s == ',' && *depth == 0) {
		return 1;
	}
	return 0;
}

/** kd_csource_is_call() - whether identifier @s (@n bytes) names a message call. */
bool kd_csource_is_call(const char *s, size_t n);

struct kd_csource_wrapper;

/**
 * kd_csource_macros_define() - learn from the preprocessor line @pp a
 * function-like macro whose expansion calls a message function (or a
 * wrapper @m or @also knows).  A new definition of a known name replaces
 * it; a plain macro is remembered only where it hides a wrapper of @also.
 * Returns 1 learned, 0 not a wrapper, -ENOMEM, -E2BIG when full.
 */
int kd_csource_macros_define(struct kd_csource_macros *m,
			     const struct kd_csource_macros *also,
			     const struct kd_ctoken *pp);

/**
 * kd_csource_macros_find() - the wrapper named @s (@n bytes) in @m, else
 * in @also (either may be NULL); NULL when none, or when @m defines the
 * name as a plain macro.
 */
const struct kd_csource_wrapper *kd_csource_macros_find(const struct kd_csource_macros *m,
							const struct kd_csource_macros *also,
							const char *s, size_t n);

/**
 * kd_csource_macros_string() - the value of the string macro @s (@n
 * bytes) that the headers learned into @m define (#define NAME "text"),
 * in *@val and *@len.  false when none, or when headers disagree on it.
 */
bool kd_csource_macros_string(const struct kd_csource_macros *m, const char *s, size_t n,
			      const char **val, size_t *len);

/**
 * kd_csource_macros_expand() - read the arguments of a use of @w from @lx
 * (just after its '(', up to and including the closing ')') and write the
 * expansion into @out (@cap bytes, NUL-terminated): parameters replaced,
 * '##' pasted.  Returns the length, or -1 (unbalanced, too long, too few
 * arguments).
 */
ssize_t kd_csource_macros_expand(const struct kd_csource_wrapper *w, struct kd_clex *lx,
				 char *out, size_t cap);

#endif /* KDMESG_CSOURCE_INTERNAL_H */
