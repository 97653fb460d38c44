/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * view-detail.h - the viewer's detail pane as lines of "label: value",
 * without curses: every field of one record - level, facility, sequence
 * number, the time in each format, caller, flags, the text (and its
 * translation), every dictionary entry with where its value came from.
 * Values are escaped for the terminal as dmesg escapes text; labels are
 * N_() marked for the front end to translate, or dictionary keys, escaped
 * as the values are.
 */
#ifndef KDMESG_VIEW_DETAIL_H
#define KDMESG_VIEW_DETAIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "shared/modinfo.h"
#include "record/record.h"

struct kd_detail_line {
	const char *label;	/* NULL: a further line of the value above */
	bool label_is_key;	/* @label is a dictionary key (escaped): not translated */
	char *own_label;	/* @label when it is an escaped key: freed with the line */
	bool note;		/* @label is a remark on the line above, no value */
	char *value;		/* escaped, NUL-terminated */
};

struct kd_detail {
	struct kd_detail_line *v;
	size_t n, cap;
};

/*
 * What the detail pane shows besides the record: the previous record's
 * stamp (for the delta), the boot time (for wall-clock times; 0: not
 * known), and a translated text (NULL: none).
 */
struct kd_detail_ctx {
	int64_t prev_usec;	/* KD_NO_TIME: no previous record */
	int64_t boot_usec;
	const char *translated;
	size_t translated_len;
	/* libkmod's facts about the record's MODULE, or why there are none. */
	const struct kd_modinfo_facts *module;
	const char *module_note;
};

/**
 * kd_detail_build() - replace @d's lines with those of @rec.
 * Returns 0 or -ENOMEM (the lines so far stay).
 */
int kd_detail_build(struct kd_detail *d, const struct kd_record *rec,
		    const struct kd_detail_ctx *ctx);

/** kd_detail_release() - free @d's lines; @d is then empty. */
void kd_detail_release(struct kd_detail *d);

#endif /* KDMESG_VIEW_DETAIL_H */
