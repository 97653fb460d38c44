// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * output-export.c - the -o export writer: systemd's Journal Export Format,
 * so systemd-journal-remote (and any shipper that reads the format) can
 * ingest kernel logs that kdmesg read from /dev/kmsg, syslog(2) or a file.
 *
 * The format (https://systemd.io/JOURNAL_EXPORT_FORMATS/): one field per
 * line as NAME=value; a value that is not printable UTF-8 (a newline, a
 * control character other than TAB, invalid UTF-8) is written binary-safe
 * as NAME, newline, its length as a 64-bit little-endian integer, the raw
 * bytes, newline.  An empty line ends each entry.
 *
 * Fields, chosen to match what journald itself stores for a kernel record
 * (journald-kmsg.c), so queries such as `journalctl _TRANSPORT=kernel` or
 * `journalctl _KERNEL_SUBSYSTEM=usb` work on the imported journal:
 *
 *   __REALTIME_TIMESTAMP       boot time + record time (µs since the
 *                              epoch); for a record without a time stamp
 *                              or when the boot time is unknown (0), the
 *                              time of the export (as journald stamps
 *                              records when it receives them):
 *                              systemd-journal-remote refuses entries
 *                              without this field
 *   __MONOTONIC_TIMESTAMP      record time (µs since boot), when known
 *   _SOURCE_MONOTONIC_TIMESTAMP  the same, journald's name for it
 *   _TRANSPORT=kernel
 *   PRIORITY, SYSLOG_FACILITY  level and facility, when known
 *   SYSLOG_IDENTIFIER=kernel   for the kernel facility; for records that
 *                              user space wrote to /dev/kmsg, the
 *                              "ident[pid]: " prefix is split off into
 *                              SYSLOG_IDENTIFIER and SYSLOG_PID, as journald
 *                              does
 *   MESSAGE                    the text, unescaped, byte-exact
 *   _KERNEL_<KEY>              each dictionary entry, in order; the key is
 *                              made a valid journal field name (a-z to
 *                              A-Z, any other byte outside A-Z 0-9 _ to
 *                              '_', cut at 64 bytes), as the journal drops
 *                              fields with invalid names
 *   KDMESG_RECOVERED_<KEY>     a dictionary value kdmesg derived (a
 *                              pipeline stage's, lib/record/record.h), never
 *                              passed off as the kernel's _KERNEL_<KEY>
 *   KDMESG_SEQNUM, KDMESG_CALLER, KDMESG_FLAGS=c
 *                              the kernel sequence number, caller id and
 *                              continuation flag, which journald drops;
 *                              kdmesg keeps them under its own prefix
 *
 *   _BOOT_ID, _MACHINE_ID, _HOSTNAME
 *                              the record's machine and boot where known
 *                              (the journal's records, this machine's for
 *                              the live log), so that journalctl -b finds
 *                              the records journal-remote stored; the
 *                              journal's own __REALTIME_TIMESTAMP is
 *                              written back unchanged.  A dump's records
 *                              get the _BOOT_ID kdmesg names its boot by
 *                              (kd_host_dump(), set by the front end)
 *
 * No __CURSOR or __SEQNUM: those describe a journal file, and the export
 * format documentation says generators leave them out.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "record/field.h"
#include "record/record.h"
#include "shared/utf8.h"
#include "sink/output-internal.h"
#include "sink/output.h"
#include "sink/sink.h"
#include "record/host.h"

/* Longest field name the journal accepts (journal_field_valid()). */
#define EXPORT_NAME_MAX	64

/*
 * Whether @len bytes can be written as NAME=value: valid UTF-8 without
 * control characters other than TAB.  Like systemd's own export writer,
 * DEL and the C1 controls (U+0080..U+009F) count as control characters.
 */
static bool export_is_plain(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		uint32_t cp;
		size_t n = kd_utf8_decode(p + i, len - i, &cp);

		if (n == 0)
			return false;
		if ((cp < 0x20 && cp != '\t') || (cp >= 0x7f && cp < 0xa0))
			return false;
		i += n;
	}
	return true;
}

/* Write field @name with @len bytes of @value, in whichever form fits. */
static void export_field(struct kd_escape_buf *out, const char *name,
			 const char *value, size_t len)
{
	char le[8];
	uint64_t v = len;
	int i;

	kd_escape_buf_puts(out, name);
	if (export_is_plain(value, len)) {
		kd_escape_buf_putc(out, '=');
		kd_escape_buf_put(out, value, len);
		kd_escape_buf_putc(out, '\n');
		return;
	}
	for (i = 0; i < 8; i++) {
		le[i] = (char)(v & 0xff);
		v >>= 8;
	}
	kd_escape_buf_putc(out, '\n');
	kd_escape_buf_put(out, le, sizeof(le));
	kd_escape_buf_put(out, value, len);
	kd_escape_buf_putc(out, '\n');
}

static void export_field_str(struct kd_escape_buf *out, const char *name,
			     const char *value)
{
	export_field(out, name, value, strlen(value));
}

static void export_field_num(struct kd_escape_buf *out, const char *name, int64_t value)
{
	kd_escape_buf_puts(out, name);
	kd_escape_buf_putc(out, '=');
	kd_escape_buf_put_i64(out, value);
	kd_escape_buf_putc(out, '\n');
}

/* "_KERNEL_" + @key turned into a valid journal field name, into @buf. */
static void export_dict_name(char *buf, const char *key)
{
	static const char prefix[] = "_KERNEL_";
	size_t n = sizeof(prefix) - 1;

	memcpy(buf, prefix, n);
	for (; *key && n < EXPORT_NAME_MAX; key++) {
		char c = *key;

		if (c >= 'a' && c <= 'z')
			c = (char)(c - 'a' + 'A');
		else if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
			c = '_';
		buf[n++] = c;
	}
	buf[n] = '\0';
}

/*
 * Split "ident[pid]: text" as journald's syslog_parse_identifier() does:
 * the first word, if it ends in ':', is the identifier, with an optional
 * trailing [pid]; one blank after it belongs to the prefix.  Returns the
 * length of the prefix (0 when there is none) and sets the spans.
 */
static size_t export_split_ident(const char *text, size_t len,
				 const char **ident, size_t *ident_len,
				 const char **pid, size_t *pid_len)
{
	size_t start = 0, end, l, k;

	while (start < len && (text[start] == ' ' || text[start] == '\t'))
		start++;
	end = start;
	while (end < len && !strchr(" \t\n\r", text[end]))
		end++;
	if (end == start || text[end - 1] != ':')
		return 0;

	l = end - 1 - start;		/* without the ':' */
	*pid = NULL;
	*pid_len = 0;
	if (l > 0 && text[start + l - 1] == ']') {
		for (k = l - 1; k-- > 0;) {
			if (text[start + k] == '[') {
				*pid = text + start + k + 1;
				*pid_len = l - k - 2;
				l = k;
				break;
			}
		}
	}
	*ident = text + start;
	*ident_len = l;
	if (end < len && (text[end] == ' ' || text[end] == '\t'))
		end++;
	return end;
}

static int64_t export_now_usec(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		return 0;
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* One journal export entry: its fields and the empty line that ends it. */
static int export_write(struct kd_writer *w, const struct kd_record *rec,
			const struct kd_prev *prev)
{
	const char *text = rec->text ? rec->text : "";
	size_t text_len = rec->text ? rec->text_len : 0;
	int64_t realtime = 0;
	char name[EXPORT_NAME_MAX + 1];
	struct kd_escape_buf *out = &w->line;
	const struct kd_host *host = kd_output_host(&w->opts, rec);
	int64_t boot_usec = kd_record_boot_usec(rec, w->opts.boot_usec);
	size_t i;

	(void)prev;
	/*
	 * A boot time of 0 means the front end could not find it; 1970 plus
	 * the record time would be a wrong date that looks right, so fall
	 * back to the time of export, as for records without a stamp.  The
	 * journal also rejects entries with a zero or negative wall clock.
	 */
	/* A stamp so large that the sum overflows saturates. */
	if (rec->realtime_usec > 0)
		realtime = rec->realtime_usec;
	else if (rec->ts_usec != KD_NO_TIME && boot_usec > 0 &&
		 __builtin_add_overflow(boot_usec, rec->ts_usec, &realtime))
		realtime = rec->ts_usec > 0 ? INT64_MAX : 0;
	if (realtime <= 0)
		realtime = export_now_usec();
	export_field_num(out, "__REALTIME_TIMESTAMP", realtime);
	if (rec->ts_usec != KD_NO_TIME && rec->ts_usec >= 0) {
		export_field_num(out, "__MONOTONIC_TIMESTAMP", rec->ts_usec);
		export_field_num(out, "_SOURCE_MONOTONIC_TIMESTAMP", rec->ts_usec);
	}
	if (host && host->boot_id[0])
		export_field_str(out, "_BOOT_ID", host->boot_id);
	if (host && host->machine_id[0])
		export_field_str(out, "_MACHINE_ID", host->machine_id);
	if (host && host->hostname[0])
		export_field(out, "_HOSTNAME", host->hostname, strlen(host->hostname));
	export_field_str(out, "_TRANSPORT", "kernel");
	if (rec->level != KD_NO_LEVEL)
		export_field_num(out, KD_KEY_PRIORITY, rec->level);
	if (rec->facility != KD_NO_FACILITY)
		export_field_num(out, KD_KEY_FACILITY, rec->facility);

	if (rec->facility == KD_NO_FACILITY || rec->facility == 0) {
		export_field_str(out, "SYSLOG_IDENTIFIER", "kernel");
	} else {
		const char *ident, *pid;
		size_t ident_len, pid_len, skip;

		skip = export_split_ident(text, text_len, &ident, &ident_len, &pid, &pid_len);
		if (skip) {
			if (ident_len)
				export_field(out, "SYSLOG_IDENTIFIER", ident, ident_len);
			if (pid && pid_len)
				export_field(out, "SYSLOG_PID", pid, pid_len);
			text += skip;
			text_len -= skip;
		}
	}
	export_field(out, KD_KEY_MESSAGE, text, text_len);

	for (i = 0; i < rec->dict_len; i++) {
		if (rec->dict[i].origin == KD_ORIGIN_TRANSLATED) {
			/* kdmesg's translation, not a field the kernel sent */
			snprintf(name, sizeof(name), "KDMESG_%s", rec->dict[i].key);
		} else if (rec->dict[i].origin != KD_ORIGIN_KERNEL) {
			/* derived by kdmesg: never a _KERNEL_ field */
			snprintf(name, sizeof(name), "KDMESG_RECOVERED_%s", rec->dict[i].key);
		} else {
			export_dict_name(name, rec->dict[i].key);
		}
		export_field(out, name, rec->dict[i].value, rec->dict[i].value_len);
	}

	if (kd_record_has_seq(rec)) {
		kd_escape_buf_puts(out, "KDMESG_SEQNUM=");
		kd_escape_buf_put_u64(out, rec->seq);
		kd_escape_buf_putc(out, '\n');
	}
	if (rec->caller[0])
		export_field(out, "KDMESG_CALLER", rec->caller,
			     strnlen(rec->caller, sizeof(rec->caller)));
	if (rec->flags & KD_REC_CONT)
		export_field_str(out, "KDMESG_FLAGS", "c");
	kd_escape_buf_putc(out, '\n');
	return 0;
}

const struct kd_writer_ops kd_writer_export = {
	.name = "export",
	.flags = KD_OUTPUT_WALL_CLOCK | KD_OUTPUT_BINARY,
	.write = export_write,
};
