// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * source-journal-select.c - which of the journal's kernel entries are
 * read: the match of the chosen machines and boot, the boots the journal
 * holds (--list-boots and -b's offsets), -b's argument as journalctl
 * reads it, and whether records of several machines are shown.  Apart
 * from the reading (source-journal.c) because it is all done once, at
 * open, through sd-journal's matches.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <systemd/sd-id128.h>
#include <systemd/sd-journal.h>

#include "record/host.h"
#include "source/source-journal-internal.h"

/*
 * The match of every read: kernel entries of the chosen machines (and
 * boot).  sd-journal ANDs fields and ORs values of one field, so each
 * machine is its own term: (kernel AND machine AND boot) OR ...
 */
int kd_journal_add_matches(sd_journal *j, const char *const *machines, const char *boot_id)
{
	char m[sizeof("_HOSTNAME=") + KD_HOSTNAME_MAX + 1];
	char b[sizeof("_BOOT_ID=") + KD_ID128_LEN];
	size_t i = 0;
	int r;

	sd_journal_flush_matches(j);
	if (boot_id)
		snprintf(b, sizeof(b), "_BOOT_ID=%s", boot_id);
	do {
		r = sd_journal_add_match(j, "_TRANSPORT=kernel", 0);
		if (r >= 0 && machines && machines[i]) {
			/* 32 hex digits are a machine ID, anything else a host name. */
			snprintf(m, sizeof(m), "%s=%s",
				 kd_id128_valid(machines[i]) ? "_MACHINE_ID" : "_HOSTNAME",
				 machines[i]);
			r = sd_journal_add_match(j, m, 0);
		}
		if (r >= 0 && boot_id)
			r = sd_journal_add_match(j, b, 0);
		if (r >= 0 && machines && machines[i] && machines[i + 1])
			r = sd_journal_add_disjunction(j);
		if (r < 0)
			return r;
	} while (machines && machines[i] && machines[++i]);
	return 0;
}

/* Boots found so far, for the listing and for -b's offsets. */
static int cmp_boot(const void *x, const void *y)
{
	const struct kd_source_boot *a = x, *b = y;

	return a->first_usec < b->first_usec ? -1 : a->first_usec > b->first_usec;
}

/* The boot IDs in the journal's files (of any entry, any machine). */
static int boot_ids(sd_journal *j, char (**out)[KD_ID128_LEN + 1], size_t *n)
{
	char (*ids)[KD_ID128_LEN + 1] = NULL;
	const void *d;
	size_t len, cap = 0;
	int r;

	*n = 0;
	r = sd_journal_query_unique(j, "_BOOT_ID");
	if (r < 0)
		return r;
	SD_JOURNAL_FOREACH_UNIQUE(j, d, len) {
		if (len != sizeof("_BOOT_ID=") - 1 + KD_ID128_LEN)
			continue;
		if (*n == cap) {
			void *v = realloc(ids, (cap = cap ? 2 * cap : 16) * sizeof(*ids));

			if (!v) {
				free(ids);
				return -ENOMEM;
			}
			ids = v;
		}
		kd_journal_copy_str(ids[(*n)++], KD_ID128_LEN + 1, (const char *)d + sizeof("_BOOT_ID=") - 1,
			 KD_ID128_LEN);
	}
	*out = ids;
	return 0;
}

/*
 * Every boot with kernel entries of the chosen machines, oldest first;
 * leaves the journal matched on @keep_boot (NULL: every boot), at its head.
 */
static int list_boots(struct journal_source *js, const char *keep_boot,
		      struct kd_source_boot **out, size_t *n)
{
	char (*ids)[KD_ID128_LEN + 1] = NULL;
	struct kd_source_boot *v = NULL;
	struct kd_record rec;
	size_t nids, i;
	uint64_t t;
	int r;

	*n = 0;
	r = boot_ids(js->j, &ids, &nids);
	if (r == 0 && nids && !(v = calloc(nids, sizeof(*v))))
		r = -ENOMEM;
	kd_record_init(&rec);
	for (i = 0; r == 0 && i < nids; i++) {
		r = kd_journal_add_matches(js->j, js->machines, ids[i]);
		if (r == 0 && (r = sd_journal_seek_head(js->j)) >= 0)
			r = sd_journal_next(js->j);
		if (r <= 0)
			continue;
		r = kd_journal_read_entry(js, &rec);
		v[*n].host = rec.host;
		v[*n].first_usec = rec.realtime_usec;
		if (r == 0 && (r = sd_journal_seek_tail(js->j)) >= 0 &&
		    (r = sd_journal_previous(js->j)) > 0 &&
		    sd_journal_get_realtime_usec(js->j, &t) >= 0 && t <= INT64_MAX)
			v[*n].last_usec = (int64_t)t;
		if (r >= 0) {
			r = 0;
			(*n)++;
		}
		/* Each boot is looked for in every file. */
		kd_journal_check_memory(js);
	}
	kd_record_free(&rec);
	free(ids);
	if (r == 0)
		r = kd_journal_add_matches(js->j, js->machines, keep_boot);
	if (r == 0)
		r = sd_journal_seek_head(js->j);
	if (r < 0) {
		free(v);
		*n = 0;
		return r;
	}
	qsort(v, *n, sizeof(*v), cmp_boot);
	*out = v;
	return 0;
}

int kd_journal_boots(struct kd_source *src, struct kd_source_boot **out, size_t *n)
{
	return list_boots((struct journal_source *)src, NULL, out, n);
}

/*
 * -b as journalctl reads it: "ID", "ID+N", "ID-N", "+N"/"N" (the Nth boot
 * from the oldest, 1 first), "-N"/"0" (from the newest, 0 the last; on
 * this machine's journal 0 is the running boot), "all" (every boot).
 * Sets @id to the chosen boot ID; -ESRCH when there is no such boot,
 * -EINVAL for something else.
 */
int kd_journal_select_boot(struct journal_source *js, const char *spec, bool local,
			   char id[KD_ID128_LEN + 1])
{
	struct kd_source_boot *v;
	long long off = 0;
	bool has_id = false;
	const char *p = spec;
	size_t n, i;
	int r;

	id[0] = '\0';
	if (strcmp(spec, "all") == 0)
		return 0;
	if (strlen(p) >= KD_ID128_LEN) {
		char head[KD_ID128_LEN + 1];

		kd_journal_copy_str(head, sizeof(head), p, KD_ID128_LEN);
		if (kd_id128_valid(head)) {
			for (i = 0; i < KD_ID128_LEN; i++)
				id[i] = (char)(head[i] >= 'A' && head[i] <= 'F' ? head[i] + 32 : head[i]);
			id[i] = '\0';
			has_id = true;
			p += KD_ID128_LEN;
		}
	}
	if (*p) {
		char *end;

		if (has_id && *p != '+' && *p != '-')
			return -EINVAL;
		errno = 0;
		off = strtoll(p, &end, 10);
		if (errno || *end || end == p || off < -1000000 || off > 1000000)
			return -EINVAL;
	}
	if (!has_id && off == 0 && local) {
		sd_id128_t b;

		r = sd_id128_get_boot(&b);
		if (r < 0)
			return r;
		sd_id128_to_string(b, id);
		return kd_journal_add_matches(js->j, js->machines, id);
	}
	r = list_boots(js, NULL, &v, &n);
	if (r < 0)
		return r;
	if (has_id) {
		for (i = 0; i < n && strcmp(v[i].host->boot_id, id) != 0; i++)
			;
		off += (long long)i;
		if (i == n)
			off = -1;
	} else {
		off = off > 0 ? off - 1 : (long long)n - 1 + off;
	}
	if (off < 0 || off >= (long long)n) {
		free(v);
		return -ESRCH;
	}
	snprintf(id, KD_ID128_LEN + 1, "%s", v[off].host->boot_id);
	free(v);
	r = kd_journal_add_matches(js->j, js->machines, id);
	return r < 0 ? r : sd_journal_seek_head(js->j);
}

/* Records of one machine need no host column. */
bool kd_journal_several_machines(struct journal_source *js)
{
	const void *d;
	size_t len, n = 0;

	if (js->machines && js->machines[0] && !js->machines[1])
		return false;
	if (sd_journal_query_unique(js->j, "_MACHINE_ID") < 0)
		return true;
	SD_JOURNAL_FOREACH_UNIQUE(js->j, d, len)
		if (++n > 1)
			return true;
	return false;
}
