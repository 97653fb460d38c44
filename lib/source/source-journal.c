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
 * of machines and boots is added to that match the same way.
 *
 * The journal's fields are mapped back to the record journald made them
 * from (journald-kmsg.c): MESSAGE, PRIORITY, SYSLOG_FACILITY,
 * _SOURCE_MONOTONIC_TIMESTAMP (the kernel's stamp), _KERNEL_<KEY> to the
 * dictionary's KEY, SYSLOG_IDENTIFIER/SYSLOG_PID back in front of the
 * text of user-space records, and kdmesg's own KDMESG_SEQNUM,
 * KDMESG_CALLER, KDMESG_FLAGS and KDMESG_RECOVERED_<KEY> (-o export)
 * back to what they were.  _HOSTNAME, _MACHINE_ID and _BOOT_ID name the
 * record's struct kd_host, whose boot time is the entry's wall clock
 * minus its monotonic clock: both were taken at one instant on that
 * machine, so records are dated with their own machine's boot.
 *
 * A journal file that cannot be read (corrupt, truncated, not a journal)
 * is checked alone before the others are opened, left out, and reported
 * through kd_source_input_error(); the others are read.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <systemd/sd-id128.h>
#include <systemd/sd-journal.h>

#include "record/host.h"
#include "source/source-internal.h"

/* Field names of the mapping, with the '=' that ends them. */
#define F_KERNEL	"_KERNEL_"
#define F_RECOVERED	"KDMESG_RECOVERED_"

/* A journal file name: *.journal, or *.journal~ (renamed after a crash). */
#define JOURNAL_SUFFIX	".journal"

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

static int add_error(struct journal_source *js, const char *path, int err)
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

/*
 * The match of every read: kernel entries of the chosen machines (and
 * boot).  sd-journal ANDs fields and ORs values of one field, so each
 * machine is its own term: (kernel AND machine AND boot) OR ...
 */
static int add_matches(sd_journal *j, const char *const *machines, const char *boot_id)
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

/* Does @path open and give its first entry?  (sd-journal's own checks.) */
static int check_file(const char *path)
{
	const char *one[] = { path, NULL };
	sd_journal *j;
	int r;

	r = sd_journal_open_files(&j, one, 0);
	if (r < 0)
		return r;
	r = sd_journal_seek_head(j);
	if (r >= 0)
		r = sd_journal_next(j);
	if (r >= 0)
		r = sd_journal_seek_tail(j);
	if (r >= 0)
		r = sd_journal_previous(j);
	sd_journal_close(j);
	/* A file with no entry at all is a journal all the same. */
	return r < 0 ? r : 0;
}

static bool journal_name(const char *name)
{
	const char *s = strstr(name, JOURNAL_SUFFIX);

	return s && (strcmp(s, JOURNAL_SUFFIX) == 0 || strcmp(s, JOURNAL_SUFFIX "~") == 0);
}

struct paths {
	char **v;
	size_t n;
};

/* Append @path (malloc'd, taken; NULL is -ENOMEM) to @p, NULL-terminated. */
static int paths_push(struct paths *p, char *path)
{
	char **v = path ? realloc(p->v, (p->n + 2) * sizeof(*v)) : NULL;

	if (!v) {
		free(path);
		return -ENOMEM;
	}
	p->v = v;
	v[p->n++] = path;
	v[p->n] = NULL;
	return 0;
}

static int paths_add(struct paths *p, const char *dir, const char *name)
{
	char *path;

	return paths_push(p, asprintf(&path, "%s/%s", dir, name) < 0 ? NULL : path);
}

static void paths_free(struct paths *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i]);
	free(p->v);
}

/*
 * The journal files of @dir and of its subdirectories one level down
 * (journald and systemd-journal-remote keep one per machine ID), as
 * sd_journal_open_directory() finds them.
 */
static int list_dir(struct paths *p, const char *dir, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;

	if (!d)
		return -errno;
	while (rc == 0 && (e = readdir(d))) {
		struct stat st;
		char *sub;

		if (e->d_name[0] == '.')
			continue;
		if (journal_name(e->d_name)) {
			rc = paths_add(p, dir, e->d_name);
			continue;
		}
		if (depth > 0 || asprintf(&sub, "%s/%s", dir, e->d_name) < 0)
			continue;
		if (stat(sub, &st) == 0 && S_ISDIR(st.st_mode))
			rc = list_dir(p, sub, depth + 1);
		free(sub);
	}
	closedir(d);
	return rc;
}

/* Check each of @all; the readable ones go to @good, the others to errors. */
static int keep_readable(struct journal_source *js, char *const *all, size_t n,
			 struct paths *good)
{
	for (size_t i = 0; i < n; i++) {
		int r = check_file(all[i]);

		if (r < 0)
			r = add_error(js, all[i], r);
		else
			r = paths_push(good, strdup(all[i]));
		if (r < 0)
			return r;
	}
	return 0;
}

/* Open what @a names: this machine's journal, a directory, or files. */
static int open_journal(struct journal_source *js, const struct kd_source_args *a)
{
	struct paths all = { 0 }, good = { 0 };
	struct stat st;
	int r;

	if (!a->path && !a->paths)
		return sd_journal_open(&js->j, SD_JOURNAL_LOCAL_ONLY);

	if (a->paths) {
		for (size_t i = 0; a->paths[i]; i++)
			if (paths_push(&all, strdup(a->paths[i])) < 0) {
				paths_free(&all);
				return -ENOMEM;
			}
	} else if (stat(a->path, &st) < 0) {
		return -errno;
	} else if (S_ISDIR(st.st_mode)) {
		r = list_dir(&all, a->path, 0);
		if (r < 0) {
			paths_free(&all);
			return r;
		}
		/* Following, new files of the directory must be seen too. */
		if (a->flags & (KD_SOURCE_FOLLOW | KD_SOURCE_FOLLOW_NEW)) {
			r = keep_readable(js, all.v, all.n, &good);
			paths_free(&good);
			paths_free(&all);
			return r < 0 ? r : sd_journal_open_directory(&js->j, a->path, 0);
		}
	} else if (paths_push(&all, strdup(a->path)) < 0) {
		return -ENOMEM;
	}

	r = keep_readable(js, all.v, all.n, &good);
	if (r == 0 && good.n == 0)
		/* Nothing readable: the first file's own error, or none there. */
		r = js->nerrors ? js->errors[0].err : -ENODATA;
	if (r == 0)
		r = sd_journal_open_files(&js->j, (const char **)good.v, 0);
	paths_free(&good);
	paths_free(&all);
	return r;
}

/* The host of (@machine, @boot, @name), added on first sight. */
static struct kd_host *host_get(struct journal_source *js, const char *machine,
				const char *boot, const char *name, size_t name_len,
				int64_t boot_usec)
{
	struct kd_host *h = js->last;

	if (h && strcmp(h->boot_id, boot) == 0 && strcmp(h->machine_id, machine) == 0 &&
	    strncmp(h->hostname, name, name_len) == 0 && !h->hostname[name_len])
		return h;
	for (size_t i = 0; i < js->nhosts; i++) {
		h = js->hosts[i];
		if (strcmp(h->boot_id, boot) == 0 && strcmp(h->machine_id, machine) == 0 &&
		    strncmp(h->hostname, name, name_len) == 0 && !h->hostname[name_len])
			return js->last = h;
	}
	if (js->nhosts == js->hosts_cap) {
		size_t cap = js->hosts_cap ? 2 * js->hosts_cap : 8;
		struct kd_host **v = realloc(js->hosts, cap * sizeof(*v));

		if (!v)
			return NULL;
		js->hosts = v;
		js->hosts_cap = cap;
	}
	h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	snprintf(h->machine_id, sizeof(h->machine_id), "%s", machine);
	snprintf(h->boot_id, sizeof(h->boot_id), "%s", boot);
	memcpy(h->hostname, name, name_len);
	h->boot_usec = boot_usec;
	js->hosts[js->nhosts++] = h;
	return js->last = h;
}

/* "FIELD=" at the start of @d (@len bytes): the value's offset, or 0. */
static inline size_t field(const char *d, size_t len, const char *name, size_t name_len)
{
	return len > name_len && d[name_len] == '=' && memcmp(d, name, name_len) == 0 ?
	       name_len + 1 : 0;
}
#define FIELD(d, len, lit)	field(d, len, lit, sizeof(lit) - 1)

/* A decimal number of @len bytes; false for anything else or overflow. */
static bool parse_u64(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;

	if (len == 0 || len > 20)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9' ||
		    __builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, (uint64_t)(s[i] - '0'), &v))
			return false;
	}
	*out = v;
	return true;
}

/* Copy @len bytes as a string into @dst (@size bytes), cut to fit. */
static void copy_str(char *dst, size_t size, const char *src, size_t len)
{
	if (len >= size)
		len = size - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

/*
 * What one entry's fields give beyond the record itself.  Copied as they
 * come: a field sd-journal had to decompress lives in a buffer that the
 * next such field overwrites.
 */
#define IDENT_MAX	128
struct entry {
	char machine[KD_ID128_LEN + 1], boot[KD_ID128_LEN + 1];
	char host[KD_HOSTNAME_MAX + 1];
	size_t host_len;
	char ident[IDENT_MAX], pid[24];
	size_t ident_len, pid_len;
	bool has_ident, has_pid, has_ts;
};

/* Map one "FIELD=value" of the entry onto @rec / @e. */
static int map_field(struct journal_source *js, struct kd_record *rec, struct entry *e,
		     const char *d, size_t len)
{
	size_t v;
	uint64_t n;

	if (len < 2)
		return 0;
	if (d[0] == '_') {
		if ((v = FIELD(d, len, "_SOURCE_MONOTONIC_TIMESTAMP"))) {
			if (parse_u64(d + v, len - v, &n) && n <= INT64_MAX) {
				rec->ts_usec = (int64_t)n;
				e->has_ts = true;
			}
		} else if ((v = FIELD(d, len, "_HOSTNAME"))) {
			e->host_len = len - v > KD_HOSTNAME_MAX ? KD_HOSTNAME_MAX : len - v;
			memcpy(e->host, d + v, e->host_len);
		} else if ((v = FIELD(d, len, "_MACHINE_ID"))) {
			copy_str(e->machine, sizeof(e->machine), d + v, len - v);
		} else if ((v = FIELD(d, len, "_BOOT_ID"))) {
			copy_str(e->boot, sizeof(e->boot), d + v, len - v);
		} else if (len > sizeof(F_KERNEL) && memcmp(d, F_KERNEL, sizeof(F_KERNEL) - 1) == 0 &&
			   !(js->base.flags & KD_SOURCE_NO_DICT)) {
			const char *key = d + sizeof(F_KERNEL) - 1, *eq = memchr(key, '=', len - (size_t)(key - d));

			if (eq && eq > key) {
				size_t vlen = len - (size_t)(eq + 1 - d);
				int rc = kd_record_dict_add(rec, key, (size_t)(eq - key), eq + 1,
							    vlen > KD_RECORD_MAX ? KD_RECORD_MAX : vlen);

				/* Past KD_DICT_MAX: counted as cut, as the kmsg readers do. */
				if (rc == -E2BIG)
					return 1;
				if (rc < 0)
					return rc;
				return vlen > KD_RECORD_MAX;
			}
		}
		return 0;
	}
	switch (d[0]) {
	case 'M':
		if ((v = FIELD(d, len, "MESSAGE"))) {
			/* Bounded as the kernel's records are; counted as cut. */
			size_t tlen = len - v > KD_RECORD_MAX ? KD_RECORD_MAX : len - v;

			if (kd_record_set_text(rec, d + v, tlen) < 0)
				return -ENOMEM;
			return tlen < len - v;
		}
		break;
	case 'P':
		if ((v = FIELD(d, len, "PRIORITY")) && parse_u64(d + v, len - v, &n) && n <= 7) {
			rec->level = (int)n;
			rec->flags |= KD_REC_HAS_PRI;
		}
		break;
	case 'S':
		if ((v = FIELD(d, len, "SYSLOG_FACILITY"))) {
			if (parse_u64(d + v, len - v, &n) && n <= 127)
				rec->facility = (int)n;
		} else if ((v = FIELD(d, len, "SYSLOG_IDENTIFIER"))) {
			e->ident_len = len - v < IDENT_MAX ? len - v : IDENT_MAX;
			memcpy(e->ident, d + v, e->ident_len);
			e->has_ident = true;
		} else if ((v = FIELD(d, len, "SYSLOG_PID"))) {
			e->pid_len = len - v < sizeof(e->pid) ? len - v : sizeof(e->pid);
			memcpy(e->pid, d + v, e->pid_len);
			e->has_pid = true;
		}
		break;
	case 'K':
		if ((v = FIELD(d, len, "KDMESG_SEQNUM"))) {
			if (parse_u64(d + v, len - v, &n)) {
				rec->seq = n;
				rec->flags |= KD_REC_HAS_SEQ;
			}
		} else if ((v = FIELD(d, len, "KDMESG_CALLER"))) {
			copy_str(rec->caller, KD_CALLER_MAX + 1, d + v, len - v);
		} else if ((v = FIELD(d, len, "KDMESG_FLAGS"))) {
			if (memchr(d + v, 'c', len - v))
				rec->flags |= KD_REC_CONT;
		} else if (len > sizeof(F_RECOVERED) &&
			   memcmp(d, F_RECOVERED, sizeof(F_RECOVERED) - 1) == 0 &&
			   !(js->base.flags & KD_SOURCE_NO_DICT)) {
			const char *key = d + sizeof(F_RECOVERED) - 1;
			const char *eq = memchr(key, '=', len - (size_t)(key - d));

			/* kdmesg derived it: it stays marked so, never the kernel's. */
			if (eq && eq > key &&
			    kd_record_dict_add(rec, key, (size_t)(eq - key), eq + 1,
					       len - (size_t)(eq + 1 - d)) == 0)
				rec->dict[rec->dict_len - 1].origin = KD_ORIGIN_RECOVERED;
		}
		break;
	}
	return 0;
}

/*
 * The text is MESSAGE; put "ident[pid]: " back in front for records user
 * space wrote to /dev/kmsg, whose prefix journald split off.
 */
static int add_ident(struct kd_record *rec, const struct entry *e)
{
	size_t n, at;
	char *buf;
	int rc;

	if (rec->facility == 0 || rec->facility == KD_NO_FACILITY || !e->has_ident)
		return 0;
	n = e->ident_len + (e->has_pid ? e->pid_len + 2 : 0) + 2 + rec->text_len;
	buf = malloc(n);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, e->ident, e->ident_len);
	at = e->ident_len;
	if (e->has_pid) {
		buf[at++] = '[';
		memcpy(buf + at, e->pid, e->pid_len);
		at += e->pid_len;
		buf[at++] = ']';
	}
	buf[at++] = ':';
	buf[at++] = ' ';
	if (rec->text_len)
		memcpy(buf + at, rec->text, rec->text_len);
	rc = kd_record_set_text(rec, buf, n);
	free(buf);
	return rc;
}

static int read_entry(struct journal_source *js, struct kd_record *rec)
{
	struct entry e = { .host_len = 0 };
	uint64_t rt = 0, mono = 0;
	sd_id128_t hb;
	const void *d;
	size_t len;
	int r, cut = 0;

	kd_record_reset(rec);
	sd_journal_restart_data(js->j);
	/* Fields it cannot read (an unknown compression) are left out. */
	while ((r = sd_journal_enumerate_available_data(js->j, &d, &len)) > 0) {
		r = map_field(js, rec, &e, d, len);
		if (r < 0)
			return r;
		cut |= r;
	}
	if (cut)
		js->base.stats.truncated++;
	if (sd_journal_get_realtime_usec(js->j, &rt) >= 0 && rt <= INT64_MAX)
		rec->realtime_usec = (int64_t)rt;
	r = sd_journal_get_monotonic_usec(js->j, &mono, &hb);
	if (!e.boot[0] && r >= 0)
		sd_id128_to_string(hb, e.boot);
	/* No kernel stamp: the entry's own monotonic time is the best there is. */
	if (!e.has_ts && r >= 0 && mono <= INT64_MAX)
		rec->ts_usec = (int64_t)mono;
	rec->host = host_get(js, e.machine, e.boot, e.host, e.host_len,
			     r >= 0 && rt > mono ? (int64_t)(rt - mono) : 0);
	if (!rec->host)
		return -ENOMEM;
	return add_ident(rec, &e);
}

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
#define JOURNAL_RSS_EVERY	256u

/* Resident pages that are file-backed (statm's "shared"), in bytes. */
static size_t mapped_bytes(void)
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
	if (!slash || !journal_name(slash + 1))
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
	js->mapped_base = mapped_bytes();
}

/* Drop the mapped journal pages if they grew enough (or always, in tests). */
static void check_memory(struct journal_source *js)
{
	js->since_check = 0;
	if (js->drop_always || mapped_bytes() > js->mapped_base + JOURNAL_MAPPED_GROWTH)
		drop_mapped_pages(js);
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
		check_memory(js);
	return read_entry(js, rec) < 0 ? -ENOMEM : 1;
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
		copy_str(ids[(*n)++], KD_ID128_LEN + 1, (const char *)d + sizeof("_BOOT_ID=") - 1,
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
		r = add_matches(js->j, js->machines, ids[i]);
		if (r == 0 && (r = sd_journal_seek_head(js->j)) >= 0)
			r = sd_journal_next(js->j);
		if (r <= 0)
			continue;
		r = read_entry(js, &rec);
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
		check_memory(js);
	}
	kd_record_free(&rec);
	free(ids);
	if (r == 0)
		r = add_matches(js->j, js->machines, keep_boot);
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

static int journal_boots(struct kd_source *src, struct kd_source_boot **out, size_t *n)
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
static int select_boot(struct journal_source *js, const char *spec, bool local,
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

		copy_str(head, sizeof(head), p, KD_ID128_LEN);
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
		return add_matches(js->j, js->machines, id);
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
	r = add_matches(js->j, js->machines, id);
	return r < 0 ? r : sd_journal_seek_head(js->j);
}

/* Records of one machine need no host column. */
static bool several_machines(struct journal_source *js)
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

static const struct kd_source_ops journal_ops = {
	.next = journal_next,
	.close = journal_close,
	.input_error = journal_input_error,
	.boots = journal_boots,
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
	r = open_journal(js, a);
	if (r >= 0)
		r = add_matches(js->j, js->machines, NULL);
	if (r >= 0 && a->boot) {
		r = select_boot(js, a->boot, !a->path && !a->paths, id);
		if (r >= 0)
			memcpy(js->boot_id, id, sizeof(js->boot_id));
	}
	if (r >= 0 && (a->flags & (KD_SOURCE_FOLLOW | KD_SOURCE_FOLLOW_NEW)))
		r = js->base.fd = sd_journal_get_fd(js->j);
	js->mapped_base = mapped_bytes();
	if (r < 0) {
		journal_close(&js->base);
		return r;
	}
	/* One boot is one machine's. */
	if ((a->boot && id[0]) || !several_machines(js))
		js->base.caps &= ~(unsigned int)KD_SOURCE_HAS_HOST;
	*out = &js->base;
	return 0;
}
