// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * csource-kbuild.c - KBUILD_MODNAME of an object from its directory's
 * Kbuild Makefile ("e1000e-objs := netdev.o ..." makes netdev.o part of
 * e1000e), as Kbuild names modules.  Apart from the C scanner: it reads
 * Makefiles, not C.  See csource.h.
 */
#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "po/csource.h"
#include "shared/modname.h"

/* Whether @rhs holds the word @obj.o (at a word start: after space or '/'). */
static bool lists_object(const char *rhs, size_t n, const char *obj)
{
	size_t l = strlen(obj);

	for (size_t i = 0; i + l + 2 <= n; i++) {
		if ((i == 0 || rhs[i - 1] == ' ' || rhs[i - 1] == '\t' || rhs[i - 1] == '=') &&
		    memcmp(rhs + i, obj, l) == 0 && rhs[i + l] == '.' && rhs[i + l + 1] == 'o' &&
		    (i + l + 2 == n || isspace((unsigned char)rhs[i + l + 2]) ||
		     rhs[i + l + 2] == '\\'))
			return true;
	}
	return false;
}

void kd_csource_modname(const char *mk, size_t len, const char *obj, char *out, size_t cap)
{
	const char *p = mk, *end = mk + len;
	const char *best = obj;
	size_t best_len = strlen(obj);

	while (p < end) {
		const char *e = p, *name_end, *eq;

		/* A logical line: backslash-newline continues it. */
		while (e < end && !(*e == '\n' && (e == p || e[-1] != '\\')))
			e++;
		name_end = p;
		while (name_end < e && (isalnum((unsigned char)*name_end) || *name_end == '_' ||
					*name_end == '-'))
			name_end++;
		eq = memchr(p, '=', (size_t)(e - p));
		if (eq && name_end > p && name_end < eq) {
			/* NAME-y, NAME-objs, NAME-$(CONFIG_X): the last '-' splits. */
			const char *dash = name_end;

			while (dash > p && dash[-1] != '-')
				dash--;
			if (dash > p + 1 &&
			    ((name_end - dash == 1 && *dash == 'y') ||
			     (name_end - dash == 4 && memcmp(dash, "objs", 4) == 0) ||
			     (name_end - dash == 0 && name_end[0] == '$'))) {
				size_t nl = (size_t)(dash - 1 - p);

				if (!(nl == 3 && memcmp(p, "obj", 3) == 0) &&
				    !(nl == 3 && memcmp(p, "lib", 3) == 0) &&
				    lists_object(eq + 1, (size_t)(e - eq - 1), obj)) {
					best = p;
					best_len = nl;
					break;
				}
			}
		}
		p = e < end ? e + 1 : end;
	}
	if (best_len >= cap)
		best_len = cap - 1;
	kd_modname_copy(out, best, best_len);
	out[best_len] = '\0';
}
