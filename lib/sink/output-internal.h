/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * output-internal.h - what the writers share behind lib/sink/output.h: the
 * writer object and the per-format entry points that output.c dispatches
 * to.  Only lib/output*.c include this file (and unit tests that need to
 * drive one format directly).
 */
#ifndef KDMESG_OUTPUT_INTERNAL_H
#define KDMESG_OUTPUT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "shared/escape.h"
#include "sink/format.h"
#include "sink/json.h"
#include "sink/output.h"
#include "record/priority.h"
#include "record/record.h"

struct kd_colors;

/*
 * A translation the translate stage left beside the text (JSON and
 * export output keep the kernel's text), or NULL.  Writers show it under
 * their own name for it and not as a dictionary member.
 */
static inline const struct kd_dict_entry *kd_output_translation(const struct kd_record *rec)
{
	for (size_t i = rec->dict_len; i-- > 0;)
		if (rec->dict[i].origin == KD_ORIGIN_TRANSLATED &&
		    strcmp(rec->dict[i].key, "MESSAGE_TRANSLATED") == 0)
			return &rec->dict[i];
	return NULL;
}

struct kd_writer {
	struct kd_output_opts opts;	/* a copy: callers may free theirs */
	FILE *out;

	/*
	 * What kd_writer_write() callers (tests, programs without a
	 * pipeline) get instead of the pipeline's struct kd_prev: the same
	 * rules, kept here, with kd_writer_skip() for rejected records.
	 */
	struct kd_prev prev;

	int caller_width;		/* "[%*s] " width for caller ids */

	struct kd_json json;		/* -J: opened on the first record */

	struct kd_colors *colors;	/* NULL unless opts.color */

	struct kd_format fmt;		/* text: the stateless formatter */
	/*
	 * Default stamp, no colours, no follow: kd_writer_write() goes
	 * straight to kd_output_text_write_default(), whose frame is small.
	 */
	bool text_fast;

	/*
	 * The text writer assembles each record's output here and hands it
	 * to stdio in one fwrite(): a call per piece (prefix, stamp, caller
	 * id, text runs, newline) cost more than formatting them.  Empty
	 * between records, so other writes to @out keep their order, unless
	 * opts.batch says there are none.
	 */
	struct kd_escape_buf line;
	/* Colours: the formatter's bytes and spans, before the sequences. */
	struct kd_escape_buf cline;
	struct kd_spans spans;
};

/**
 * kd_output_text_write() - print @rec as dmesg's text output (every time
 * format, -x, -r, -p, colours, escaping) after the records summarised in
 * @prev.  Returns 0, -EIO or -ENOMEM.
 */
int kd_output_text_write(struct kd_writer *w, const struct kd_record *rec,
			 const struct kd_prev *prev);

/**
 * kd_output_text_end() - a record is complete in the line buffer: hand it
 * to stdio now unless the caller asked for batching (then
 * kd_output_text_flush() at the end).  Returns 0 or -EIO.  Inline: once
 * per record.
 */
static inline int kd_output_text_end(struct kd_writer *w)
{
	if (!w->opts.batch || w->opts.follow)
		kd_escape_buf_flush(&w->line);
	return ferror_unlocked(w->out) ? -EIO : 0;
}

/**
 * kd_output_text_write_default() - kd_output_text_write() for a writer
 * with text_fast set (no previous record needed).  Returns 0 or -EIO.
 */
int kd_output_text_write_default(struct kd_writer *w, const struct kd_record *rec);

/**
 * kd_output_text_flush() - write what opts.batch kept in the line buffer
 * to the stream (kd_writer_finish() calls it).
 */
void kd_output_text_flush(struct kd_writer *w);

/**
 * kd_output_text_prepare() - set up the formatter and buffers of a text
 * writer.  Returns 0 or -ENOMEM.
 */
int kd_output_text_prepare(struct kd_writer *w);

/** kd_output_text_release() - free what kd_output_text_prepare() set up. */
void kd_output_text_release(struct kd_writer *w);

/** kd_output_json_write() - one object of dmesg -J. Returns 0 or -EIO. */
int kd_output_json_write(struct kd_writer *w, const struct kd_record *rec);

/** kd_output_json_finish() - close dmesg -J's array and root object. */
int kd_output_json_finish(struct kd_writer *w);

/*
 * The formats beyond dmesg (lib/sink/output-jsonl.c, lib/sink/output-export.c).
 * They need nothing from the writer but the stream and the boot time, so
 * they take those directly and stay testable without a writer.
 */

/**
 * kd_output_jsonl_record() - write @rec to @out as one compact JSON line.
 * Returns 0 or -EIO.
 */
int kd_output_jsonl_record(FILE *out, const struct kd_record *rec);

/**
 * kd_output_jsonl_record_facts() - kd_output_jsonl_record() with the
 * libkmod facts of the record's module as a "module_info" object member
 * (@facts NULL: none).  Returns 0 or -EIO.
 */
int kd_output_jsonl_record_facts(FILE *out, const struct kd_record *rec,
				 const struct kd_modinfo_facts *facts);

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

/** kd_output_facts() - @rec's module facts through @opts, or NULL. */
const struct kd_modinfo_facts *kd_output_facts(const struct kd_output_opts *opts,
					       const struct kd_record *rec);

/**
 * kd_output_export_record() - write @rec to @out as one journal export
 * entry; @boot_usec is the boot time in µs since the epoch.
 * Returns 0 or -EIO.
 */
int kd_output_export_record(FILE *out, const struct kd_record *rec,
			    int64_t boot_usec);

/**
 * kd_output_export_record_host() - kd_output_export_record() that writes
 * _BOOT_ID, _MACHINE_ID and _HOSTNAME of the record's host, or of @host
 * (may be NULL) for a record without one, and its own wall clock.
 */
int kd_output_export_record_host(FILE *out, const struct kd_record *rec,
				 int64_t boot_usec, const struct kd_host *host);

/** kd_output_host() - the host of @rec: its own, else @opts's (may be NULL). */
static inline const struct kd_host *kd_output_host(const struct kd_output_opts *opts,
						   const struct kd_record *rec)
{
	return rec->host ? rec->host : opts->host;
}

/**
 * kd_output_verbose_record() - write every field of @rec to @out, one per
 * line (-o verbose); @boot_usec is the boot time in µs since the epoch,
 * @facts libkmod's about its module (or NULL).
 * Returns 0 or -EIO.
 */
int kd_output_verbose_record(FILE *out, const struct kd_record *rec,
			     int64_t boot_usec, const struct kd_modinfo_facts *facts);

#endif /* KDMESG_OUTPUT_INTERNAL_H */
