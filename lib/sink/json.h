/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json.h - a pretty-printing JSON writer that lays out objects, arrays and
 * values exactly as util-linux's (libsmartcols-style) writer does, so
 * `kdmesg -J` matches `dmesg -J` byte for byte: three spaces per level,
 * "},{" between array members, a newline after the root object.
 */
#ifndef KDMESG_JSON_H
#define KDMESG_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "shared/escape.h"

enum kd_json_type {
	KD_JSON_OBJECT,
	KD_JSON_ARRAY,
	KD_JSON_VALUE,
};

struct kd_json {
	struct kd_escape_buf *out;	/* the caller's buffer in front of its stream */
	int indent;		/* current nesting depth */
	bool after_close;	/* a member was completed: next one needs ',' */
	bool ready;		/* kd_json_init() was called */
};

/**
 * kd_json_init() - start writing into @out at depth 0.  The bytes reach
 * @out's stream when the buffer fills or the caller flushes it.
 */
void kd_json_init(struct kd_json *j, struct kd_escape_buf *out);

/**
 * kd_json_open() - open an object, array or value named @name (NULL for
 * an array member or the root).  A value must be followed by its text and
 * kd_json_close(j, KD_JSON_VALUE).
 */
void kd_json_open(struct kd_json *j, const char *name, enum kd_json_type type);

/**
 * kd_json_open_exact() - as kd_json_open(), but @name is written as given;
 * kd_json_open() lower-cases names as util-linux does.
 */
void kd_json_open_exact(struct kd_json *j, const char *name,
			enum kd_json_type type);

/** kd_json_close() - close what kd_json_open() opened. */
void kd_json_close(struct kd_json *j, enum kd_json_type type);

/** kd_json_value_raw() - member @name with @text as is (null if empty). */
void kd_json_value_raw(struct kd_json *j, const char *name, const char *text);

/**
 * kd_json_value_str() - member @name with a string of at most @len bytes
 * of @s, quoted by kd_json_quote(); null when @s is empty or starts with
 * NUL, as util-linux writes it.
 */
void kd_json_value_str(struct kd_json *j, const char *name, const char *s,
		       size_t len);

/** kd_json_value_u64() - member @name with a decimal number. */
void kd_json_value_u64(struct kd_json *j, const char *name, uint64_t v);

/* How kd_json_escape() differs between dmesg -J and kdmesg's own JSON. */
enum kd_json_escape_flags {
	KD_JSON_TO_NUL		= 1 << 0,	/* stop at the first NUL (dmesg -J); else \u0000 */
	KD_JSON_LOWER		= 1 << 1,	/* lower-case ASCII letters (util-linux member names) */
};

/**
 * kd_json_escape() - the one JSON string escaper of lib/: append @len
 * bytes of @s to @b as the body of a JSON string (no quotes).  '"' and
 * '\\' escaped; \b \t \n \f \r short forms; other bytes below 0x20, DEL
 * and the C1 controls (U+0080..U+009F: a terminal's CSI, OSC) as \u00XX,
 * the same string once parsed but inert on a terminal; other valid UTF-8
 * copied; each byte >= 0x80 outside a valid UTF-8 sequence as \ufffd, so
 * the output is always valid JSON (util-linux copies such bytes);
 * @flags (enum kd_json_escape_flags) for the rest.
 */
void kd_json_escape(struct kd_escape_buf *b, const char *s, size_t len,
		    unsigned int flags);

/**
 * kd_json_string() - kd_json_escape() of every byte (no flags) between
 * double quotes: a JSON string of exactly @len bytes of @s, NUL bytes
 * included (-o jsonl).
 */
void kd_json_string(struct kd_escape_buf *b, const char *s, size_t len);

/**
 * kd_json_quote() - kd_json_escape() between double quotes, as util-linux
 * quotes strings: stop at @len bytes or the first NUL, member names
 * lower-cased when @lower is set.
 */
void kd_json_quote(struct kd_escape_buf *b, const char *s, size_t len, bool lower);

#endif /* KDMESG_JSON_H */
