// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * source-journal.c - kernel records from the systemd journal through
 * libsystemd's sd-journal: this machine's journal, a directory of
 * journals (systemd-journal-remote's, a copy of /var/log/journal) or
 * journal files.
 *
 * Only entries with _TRANSPORT=kernel are read, and the journal's own
 * match finds them: millions of user-space entries are skipped through
 * the journal's field index, never looked at one by one.  The selection
 * of machines and boots is added to that match the same way
 * (source-journal-select.c).
 *
 * This file holds the source object: opening, reading entry after entry
 * (following the journal as it grows), closing.  Which files are opened
 * is source-journal-files.c's, how an entry's fields become a record
 * source-journal-entry.c's, and keeping the mapped journal out of the
 * resident memory source-journal-memory.c's.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <systemd/sd-journal.h>

#include "source/source-journal-internal.h"

int kd_journal_add_error(struct journal_source *js, const char *path, int err)
{
	struct input_error *e = realloc(js->errors, (js->nerrors + 1) * sizeof(*e));

	if (!e)
		return -ENOMEM;
	js->errors = e;
	e[js->nerrors].path = strdup(path);
	if (!e[js->nerrors].path)
		return -ENOMEM;
	e[js->nerrors++].err = err;
	return 0;
}

static int journal_next(struct kd_source *src, struct kd_record *rec)
{
	struct journal_source *js = (struct journal_source *)src;
	int r;

	if (!js->started) {
		js->started = true;
		if (src->flags & KD_SOURCE_FOLLOW_NEW) {
			/* -W: only what comes after now. */
			r = sd_journal_seek_tail(js->j);
			if (r >= 0)
				r = sd_journal_previous(js->j);
			if (r < 0)
				return r;
		}
	}
	r = sd_journal_next(js->j);
	if (r == 0 && (src->flags & (KD_SOURCE_FOLLOW | KD_SOURCE_FOLLOW_NEW))) {
		/*
		 * At the end: the caller polls kd_source_fd() (sd-journal's
		 * inotify descriptor), as sd_journal_wait() would, and asks
		 * again; sd_journal_process() takes in what changed.
		 */
		r = sd_journal_process(js->j);
		if (r < 0)
			return r;
		r = sd_journal_next(js->j);
		if (r == 0)
			return -EAGAIN;
	}
	if (r <= 0)
		return r;
	if (js->drop_always || ++js->since_check == JOURNAL_RSS_EVERY)
		kd_journal_check_memory(js);
	return kd_journal_read_entry(js, rec) < 0 ? -ENOMEM : 1;
}

static void journal_close(struct kd_source *src)
{
	struct journal_source *js = (struct journal_source *)src;

	sd_journal_close(js->j);
	for (size_t i = 0; i < js->nhosts; i++)
		free(js->hosts[i]);
	free(js->hosts);
	for (size_t i = 0; i < js->nerrors; i++)
		free(js->errors[i].path);
	free(js->errors);
	free(js);
}

static const char *journal_input_error(const struct kd_source *src, size_t i, int *err)
{
	const struct journal_source *js = (const struct journal_source *)src;

	if (i >= js->nerrors)
		return NULL;
	*err = js->errors[i].err;
	return js->errors[i].path;
}

static const struct kd_source_ops journal_ops = {
	.next = journal_next,
	.close = journal_close,
	.input_error = journal_input_error,
	.boots = kd_journal_boots,
};

int kd_journal_source_open(struct kd_source **out, const struct kd_source_type *type,
			   const struct kd_source_args *a)
{
	struct journal_source *js = calloc(1, sizeof(*js));
	char id[KD_ID128_LEN + 1];
	int r;

	*out = NULL;
	if (!js)
		return -ENOMEM;
	kd_source_init(&js->base, type, &journal_ops, a->flags);
	js->machines = a->machines;
	/* Test hook: drop the mapped pages at every record (drop_mapped_pages()). */
	js->drop_always = getenv("KDMESG_TEST_JOURNAL_DROP") != NULL;
	r = kd_journal_open_files(js, a);
	if (r >= 0)
		r = kd_journal_add_matches(js->j, js->machines, NULL);
	if (r >= 0 && a->boot) {
		r = kd_journal_select_boot(js, a->boot, !a->path && !a->paths, id);
		if (r >= 0)
			memcpy(js->boot_id, id, sizeof(js->boot_id));
	}
	if (r >= 0 && (a->flags & (KD_SOURCE_FOLLOW | KD_SOURCE_FOLLOW_NEW)))
		r = js->base.fd = sd_journal_get_fd(js->j);
	js->mapped_base = kd_journal_mapped_bytes();
	if (r < 0) {
		journal_close(&js->base);
		return r;
	}
	/* One boot is one machine's. */
	if ((a->boot && id[0]) || !kd_journal_several_machines(js))
		js->base.caps &= ~(unsigned int)KD_SOURCE_HAS_HOST;
	*out = &js->base;
	return 0;
}
