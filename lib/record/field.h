/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * field.h - records as named fields: an id for each header field and for
 * each dictionary key the kernel sends (man/kprint.7), any other key by
 * name, and one accessor that hands back a field's bytes and origin.
 * Filters (FIELD=VALUE, --file, --module...), -o verbose, --stats and the
 * viewer address records through it instead of knowing struct kd_record.
 */
#ifndef KDMESG_FIELD_H
#define KDMESG_FIELD_H

#include <stdbool.h>
#include <stddef.h>

#include "record/record.h"

/*
 * The names, for code that needs one as a string (a dictionary look-up,
 * a list of keys): the header names follow the journal's, the dictionary
 * keys are the kernel's (man/kprint.7).  No other file spells them.
 */
#define KD_KEY_SEQNUM		"SEQNUM"
#define KD_KEY_FACILITY		"SYSLOG_FACILITY"
#define KD_KEY_PRIORITY		"PRIORITY"
#define KD_KEY_TIME		"TIME"
#define KD_KEY_CALLER		"CALLER"
#define KD_KEY_MESSAGE		"MESSAGE"
#define KD_KEY_SUBSYSTEM	"SUBSYSTEM"
#define KD_KEY_DEVICE		"DEVICE"
#define KD_KEY_CODE_FILE	"CODE_FILE"
#define KD_KEY_CODE_LINE	"CODE_LINE"
#define KD_KEY_CODE_FUNC	"CODE_FUNC"
#define KD_KEY_MODULE		"MODULE"
#define KD_KEY_FORMAT		"FORMAT"
#define KD_KEY_GROUP		"GROUP"
#define KD_KEY_PARTS		"PARTS"			/* a pr_cont() line's parts */
#define KD_KEY_PV_FORMAT	"PV_FORMAT"		/* the format a wrapper's %pV carried */
#define KD_KEY_TRANSLATED	"MESSAGE_TRANSLATED"	/* the translate stage's */

enum kd_field_id {
	/* The header: always there unless the source lacks it. */
	KD_FIELD_SEQ,		/* "SEQNUM": decimal */
	KD_FIELD_FACILITY,	/* "SYSLOG_FACILITY": decimal 0..127 */
	KD_FIELD_LEVEL,		/* "PRIORITY": decimal 0..7 */
	KD_FIELD_TIME,		/* "TIME": µs since boot, decimal */
	KD_FIELD_CALLER,	/* "CALLER": "T123" / "C1" */
	KD_FIELD_MESSAGE,	/* "MESSAGE": the text */
	/* Dictionary keys with a meaning kdmesg knows. */
	KD_FIELD_SUBSYSTEM,
	KD_FIELD_DEVICE,
	KD_FIELD_CODE_FILE,
	KD_FIELD_CODE_LINE,
	KD_FIELD_CODE_FUNC,
	KD_FIELD_MODULE,
	KD_FIELD_FORMAT,
	KD_FIELD_GROUP,
	/* Any other dictionary key (ARG0, ...), addressed by its name. */
	KD_FIELD_DICT,
	KD_FIELD__COUNT
};

/* The first id that lives in the dictionary. */
#define KD_FIELD_DICT_FIRST	KD_FIELD_SUBSYSTEM

/* Bytes a header field's decimal form needs (kd_field_get()'s @buf). */
#define KD_FIELD_BUF	24

/* A field: its id, and for KD_FIELD_DICT the key (not copied). */
struct kd_field {
	enum kd_field_id id;
	const char *key;
};

/* One field's value as kd_field_get() found it. */
struct kd_field_value {
	const char *data;	/* not NUL-terminated for MESSAGE; use @len */
	size_t len;
	enum kd_origin origin;
};

/**
 * kd_field_lookup() - the field called @name: a header name ("MESSAGE",
 * "PRIORITY", ... as listed in enum kd_field_id), a known dictionary key,
 * or any other string of A-Z, 0-9 and '_' as a dictionary key (@name is
 * then referenced, not copied).  Returns 0, or -EINVAL for an empty or
 * otherwise invalid name.
 */
int kd_field_lookup(const char *name, struct kd_field *out);

/** kd_field_name() - the name of @f ("CODE_FILE", or @f->key). */
const char *kd_field_name(const struct kd_field *f);

/**
 * kd_field_get() - @f's value in @rec.  Header numbers are written in
 * decimal to @buf (KD_FIELD_BUF bytes).  For a dictionary key given
 * more than once, the first value.  Returns true when @rec has the
 * field, false when it does not (a missing field never matches).
 */
bool kd_field_get(const struct kd_record *rec, const struct kd_field *f,
		  struct kd_field_value *out, char buf[KD_FIELD_BUF]);

/**
 * kd_field_dict_key() - the dictionary key @f is stored under, or NULL
 * for header fields.
 */
const char *kd_field_dict_key(const struct kd_field *f);

/** kd_field_has_dict() - whether @rec carries any dictionary entry. */
static inline bool kd_field_has_dict(const struct kd_record *rec)
{
	return rec->dict_len != 0;
}

#endif /* KDMESG_FIELD_H */
