/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record.h - the kernel log record model shared by every reader, filter and
 * writer of kdmesg.
 *
 * A record is what one /dev/kmsg read returns: a header (priority, sequence
 * number, timestamp, flags, caller id), the message text with the kernel's
 * \xNN escapes undone, and the dictionary (" KEY=value" continuation lines)
 * in the order the kernel emitted it.  Records from syslog(2) and from -F
 * files carry less; absent fields are marked as such, never guessed.
 */
#ifndef KDMESG_RECORD_H
#define KDMESG_RECORD_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <stdint.h>

/* Largest record the kernel hands to a /dev/kmsg reader (CONSOLE_EXT_LOG_MAX). */
#define KD_RECORD_MAX		8192
/* The kernel emits at most this many dictionary lines per record. */
#define KD_DICT_MAX		64

/* Longest caller id kept; dmesg 2.42's buffer holds 18 characters. */
#define KD_CALLER_MAX		18

#define KD_NO_SEQ		UINT64_MAX
#define KD_NO_TIME		INT64_MIN
#define KD_NO_LEVEL		(-1)
#define KD_NO_FACILITY		(-1)

/*
 * Where a field's value came from.  Everything a reader puts in a record
 * is KD_ORIGIN_KERNEL; a pipeline stage that adds or rewrites a field
 * (lib/pipeline.h: recovery of call sites on stock kernels, translation)
 * marks it, so that no writer ever shows a derived value as if the
 * kernel had sent it.
 */
enum kd_origin {
	KD_ORIGIN_KERNEL = 0,	/* as the kernel (or the dump) supplied it */
	KD_ORIGIN_RECOVERED,	/* derived by kdmesg (e.g. a call site guessed from the text) */
	KD_ORIGIN_TRANSLATED,	/* the kernel's value, translated */
};

enum kd_record_flags {
	KD_REC_CONT	= 1 << 0,	/* 'c': continuation of the previous record */
	KD_REC_HAS_PRI	= 1 << 1,	/* priority was present in the input */
	/*
	 * seq was read from the input: a kernel sequence number may be
	 * UINT64_MAX, the value of KD_NO_SEQ.
	 */
	KD_REC_HAS_SEQ	= 1 << 2,
};

struct kd_dict_entry {
	/*
	 * NUL-terminated, upper-case as the kernel sends it.  Like @value,
	 * in @own (kd_record_dict_add()) or lent from a reader's input
	 * (kd_record_dict_lend()); never written through by consumers.
	 */
	char *key;
	char *value;		/* unescaped bytes, NUL-terminated */
	size_t value_len;	/* may contain NUL bytes from \x00 escapes */
	unsigned char origin;	/* enum kd_origin; KD_ORIGIN_KERNEL from readers */
	/*
	 * The length of @key when whoever added the entry knew it to be a
	 * key as the kernel sends most, [A-Z][A-Z0-9_]* (a stage's own keys:
	 * FORMAT, ARG0...), so that writers need not look at its bytes;
	 * 0: not known, always correct.  kd_record_dict_add() and
	 * kd_record_dict_lend() set 0; the caller may set it after.
	 */
	unsigned char key_plain;
	/*
	 * The block kd_record_dict_add() copies key and value into, @buf_cap
	 * bytes.  Kept across kd_record_reset() and kd_record_dict_lend()
	 * so a reused record does not allocate per dictionary line.
	 * Managed by record.c only.
	 */
	char *own;
	size_t buf_cap;
};

struct kd_host;

struct kd_record {
	uint64_t seq;		/* KD_NO_SEQ when the source has none */
	int facility;		/* 0..127 or KD_NO_FACILITY */
	int level;		/* 0..7 or KD_NO_LEVEL */
	int64_t ts_usec;	/* microseconds since boot, KD_NO_TIME if absent */
	unsigned int flags;	/* enum kd_record_flags */
	char caller[24];	/* "T123" / "C1", "" when absent; <= KD_CALLER_MAX */

	/*
	 * Message bytes, unescaped, @text_len of them.  NUL-terminated when
	 * the record owns them (kd_record_set_text(), kd_record_copy());
	 * after kd_record_ref_text() they are the reader's input, read-only
	 * and not terminated: use @text_len, never strlen().
	 */
	char *text;
	size_t text_len;
	size_t text_cap;	/* allocated bytes of @text_own; grows, never shrinks */
	/*
	 * A promise that the text writer's escaping (kd_escape_append())
	 * would copy @text unchanged and that it holds no newline, so the
	 * writer can copy it without looking at it again.  Readers learn it
	 * while they split the input anyway and set it for printable ASCII
	 * (0x20 to 0x7e, printable in every locale); the translation stage
	 * for a translation whose parts it checked in the current locale.
	 * false means "not known" and is always correct;
	 * kd_record_set_text() clears it.
	 */
	bool text_plain;
	/*
	 * What a reader knows about lent text, so that the text writer can
	 * copy a line's pieces in one go.  Promises like @text_plain:
	 * false/0 means "not known" and is always correct, and
	 * kd_record_ref_text() and kd_record_set_text() clear them.
	 * @text_nl: text[text_len] is a newline of the same input, so the
	 *   text and the newline the writer ends the line with are one span.
	 * @text_pre: the @text_pre input bytes right before @text are what
	 *   dmesg's default text output prints before this record's text,
	 *   "[%5ld.%06ld] " of @ts_usec (a -F line whose stamp is written
	 *   as dmesg writes it, and no caller id).
	 */
	bool text_nl;
	unsigned char text_pre;
	/*
	 * enum kd_origin of @text.  The header fields (seq, priority, time,
	 * caller id, flags) are always as the reader found them; dictionary
	 * entries carry their own mark.
	 */
	unsigned char text_origin;

	struct kd_dict_entry *dict;
	size_t dict_len;
	size_t dict_cap;	/* entries [dict_len, dict_cap) hold spare buffers */

	/*
	 * The text buffer the record owns (NULL until the first
	 * kd_record_set_text()); @text points here unless it was set with
	 * kd_record_ref_text().  Managed by record.c only.
	 */
	char *text_own;

	/*
	 * The wall-clock time the record was logged at, µs since the epoch,
	 * when the source stores one (the journal's __REALTIME_TIMESTAMP);
	 * KD_NO_TIME otherwise.  Written back unchanged by -o export.
	 */
	int64_t realtime_usec;
	/*
	 * Its machine and boot (record/host.h), owned by the source; NULL
	 * when the source does not say (the running boot, a plain dump).
	 */
	const struct kd_host *host;
};

/*
 * What the readers put in a record (lib/source/kmsg-parse.c, lib/source/syslog-parse.c),
 * for writers that must print what util-linux dmesg prints:
 * - facility/level come from the priority masked as LOG_FAC()/LOG_PRI()
 *   do (facility 0..127); dmesg treats facility >= 24 as unknown (no -x
 *   prefix, rejected by -f/-l).  No priority (syslog lines without a
 *   valid "<pri>"): KD_NO_FACILITY/KD_NO_LEVEL and KD_REC_HAS_PRI clear.
 * - Records from syslog(2) and -F files have seq KD_NO_SEQ.  A line whose
 *   "[time]" is missing or unreadable has ts_usec KD_NO_TIME: dmesg prints
 *   it as "[    0.000000]".  The text may be empty; dmesg then prints just
 *   a newline (no time, no prefix).  Syslog text may hold newlines (lines
 *   without "<pri>" belong to the record above) and is never escaped.
 * - caller is the id without brackets or padding ("T123", "C2").
 */

/** kd_record_has_seq() - does @rec carry a sequence number? */
static inline bool kd_record_has_seq(const struct kd_record *rec)
{
	return (rec->flags & KD_REC_HAS_SEQ) || rec->seq != KD_NO_SEQ;
}

/** kd_record_init() - make @rec an empty record that owns no memory. */
void kd_record_init(struct kd_record *rec);

/** kd_record_reset() - empty @rec for reuse, keeping its allocations. */
static inline void kd_record_reset(struct kd_record *rec)
{
	/*
	 * Field by field, not kd_record_init() and a restore: this runs once
	 * per record, and clearing the whole struct was a visible part of
	 * reading a large dump.  Inline, so that the parsers' own stores
	 * replace these instead of following a call.  The caller id is a
	 * string; only its first byte needs clearing.  Dictionary buffers
	 * stay with their entries for the next record.  A field added to
	 * struct kd_record needs a line here (test-fastpath checks a reset
	 * record against a new one).
	 */
	rec->seq = KD_NO_SEQ;
	rec->facility = KD_NO_FACILITY;
	rec->level = KD_NO_LEVEL;
	rec->ts_usec = KD_NO_TIME;
	rec->flags = 0;
	rec->caller[0] = '\0';
	rec->text_len = 0;
	rec->text_plain = false;
	rec->text_nl = false;
	rec->text_pre = 0;
	rec->text_origin = KD_ORIGIN_KERNEL;
	rec->text = rec->text_own;
	if (rec->text_own)
		rec->text_own[0] = '\0';
	rec->dict_len = 0;
	rec->realtime_usec = KD_NO_TIME;
	rec->host = NULL;
}

/** kd_record_free() - release everything @rec owns; it is then empty. */
void kd_record_free(struct kd_record *rec);

/** kd_record_set_text() - copy @len bytes of @text. Returns 0 or -ENOMEM. */
int kd_record_set_text(struct kd_record *rec, const char *text, size_t len);

/**
 * kd_record_ref_text() - let @rec's text be @len bytes at @text without
 * copying them.  The bytes are not NUL-terminated and must stay valid and
 * unchanged while the record is used (a reader's buffered input,
 * until its next read); kd_record_copy() makes an owned, terminated copy.
 * Clears text_plain, text_nl and text_pre like kd_record_set_text(); the
 * reader sets what it knows afterwards.
 */
static inline void kd_record_ref_text(struct kd_record *rec, const char *text,
				      size_t len)
{
	/* Inline: once per record on the -F/-K fast paths.  Never written through. */
	rec->text = (char *)(uintptr_t)text;
	rec->text_len = len;
	rec->text_plain = false;
	rec->text_nl = false;
	rec->text_pre = 0;
}

/**
 * kd_record_dict_add() - append one dictionary entry (copies both), marked
 * KD_ORIGIN_KERNEL; a stage that derives the entry sets its origin after.
 * Returns 0, -ENOMEM, or -E2BIG past KD_DICT_MAX entries.
 */
int kd_record_dict_add(struct kd_record *rec, const char *key, size_t key_len,
		       const char *value, size_t value_len);

/**
 * kd_dict_index_prefix() - the length of "<word><k>_" at the start of @key
 * (@len bytes), where @word is @wlen bytes and k a decimal number, or 0.
 */
static inline size_t kd_dict_index_prefix(const char *key, size_t len,
					  const char *word, size_t wlen)
{
	size_t d = wlen;

	if (len < wlen + 2 || memcmp(key, word, wlen) != 0)
		return 0;
	while (d < len && key[d] >= '0' && key[d] <= '9')
		d++;
	return d > wlen && d < len && key[d] == '_' ? d + 1 : 0;
}

/**
 * kd_dict_line_prefix() - the length of "LINE<k>_" at the start of @key
 * (@len bytes), or 0: a group stored as one record keys each line's
 * fields so (LINE2_CODE_FUNC, see man/kprint.7).
 */
static inline size_t kd_dict_line_prefix(const char *key, size_t len)
{
	return kd_dict_index_prefix(key, len, "LINE", 4);
}

/** kd_record_dict_grow() - room for one more entry; 0 or -ENOMEM. */
int kd_record_dict_grow(struct kd_record *rec);

/**
 * kd_record_dict_lend() - append one dictionary entry without copying:
 * @key and @value (@value_len bytes) are NUL-terminated bytes of a
 * reader's input that stay valid and unchanged while the record is used,
 * as lent text does (kd_record_ref_text()); kd_record_copy() makes owned
 * copies.  Marked KD_ORIGIN_KERNEL.  The caller checks KD_DICT_MAX.
 * Returns 0 or -ENOMEM.  Inline: once per dictionary line on the -K fast
 * path, where copying each value was most of the cost of reading the
 * dictionary (bench/README.md).
 */
static inline int kd_record_dict_lend(struct kd_record *rec, char *key,
				      char *value, size_t value_len)
{
	struct kd_dict_entry *e;

	if (rec->dict_len == rec->dict_cap && kd_record_dict_grow(rec) < 0)
		return -ENOMEM;
	e = &rec->dict[rec->dict_len++];
	e->key = key;
	e->value = value;
	e->value_len = value_len;
	e->origin = KD_ORIGIN_KERNEL;
	e->key_plain = 0;
	return 0;
}

/** kd_record_dict_get() - the first value for @key, or NULL. */
const struct kd_dict_entry *kd_record_dict_get(const struct kd_record *rec,
					       const char *key);

/** kd_record_copy() - deep copy @src into @dst (which must be initialised). */
int kd_record_copy(struct kd_record *dst, const struct kd_record *src);

/**
 * kd_record_same() - whether @a and @b hold the same record: header,
 * caller id, text bytes and dictionary (keys, values, order), with the
 * origin of each.  What readers promise the writer (text_plain, text_nl,
 * text_pre) and where the text lives are not compared.
 */
bool kd_record_same(const struct kd_record *a, const struct kd_record *b);

#endif /* KDMESG_RECORD_H */
