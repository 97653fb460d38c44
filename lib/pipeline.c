// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pipeline.c - the read loop every front end used to write by hand:
 * source -> stages -> match -> sinks, with the state that spans records
 * (see pipeline.h).  It runs once per record, so it stays a plain loop
 * over small fixed arrays: no allocation per record.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "source/kmsg-parse.h"
#include "pipeline.h"

/* Stages and sinks a pipeline holds; kdmesg uses at most a few. */
#define KD_PIPELINE_MAX	8

struct kd_pipeline {
	struct kd_source *src;
	unsigned int flags;		/* the source's, as opened */
	unsigned int needs;		/* of stages, filter and declared sinks */
	/*
	 * With KD_NEED_DICT: every key (all_keys), or only these.  The
	 * filter's keys are copied here; others' arrays are referenced.
	 */
	bool all_keys;
	const char *keys[KD_KMSG_KEYS_MAX + 1];
	size_t nkeys;

	struct kd_stage stages[KD_PIPELINE_MAX];
	size_t nstages;
	struct kd_sink sinks[KD_PIPELINE_MAX];
	size_t nsinks;
	const struct kd_filter *filter;

	struct kd_record rec;		/* reused for every record */
	struct kd_prev prev;
	uint64_t lost_reported;
	/* Followed-file changes already given to the hook (rewound + reopened, reopened). */
	uint64_t changes_seen, reopened_seen;
	bool caught_up;			/* a follow source ran dry once */
	enum kd_pipeline_failure failure;
};

int kd_pipeline_new(struct kd_pipeline **out)
{
	struct kd_pipeline *p = calloc(1, sizeof(*p));

	if (!p)
		return -ENOMEM;
	kd_record_init(&p->rec);
	kd_prev_init(&p->prev);
	*out = p;
	return 0;
}

/* Record that someone reads @key of the dictionary. */
static void need_key(struct kd_pipeline *p, const char *key)
{
	size_t i;

	p->needs |= KD_NEED_DICT;
	for (i = 0; i < p->nkeys; i++)
		if (strcmp(p->keys[i], key) == 0)
			return;
	if (p->nkeys == KD_KMSG_KEYS_MAX) {
		p->all_keys = true;
		return;
	}
	p->keys[p->nkeys++] = key;
}

/* Merge a consumer's needs: @keys NULL with KD_NEED_DICT means all. */
static void need(struct kd_pipeline *p, unsigned int needs, const char *const *keys)
{
	p->needs |= needs;
	if (!(needs & KD_NEED_DICT))
		return;
	if (!keys)
		p->all_keys = true;
	else
		for (; *keys; keys++)
			need_key(p, *keys);
}

/* Whether what @needs/@keys asks for was promised when the source opened. */
static bool covered(const struct kd_pipeline *p, unsigned int needs,
		    const char *const *keys)
{
	size_t i;

	if (needs & ~p->needs)
		return false;
	if (!(needs & KD_NEED_DICT) || p->all_keys)
		return true;
	if (!keys)
		return false;
	for (; *keys; keys++) {
		for (i = 0; i < p->nkeys && strcmp(p->keys[i], *keys); i++)
			;
		if (i == p->nkeys)
			return false;
	}
	return true;
}

int kd_pipeline_add_stage(struct kd_pipeline *p, const struct kd_stage *stage)
{
	if (p->src)
		return -EBUSY;
	if (p->nstages == KD_PIPELINE_MAX)
		return -ENOMEM;
	p->stages[p->nstages++] = *stage;
	need(p, stage->needs, stage->keys);
	return 0;
}

void kd_pipeline_set_filter(struct kd_pipeline *p, const struct kd_filter *f)
{
	p->filter = f && !kd_filter_is_empty(f) ? f : NULL;
	if (!f)
		return;
	for (size_t i = 0; i < f->nmatches; i++) {
		const char *key = kd_field_dict_key(kd_match_field(f->matches[i]));

		if (key)
			need_key(p, key);
	}
}

void kd_pipeline_need(struct kd_pipeline *p, unsigned int needs)
{
	need(p, needs, NULL);
}

void kd_pipeline_need_keys(struct kd_pipeline *p, const char *const *keys)
{
	need(p, KD_NEED_DICT, keys);
}

int kd_pipeline_open(struct kd_pipeline *p, const char *name,
		     const char *path, unsigned int flags, size_t size)
{
	const struct kd_source_args a = {
		.path = path,
		.fd = -1,
		.flags = flags,
		.size = size,
	};

	return kd_pipeline_open_args(p, name, &a);
}

int kd_pipeline_open_args(struct kd_pipeline *p, const char *name,
			  const struct kd_source_args *args)
{
	struct kd_source_args a = *args;
	unsigned int flags = a.flags;
	int rc;

	if (p->src)
		return -EBUSY;
	/* Reader shortcuts, safe unless someone needs what they skip. */
	if (!(p->needs & KD_NEED_OWN_TEXT))
		flags |= KD_SOURCE_LEND_TEXT;
	if (!(p->needs & KD_NEED_DICT))
		flags |= KD_SOURCE_NO_DICT;
	a.flags = flags;
	rc = kd_source_open_args(&p->src, name, &a);
	if (rc < 0)
		return rc;
	if ((p->needs & KD_NEED_DICT) && !p->all_keys) {
		p->keys[p->nkeys] = NULL;
		kd_source_keep_keys(p->src, p->keys);
	}
	p->flags = flags;
	return 0;
}

const char *kd_pipeline_kind(const struct kd_pipeline *p)
{
	return kd_source_name(p->src);
}

unsigned int kd_pipeline_caps(const struct kd_pipeline *p)
{
	return kd_source_caps(p->src);
}

struct kd_source *kd_pipeline_source(const struct kd_pipeline *p)
{
	return p->src;
}

int kd_pipeline_add_sink(struct kd_pipeline *p, const struct kd_sink *sink)
{
	if (p->src && !covered(p, sink->needs, sink->keys))
		return -EINVAL;
	if (p->nsinks == KD_PIPELINE_MAX)
		return -ENOMEM;
	p->sinks[p->nsinks++] = *sink;
	if (!p->src)
		need(p, sink->needs, sink->keys);
	return 0;
}

/* Wait for a follow source; false when asked to stop or polling failed. */
static bool wait_readable(struct kd_pipeline *p, volatile sig_atomic_t *stop)
{
	struct pollfd pfd = { .fd = kd_source_fd(p->src), .events = POLLIN };

	/* Nothing to poll (a growing file): look again a little later. */
	if (pfd.fd < 0) {
		if (!*stop)
			poll(NULL, 0, KD_PIPELINE_RETRY_MS);
		return !*stop;
	}
	while (!*stop) {
		int n = poll(&pfd, 1, -1);

		if (n > 0)
			return true;
		if (n < 0 && errno != EINTR)
			return false;
	}
	return false;
}

/* The stages, in order: 1 to go on, 0 when one dropped it, or < 0. */
static int run_stages(struct kd_pipeline *p, struct kd_record *rec)
{
	for (size_t i = 0; i < p->nstages; i++) {
		int rc = p->stages[i].apply(p->stages[i].data, rec);

		if (rc <= 0) {
			if (rc < 0)
				p->failure = KD_PIPELINE_STAGE;
			return rc;
		}
	}
	return 1;
}

/* The sinks after the first: 0 or the first error. */
static int more_sinks(struct kd_pipeline *p, const struct kd_record *rec)
{
	for (size_t i = 1; i < p->nsinks; i++) {
		int rc = p->sinks[i].write(p->sinks[i].data, rec, &p->prev);

		if (rc < 0)
			return rc;
	}
	return 0;
}

/*
 * What ended a read other than a record: 1 to read on, 0 to end, or < 0
 * (-EAGAIN: a follow source has nothing yet and @nowait says not to wait).
 */
static int after_read(struct kd_pipeline *p, int rc, bool follow, bool nowait,
		      const struct kd_pipeline_hooks *hooks,
		      volatile sig_atomic_t *stop)
{
	const struct kd_source_stats *st;

	switch (rc) {
	case 0:
		return 0;
	case -EAGAIN:
		st = kd_source_stats(p->src);
		if (st->rewound + st->reopened != p->changes_seen) {
			if (hooks && hooks->file_changed)
				hooks->file_changed(hooks->data, st->reopened > p->reopened_seen);
			p->changes_seen = st->rewound + st->reopened;
			p->reopened_seen = st->reopened;
		}
		if (follow && !p->caught_up && hooks && hooks->caught_up)
			hooks->caught_up(hooks->caught_up_data);
		p->caught_up = true;
		if (follow && nowait)
			return -EAGAIN;
		if (follow && hooks && hooks->idle)
			hooks->idle(hooks->caught_up_data);
		return follow && wait_readable(p, stop);
	case -EPIPE:
		st = kd_source_stats(p->src);
		if (st->lost > p->lost_reported) {
			if (hooks && hooks->lost)
				hooks->lost(hooks->data, st->lost - p->lost_reported);
			p->lost_reported = st->lost;
		}
		return 1;
	case -EINTR:
		return 1;
	}
	p->failure = KD_PIPELINE_READ;
	return rc;
}

/* kd_pipeline_run() and kd_pipeline_step(): @max records, or all for 0. */
static int run(struct kd_pipeline *p, const struct kd_pipeline_hooks *hooks,
	       size_t max, bool nowait)
{
	static volatile sig_atomic_t never;
	volatile sig_atomic_t *stop = hooks && hooks->stop ? hooks->stop : &never;
	bool follow = p->flags & (KD_SOURCE_FOLLOW | KD_SOURCE_FOLLOW_NEW |
				  KD_SOURCE_FOLLOW_FILE);
	struct kd_record *rec = &p->rec;
	/*
	 * What every record consults, in locals the compiler can keep in
	 * registers across the calls: this loop runs once per record, and
	 * reloading them through @p was a visible part of reading a dump.
	 */
	const struct kd_filter *filter = p->filter;
	bool stages = p->nstages, more = p->nsinks > 1;
	int (*write)(void *, const struct kd_record *, const struct kd_prev *);
	void *data;
	size_t n = 0;
	int rc;

	p->failure = KD_PIPELINE_OK;
	if (!p->src || !p->nsinks)
		return -EINVAL;
	write = p->sinks[0].write;
	data = p->sinks[0].data;
	while (!*stop) {
		/* Rejected records count too: a step must stay short. */
		if (max && n++ == max)
			return 1;
		rc = kd_source_next(p->src, rec);
		if (rc != 1) {
			rc = after_read(p, rc, follow, nowait, hooks, stop);
			if (rc > 0)
				continue;
			return rc;
		}
		if (stages && (rc = run_stages(p, rec)) <= 0) {
			if (rc < 0)
				return rc;
			continue;
		}
		if (filter && !kd_filter_match(filter, rec)) {
			kd_prev_rejected(&p->prev, rec);
			continue;
		}
		rc = write(data, rec, &p->prev);
		if (rc == 0 && more)
			rc = more_sinks(p, rec);
		if (rc < 0) {
			p->failure = KD_PIPELINE_SINK;
			return rc;
		}
		kd_prev_shown(&p->prev, rec);
	}
	return 0;
}

int kd_pipeline_run(struct kd_pipeline *p, const struct kd_pipeline_hooks *hooks)
{
	return run(p, hooks, 0, false);
}

int kd_pipeline_step(struct kd_pipeline *p, const struct kd_pipeline_hooks *hooks,
		     size_t max)
{
	return run(p, hooks, max ? max : 1, true);
}

int kd_pipeline_fd(const struct kd_pipeline *p)
{
	return p->src ? kd_source_fd(p->src) : -1;
}

enum kd_pipeline_failure kd_pipeline_failure(const struct kd_pipeline *p)
{
	return p->failure;
}

const struct kd_source_stats *kd_pipeline_stats(const struct kd_pipeline *p)
{
	return kd_source_stats(p->src);
}

uint64_t kd_pipeline_lost_reported(const struct kd_pipeline *p)
{
	return p->lost_reported;
}

void kd_pipeline_free(struct kd_pipeline *p)
{
	if (!p)
		return;
	kd_source_close(p->src);
	kd_record_free(&p->rec);
	free(p);
}
