// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-output-export.c - golden bytes of the -o export writer (systemd's
 * Journal Export Format), driven through the public writer interface:
 * plain and binary-safe fields, journald's field names, dictionary key
 * clean-up, identifiers of user-space records, absent fields.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sink/output.h"
#include "record/record.h"
#include "tap.h"
#include "writer-run.h"

/* 2023-11-14 22:13:20 UTC, in µs: an arbitrary fixed boot time. */
#define BOOT_USEC	1700000000000000LL

static int64_t boot_usec = BOOT_USEC;

static int run_writer(const struct kd_record *recs, size_t n, char **buf, size_t *len)
{
	struct kd_output_opts opts = { .mode = KD_OUTPUT_EXPORT, .boot_usec = boot_usec };

	return writer_run(&opts, recs, n, buf, len);
}

static void check_one(const struct kd_record *rec, const char *want, size_t want_len,
		      const char *name)
{
	struct kd_output_opts opts = { .mode = KD_OUTPUT_EXPORT, .boot_usec = boot_usec };

	writer_check(&opts, rec, 1, want, want_len, name);
}


#define CHECK(rec, lit, name) check_one(rec, lit, sizeof(lit) - 1, name)

static void test_kernel_record(void)
{
	struct kd_record r;

	kd_record_init(&r);
	r.seq = 42;
	r.facility = 0;
	r.level = 6;
	r.ts_usec = 1234567;
	strcpy(r.caller, "T12");
	kd_record_set_text(&r, "usb 1-1: new high-speed USB device", 34);
	record_add(&r, "SUBSYSTEM", "usb", 3);
	record_add(&r, "DEVICE", "+usb:1-1", 8);
	CHECK(&r,
	      "__REALTIME_TIMESTAMP=1700000001234567\n"
	      "__MONOTONIC_TIMESTAMP=1234567\n"
	      "_SOURCE_MONOTONIC_TIMESTAMP=1234567\n"
	      "_TRANSPORT=kernel\n"
	      "PRIORITY=6\n"
	      "SYSLOG_FACILITY=0\n"
	      "SYSLOG_IDENTIFIER=kernel\n"
	      "MESSAGE=usb 1-1: new high-speed USB device\n"
	      "_KERNEL_SUBSYSTEM=usb\n"
	      "_KERNEL_DEVICE=+usb:1-1\n"
	      "KDMESG_SEQNUM=42\n"
	      "KDMESG_CALLER=T12\n"
	      "\n",
	      "kernel record: journald's fields, boot time + record time");
	kd_record_free(&r);
}

static void test_binary_fields(void)
{
	struct kd_record r;

	kd_record_init(&r);
	r.level = 4;
	r.facility = 0;
	r.ts_usec = 5;
	r.flags = KD_REC_CONT;
	kd_record_set_text(&r, "line one\nline two", 17);
	CHECK(&r,
	      "__REALTIME_TIMESTAMP=1700000000000005\n"
	      "__MONOTONIC_TIMESTAMP=5\n"
	      "_SOURCE_MONOTONIC_TIMESTAMP=5\n"
	      "_TRANSPORT=kernel\n"
	      "PRIORITY=4\n"
	      "SYSLOG_FACILITY=0\n"
	      "SYSLOG_IDENTIFIER=kernel\n"
	      "MESSAGE\n\x11\0\0\0\0\0\0\0line one\nline two\n"
	      "KDMESG_FLAGS=c\n"
	      "\n",
	      "multi-line message is binary-safe: name, LE64 length, bytes");

	kd_record_reset(&r);
	r.ts_usec = 0;
	kd_record_set_text(&r, "tab\tok", 6);
	record_add(&r, "BIN", "a\xff", 2);
	record_add(&r, "DEL", "x\x7f", 2);
	record_add(&r, "C1", "\xc2\x85", 2);
	record_add(&r, "NUL", "a\0b", 3);
	record_add(&r, "UTF8", "Ger\xc3\xa4t", 6);
	record_add(&r, "EMPTY", "", 0);
	CHECK(&r,
	      "__REALTIME_TIMESTAMP=1700000000000000\n"
	      "__MONOTONIC_TIMESTAMP=0\n"
	      "_SOURCE_MONOTONIC_TIMESTAMP=0\n"
	      "_TRANSPORT=kernel\n"
	      "SYSLOG_IDENTIFIER=kernel\n"
	      "MESSAGE=tab\tok\n"
	      "_KERNEL_BIN\n\x02\0\0\0\0\0\0\0a\xff\n"
	      "_KERNEL_DEL\n\x02\0\0\0\0\0\0\0x\x7f\n"
	      "_KERNEL_C1\n\x02\0\0\0\0\0\0\0\xc2\x85\n"
	      "_KERNEL_NUL\n\x03\0\0\0\0\0\0\0a\0b\n"
	      "_KERNEL_UTF8=Ger\xc3\xa4t\n"
	      "_KERNEL_EMPTY=\n"
	      "\n",
	      "TAB and UTF-8 stay plain; invalid UTF-8, DEL, C1, NUL go binary");
	kd_record_free(&r);
}

static void test_long_binary(void)
{
	struct kd_record r;
	char text[300], *want, *p;
	size_t want_len;
	static const char head[] =
		"__REALTIME_TIMESTAMP=1700000000000001\n"
		"__MONOTONIC_TIMESTAMP=1\n"
		"_SOURCE_MONOTONIC_TIMESTAMP=1\n"
		"_TRANSPORT=kernel\n"
		"SYSLOG_IDENTIFIER=kernel\n"
		"MESSAGE\n\x2c\x01\0\0\0\0\0\0";

	memset(text, '\n', sizeof(text));
	kd_record_init(&r);
	r.ts_usec = 1;
	kd_record_set_text(&r, text, sizeof(text));
	want_len = sizeof(head) - 1 + sizeof(text) + 2;
	want = malloc(want_len);
	p = want;
	memcpy(p, head, sizeof(head) - 1);
	p += sizeof(head) - 1;
	memcpy(p, text, sizeof(text));
	p += sizeof(text);
	memcpy(p, "\n\n", 2);
	check_one(&r, want, want_len, "length 300 is written as 2c 01 00 ... (little-endian)");
	free(want);
	kd_record_free(&r);
}

static void test_dict_names(void)
{
	struct kd_record r;

	kd_record_init(&r);
	r.ts_usec = 2;
	kd_record_set_text(&r, "m", 1);
	record_add(&r, "lower-case.key", "1", 1);
	record_add(&r, "SUBSYSTEM", "a", 1);
	record_add(&r, "SUBSYSTEM", "b", 1);
	record_add(&r, "K\xc3\xa9Y", "2", 1);
	record_add(&r, "A123456789012345678901234567890123456789012345678901234567890", "3", 1);
	CHECK(&r,
	      "__REALTIME_TIMESTAMP=1700000000000002\n"
	      "__MONOTONIC_TIMESTAMP=2\n"
	      "_SOURCE_MONOTONIC_TIMESTAMP=2\n"
	      "_TRANSPORT=kernel\n"
	      "SYSLOG_IDENTIFIER=kernel\n"
	      "MESSAGE=m\n"
	      "_KERNEL_LOWER_CASE_KEY=1\n"
	      "_KERNEL_SUBSYSTEM=a\n"
	      "_KERNEL_SUBSYSTEM=b\n"
	      "_KERNEL_K__Y=2\n"
	      "_KERNEL_A1234567890123456789012345678901234567890123456789012345=3\n"
	      "\n",
	      "keys become valid field names (upper-case, '_', at most 64 bytes); repeats kept");

	/* A value a stage derived is kdmesg's field, never a _KERNEL_ one. */
	kd_record_reset(&r);
	r.ts_usec = 2;
	kd_record_set_text(&r, "m", 1);
	record_add(&r, "CODE_FILE", "k.c", 3);
	record_add(&r, "CODE_FILE", "guess.c", 7);
	r.dict[1].origin = KD_ORIGIN_RECOVERED;
	CHECK(&r,
	      "__REALTIME_TIMESTAMP=1700000000000002\n"
	      "__MONOTONIC_TIMESTAMP=2\n"
	      "_SOURCE_MONOTONIC_TIMESTAMP=2\n"
	      "_TRANSPORT=kernel\n"
	      "SYSLOG_IDENTIFIER=kernel\n"
	      "MESSAGE=m\n"
	      "_KERNEL_CODE_FILE=k.c\n"
	      "KDMESG_RECOVERED_CODE_FILE=guess.c\n"
	      "\n",
	      "a recovered value is KDMESG_RECOVERED_<KEY>, not _KERNEL_<KEY>");
	kd_record_free(&r);
}

static void test_user_space_record(void)
{
	struct kd_record r;

	kd_record_init(&r);
	r.seq = 7;
	r.facility = 3;
	r.level = 6;
	r.ts_usec = 10;
	kd_record_set_text(&r, "systemd[1]: Started Journal Service.", 36);
	CHECK(&r,
	      "__REALTIME_TIMESTAMP=1700000000000010\n"
	      "__MONOTONIC_TIMESTAMP=10\n"
	      "_SOURCE_MONOTONIC_TIMESTAMP=10\n"
	      "_TRANSPORT=kernel\n"
	      "PRIORITY=6\n"
	      "SYSLOG_FACILITY=3\n"
	      "SYSLOG_IDENTIFIER=systemd\n"
	      "SYSLOG_PID=1\n"
	      "MESSAGE=Started Journal Service.\n"
	      "KDMESG_SEQNUM=7\n"
	      "\n",
	      "daemon record: ident[pid]: prefix split off as journald does");

	kd_record_reset(&r);
	r.facility = 1;
	r.ts_usec = 10;
	kd_record_set_text(&r, "myscript: hello", 15);
	CHECK(&r,
	      "__REALTIME_TIMESTAMP=1700000000000010\n"
	      "__MONOTONIC_TIMESTAMP=10\n"
	      "_SOURCE_MONOTONIC_TIMESTAMP=10\n"
	      "_TRANSPORT=kernel\n"
	      "SYSLOG_FACILITY=1\n"
	      "SYSLOG_IDENTIFIER=myscript\n"
	      "MESSAGE=hello\n"
	      "\n",
	      "identifier without pid");

	kd_record_reset(&r);
	r.facility = 1;
	r.ts_usec = 10;
	kd_record_set_text(&r, "no identifier here", 18);
	CHECK(&r,
	      "__REALTIME_TIMESTAMP=1700000000000010\n"
	      "__MONOTONIC_TIMESTAMP=10\n"
	      "_SOURCE_MONOTONIC_TIMESTAMP=10\n"
	      "_TRANSPORT=kernel\n"
	      "SYSLOG_FACILITY=1\n"
	      "MESSAGE=no identifier here\n"
	      "\n",
	      "user record without an identifier keeps its whole text");
	kd_record_free(&r);
}

static int64_t now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void test_no_timestamp(void)
{
	struct kd_record r;
	static const char tail[] =
		"\n_TRANSPORT=kernel\n"
		"PRIORITY=5\n"
		"SYSLOG_IDENTIFIER=kernel\n"
		"MESSAGE=from a file without times\n"
		"\n";
	int64_t before, after, got = -1;
	char *buf, *end;
	size_t len;

	kd_record_init(&r);
	r.level = 5;
	kd_record_set_text(&r, "from a file without times", 25);
	before = now_usec();
	tap_is_int(run_writer(&r, 1, &buf, &len), 0, "record without time writes cleanly");
	after = now_usec();
	if (buf && strncmp(buf, "__REALTIME_TIMESTAMP=", 21) == 0)
		got = strtoll(buf + 21, &end, 10);
	else
		end = buf;
	tap_ok(got >= before && got <= after,
	       "no time stamp: __REALTIME_TIMESTAMP is the time of export (%" PRId64 ")", got);
	tap_is_mem(end, buf + len - end, tail, sizeof(tail) - 1,
		   "no monotonic fields, no facility when absent");
	free(buf);
	kd_record_free(&r);
}

static void test_unknown_boot_time(void)
{
	struct kd_record r;
	static const char tail[] =
		"\n__MONOTONIC_TIMESTAMP=7\n"
		"_SOURCE_MONOTONIC_TIMESTAMP=7\n"
		"_TRANSPORT=kernel\n"
		"SYSLOG_IDENTIFIER=kernel\n"
		"MESSAGE=m\n"
		"\n";
	int64_t before, after, got = -1;
	char *buf, *end;
	size_t len;

	kd_record_init(&r);
	r.ts_usec = 7;
	kd_record_set_text(&r, "m", 1);
	boot_usec = 0;
	before = now_usec();
	tap_is_int(run_writer(&r, 1, &buf, &len), 0, "unknown boot time writes cleanly");
	after = now_usec();
	boot_usec = BOOT_USEC;
	if (buf && strncmp(buf, "__REALTIME_TIMESTAMP=", 21) == 0)
		got = strtoll(buf + 21, &end, 10);
	else
		end = buf;
	tap_ok(got >= before && got <= after,
	       "unknown boot time: __REALTIME_TIMESTAMP is the time of export, not 1970 (%" PRId64 ")",
	       got);
	tap_is_mem(end, buf + len - end, tail, sizeof(tail) - 1,
		   "unknown boot time: the monotonic stamp is still exact");
	free(buf);
	kd_record_free(&r);
}

static void test_stream(void)
{
	struct kd_record r[2];
	char *buf;
	size_t len;
	static const char want[] =
		"__REALTIME_TIMESTAMP=1700000000000001\n__MONOTONIC_TIMESTAMP=1\n"
		"_SOURCE_MONOTONIC_TIMESTAMP=1\n_TRANSPORT=kernel\n"
		"SYSLOG_IDENTIFIER=kernel\nMESSAGE=a\n\n"
		"__REALTIME_TIMESTAMP=1700000000000002\n__MONOTONIC_TIMESTAMP=2\n"
		"_SOURCE_MONOTONIC_TIMESTAMP=2\n_TRANSPORT=kernel\n"
		"SYSLOG_IDENTIFIER=kernel\nMESSAGE=b\n\n";

	kd_record_init(&r[0]);
	kd_record_init(&r[1]);
	r[0].ts_usec = 1;
	kd_record_set_text(&r[0], "a", 1);
	r[1].ts_usec = 2;
	kd_record_set_text(&r[1], "b", 1);
	tap_is_int(run_writer(r, 2, &buf, &len), 0, "two entries write cleanly");
	tap_is_mem(buf, len, want, sizeof(want) - 1, "entries are separated by one empty line");
	free(buf);
	kd_record_free(&r[0]);
	kd_record_free(&r[1]);
}

int main(void)
{
	test_kernel_record();
	test_binary_fields();
	test_long_binary();
	test_dict_names();
	test_user_space_record();
	test_no_timestamp();
	test_unknown_boot_time();
	test_stream();
	writer_check_full_disk(KD_OUTPUT_EXPORT);
	return tap_done();
}
