// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * source-journal-entry.c - one journal entry back into the record
 * journald made it from (journald-kmsg.c): MESSAGE, PRIORITY,
 * SYSLOG_FACILITY, _SOURCE_MONOTONIC_TIMESTAMP (the kernel's stamp),
 * _KERNEL_<KEY> to the dictionary's KEY, SYSLOG_IDENTIFIER/SYSLOG_PID
 * back in front of the text of user-space records, and kdmesg's own
 * KDMESG_SEQNUM, KDMESG_CALLER, KDMESG_FLAGS and KDMESG_RECOVERED_<KEY>
 * (-o export) back to what they were.  _HOSTNAME, _MACHINE_ID and
 * _BOOT_ID name the record's struct kd_host, whose boot time is the
 * entry's wall clock minus its monotonic clock: both were taken at one
 * instant on that machine, so records are dated with their own
 * machine's boot.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <systemd/sd-journal.h>

#include "record/host.h"
#include "source/source-journal-internal.h"

/* Field names of the mapping, with the '=' that ends them. */
#define F_KERNEL	"_KERNEL_"
#define F_RECOVERED	"KDMESG_RECOVERED_"

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
			kd_journal_copy_str(e->machine, sizeof(e->machine), d + v, len - v);
		} else if ((v = FIELD(d, len, "_BOOT_ID"))) {
			kd_journal_copy_str(e->boot, sizeof(e->boot), d + v, len - v);
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
			kd_journal_copy_str(rec->caller, KD_CALLER_MAX + 1, d + v, len - v);
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

int kd_journal_read_entry(struct journal_source *js, struct kd_record *rec)
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
