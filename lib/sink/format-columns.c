// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * format-columns.c - the columns dmesg's text output puts before a
 * record's text when asked: the host name when records of several
 * machines are shown, and --location's source position.  Both are bytes
 * of the record (journal, kernel), escaped like the text.
 */
#include <stdbool.h>
#include <string.h>

#include "record/field.h"
#include "record/host.h"
#include "sink/format-internal.h"

/*
 * The host column when records of several machines are shown: the
 * record's host name (journal bytes: escaped like the text) and a space,
 * "-" when it has none.  Returns the bytes it added, for -p's indent.
 */
int kd_format_put_host(const struct kd_format *f, struct kd_escape_buf *line,
		       const struct kd_record *rec)
{
	const char *h = rec->host && rec->host->hostname[0] ? rec->host->hostname : "-";
	size_t before = line->len;

	kd_escape_append(line, h, strlen(h), 0, f->opts.noescape);
	kd_escape_buf_put(line, " ", 1);
	return (int)(line->len - before);
}

/*
 * --location: "file:line function() " before the text, from the kernel's
 * CODE_FILE, CODE_LINE and CODE_FUNC (kernel-supplied bytes: escaped like
 * the text).  Nothing for a record without them.
 */
void kd_format_put_location(const struct kd_format *f, struct kd_escape_buf *line,
			    const struct kd_record *rec)
{
	const struct kd_dict_entry *file = kd_record_dict_get(rec, KD_KEY_CODE_FILE);
	const struct kd_dict_entry *ln = kd_record_dict_get(rec, KD_KEY_CODE_LINE);
	const struct kd_dict_entry *fn = kd_record_dict_get(rec, KD_KEY_CODE_FUNC);
	bool noesc = f->opts.noescape;

	if (file) {
		kd_escape_append(line, file->value, file->value_len, 0, noesc);
		if (ln) {
			kd_escape_buf_put(line, ":", 1);
			kd_escape_append(line, ln->value, ln->value_len, 0, noesc);
		}
		kd_escape_buf_put(line, " ", 1);
	}
	if (fn) {
		kd_escape_append(line, fn->value, fn->value_len, 0, noesc);
		kd_escape_buf_put(line, "() ", 3);
	}
}
