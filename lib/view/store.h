/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * store.h - a compact, append-only store of records, for programs that keep
 * a whole log in memory (the --tui viewer).
 *
 * A record is packed into a few bytes of header (variable-length numbers),
 * its text and its dictionary (keys interned once per store), and appended
 * to 2 MiB chunks; a record is addressed by its index, 0 for the first
 * appended.  A million typical records take less memory than their dump.
 * Records are never changed or removed, so an index stays valid for the
 * life of the store.
 */
#ifndef KDMESG_STORE_H
#define KDMESG_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "record/record.h"

struct kd_store;

/** kd_store_new() - an empty store.  Returns 0 or -ENOMEM. */
int kd_store_new(struct kd_store **out);

/** kd_store_free() - release @st and every record in it; NULL is fine. */
void kd_store_free(struct kd_store *st);

/**
 * kd_store_append() - copy @rec into the store as the record after the
 * last one.  Returns 0, -ENOMEM, or -E2BIG for a record larger than a
 * chunk (the readers never produce one: they cut at KD_RECORD_MAX).
 */
int kd_store_append(struct kd_store *st, const struct kd_record *rec);

/** kd_store_count() - how many records were appended. */
size_t kd_store_count(const struct kd_store *st);

/**
 * kd_store_get() - unpack record @idx (< kd_store_count()) into @rec.
 * The text is lent from the store (kd_record_ref_text(); valid while
 * the store lives), with a NUL byte after its text_len bytes that
 * text_len does not count; the dictionary is copied
 * into @rec's reused buffers.  Returns 0, -ENOMEM, or -ERANGE for an
 * index past the end.
 */
int kd_store_get(const struct kd_store *st, size_t idx, struct kd_record *rec);

/**
 * kd_store_level() - record @idx's level (0..7) or KD_NO_LEVEL, without
 * unpacking it: jumps and level filters run over the whole log.
 */
int kd_store_level(const struct kd_store *st, size_t idx);

/**
 * kd_store_bytes() - bytes the store holds (its chunks, the last one as
 * far as it is used, the index, the key table), for the memory
 * measurements of bench/ and the tests.
 */
size_t kd_store_bytes(const struct kd_store *st);

#endif /* KDMESG_STORE_H */
