/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * csource-internal.h - what the pieces of the C source scanner share: the
 * lexer (csource-lex.c), the wrapper macros (csource-macro.c), the
 * constant strings (csource-const.c) and the call finder (csource.c).
 * Not installed; see csource.h for the API.
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

/*
 * What the call finder (csource.c) and the constant evaluator
 * (csource-const.c) share: the state of one scan of a file.
 */
#define FMT_MAX		4096
#define MACROS_MAX	128

/* A string macro of the file: #define NAME "text" (or KBUILD_MODNAME). */
struct kd_cmacro {
	char name[48];
	char *val;
	size_t len;
	bool number;	/* #define NAME 42: text only inside __stringify() */
};

/* How a format is wrapped: pr_fmt() or dev_fmt() of the file. */
struct kd_cwrap {
	char *pre, *post;
	size_t pre_len, post_len;
	bool bad;		/* defined, but not as constants around fmt */
};

struct kd_cscan {
	const char *file, *module;
	const char *path;	/* of @file on disk, for #include "x.h"; may be NULL */
	char basename[64];	/* KBUILD_BASENAME */
	unsigned int depth;	/* of #include */
	struct kd_cmacro macro[MACROS_MAX];
	unsigned int nmacros;
	struct kd_cwrap pr, dev;
	const struct kd_csource_macros *global;
	struct kd_csource_macros *local;	/* the file's own wrappers */
	unsigned int expanding;			/* depth of wrapper expansions */
	char func[128];
	int (*fn)(void *data, const struct kd_csource_msg *m);
	void *data;
	struct kd_csource_stats *st;
};

/**
 * kd_csource_eval() - append to @out (at *@at, within FMT_MAX) the bytes
 * of the constant string expression @t (@n tokens): literals, KERN_*
 * levels, KBUILD_MODNAME/BASENAME, pr_fmt(...), __stringify() and the
 * string macros of @sc.  false when it is not one.
 */
bool kd_csource_eval(const struct kd_cscan *sc, const struct kd_ctoken *t, unsigned int n,
		     char *out, size_t *at);

/**
 * kd_csource_define() - take in the preprocessor line @pp of the file:
 * #define/#undef of pr_fmt()/dev_fmt() and of string macros; a
 * function-like macro goes to the file's wrappers (csource-macro.c).
 */
void kd_csource_define(struct kd_cscan *sc, const struct kd_ctoken *pp);

#endif /* KDMESG_CSOURCE_INTERNAL_H */
