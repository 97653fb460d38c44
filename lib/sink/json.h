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

enum kd_json_type {
	KD_JSON_OBJECT,
	KD_JSON_ARRAY,
	KD_JSON_VALUE,
};

struct kd_json {
	FILE *out;
	int indent;		/* current nesting depth */
	bool after_close;	/* a member was completed: next one needs ',' */
	bool ready;		/* kd_json_init() was called */
};

/** kd_json_init() - start writing to @out at depth 0. */
void kd_json_init(struct kd_json *j, FILE *out);

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

/**
 * kd_json_utf8_len() - length of the valid UTF-8 sequence at @s (at most
 * @n bytes available), or 0 when the byte at @s does not start one.
 * RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF.
 */
size_t kd_json_utf8_len(const unsigned char *s, size_t n);

/**
 * kd_json_quote() - write @s quoted as util-linux does: stop at @len bytes
 * or the first NUL; escape '"' and '\\'; \b \t \n \f \r short forms;
 * other bytes below 0x20 as \u00XX; DEL and valid UTF-8 as is.  Unlike
 * util-linux, each byte >= 0x80 outside a valid UTF-8 sequence becomes
 * \ufffd, so the output is always valid JSON.  Member names are
 * lower-cased (ASCII only) when @lower is set.
 */
void kd_json_quote(FILE *out, const char *s, size_t len, bool lower);

#endif /* KDMESG_JSON_H */
