/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stats.h - --stats: which call sites produced how many records.  A site
 * is CODE_FILE:CODE_LINE with its FORMAT on a kernel with the kprint
 * patches; without them, the message text with its numbers and hex
 * masked ("usb #-#: new device number #").  A pipeline sink: memory grows
 * with the number of distinct sites, never with the number of records.
 *
 * What is counted is a message: a record, or each line of a kprint group
 * stored as one record (GROUP=, man/kprint.7), under the call site of its
 * LINE<k>_ keys (a line without them under its masked text).  Shares are
 * of the messages; a log without groups has as many as records.
 */
#ifndef KDMESG_STATS_H
#define KDMESG_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "record/record.h"
#include "sink/sink.h"

/* Longest site key kept; longer texts are cut (and counted together). */
#define KD_STATS_KEY_MAX	512

/* How often one host logged a site (records of several machines). */
struct kd_stats_host {
	char *name;
	uint64_t count;
};

struct kd_stats_site {
	/* Per host name, most first once sorted; none for unnamed hosts. */
	struct kd_stats_host *hosts;
	size_t nhosts;
	uint64_t count;
	int64_t first_usec, last_usec;	/* KD_NO_TIME when unknown */
	int level;			/* most severe seen, or KD_NO_LEVEL */
	bool structured;		/* from CODE_FILE/CODE_LINE/FORMAT */
	bool recovered;			/* those were recovered from the text (stage/recover.h) */
	/* Structured sites: each may be NULL.  Others: @text only. */
	char *file, *line, *func, *module, *format;
	char *text;			/* masked message text, NUL-terminated */
	size_t text_len;
	uint32_t hash;
	char *key;			/* what identifies the site */
	size_t key_len;
};

struct kd_stats;

/* The dictionary keys --stats reads (for struct kd_sink.keys). */
extern const char *const kd_stats_keys[];

/** kd_stats_new() - empty counters.  Returns 0 or -ENOMEM. */
int kd_stats_new(struct kd_stats **out);

/** kd_stats_add() - count @rec (each line of a group).  Returns 0 or -ENOMEM. */
int kd_stats_add(struct kd_stats *s, const struct kd_record *rec);

/** kd_stats_sink_write() - kd_stats_add() as a pipeline sink (@data = stats). */
int kd_stats_sink_write(void *data, const struct kd_record *rec,
			const struct kd_prev *prev);

/** kd_stats_total() - messages counted: records, plus the extra lines of groups. */
uint64_t kd_stats_total(const struct kd_stats *s);

/**
 * kd_stats_hosts() - how many host names the records counted carried;
 * above one, the writers show which hosts log each site most.
 */
size_t kd_stats_hosts(const struct kd_stats *s);

/** kd_stats_records() - records counted (a group is one). */
uint64_t kd_stats_records(const struct kd_stats *s);

/**
 * kd_stats_sorted() - the sites, most records first (ties: earliest
 * first); *@n is set to their number.  Valid until the next
 * kd_stats_add() or kd_stats_free().  NULL with *@n 0 when there are none
 * or sorting ran out of memory.
 */
const struct kd_stats_site *const *kd_stats_sorted(struct kd_stats *s, size_t *n);

/**
 * kd_stats_mask() - @len bytes of message text with every run of digits,
 * every hex number ("0x1f", "ffff8881") written as '#', into @buf (@size
 * bytes, NUL-terminated, cut if needed).  Returns the length written.
 */
size_t kd_stats_mask(const char *text, size_t len, char *buf, size_t size);

struct kd_modinfo_facts;

/*
 * What the report says about a module (lib/shared/modinfo.h: built-in or loaded,
 * version, ...), or NULL; kdmesg passes libkmod's facts.
 */
typedef const struct kd_modinfo_facts *(*kd_stats_facts_fn)(void *data,
							    const char *module);

/**
 * kd_stats_write_text() - the table of the @top largest sites (0: all)
 * to @out (see stats-print.c).  Returns 0, -ENOMEM or -EIO.
 */
int kd_stats_write_text(struct kd_stats *s, FILE *out, size_t top,
			kd_stats_facts_fn facts, void *data);

struct kd_json;
/* Writes more members into the --stats JSON object (the translation counts). */
typedef void (*kd_stats_json_fn)(void *data, struct kd_json *j);

/**
 * kd_stats_write_json() - the same as one JSON object: "records",
 * "messages" (kd_stats_total()) and a "sites" array (a site's module facts as its "module_info" object),
 * then what @more (when not NULL) adds.  Returns 0, -ENOMEM or -EIO.
 */
int kd_stats_write_json(struct kd_stats *s, FILE *out, size_t top,
			kd_stats_facts_fn facts, void *data, kd_stats_json_fn more);

/** kd_stats_free() - release @s; NULL is fine. */
void kd_stats_free(struct kd_stats *s);

#endif /* KDMESG_STATS_H */
