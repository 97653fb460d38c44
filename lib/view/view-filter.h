/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * view-filter.h - the filters a viewer user edits live: the least severe
 * level shown, kernel or user-space records, and a list of patterns on the
 * text (keep or drop, regular expressions) and on the fields file, function,
 * module and subsystem (globs).  As on the command line, enabled patterns
 * of one kind OR, different kinds AND; a record that lacks a field never
 * matches a pattern on it.  Each pattern can be switched off and on
 * without being forgotten (the filter panel).
 */
#ifndef KDMESG_VIEW_FILTER_H
#define KDMESG_VIEW_FILTER_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

#include "match/match.h"
#include "record/record.h"

enum kd_vfilter_kind {
	KD_VF_TEXT_IN,		/* keep records whose text matches a regex */
	KD_VF_TEXT_OUT,		/* drop records whose text matches a regex */
	KD_VF_FILE,		/* CODE_FILE, as --code-file (a trailing part, a directory) */
	KD_VF_FUNC,		/* CODE_FUNC, glob */
	KD_VF_MODULE,		/* MODULE, '-' and '_' alike (no aliases) */
	KD_VF_SUBSYSTEM,	/* SUBSYSTEM, glob */
	KD_VF__COUNT
};

enum kd_vfilter_facility {
	KD_VF_FAC_ALL,
	KD_VF_FAC_KERNEL,	/* facility kern only */
	KD_VF_FAC_USER,		/* every other facility */
};

#define KD_VFILTER_MAX	16

struct kd_vfilter_item {
	enum kd_vfilter_kind kind;
	char *pattern;
	bool enabled;
	struct kd_match *match;	/* the test (lib/match/match.h) */
};

struct kd_filter;

struct kd_vfilter {
	int max_level;		/* show levels 0..max_level; 7: all (and none) */
	enum kd_vfilter_facility facility;
	struct kd_vfilter_item items[KD_VFILTER_MAX];
	size_t n;
	/*
	 * The command line's filter (lib/match/filter.h; not owned), applied
	 * here rather than when reading, so that the filter panel can switch
	 * it off (@base_enabled) or drop it (@base NULL) and bring back what
	 * it hid.  @base_desc says what it is, for the status line and panel.
	 */
	const struct kd_filter *base;
	const char *base_desc;
	bool base_enabled;
};

/** kd_vfilter_init() - a filter that lets everything through. */
void kd_vfilter_init(struct kd_vfilter *f);

/** kd_vfilter_free() - release the patterns; @f is then empty. */
void kd_vfilter_free(struct kd_vfilter *f);

/**
 * kd_vfilter_add() - add an enabled pattern of @kind.  Text patterns are
 * POSIX extended regular expressions, case-insensitive unless they hold
 * an upper-case letter (journalctl's "smart case").  Returns 0, -EINVAL
 * for a regex that does not compile (*@f unchanged), -ENOSPC when
 * KD_VFILTER_MAX patterns are set, or -ENOMEM.
 */
int kd_vfilter_add(struct kd_vfilter *f, enum kd_vfilter_kind kind,
		   const char *pattern);

/** kd_vfilter_remove() - forget pattern @i (indices above it move down). */
void kd_vfilter_remove(struct kd_vfilter *f, size_t i);

/** kd_vfilter_is_empty() - true when @f lets every record through. */
bool kd_vfilter_is_empty(const struct kd_vfilter *f);

/** kd_vfilter_needs_record() - true when matching needs more than the level. */
bool kd_vfilter_needs_record(const struct kd_vfilter *f);

/** kd_vfilter_level_ok() - whether a record of @level passes the level part. */
static inline bool kd_vfilter_level_ok(const struct kd_vfilter *f, int level)
{
	return f->max_level >= 7 || (level >= 0 && level <= f->max_level);
}

/** kd_vfilter_match() - true when @rec passes every part of @f. */
bool kd_vfilter_match(const struct kd_vfilter *f, const struct kd_record *rec);

/**
 * kd_vfilter_kind_name() - an untranslated label for @kind ("text",
 * "file", ...), marked N_() for the front end to translate.
 */
const char *kd_vfilter_kind_name(enum kd_vfilter_kind kind);

/**
 * kd_regex_compile() - compile @pattern as the viewer does (extended,
 * smart case; @nosub: without match positions).  Returns 0 or -EINVAL.
 */
int kd_regex_compile(regex_t *re, const char *pattern, bool nosub);

/**
 * kd_regex_find() - the first match of @re in the @len bytes at @s at or
 * after @from: true and its span in [*@so, *@eo), or false.  The bytes
 * may hold NUL bytes (REG_STARTEND), but @s[@len] must be a NUL byte:
 * regexec() under AddressSanitizer reads up to the first one.
 */
bool kd_regex_find(const regex_t *re, const char *s, size_t len, size_t from,
		   size_t *so, size_t *eo);

#endif /* KDMESG_VIEW_FILTER_H */
