/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * output.h - writers that turn records into bytes: dmesg-compatible text
 * (every --time-format, -x, -r, -p, colours, escaping), dmesg's -J JSON,
 * and the formats beyond dmesg (-o jsonl, -o export).
 *
 * The text is made by the stateless formatter (format.h); what came
 * before a record (delta and reltime references) is the pipeline's
 * struct kd_prev, handed in with each record through
 * kd_writer_sink_write(), the one way into a writer.  A writer keeps
 * only output state (the open JSON array, buffered bytes).  Each mode is a row of the table of writers in output.c.
 */
#ifndef KDMESG_OUTPUT_H
#define KDMESG_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "record/record.h"

/* The row of the table of writers (output.c) each mode is. */
enum kd_output_mode {
	KD_OUTPUT_TEXT,		/* what dmesg prints */
	KD_OUTPUT_JSON,		/* dmesg -J */
	KD_OUTPUT_JSONL,	/* one compact JSON object per record */
	KD_OUTPUT_EXPORT,	/* systemd journal export format */
	KD_OUTPUT_VERBOSE,	/* every field, one per line (journalctl -o verbose) */
	KD_OUTPUT_MODES
};

/* What the front end asks of a mode instead of testing which one it is. */
enum kd_output_flags {
	/* Honours the text options: time formats, -x, -r, -p, --noescape,
	 * colours, the pager; translated text replaces the kernel's. */
	KD_OUTPUT_TEXT_OPTIONS	= 1 << 0,
	KD_OUTPUT_WALL_CLOCK	= 1 << 1,	/* prints wall-clock times: needs the boot time */
	KD_OUTPUT_MODULE_FACTS	= 1 << 2,	/* shows libkmod's facts about a record's module */
	KD_OUTPUT_DECODED_PRI	= 1 << 3,	/* reads a bad "<pri>" as dmesg -x does */
	/* Writes values with control bytes as they are: never onto a terminal. */
	KD_OUTPUT_BINARY	= 1 << 4,
};

enum kd_time_format {
	KD_TIME_RAW,		/* [    1.234567] (default) */
	KD_TIME_NONE,		/* -t, notime */
	KD_TIME_CTIME,		/* -T, ctime */
	KD_TIME_DELTA,		/* -d, delta */
	KD_TIME_RELTIME,	/* -e, reltime */
	KD_TIME_ISO,		/* iso */
	/*
	 * dmesg merges a delta into the neighbouring stamp: -d alone is
	 * "[    1.234567 <    0.000100>] ", -T -d is "[ctime <delta>] ".
	 * kdmesg.c resolves the options into this list exactly as dmesg
	 * does, so a writer prints each entry as it stands.
	 */
	KD_TIME_RAW_DELTA,	/* [    1.234567 <    0.000100>] (-d) */
	KD_TIME_CTIME_DELTA,	/* [Thu Dec  3 10:00:00 2026 <    0.000100>] */
};

#define KD_TIME_FORMATS_MAX	8

struct kd_output_opts {
	enum kd_output_mode mode;

	/* --time-format in the order given; ntime == 0 means the default. */
	enum kd_time_format time[KD_TIME_FORMATS_MAX];
	size_t ntime;

	bool decode;		/* -x: "kern  :info  : " prefix */
	bool raw;		/* -r: "<pri>[ts] text" */
	bool noescape;		/* --noescape */
	bool force_prefix;	/* -p: prefix every line of a multi-line message */
	bool location;		/* --location: "file:line function() " before the text */

	/*
	 * Facts about the module a record names in MODULE= (libkmod, see
	 * lib/shared/modinfo.h), for -o verbose and -o jsonl/json; NULL for none.
	 */
	const struct kd_modinfo_facts *(*module_facts)(void *data, const char *module);
	void *module_facts_data;
	bool color;		/* resolved -L/--color decision */
	bool source_syslog;	/* records came from syslog(2) or -F */
	/*
	 * KD_OUTPUT_JSON: the record's dictionary follows "msg" (-o json);
	 * without it the members are exactly dmesg -J's.
	 */
	bool json_dict;

	int64_t boot_usec;	/* wall-clock boot time, µs since the epoch */
	/*
	 * The machine and boot of records that do not name their own
	 * (record.h: host): this machine's for the live log, NULL when not
	 * known (a dump).  -o export and -o json write its IDs.
	 */
	const struct kd_host *host;
	/* Records of several machines: the text shows each one's host name. */
	bool host_column;

	/*
	 * Width of the "[%*s] " caller-id column; 0 lets the writer decide
	 * as dmesg does (6 for syslog sources, else the length of
	 * /proc/sys/kernel/pid_max as read).  Tests pin it.
	 */
	int caller_width;

	/*
	 * -w/-W: flush after every record, as dmesg does (line-buffered
	 * text, an explicit flush after each -J object, whose closing brace
	 * has no newline after it yet).
	 */
	bool follow;

	/*
	 * The caller writes nothing else to the stream while the writer is
	 * in use and ends with kd_writer_finish(): the text writer may then
	 * keep output across records and hand it to stdio in 64 KiB blocks
	 * instead of one fwrite() per record (a tenth of the time of a large
	 * -F file).  The bytes are the same; only when they reach the
	 * stream changes.  Ignored with @follow.
	 */
	bool batch;
};

/**
 * kd_output_caller_width() - the width of the "[%*s] " caller-id column
 * for @opts, decided as dmesg does (see output.c) unless
 * @opts->caller_width pins it.
 */
int kd_output_caller_width(const struct kd_output_opts *opts);

struct kd_writer;
struct kd_prev;
struct kd_modinfo_facts;

/** kd_output_mode_from_name() - the mode -o @name names, or -EINVAL. */
int kd_output_mode_from_name(const char *name);

/** kd_output_flags() - what the mode of @opts is (enum kd_output_flags). */
unsigned int kd_output_flags(const struct kd_output_opts *opts);

/**
 * kd_output_needs() - what a writer for @opts needs from the reader
 * (enum kd_need of lib/sink/sink.h): the dictionary for every format but
 * plain text and dmesg's -J.
 */
unsigned int kd_output_needs(const struct kd_output_opts *opts);

/**
 * kd_output_keys() - the only dictionary keys a writer for @opts reads
 * (NULL-terminated), or NULL for all of them (or none: see
 * kd_output_needs()).
 */
const char *const *kd_output_keys(const struct kd_output_opts *opts);

/**
 * kd_writer_new() - a writer for @opts that writes to @out.
 * Returns 0 or a negative errno.  Colour schemes are loaded here
 * (terminal-colors.d) when @opts->color is set.
 */
int kd_writer_new(struct kd_writer **out_writer, const struct kd_output_opts *opts,
		  FILE *out);

/**
 * kd_writer_sink_write() - format one record, as a pipeline sink's write
 * (struct kd_sink, @data is the writer).  What came before it is @prev,
 * which the caller keeps by sink.h's rules: dmesg measures the delta from
 * the previous record read, shown or rejected (kd_prev_rejected()), and
 * reltime's minute breaks from the last one shown (kd_prev_shown()).
 * Returns 0 or -EIO.
 */
int kd_writer_sink_write(void *data, const struct kd_record *rec,
			 const struct kd_prev *prev);

/** kd_writer_finish() - close what is open (JSON array); flush. */
int kd_writer_finish(struct kd_writer *w);

/** kd_writer_free() - release @w; NULL is fine. */
void kd_writer_free(struct kd_writer *w);

#endif /* KDMESG_OUTPUT_H */
