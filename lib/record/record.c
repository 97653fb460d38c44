// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * record.c - construction and ownership of struct kd_record.
 *
 * Records are reused across reads (kd_record_reset) so that draining a
 * million-record dump does not allocate per record.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "record/record.h"
#include "shared/copyshort.h"

void kd_record_init(struct kd_record *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->seq = KD_NO_SEQ;
	rec->facility = KD_NO_FACILITY;
	rec->level = KD_NO_LEVEL;
	rec->ts_usec = KD_NO_TIME;
	rec->realtime_usec = KD_NO_TIME;
}

void kd_record_free(struct kd_record *rec)
{
	for (size_t i = 0; i < rec->dict_cap; i++)
		free(rec->dict[i].own);
	free(rec->text_own);
	free(rec->dict);
	kd_record_init(rec);
}

/*
 * The text buffer only grows: a reader reuses one record for a whole dump,
 * and reallocating to the exact size on every record was a fifth of the
 * time spent reading a large -F file.
 */
int kd_record_set_text(struct kd_record *rec, const char *text, size_t len)
{
	if (len + 1 > rec->text_cap) {
		size_t cap = rec->text_cap ? rec->text_cap : 256;
		char *p;

		while (cap < len + 1)
			cap *= 2;
		p = realloc(rec->text_own, cap);
		if (!p)
			return -ENOMEM;
		rec->text_own = p;
		rec->text_cap = cap;
	}
	/* memmove: @text may be a reference into this very buffer. */
	memmove(rec->text_own, text, len);
	rec->text_own[len] = '\0';
	rec->text = rec->text_own;
	rec->text_len = len;
	rec->text_plain = false;
	rec->text_nl = false;
	rec->text_pre = 0;
	return 0;
}

int kd_record_dict_grow(struct kd_record *rec)
{
	size_t cap = rec->dict_cap ? rec->dict_cap * 2 : 4;
	struct kd_dict_entry *e = realloc(rec->dict, cap * sizeof(*e));

	if (!e)
		return -ENOMEM;
	/* New slots own no buffer yet. */
	memset(e + rec->dict_cap, 0, (cap - rec->dict_cap) * sizeof(*e));
	rec->dict = e;
	rec->dict_cap = cap;
	return 0;
}

int kd_record_dict_add(struct kd_record *rec, const char *key, size_t key_len,
		       const char *value, size_t value_len)
{
	struct kd_dict_entry *e;
	size_t need;

	if (rec->dict_len >= KD_DICT_MAX)
		return -E2BIG;
	if (rec->dict_len == rec->dict_cap && kd_record_dict_grow(rec) < 0)
		return -ENOMEM;
	e = &rec->dict[rec->dict_len];
	/* One block: key, NUL, value, NUL; reused while it is big enough. */
	need = key_len + value_len + 2;
	if (need > e->buf_cap) {
		size_t cap = need < 64 ? 64 : need;
		char *p = malloc(cap);

		if (!p)
			return -ENOMEM;
		free(e->own);
		e->own = p;
		e->buf_cap = cap;
	}
	/* Short pieces (a stage's key, an argument): no memcpy() calls. */
	e->key = e->own;
	kd_copy_short(e->key, key, key_len);
	e->key[key_len] = '\0';
	e->value = e->key + key_len + 1;
	kd_copy_short(e->value, value, value_len);
	e->value[value_len] = '\0';
	e->value_len = value_len;
	e->origin = KD_ORIGIN_KERNEL;
	e->key_plain = 0;
	rec->dict_len++;
	return 0;
}

const struct kd_dict_entry *kd_record_dict_get(const struct kd_record *rec,
					       const char *key)
{
	/* The first byte settles most keys without a call (ARGn, MODULE, FORMAT...). */
	for (size_t i = 0; i < rec->dict_len; i++)
		if (rec->dict[i].key[0] == key[0] && strcmp(rec->dict[i].key, key) == 0)
			return &rec->dict[i];
	return NULL;
}

int kd_record_copy(struct kd_record *dst, const struct kd_record *src)
{
	int rc;

	kd_record_reset(dst);
	rc = kd_record_set_text(dst, src->text ? src->text : "", src->text_len);
	if (rc)
		return rc;
	for (size_t i = 0; i < src->dict_len; i++) {
		const struct kd_dict_entry *e = &src->dict[i];

		rc = kd_record_dict_add(dst, e->key, strlen(e->key),
					e->value, e->value_len);
		if (rc)
			return rc;
		dst->dict[i].origin = e->origin;
		dst->dict[i].key_plain = e->key_plain;
	}
	dst->seq = src->seq;
	dst->facility = src->facility;
	dst->level = src->level;
	dst->ts_usec = src->ts_usec;
	dst->flags = src->flags;
	dst->text_plain = src->text_plain;
	dst->text_origin = src->text_origin;
	memcpy(dst->caller, src->caller, sizeof(dst->caller));
	dst->realtime_usec = src->realtime_usec;
	dst->host = src->host;
	return 0;
}

bool kd_record_same(const struct kd_record *a, const struct kd_record *b)
{
	if (a->seq != b->seq || a->facility != b->facility ||
	    a->level != b->level || a->ts_usec != b->ts_usec ||
	    a->realtime_usec != b->realtime_usec || a->host != b->host ||
	    a->flags != b->flags || strcmp(a->caller, b->caller) ||
	    a->text_len != b->text_len ||
	    (a->text_len && memcmp(a->text, b->text, a->text_len)) ||
	    a->text_origin != b->text_origin || a->dict_len != b->dict_len)
		return false;
	for (size_t i = 0; i < a->dict_len; i++)
		if (strcmp(a->dict[i].key, b->dict[i].key) ||
		    a->dict[i].origin != b->dict[i].origin ||
		    a->dict[i].value_len != b->dict[i].value_len ||
		    memcmp(a->dict[i].value, b->dict[i].value, a->dict[i].value_len))
			return false;
	return true;
}
