// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * source-journal-memory.c - keeping the journal's mapped file pages out
 * of the resident memory of a long read (see below).  Apart from the
 * reading (source-journal.c) because it works on this process's
 * mappings, not on the journal.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "source/source-journal-internal.h"

/*
 * sd-journal maps the files in windows of 8 MiB and keeps up to 64 of
 * them (mmap-cache.c), so a long read of a large journal grows the
 * resident memory by the file pages it touched: 300 MiB for a 290 MiB
 * journal, as journalctl's.  Those are clean pages of read-only shared
 * mappings of the files, so this process's page-table entries for them
 * can be dropped (MADV_DONTNEED) without changing what sd-journal reads:
 * a page touched again comes back from the page cache, with a minor
 * fault and no I/O.  The journal's mappings are found by name in
 * /proc/self/maps ("r--s", *.journal or *.journal~); private mappings
 * (whose pages may be a copy) are never touched.  Done once the mapped
 * file pages grew JOURNAL_MAPPED_GROWTH since the last time, looked at
 * every JOURNAL_RSS_EVERY records (a read of /proc/self/statm).
 */
#define JOURNAL_MAPPED_GROWTH	(8u << 20)

/* Resident pages that are file-backed (statm's "shared"), in bytes. */
size_t kd_journal_mapped_bytes(void)
{
	unsigned long size = 0, rss = 0, shared = 0;
	FILE *f = fopen("/proc/self/statm", "re");

	if (!f)
		return 0;
	if (fscanf(f, "%lu %lu %lu", &size, &rss, &shared) != 3)
		shared = 0;
	fclose(f);
	return (size_t)shared * (size_t)sysconf(_SC_PAGESIZE);
}

/* Is this line of /proc/self/maps a read-only shared map of a journal file? */
static bool journal_map(const char *line, uintptr_t *start, uintptr_t *end)
{
	unsigned long s, e;
	char perms[5];
	const char *path, *slash;
	int n = 0;

	if (sscanf(line, "%lx-%lx %4s %*s %*s %*s %n", &s, &e, perms, &n) != 3 || n == 0)
		return false;
	if (strcmp(perms, "r--s") != 0 || e <= s)
		return false;
	path = line + n;
	slash = strrchr(path, '/');
	if (!slash || !kd_journal_name(slash + 1))
		return false;
	*start = s;
	*end = e;
	return true;
}

static void drop_mapped_pages(struct journal_source *js)
{
	FILE *f = fopen("/proc/self/maps", "re");
	uintptr_t from = 0, to = 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	if (!f)
		return;
	/*
	 * Neighbouring journal maps are dropped in one call: each call
	 * flushes the TLB, which costs much in a virtual machine.
	 */
	while ((len = getline(&line, &cap, f)) > 0) {
		uintptr_t s, e;

		if (line[len - 1] == '\n')
			line[len - 1] = '\0';
		if (!journal_map(line, &s, &e)) {
			s = e = 0;
		} else if (s == to) {
			to = e;
			continue;
		}
		if (to > from)
			madvise((void *)from, to - from, MADV_DONTNEED);
		from = s;
		to = e;
	}
	if (to > from)
		madvise((void *)from, to - from, MADV_DONTNEED);
	free(line);
	fclose(f);
	js->mapped_base = kd_journal_mapped_bytes();
}

/* Drop the mapped journal pages if they grew enough (or always, in tests). */
void kd_journal_check_memory(struct journal_source *js)
{
	js->since_check = 0;
	if (js->drop_always || kd_journal_mapped_bytes() > js->mapped_base + JOURNAL_MAPPED_GROWTH)
		drop_mapped_pages(js);
}
