// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * field.c - field names and the one accessor every field-addressing
 * feature goes through (see field.h).  Header names follow the journal's
 * (PRIORITY, SYSLOG_FACILITY, MESSAGE) so that FIELD=VALUE reads like
 * journalctl; dictionary keys are the kernel's own.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "record/field.h"
#include "shared/decimal.h"

static const char *const field_names[KD_FIELD__COUNT] = {
	[KD_FIELD_SEQ] = KD_KEY_SEQNUM,
	[KD_FIELD_FACILITY] = KD_KEY_FACILITY,
	[KD_FIELD_LEVEL] = KD_KEY_PRIORITY,
	[KD_FIELD_TIME] = KD_KEY_TIME,
	[KD_FIELD_CALLER] = KD_KEY_CALLER,
	[KD_FIELD_MESSAGE] = KD_KEY_MESSAGE,
	[KD_FIELD_SUBSYSTEM] = KD_KEY_SUBSYSTEM,
	[KD_FIELD_DEVICE] = KD_KEY_DEVICE,
	[KD_FIELD_CODE_FILE] = KD_KEY_CODE_FILE,
	[KD_FIELD_CODE_LINE] = KD_KEY_CODE_LINE,
	[KD_FIELD_CODE_FUNC] = KD_KEY_CODE_FUNC,
	[KD_FIELD_MODULE] = KD_KEY_MODULE,
	[KD_FIELD_FORMAT] = KD_KEY_FORMAT,
	[KD_FIELD_GROUP] = KD_KEY_GROUP,
	[KD_FIELD_DICT] = NULL,
};

int kd_field_lookup(const char *name, struct kd_field *out)
{
	const char *p;
	int i;

	if (!name || !*name || !out)
		return -EINVAL;
	for (i = 0; i < KD_FIELD_DICT; i++)
		if (strcmp(name, field_names[i]) == 0) {
			out->id = (enum kd_field_id)i;
			out->key = field_names[i];
			return 0;
		}
	/* The kernel's keys are upper-case names; refuse what it never sends. */
	for (p = name; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      *p == '_'))
			return -EINVAL;
	out->id = KD_FIELD_DICT;
	out->key = name;
	return 0;
}

const char *kd_field_name(const struct kd_field *f)
{
	if (f->id == KD_FIELD_DICT || (unsigned int)f->id >= KD_FIELD__COUNT)
		return f->key;
	return field_names[f->id];
}

const char *kd_field_dict_key(const struct kd_field *f)
{
	if (f->id < KD_FIELD_DICT_FIRST || (unsigned int)f->id >= KD_FIELD__COUNT)
		return NULL;
	return f->id == KD_FIELD_DICT ? f->key : field_names[f->id];
}

static bool number(struct kd_field_value *out, char *buf, int64_t v)
{
	out->data = buf;
	out->len = kd_decimal_i64(buf, v);
	out->origin = KD_ORIGIN_KERNEL;
	return true;
}

bool kd_field_get(const struct kd_record *rec, const struct kd_field *f,
		  struct kd_field_value *out, char buf[KD_FIELD_BUF])
{
	const struct kd_dict_entry *e;
	const char *key;

	switch (f->id) {
	case KD_FIELD_SEQ:
		if (rec->seq == KD_NO_SEQ)
			return false;
		out->data = buf;
		out->len = kd_decimal_u64(buf, rec->seq);
		out->origin = KD_ORIGIN_KERNEL;
		return true;
	case KD_FIELD_FACILITY:
		return rec->facility != KD_NO_FACILITY &&
		       number(out, buf, rec->facility);
	case KD_FIELD_LEVEL:
		return rec->level != KD_NO_LEVEL &&
		       number(out, buf, rec->level);
	case KD_FIELD_TIME:
		return rec->ts_usec != KD_NO_TIME &&
		       number(out, buf, rec->ts_usec);
	case KD_FIELD_CALLER:
		if (!rec->caller[0])
			return false;
		out->data = rec->caller;
		out->len = strnlen(rec->caller, sizeof(rec->caller));
		out->origin = KD_ORIGIN_KERNEL;
		return true;
	case KD_FIELD_MESSAGE:
		out->data = rec->text ? rec->text : "";
		out->len = rec->text ? rec->text_len : 0;
		out->origin = (enum kd_origin)rec->text_origin;
		return true;
	default:
		break;
	}
	key = kd_field_dict_key(f);
	if (!key || !(e = kd_record_dict_get(rec, key)))
		return false;
	out->data = e->value;
	out->len = e->value_len;
	out->origin = (enum kd_origin)e->origin;
	return true;
}
