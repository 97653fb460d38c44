// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * store.c - the compact append-only record store (see store.h).
 *
 * Layout of one packed record, numbers as LEB128 varints:
 *   seq + 1 (0: none) | zigzag(ts) + 1 (0: none) | facility + 1 |
 *   flags << 2 | text origin | host id (0: none) | wall clock + 1 (0: none) |
 *   caller length, caller bytes | text length,
 *   text bytes, a NUL | dictionary count, then per entry: key id << 2 | origin
 *   (key id 0: key inline as length and bytes, else entry id - 1 of the
 *   key table), value length, value bytes.
 * Kernel records share a handful of keys (SUBSYSTEM, CODE_FILE, ...), so
 * interning them saves most of the dictionary's bytes after the values.
 * Hosts (a journal's machines and boots, record/host.h) are the source's:
 * the store keeps a table of pointers to them, so the source must outlive
 * the store's records.
 * The per-record index holds the offset (chunk << CHUNK_SHIFT | position)
 * and, in a byte array of its own, the level, which jumps and level
 * filters scan over the whole log without unpacking anything.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "view/store.h"

#define CHUNK_SHIFT	21
#define CHUNK_SIZE	((size_t)1 << CHUNK_SHIFT)
/* Keys beyond this many distinct ones are stored inline (hostile input). */
#define KEYS_MAX	255
/* A varint of a 64-bit number takes at most 10 bytes. */
#define VARINT_MAX	10

struct kd_store {
	char **chunks;
	size_t nchunks, chunks_cap;
	size_t used;		/* bytes used in the last chunk */

	uint64_t *offs;		/* per record: chunk << CHUNK_SHIFT | position */
	uint8_t *levels;	/* per record: level + 1, 0 for none */
	size_t count, cap;

	char *keys[KEYS_MAX];
	size_t key_len[KEYS_MAX];
	size_t nkeys;
	size_t key_bytes;

	const struct kd_host **hosts;	/* id - 1 -> host */
	size_t nhosts;
};

/* The id of @h (0 for none), added on first sight; -1 without memory. */
static long host_id(struct kd_store *st, const struct kd_host *h)
{
	const struct kd_host **v;

	if (!h)
		return 0;
	for (size_t i = st->nhosts; i-- > 0;)
		if (st->hosts[i] == h)
			return (long)i + 1;
	v = realloc(st->hosts, (st->nhosts + 1) * sizeof(*v));
	if (!v)
		return -1;
	st->hosts = v;
	v[st->nhosts++] = h;
	return (long)st->nhosts;
}

int kd_store_new(struct kd_store **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

void kd_store_free(struct kd_store *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->nchunks; i++)
		free(st->chunks[i]);
	for (size_t i = 0; i < st->nkeys; i++)
		free(st->keys[i]);
	free(st->chunks);
	free(st->offs);
	free(st->levels);
	free(st->hosts);
	free(st);
}

size_t kd_store_count(const struct kd_store *st)
{
	return st->count;
}

size_t kd_store_bytes(const struct kd_store *st)
{
	/* The last chunk as far as it is used (with huge pages it is resident
	 * whole: at most 2 MiB more, whatever the size of the log). */
	size_t last = st->nchunks ? (st->used + 4095) / 4096 * 4096 : 0;

	return (st->nchunks ? (st->nchunks - 1) * CHUNK_SIZE + last : 0) +
	       st->chunks_cap * sizeof(char *) +
	       st->cap * (sizeof(uint64_t) + 1) + st->key_bytes + sizeof(*st);
}

int kd_store_level(const struct kd_store *st, size_t idx)
{
	return idx < st->count ? (int)st->levels[idx] - 1 : KD_NO_LEVEL;
}

static char *put_varint(char *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (char)(v | 0x80);
		v >>= 7;
	}
	*p++ = (char)v;
	return p;
}

/* Decoding trusts the bytes: only put_varint() wrote them. */
static const char *get_varint(const char *p, uint64_t *v)
{
	uint64_t r = 0;
	unsigned int shift = 0;
	unsigned char c;

	do {
		c = (unsigned char)*p++;
		r |= (uint64_t)(c & 0x7f) << shift;
		shift += 7;
	} while (c & 0x80);
	*v = r;
	return p;
}

/* The key's table id + 1, 0 when it is to be stored inline. */
static size_t key_id(struct kd_store *st, const char *key, size_t len)
{
	char *copy;

	for (size_t i = 0; i < st->nkeys; i++)
		if (st->key_len[i] == len && memcmp(st->keys[i], key, len) == 0)
			return i + 1;
	if (st->nkeys == KEYS_MAX || !(copy = malloc(len + 1)))
		return 0;
	memcpy(copy, key, len);
	copy[len] = '\0';
	st->keys[st->nkeys] = copy;
	st->key_len[st->nkeys] = len;
	st->key_bytes += len + 1;
	return ++st->nkeys;
}

/*
 * A chunk, aligned to its size (2 MiB) and offered to transparent huge
 * pages (Debian's default mode is madvise): one page fault then maps a
 * whole chunk, where 512 faults of 4 KiB pages took most of the time of
 * reading a million records into the store (bench/README.md).
 */
static char *chunk_new(void)
{
	void *p;

	if (posix_memalign(&p, CHUNK_SIZE, CHUNK_SIZE) != 0)
		return NULL;
#ifdef MADV_HUGEPAGE
	madvise(p, CHUNK_SIZE, MADV_HUGEPAGE);
#endif
	return p;
}

/* Room for @need bytes at the end of the last chunk, or NULL. */
static char *reserve(struct kd_store *st, size_t need)
{
	if (st->nchunks && CHUNK_SIZE - st->used >= need)
		return st->chunks[st->nchunks - 1] + st->used;
	if (st->nchunks == st->chunks_cap) {
		size_t cap = st->chunks_cap ? st->chunks_cap * 2 : 16;
		char **c = realloc(st->chunks, cap * sizeof(*c));

		if (!c)
			return NULL;
		st->chunks = c;
		st->chunks_cap = cap;
	}
	st->chunks[st->nchunks] = chunk_new();
	if (!st->chunks[st->nchunks])
		return NULL;
	st->nchunks++;
	st->used = 0;
	return st->chunks[st->nchunks - 1];
}

static int grow_index(struct kd_store *st)
{
	size_t cap = st->cap ? st->cap * 2 : 1024;
	uint64_t *o = realloc(st->offs, cap * sizeof(*o));
	uint8_t *l;

	if (!o)
		return -ENOMEM;
	st->offs = o;
	l = realloc(st->levels, cap);
	if (!l)
		return -ENOMEM;
	st->levels = l;
	st->cap = cap;
	return 0;
}

static uint64_t zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

int kd_store_append(struct kd_store *st, const struct kd_record *rec)
{
	size_t caller_len = strnlen(rec->caller, sizeof(rec->caller) - 1);
	size_t need = 8 * VARINT_MAX + caller_len + rec->text_len + 1;
	size_t ids[KD_DICT_MAX];
	long host = host_id(st, rec->host);
	char *start, *p;

	if (host < 0)
		return -ENOMEM;
	for (size_t i = 0; i < rec->dict_len && i < KD_DICT_MAX; i++) {
		const struct kd_dict_entry *e = &rec->dict[i];
		size_t klen = strlen(e->key);

		ids[i] = key_id(st, e->key, klen);
		need += 3 * VARINT_MAX + e->value_len + (ids[i] ? 0 : klen);
	}
	if (need > CHUNK_SIZE)
		return -E2BIG;
	if (st->count == st->cap && grow_index(st) < 0)
		return -ENOMEM;
	start = p = reserve(st, need);
	if (!p)
		return -ENOMEM;

	p = put_varint(p, rec->seq == KD_NO_SEQ ? 0 : rec->seq + 1);
	p = put_varint(p, rec->ts_usec == KD_NO_TIME ? 0 : zigzag(rec->ts_usec) + 1);
	p = put_varint(p, (uint64_t)(rec->facility + 1));
	/* The text's origin (lib/record/record.h) rides above the flags. */
	p = put_varint(p, (uint64_t)rec->flags << 2 | (rec->text_origin & 3));
	p = put_varint(p, (uint64_t)host);
	p = put_varint(p, rec->realtime_usec == KD_NO_TIME ? 0 : zigzag(rec->realtime_usec) + 1);
	*p++ = (char)caller_len;
	memcpy(p, rec->caller, caller_len);
	p += caller_len;
	p = put_varint(p, rec->text_len);
	if (rec->text_len)	/* a record without text has text NULL */
		memcpy(p, rec->text, rec->text_len);
	p += rec->text_len;
	/* Lent text ends in a NUL (regexec() under sanitizers reads up to one). */
	*p++ = '\0';
	p = put_varint(p, rec->dict_len);
	for (size_t i = 0; i < rec->dict_len && i < KD_DICT_MAX; i++) {
		const struct kd_dict_entry *e = &rec->dict[i];

		/* The entry's origin rides below the key id. */
		p = put_varint(p, (uint64_t)ids[i] << 2 | (e->origin & 3));
		if (!ids[i]) {
			size_t klen = strlen(e->key);

			p = put_varint(p, klen);
			memcpy(p, e->key, klen);
			p += klen;
		}
		p = put_varint(p, e->value_len);
		memcpy(p, e->value, e->value_len);
		p += e->value_len;
	}

	st->offs[st->count] = (uint64_t)(st->nchunks - 1) << CHUNK_SHIFT | st->used;
	st->levels[st->count] = (uint8_t)(rec->level >= 0 && rec->level < 8 ?
					  rec->level + 1 : 0);
	st->count++;
	st->used += (size_t)(p - start);
	return 0;
}

int kd_store_get(const struct kd_store *st, size_t idx, struct kd_record *rec)
{
	const char *p;
	uint64_t v, n, len;
	unsigned char text_origin, origin;
	int rc;

	if (idx >= st->count)
		return -ERANGE;
	p = st->chunks[st->offs[idx] >> CHUNK_SHIFT] +
	    (st->offs[idx] & (CHUNK_SIZE - 1));
	kd_record_reset(rec);
	p = get_varint(p, &v);
	rec->seq = v ? v - 1 : KD_NO_SEQ;
	p = get_varint(p, &v);
	if (v) {
		v--;
		rec->ts_usec = (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
	}
	p = get_varint(p, &v);
	rec->facility = (int)v - 1;
	rec->level = (int)st->levels[idx] - 1;
	p = get_varint(p, &v);
	rec->flags = (unsigned int)(v >> 2);
	text_origin = (unsigned char)(v & 3);
	p = get_varint(p, &v);
	rec->host = v && v <= st->nhosts ? st->hosts[v - 1] : NULL;
	p = get_varint(p, &v);
	if (v) {
		v--;
		rec->realtime_usec = (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
	}
	len = (unsigned char)*p++;
	memcpy(rec->caller, p, len);
	rec->caller[len] = '\0';
	p += len;
	p = get_varint(p, &len);
	kd_record_ref_text(rec, p, len);
	rec->text_origin = text_origin;
	p += len + 1;
	p = get_varint(p, &n);
	for (uint64_t i = 0; i < n; i++) {
		const char *key;
		size_t klen;

		p = get_varint(p, &v);
		origin = (unsigned char)(v & 3);
		v >>= 2;
		if (v) {
			key = st->keys[v - 1];
			klen = st->key_len[v - 1];
		} else {
			p = get_varint(p, &len);
			key = p;
			klen = len;
			p += len;
		}
		p = get_varint(p, &len);
		rc = kd_record_dict_add(rec, key, klen, p, len);
		if (rc < 0)
			return rc;
		rec->dict[rec->dict_len - 1].origin = origin;
		p += len;
	}
	return 0;
}
