/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nls.h - gettext wrappers for kdmesg's own user-interface strings. */
#ifndef KDMESG_NLS_H
#define KDMESG_NLS_H

#include <libintl.h>
#include <locale.h>

#define _(s)	gettext(s)
#define N_(s)	(s)

#endif /* KDMESG_NLS_H */
