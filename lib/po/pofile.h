/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pofile.h - read a gettext PO file entry by entry, with the line
 * numbers a checker reports.  Obsolete entries ("#~") are skipped; the
 * header entry (empty msgid) is passed on like any other.
 */
#ifndef KDMESG_POFILE_H
#define KDMESG_POFILE_H

#include <stdbool.h>
#include <stddef.h>

struct kd_po_entry {
	const char *ctx;	/* NULL without msgctxt */
	const char *msgid;	/* unescaped, NUL-terminated */
	size_t msgid_len;
	const char *msgstr;	/* the first msgstr (msgstr[0] for plurals) */
	size_t msgstr_len;
	unsigned int line;	/* of the msgid keyword */
	unsigned int msgstr_line;
	bool fuzzy;
	bool c_format;		/* flagged c-format */
	bool plural;
};

/**
 * kd_po_read() - call @fn for each entry of the @len bytes of PO text.
 * @fn returns 0 or a negative errno that stops the reading.  Returns 0,
 * @fn's error, or -EINVAL for a syntax error, with its line in *@err_line.
 */
int kd_po_read(const char *text, size_t len,
	       int (*fn)(void *data, const struct kd_po_entry *e), void *data,
	       unsigned int *err_line);

#endif /* KDMESG_POFILE_H */
