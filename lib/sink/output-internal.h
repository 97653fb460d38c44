/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * output-internal.h - what the writers share behind lib/sink/output.h: the
 * writer object and struct kd_writer_ops, the entry of one output mode in
 * the table of writers (output.c).  A new mode is one file that defines
 * its struct kd_writer_ops, and one row of that table.  Only
 * lib/sink/output*.c include this file.
 */
#ifndef KDMESG_OUTPUT_INTERNAL_H
#define KDMESG_OUTPUT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "record/field.h"
#include "shared/escape.h"
#include "sink/format.h"
#include "sink/json.h"
#include "sink/output.h"
#include "record/priority.h"
#include "record/record.h"

struct kd_colors;
struct kd_writer;

/* One output mode: its name and what it needs, and how it writes. */
struct kd_writer_ops {
	const char *name;		/* as -o takes it */
	unsigned int flags;		/* enum kd_output_flags */
	/* What it needs from the reader (enum kd_need); NULL: the dictionary. */
	unsigned int (*needs)(const struct kd_output_opts *opts);
	/* The only dictionary keys it reads (NULL-terminated); NULL: all. */
	const char *const *(*keys)(const struct kd_output_opts *opts);
	/* Set-up beyond the shared one; NULL: none.  0 or a negative errno. */
	int (*prepare)(struct kd_writer *w);
	/* Append @rec's bytes to w->line.  0 or a negative errno. */
	int (*write)(struct kd_writer *w, const struct kd_record *rec,
		     const struct kd_prev *prev);
	/* Append what ends the output (a JSON array's close); NULL: none. */
	int (*finish)(struct kd_writer *w);
	/* Free what @prepare set up; NULL: nothing. */
	void (*release)(struct kd_writer *w);
};

extern const struct kd_writer_ops kd_writer_text, kd_writer_json, kd_writer_jsonl,
	kd_writer_export, kd_writer_verbose;

/*
 * A translation the translate stage left beside the text (JSON and
 * export output keep the kernel's text), or NULL.  Writers show it under
 * their own name for it and not as a dictionary member.
 */
static inline const struct kd_dict_entry *kd_output_translation(const struct kd_record *rec)
{
	for (size_t i = rec->dict_len; i-- > 0;)
		if (rec->dict[i].origin == KD_ORIGIN_TRANSLATED &&
		    strcmp(rec->dict[i].key, KD_KEY_TRANSLATED) == 0)
			return &rec->dict[i];
	return NULL;
}

struct kd_writer {
	const struct kd_writer_ops *ops;
	struct kd_output_opts opts;	/* a copy: callers may free theirs */
	FILE *out;

	int caller_width;		/* "[%*s] " width for caller ids */

	struct kd_json json;		/* -J: opened on the first record */

	struct kd_colors *colors;	/* NULL unless opts.color */

	/*
	 * -o verbose: the wall-clock second of the last header, as
	 * localtime_r() and strftime() gave it (a log has many records per
	 * second, and they were a tenth of the mode's time).
	 */
	struct {
		int64_t sec;
		bool valid, wall;
		char date[64], zone[64];
	} wall_cache;

	struct kd_format fmt;		/* text: the stateless formatter */
	/*
	 * Default stamp, no colours, no follow: kd_writer_sink_write() goes
	 * straight to kd_format_text_default(), whose frame is small.
	 */
	bool text_fast;

	/*
	 * Every writer assembles each record's output here and hands it to
	 * stdio in one fwrite(): a call per piece (prefix, stamp, caller id,
	 * text runs, JSON members, newline) cost more than formatting them.
	 * Empty between records, so other writes to @out keep their order,
	 * unless opts.batch says there are none.
	 */
	struct kd_escape_buf line;
	/* Colours: the formatter's bytes and spans, before the sequences. */
	struct kd_escape_buf cline;
	struct kd_spans spans;
};

/**
 * kd_writer_end() - a record is complete in the line buffer: hand it to
 * stdio now unless the caller asked for batching (then kd_writer_finish()
 * does).  Returns 0 or -EIO.  Inline: once per record.
 */
static inline int kd_writer_end(struct kd_writer *w)
{
	if (!w->opts.batch || w->opts.follow)
		kd_escape_buf_flush(&w->line);
	return ferror_unlocked(w->out) ? -EIO : 0;
}

/**
 * kd_output_text_write() - @rec as dmesg's text output (every time
 * format, -x, -r, -p, colours, escaping) after the records summarised in
 * @prev, into w->line.  Returns 0 or -ENOMEM.
 */
int kd_output_text_write(struct kd_writer *w, const struct kd_record *rec,
			 const struct kd_prev *prev);

/* 1 for the bytes of a key as the kernel sends most: A-Z, 0-9, '_'. */
extern const unsigned char kd_output_key_byte[256];

/**
 * kd_output_plain_key_len() - the length of @key when it is a key as the
 * kernel sends most, [A-Z][A-Z0-9_]*: no writer renames or escapes it, so
 * it is copied whole; 0 for any other key.  Inline: once per entry, and
 * the escapers' set-up cost more than such a key's bytes.  A table, not
 * three ranges: one test per byte.
 */
static inline size_t kd_output_plain_key_len(const char *key)
{
	const unsigned char *k = (const unsigned char *)key;
	size_t n = 0;

	if (k[0] < 'A' || k[0] > 'Z')
		return 0;
	while (kd_output_key_byte[k[n]])
		n++;
	return k[n] ? 0 : n;
}

/**
 * kd_output_dict_renamed() - whether a JSON format whose own members are
 * @own (NULL-terminated) writes the kernel's dictionary key @key as
 * "dict.<key>": a key named like one of its own members, one that starts
 * with "dict." itself, or one with a '[' (kdmesg's mark of a derived
 * field, "CODE_FILE[recovered]").  Keys are otherwise written as they
 * are, so no two members of one object ever share a name, whatever keys
 * a crafted record holds.
 */
bool kd_output_dict_renamed(const char *key, const char *const *own);

/**
 * kd_output_origin_name() - how writers mark a field kdmesg derived
 * ("recovered", "translated"), or NULL for what the kernel sent.
 */
const char *kd_output_origin_name(unsigned int origin);

/**
 * kd_output_same_field() - whether two dictionary entries are values of
 * one field: the same key and the same origin (a derived value is never
 * grouped with the kernel's).
 */
static inline bool kd_output_same_field(const struct kd_dict_entry *a,
					const struct kd_dict_entry *b)
{
	return a->origin == b->origin && strcmp(a->key, b->key) == 0;
}

/**
 * kd_output_dict_count() - how @rec's dictionary groups into fields, for
 * the JSON writers: @count[i] (KD_DICT_MAX entries) is 0 when an earlier
 * entry is a value of the same field (written with it), else how many
 * entries are values of entry i's field (more than 1: an array).  When
 * @plain is not NULL, @plain[i] is kd_output_plain_key_len() of entry i's
 * key, found on the way (the key's length is needed here anyway).
 */
void kd_output_dict_count(const struct kd_record *rec, unsigned char *count, size_t *plain);

/** kd_output_facts() - @rec's module facts through @opts, or NULL. */
const struct kd_modinfo_facts *kd_output_facts(const struct kd_output_opts *opts,
					       const struct kd_record *rec);

/**
 * kd_output_facts_of() - kd_output_facts() when the writer found the
 * record's first MODULE entry itself: @e, or NULL for none.
 */
const struct kd_modinfo_facts *kd_output_facts_of(const struct kd_output_opts *opts,
						  const struct kd_dict_entry *e);

/** kd_output_host() - the host of @rec: its own, else @opts's (may be NULL). */
static inline const struct kd_host *kd_output_host(const struct kd_output_opts *opts,
						   const struct kd_record *rec)
{
	return rec->host ? rec->host : opts->host;
}

#endif /* KDMESG_OUTPUT_INTERNAL_H */
