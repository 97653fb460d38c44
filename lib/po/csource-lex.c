// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * csource-lex.c - a lexer for C just good enough to find message calls:
 * strings, comments and preprocessor lines are recognised so that nothing
 * inside them is taken for a call.  See csource-internal.h.
 */
#include <ctype.h>

#include "po/csource-internal.h"

/* Skip the comment at lx->p ("/" "*"), counting its lines. */
static void skip_block_comment(struct kd_clex *lx)
{
	const char *e = lx->p + 2;

	while (e + 1 < lx->end && !(e[0] == '*' && e[1] == '/')) {
		if (*e == '\n')
			lx->line++;
		e++;
	}
	lx->p = e + 1 < lx->end ? e + 2 : lx->end;
}

/* Skip white space and comments; false at the end. */
static bool skip_space(struct kd_clex *lx)
{
	while (lx->p < lx->end) {
		char c = *lx->p;

		if (c == '\n') {
			lx->line++;
			lx->bol = true;
			lx->p++;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			lx->p++;
		} else if (c == '\\' && lx->p + 1 < lx->end && lx->p[1] == '\n') {
			lx->p += 2;
			lx->line++;
		} else if (c == '/' && lx->p + 1 < lx->end && lx->p[1] == '*') {
			skip_block_comment(lx);
		} else if (c == '/' && lx->p + 1 < lx->end && lx->p[1] == '/') {
			while (lx->p < lx->end && *lx->p != '\n')
				lx->p++;
		} else {
			return true;
		}
	}
	return false;
}

/* A quoted literal starting at lx->p (quote @q). */
static void skip_quoted(struct kd_clex *lx, char q)
{
	lx->p++;
	while (lx->p < lx->end && *lx->p != q && *lx->p != '\n') {
		if (*lx->p == '\\' && lx->p + 1 < lx->end) {
			if (lx->p[1] == '\n')
				lx->line++;
			lx->p++;
		}
		lx->p++;
	}
	if (lx->p < lx->end && *lx->p == q)
		lx->p++;
}

void kd_csource_lex_next(struct kd_clex *lx, struct kd_ctoken *t)
{
	const char *s;

	if (!skip_space(lx)) {
		t->t = KD_CTOK_EOF;
		return;
	}
	s = lx->p;
	t->s = s;
	t->line = lx->line;
	if (*s == '#' && lx->bol) {
		/* A preprocessor line, with its continuations. */
		while (lx->p < lx->end && *lx->p != '\n') {
			if (*lx->p == '\\' && lx->p + 1 < lx->end && lx->p[1] == '\n') {
				lx->line++;
				lx->p++;
			} else if (*lx->p == '/' && lx->p + 1 < lx->end && lx->p[1] == '*') {
				/*
				 * A comment may span lines; the newline after it
				 * still ends the line ("#endif /" "* X *" "/").
				 */
				skip_block_comment(lx);
				continue;
			}
			lx->p++;
		}
		t->t = KD_CTOK_PP;
	} else if (isalpha((unsigned char)*s) || *s == '_') {
		while (lx->p < lx->end && (isalnum((unsigned char)*lx->p) || *lx->p == '_'))
			lx->p++;
		t->t = KD_CTOK_IDENT;
		if (lx->p < lx->end && (*lx->p == '"' || *lx->p == '\'') &&
		    ((lx->p - s == 1 && (*s == 'L' || *s == 'u' || *s == 'U')) ||
		     (lx->p - s == 2 && s[0] == 'u' && s[1] == '8'))) {
			char q = *lx->p;

			skip_quoted(lx, q);	/* a wide literal: not a format */
			t->t = KD_CTOK_CHAR;
		}
	} else if (*s == '"' || *s == '\'') {
		skip_quoted(lx, *s);
		t->t = *s == '"' ? KD_CTOK_STRING : KD_CTOK_CHAR;
	} else if (isdigit((unsigned char)*s)) {
		while (lx->p < lx->end && (isalnum((unsigned char)*lx->p) || *lx->p == '.' ||
					   *lx->p == '_'))
			lx->p++;
		t->t = KD_CTOK_NUM;
	} else {
		lx->p++;
		t->t = KD_CTOK_PUNCT;
	}
	lx->bol = false;
	t->n = (size_t)(lx->p - s);
}

