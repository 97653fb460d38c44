/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pipeline.h - the path every record takes:
 *
 *     source -> stages -> match -> sinks
 *
 * A source (lib/source/source.h) reads records; stages may rewrite or drop them
 * (the expansion of compact kprint records, lib/stage/expand.c, the
 * recovery of call sites on stock kernels, lib/stage/recover.c, and
 * the translation, lib/stage/translate.c); the filter
 * (lib/match/filter.h) decides which are shown; sinks consume what is shown
 * (the writer, --stats, the viewer's record store).  The pipeline owns
 * what spans records and would otherwise be redone by every front end:
 * the previous-record state for dmesg's delta times (rejected records
 * count, see struct kd_prev), the reporting of lost records, the wait on
 * a follow source's descriptor, and which reader shortcuts are safe
 * (lending text, skipping the dictionary) given what its consumers need.
 * It never prints: the front end hears of lost records through a hook
 * and gets errors as negative errno values.
 *
 * Writing a stage.  A stage is a struct kd_stage: @apply is called with
 * every record read, in order, before the filter sees it, and may change
 * it in place:
 *  - new or rewritten dictionary entries go through kd_record_dict_add(),
 *    then get their origin set (KD_ORIGIN_RECOVERED/..._TRANSLATED), so
 *    that writers never show a derived field as the kernel's (the
 *    expansion's fields stay KD_ORIGIN_KERNEL: they are the kernel's own
 *    table strings and record bytes, checked against the text);
 *  - new text goes through kd_record_set_text() (which copies, so lent
 *    input text is never written to) with rec->text_origin set after,
 *    and rec->text_plain only when the stage proved that promise;
 *  - lent input (text, and -K dictionary entries) is read-only and
 *    valid until the next record is read;
 *  - a stage that reads the dictionary declares KD_NEED_DICT in @needs
 *    (and in @keys the keys it reads, if only a few), one that keeps
 *    records past the next read KD_NEED_OWN_TEXT.
 * @apply returns 1 to pass the record on, 0 to drop it (as if it had
 * never been read: no delta reference, no sink sees it), or a negative
 * errno that ends the run.  Stages run in the order they were added,
 * all before the filter, so that a filter can match what a stage added.
 */
#ifndef KDMESG_PIPELINE_H
#define KDMESG_PIPELINE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "match/filter.h"
#include "record/record.h"
#include "sink/sink.h"
#include "source/source.h"

struct kd_stage {
	unsigned int needs;	/* enum kd_need */
	/*
	 * With KD_NEED_DICT: the only dictionary keys it reads
	 * (NULL-terminated; must outlive the pipeline), so that the reader
	 * may skip the others; NULL: every key.
	 */
	const char *const *keys;
	int (*apply)(void *data, struct kd_record *rec);
	void *data;
};

struct kd_sink {
	unsigned int needs;	/* enum kd_need */
	const char *const *keys;	/* as struct kd_stage's */
	/* One shown record; @prev as it was before it.  0 or a negative errno (stops the run). */
	int (*write)(void *data, const struct kd_record *rec, const struct kd_prev *prev);
	void *data;
};

struct kd_pipeline_hooks {
	/* @n more records were lost (overwritten in the ring) since the last call. */
	void (*lost)(void *data, uint64_t n);
	void *data;
	/*
	 * Called once, when a follow source first has nothing more to
	 * read (the backlog is shown): the moment for remarks about it.
	 */
	void (*caught_up)(void *data);
	void *caught_up_data;
	/*
	 * Called each time a follow source has nothing more, before the
	 * run waits (kd_pipeline_run() only): the moment to show what was
	 * gathered (--stats -w).  Gets @caught_up_data.
	 */
	void (*idle)(void *data);
	/*
	 * A followed file was truncated (@replaced false) or replaced by a
	 * new file under its name (true), and is read again from its start.
	 */
	void (*file_changed)(void *data, bool replaced);
	/* Set (by a signal handler) to end the run as the end of input does. */
	volatile sig_atomic_t *stop;
};

/* Where kd_pipeline_run() failed, for the front end's message. */
enum kd_pipeline_failure {
	KD_PIPELINE_OK,
	KD_PIPELINE_READ,	/* the source */
	KD_PIPELINE_STAGE,
	KD_PIPELINE_SINK,
};

struct kd_pipeline;

/* How often kd_pipeline_run() looks at a followed file that has no more. */
#define KD_PIPELINE_RETRY_MS	200

/** kd_pipeline_new() - an empty pipeline. Returns 0 or -ENOMEM. */
int kd_pipeline_new(struct kd_pipeline **out);

/**
 * kd_pipeline_add_stage() - append @stage (copied) before the filter.
 * Only before kd_pipeline_open().  Returns 0, -ENOMEM or -EBUSY.
 */
int kd_pipeline_add_stage(struct kd_pipeline *p, const struct kd_stage *stage);

/**
 * kd_pipeline_set_filter() - match records against @f (not copied; it
 * must outlive the pipeline).  NULL or an empty filter shows all.
 */
void kd_pipeline_set_filter(struct kd_pipeline *p, const struct kd_filter *f);

/**
 * kd_pipeline_need() - declare what sinks added after kd_pipeline_open()
 * will need (enum kd_need), since the reader is set up at open time.
 */
void kd_pipeline_need(struct kd_pipeline *p, unsigned int needs);

/**
 * kd_pipeline_need_keys() - kd_pipeline_need(KD_NEED_DICT) for sinks that
 * read only @keys (NULL-terminated, must outlive the pipeline).
 */
void kd_pipeline_need_keys(struct kd_pipeline *p, const char *const *keys);

/**
 * kd_pipeline_open() - open the source as kd_source_open() does (with
 * its one fallback from /dev/kmsg to syslog(2)), adding the reader
 * shortcuts that what was declared so far allows.  Returns 0 or the
 * source's negative errno; kd_pipeline_kind() then tells what was opened.
 */
int kd_pipeline_open(struct kd_pipeline *p, const char *name,
		     const char *path, unsigned int flags, size_t size);

/** kd_pipeline_open_args() - kd_pipeline_open() with every source argument. */
int kd_pipeline_open_args(struct kd_pipeline *p, const char *name,
			  const struct kd_source_args *args);

/** kd_pipeline_kind() - the name of the source opened (after fallback). */
const char *kd_pipeline_kind(const struct kd_pipeline *p);

/** kd_pipeline_caps() - kd_source_caps() of the source opened. */
unsigned int kd_pipeline_caps(const struct kd_pipeline *p);

/** kd_pipeline_source() - the source opened, for what only it answers. */
struct kd_source *kd_pipeline_source(const struct kd_pipeline *p);

/**
 * kd_pipeline_add_sink() - append @sink (copied).  Returns 0, -ENOMEM,
 * or -EINVAL when it needs what the source was not opened for (declare
 * it with kd_pipeline_need() first).
 */
int kd_pipeline_add_sink(struct kd_pipeline *p, const struct kd_sink *sink);

/**
 * kd_pipeline_run() - read to the end of the source (a follow source:
 * until *@hooks->stop; one without a descriptor to poll, a followed
 * regular file, is read again every KD_PIPELINE_RETRY_MS), passing each record through stages, filter and
 * sinks.  Returns 0, or the negative errno that ended the run;
 * kd_pipeline_failure() says where.
 */
int kd_pipeline_run(struct kd_pipeline *p, const struct kd_pipeline_hooks *hooks);

/**
 * kd_pipeline_step() - kd_pipeline_run() for a caller with its own event
 * loop (the --tui viewer): passes at most @max records (read, not only
 * shown) and never waits.  Returns 1 after @max records (call again), 0
 * at the end of the input, -EAGAIN when a follow source has nothing yet
 * (poll kd_pipeline_fd(), or retry later when it is -1), or the negative
 * errno that ended the run.
 */
int kd_pipeline_step(struct kd_pipeline *p, const struct kd_pipeline_hooks *hooks,
		     size_t max);

/** kd_pipeline_fd() - the follow source's descriptor to poll, or -1. */
int kd_pipeline_fd(const struct kd_pipeline *p);

/** kd_pipeline_failure() - where the last kd_pipeline_run() failed. */
enum kd_pipeline_failure kd_pipeline_failure(const struct kd_pipeline *p);

/**
 * kd_pipeline_stats() - the source's counters; lost records not yet
 * passed to the hook are those above kd_pipeline_lost_reported().
 */
const struct kd_source_stats *kd_pipeline_stats(const struct kd_pipeline *p);

/** kd_pipeline_lost_reported() - lost records already given to the hook. */
uint64_t kd_pipeline_lost_reported(const struct kd_pipeline *p);

/** kd_pipeline_free() - close the source and release @p; NULL is fine. */
void kd_pipeline_free(struct kd_pipeline *p);

#endif /* KDMESG_PIPELINE_H */
