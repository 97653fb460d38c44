/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * source-journal-internal.h - what the pieces of the journal source
 * share: the source object (source-journal.c), the files opened
 * (source-journal-files.c), the entry-to-record mapping
 * (source-journal-entry.c), the selection of machines and boots
 * (source-journal-select.c) and the memory of the mapped files
 * (source-journal-memory.c).  Not for use outside
 * lib/source/source-journal*.c.
 */
#ifndef KDMESG_SOURCE_JOURNAL_INTERNAL_H
#define KDMESG_SOURCE_JOURNAL_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <systemd/sd-journal.h>

#include "record/host.h"
#include "source/source-internal.h"

/* How many records are read between two looks at the memory (source-journal-memory.c). */
#define JOURNAL_RSS_EVERY	256u

struct input_error {
	char *path;
	int err;
};

struct journal_source {
	struct kd_source base;
	sd_journal *j;
	bool started;			/* the first entry was asked for */

	struct kd_host **hosts;		/* one per (machine, boot) seen */
	size_t nhosts, hosts_cap;
	struct kd_host *last;		/* the previous record's, checked first */

	const char *const *machines;	/* --machine values (the caller's) */
	char boot_id[KD_ID128_LEN + 1];	/* the boot chosen, "" for all */
	struct input_error *errors;
	size_t nerrors;

	/* Memory: see drop_mapped_pages(). */
	unsigned int since_check;	/* records since the memory was looked at */
	size_t mapped_base;		/* file pages resident after the last drop */
	bool drop_always;		/* KDMESG_TEST_JOURNAL_DROP: at every record */
};

/* Copy @len bytes as a string into @dst (@size bytes), cut to fit. */
static inline void kd_journal_copy_str(char *dst, size_t size, const char *src, size_t len)
{
	if (len >= size)
		len = size - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

/* source-journal.c */

/** kd_journal_add_error() - note that @path could not be read (@err). */
int kd_journal_add_error(struct journal_source *js, const char *path, int err);

/* source-journal-files.c */

/** kd_journal_name() - whether @name is a journal file's: *.journal or *.journal~. */
bool kd_journal_name(const char *name);

/**
 * kd_journal_open_files() - open what @a names into @js->j: this
 * machine's journal, a directory, or files; unreadable files are noted
 * with kd_journal_add_error() and left out.
 */
int kd_journal_open_files(struct journal_source *js, const struct kd_source_args *a);

/* source-journal-entry.c */

/** kd_journal_read_entry() - the current entry of @js->j into @rec. */
int kd_journal_read_entry(struct journal_source *js, struct kd_record *rec);

/* source-journal-select.c */

/**
 * kd_journal_add_matches() - match kernel entries of @machines (NULL:
 * all) and of @boot_id (NULL: every boot) on @j.
 */
int kd_journal_add_matches(sd_journal *j, const char *const *machines, const char *boot_id);

/** kd_journal_boots() - the source's boots operation (kd_source_boots()). */
int kd_journal_boots(struct kd_source *src, struct kd_source_boot **out, size_t *n);

/**
 * kd_journal_select_boot() - match the boot -b @spec names (@local: on
 * this machine's journal) and set @id to it; -ESRCH when there is none.
 */
int kd_journal_select_boot(struct journal_source *js, const char *spec, bool local,
			   char id[KD_ID128_LEN + 1]);

/** kd_journal_several_machines() - whether records of more than one machine are read. */
bool kd_journal_several_machines(struct journal_source *js);

/* source-journal-memory.c */

/** kd_journal_mapped_bytes() - resident file-backed memory, in bytes. */
size_t kd_journal_mapped_bytes(void);

/** kd_journal_check_memory() - drop the mapped journal pages if they grew enough. */
void kd_journal_check_memory(struct journal_source *js);

#endif /* KDMESG_SOURCE_JOURNAL_INTERNAL_H */
