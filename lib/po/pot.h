/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pot.h - a set of kernel message formats on their way into a gettext
 * template (.pot): one entry per (msgctxt, msgid), with the places, the
 * functions and modules that print it, its level and how often it was
 * seen.  Filled by the extractors of kdmesg-po, written in PO syntax.
 */
#ifndef KDMESG_POT_H
#define KDMESG_POT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct kd_pot;

/* One sighting of a format; every member but @msgid may be NULL / 0. */
struct kd_pot_msg {
	const char *ctx;	/* msgctxt, NUL-terminated */
	const char *msgid;	/* @msgid_len bytes */
	size_t msgid_len;
	const char *file;	/* source file of the call */
	unsigned int line;
	const char *func;
	const char *module;
	char level;		/* '0'..'7', 'c', or 0 when unknown */
	uint64_t count;		/* records seen (dumps); 0 for sources */
};

/** kd_pot_new() - an empty set.  Returns 0 or -ENOMEM. */
int kd_pot_new(struct kd_pot **pot);

/**
 * kd_pot_add() - add a sighting of @m: a new entry, or places, functions,
 * modules and count added to the entry of the same msgctxt and msgid (up
 * to a few of each; the rest are counted).  A continuation fragment
 * (level 'c') without a letter outside its conversions is left out.
 * Returns 0 or -ENOMEM.
 */
int kd_pot_add(struct kd_pot *pot, const struct kd_pot_msg *m);

/**
 * kd_pot_set_module_contexts() - @on: kd_pot_add() of a sighting with a
 * module and no msgctxt also adds it to an entry of msgctxt MODULE, and
 * kd_pot_write() writes those after the entry without context when the
 * format was seen in more than one module (a translator may then give
 * one module its own translation; kdmesg falls back to the entry without
 * context for the others).  Set it before adding.
 */
void kd_pot_set_module_contexts(struct kd_pot *pot, bool on);

/** kd_pot_count() - how many formats (entries without module context) the set holds. */
size_t kd_pot_count(const struct kd_pot *pot);

/**
 * kd_pot_sort_count() - most seen entries first (ties: first added
 * first), the module entries of each format too; the order is otherwise
 * that of the first sighting.
 */
void kd_pot_sort_count(struct kd_pot *pot);

/**
 * kd_pot_set_header() - with it, the header has Report-Msgid-Bugs-To
 * (@bugs_to, NULL for an empty field; cleaned to one line of text) and
 * POT-Creation-Date (@created, seconds since the epoch, written in UTC),
 * which msginit copies into a new catalogue.  Returns 0 or -ENOMEM.
 */
int kd_pot_set_header(struct kd_pot *pot, const char *bugs_to, int64_t created);

/**
 * kd_pot_write() - write the set to @out as a .pot file: a header for the
 * domain linux-kmsg, then per entry "#." comments (function, module,
 * level, count), "#: file:line" references, "#, c-format", msgctxt,
 * msgid and an empty msgstr.  @limit > 0 writes only the first @limit
 * formats (with their module entries).  Returns 0 or -EIO.
 */
int kd_pot_write(const struct kd_pot *pot, FILE *out, size_t limit);

/**
 * kd_pot_write_string() - @len bytes of @s as a PO string literal
 * ("...", with C escapes) to @out.
 */
void kd_pot_write_string(FILE *out, const char *s, size_t len);

/** kd_pot_free() - release @pot (NULL is fine). */
void kd_pot_free(struct kd_pot *pot);

#endif /* KDMESG_POT_H */
