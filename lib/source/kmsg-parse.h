/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kmsg-parse.h - parse one /dev/kmsg record into struct kd_record.
 *
 * A record is what one read() of /dev/kmsg returns:
 *
 *	pri,seq,usec,flags[,caller=T123][,...];escaped text\n
 *	 KEY=escaped value\n
 *	...
 *
 * The kernel escapes bytes < 0x20, >= 0x7f and '\' as \xNN in the text and
 * in dictionary values; the parser undoes that, so records hold the bytes
 * that were logged.  The same parser serves the live device and -K dumps.
 */
#ifndef KDMESG_KMSG_PARSE_H
#define KDMESG_KMSG_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record/record.h"

/* Bits of *@cut from kd_kmsg_parse(): the record was kept but shortened. */
enum kd_kmsg_cut {
	KD_KMSG_CUT_TEXT	= 1 << 0,	/* text longer than KD_RECORD_MAX */
	KD_KMSG_CUT_DICT	= 1 << 1,	/* more than KD_DICT_MAX entries */
	KD_KMSG_BAD_DICT	= 1 << 2,	/* a dictionary line was unusable */
};

/**
 * kd_kmsg_parse() - parse the record in @buf[0..@len) into @rec.
 * @rec:  reset first by the parser; on success it holds the record.
 * @cut:  set to a mask of enum kd_kmsg_cut (0 when nothing was dropped);
 *        may be NULL.
 *
 * Leading white space is skipped (dumps may put a newline before a NUL).
 * The header must have a numeric priority, sequence number and timestamp
 * and end with ';' before the end of the first line.  A NUL byte ends the
 * record.  Returns 0, -EINVAL for a record that does not parse (rec is
 * then unspecified), or -ENOMEM.
 *
 * For the live device: a text line without its newline (the kernel cut
 * it) loses its last two bytes, as in util-linux dmesg.  A text newline
 * directly followed by another newline keeps one newline in the text, as
 * dmesg -K does.
 */
int kd_kmsg_parse(const char *buf, size_t len, struct kd_record *rec,
		  unsigned int *cut);

/**
 * kd_kmsg_parse_dump() - kd_kmsg_parse() for a record of a saved -K dump:
 * a text without its final newline is kept whole (dmesg -K loses its
 * last two bytes).
 */
int kd_kmsg_parse_dump(const char *buf, size_t len, struct kd_record *rec,
		       unsigned int *cut);

/* @flags of kd_kmsg_parse_simple(). */
enum kd_kmsg_simple_flags {
	KD_KMSG_LEND	= 1 << 0,	/* lend the text (kd_record_ref_text()) */
	/*
	 * The caller never reads @rec->dict: check the dictionary lines
	 * (same *@cut bits) but do not store them.
	 */
	KD_KMSG_NO_DICT	= 1 << 1,
};

/*
 * Dictionary keys a caller reads (kd_kmsg_parse_simple_keys()): at most
 * KD_KMSG_KEYS_MAX, with their lengths, so that the reader compares a
 * line's key only with keys of its length (most lines differ in it),
 * and their first 8 bytes, so that most of those take one word compare.
 */
#define KD_KMSG_KEYS_MAX	16

struct kd_kmsg_keys {
	size_t n;
	uint64_t lens;			/* bit k: a key of k bytes (k < 64) */
	bool long_key;			/* a key of 64 bytes or more */
	unsigned char len[KD_KMSG_KEYS_MAX];
	uint64_t head[KD_KMSG_KEYS_MAX];	/* first 8 bytes, 0-padded */
	const char *name[KD_KMSG_KEYS_MAX];	/* referenced, not copied */
};

/**
 * kd_kmsg_keys_init() - @keys from @names (NULL-terminated; they must
 * outlive @keys).  Returns 0, or -E2BIG for more than KD_KMSG_KEYS_MAX
 * names or a name longer than 255 bytes (the caller then keeps every key).
 */
int kd_kmsg_keys_init(struct kd_kmsg_keys *keys, const char *const *names);

/**
 * kd_kmsg_parse_simple() - the common record of a dump, parsed where it
 * lies: @buf is the start of a record, @end the end of the input read so
 * far.  When the record is a header (starting with a digit), a text of
 * printable ASCII and dictionary lines, none with a backslash, and where
 * it ends does not depend on input not read yet, parses it into @rec
 * exactly as kd_kmsg_parse() would parse the span that the -K splitter
 * cuts (up to a NUL byte, or up to and including the newline before a
 * line that does not start with a blank), sets @rec->text_plain, sets
 * *@cut as kd_kmsg_parse() does, and returns where the next record
 * starts (after that NUL or newline).  Returns NULL for anything else,
 * including allocation failure; @rec is then unspecified and the caller
 * takes the general path (split the record, then kd_kmsg_parse()).  One
 * pass over each line instead of one to split and one to parse.  With
 * KD_KMSG_LEND in @flags the text is not copied (kd_record_ref_text()):
 * it points into [@buf, @end), which must then outlive the record's use;
 * with KD_KMSG_NO_DICT the dictionary is left empty.
 */
const char *kd_kmsg_parse_simple(const char *buf, const char *end,
				 struct kd_record *rec, unsigned int *cut,
				 unsigned int flags);

/**
 * kd_kmsg_parse_simple_keys() - kd_kmsg_parse_simple() with KD_KMSG_NO_DICT
 * for every dictionary line but those whose key is in @keys: a caller
 * that reads a few keys (a --code-file filter) does not pay for copying
 * all of them.  The same *@cut bits.
 */
const char *kd_kmsg_parse_simple_keys(const char *buf, const char *end,
				      struct kd_record *rec, unsigned int *cut,
				      unsigned int flags,
				      const struct kd_kmsg_keys *keys);

/**
 * kd_kmsg_parse_simple_lend() - kd_kmsg_parse_simple() with KD_KMSG_LEND
 * that lends the dictionary too: each entry (kd_record_dict_lend()) points
 * into @buf, which must be writable, where the '=' after its key and the
 * newline after its value are overwritten by NUL once the record parsed.
 * The bytes of a record parsed so are therefore no longer that record:
 * only for a reader that never looks at them again (the -K file reader
 * with KD_SOURCE_LEND_TEXT).  Nothing is written when NULL is returned.
 * With @keys (may be NULL: every key) only those keys are kept, as with
 * kd_kmsg_parse_simple_keys().  The same *@cut bits.
 */
const char *kd_kmsg_parse_simple_lend(char *buf, const char *end,
				      struct kd_record *rec, unsigned int *cut,
				      const struct kd_kmsg_keys *keys);

/**
 * kd_kmsg_unescape() - undo the kernel's \xNN escapes.
 * Copies at most @max bytes of the unescaped form of @src[0..@len) to @dst
 * and returns how many it wrote; *@more is set when output was dropped
 * because of @max.  Anything that is not a complete \xNN escape is kept
 * as is.
 */
size_t kd_kmsg_unescape(char *dst, size_t max, const char *src, size_t len,
			int *more);

#endif /* KDMESG_KMSG_PARSE_H */
