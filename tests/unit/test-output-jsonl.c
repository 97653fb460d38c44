// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-output-jsonl.c - golden bytes of the -o jsonl writer, driven through
 * the public writer interface: every member, absent members, string
 * escapes, invalid UTF-8, repeated and colliding dictionary keys.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sink/output.h"
#include "record/record.h"
#include "tap.h"
#include "writer-run.h"

static const struct kd_output_opts jsonl = { .mode = KD_OUTPUT_JSONL };

static int run_writer(const struct kd_record *recs, size_t n, char **buf, size_t *len)
{
	return writer_run(&jsonl, recs, n, buf, len);
}

/* Check that formatting @rec gives exactly @want. */
static void check_one(const struct kd_record *rec, const char *want, const char *name)
{
	writer_check(&jsonl, rec, 1, want, strlen(want), name);
}


/* Check that formatting @rec gives exactly @want. */
static void test_full_record(void)
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
	check_one(&r,
		  "{\"seq\":42,\"facility\":0,\"level\":6,\"time\":1234567,"
		  "\"caller\":\"T12\",\"flags\":\"\","
		  "\"message\":\"usb 1-1: new high-speed USB device\","
		  "\"SUBSYSTEM\":\"usb\",\"DEVICE\":\"+usb:1-1\"}\n",
		  "every member, dictionary in kernel order");
	kd_record_free(&r);
}

static void test_absent_fields(void)
{
	struct kd_record r;

	kd_record_init(&r);
	kd_record_set_text(&r, "no header at all", 16);
	check_one(&r, "{\"flags\":\"\",\"message\":\"no header at all\"}\n",
		  "absent seq/facility/level/time/caller are omitted");

	kd_record_reset(&r);
	check_one(&r, "{\"flags\":\"\",\"message\":\"\"}\n", "empty message is still a member");

	kd_record_reset(&r);
	r.level = 3;
	r.ts_usec = 0;
	r.facility = 16;
	r.flags = KD_REC_CONT;
	kd_record_set_text(&r, "x", 1);
	check_one(&r, "{\"facility\":16,\"level\":3,\"time\":0,\"flags\":\"c\",\"message\":\"x\"}\n",
		  "time 0 is present, continuation flag is \"c\"");

	kd_record_reset(&r);
	r.seq = 18446744073709551614ULL;
	r.ts_usec = 9223372036854775807LL;
	kd_record_set_text(&r, "big", 3);
	check_one(&r, "{\"seq\":18446744073709551614,\"time\":9223372036854775807,"
		  "\"flags\":\"\",\"message\":\"big\"}\n",
		  "64-bit seq and time are exact integers");
	kd_record_free(&r);
}

static void test_escapes(void)
{
	static const char bad[] =
		"a\x80" "b\xff" "c\xc0\xaf" "d\xed\xa0\x80" "e\xf4\x90\x80\x80" "f\xe2\x82";
	static const char text[] = "q\" b\\ \b\f\n\r\t \x01\x1f\x7f \0 end";
	struct kd_record r;

	kd_record_init(&r);
	kd_record_set_text(&r, text, sizeof(text) - 1);
	check_one(&r,
		  "{\"flags\":\"\",\"message\":"
		  "\"q\\\" b\\\\ \\b\\f\\n\\r\\t \\u0001\\u001f\\u007f \\u0000 end\"}\n",
		  "short escapes, \\u00XX for other controls and NUL");

	kd_record_reset(&r);
	/* é, €, U+1F600, all valid: copied as they are. */
	kd_record_set_text(&r, "\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 11);
	check_one(&r, "{\"flags\":\"\",\"message\":\"\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"}\n",
		  "valid UTF-8 is copied unchanged");

	kd_record_reset(&r);
	/*
	 * A stray continuation byte, a lone 0xff, an overlong '/', a UTF-16
	 * surrogate, a code point past U+10FFFF, and a sequence cut short at
	 * the end: each invalid byte becomes one U+FFFD.
	 */
	kd_record_set_text(&r, bad, sizeof(bad) - 1);
	check_one(&r,
		  "{\"flags\":\"\",\"message\":\"a\\ufffdb\\ufffdc\\ufffd\\ufffd"
		  "d\\ufffd\\ufffd\\ufffde\\ufffd\\ufffd\\ufffd\\ufffdf\\ufffd\\ufffd\"}\n",
		  "invalid UTF-8 bytes become \\ufffd, one per byte");
	kd_record_free(&r);
}

static void test_dictionary(void)
{
	struct kd_record r;

	kd_record_init(&r);
	kd_record_set_text(&r, "m", 1);
	record_add(&r, "SUBSYSTEM", "pci", 3);
	record_add(&r, "TAG", "one", 3);
	record_add(&r, "DEVICE", "+pci:0000:00:01.0", 17);
	record_add(&r, "TAG", "two\n\"2\"", 7);
	record_add(&r, "TAG", "three", 5);
	check_one(&r,
		  "{\"flags\":\"\",\"message\":\"m\",\"SUBSYSTEM\":\"pci\","
		  "\"TAG\":[\"one\",\"two\\n\\\"2\\\"\",\"three\"],"
		  "\"DEVICE\":\"+pci:0000:00:01.0\"}\n",
		  "a repeated key becomes an array at its first position");

	kd_record_reset(&r);
	kd_record_set_text(&r, "m", 1);
	r.seq = 1;
	record_add(&r, "seq", "fake", 4);
	record_add(&r, "message", "fake", 4);
	record_add(&r, "K\xff", "v\x00w", 3);
	record_add(&r, "dict.seq", "also", 4);
	record_add(&r, "message_translated", "t", 1);
	record_add(&r, "module_info", "m", 1);
	check_one(&r,
		  "{\"seq\":1,\"flags\":\"\",\"message\":\"m\",\"dict.seq\":\"fake\","
		  "\"dict.message\":\"fake\",\"K\\ufffd\":\"v\\u0000w\","
		  "\"dict.dict.seq\":\"also\",\"dict.message_translated\":\"t\","
		  "\"dict.module_info\":\"m\"}\n",
		  "keys named like members, or dict.*, are prefixed: no name twice; keys are escaped");

	/* Keys alike in length, first and last two bytes: still apart. */
	kd_record_reset(&r);
	kd_record_set_text(&r, "m", 1);
	record_add(&r, "AB_CD", "1", 1);
	record_add(&r, "AX_CD", "2", 1);
	record_add(&r, "AB_CD", "3", 1);
	check_one(&r,
		  "{\"flags\":\"\",\"message\":\"m\",\"AB_CD\":[\"1\",\"3\"],"
		  "\"AX_CD\":\"2\"}\n",
		  "keys of one summary are told apart; the repeat is grouped");

	/* A derived value is marked, never grouped with the kernel's. */
	kd_record_reset(&r);
	kd_record_set_text(&r, "m", 1);
	record_add(&r, "CODE_FILE", "k.c", 3);
	record_add(&r, "CODE_FILE", "guess.c", 7);
	r.dict[1].origin = KD_ORIGIN_RECOVERED;
	record_add(&r, "CODE_FILE[recovered]", "spoof", 5);
	check_one(&r,
		  "{\"flags\":\"\",\"message\":\"m\",\"CODE_FILE\":\"k.c\","
		  "\"CODE_FILE[recovered]\":\"guess.c\","
		  "\"dict.CODE_FILE[recovered]\":\"spoof\"}\n",
		  "a recovered value is KEY[recovered]; a kernel key with '[' is renamed");
	kd_record_free(&r);
}

static void test_stream(void)
{
	struct kd_record r[2];
	char *buf;
	size_t len;
	static const char want[] =
		"{\"seq\":1,\"level\":6,\"flags\":\"\",\"message\":\"first\"}\n"
		"{\"seq\":2,\"level\":4,\"flags\":\"c\",\"message\":\"second\"}\n";

	kd_record_init(&r[0]);
	kd_record_init(&r[1]);
	r[0].seq = 1;
	r[0].level = 6;
	kd_record_set_text(&r[0], "first", 5);
	r[1].seq = 2;
	r[1].level = 4;
	r[1].flags = KD_REC_CONT;
	kd_record_set_text(&r[1], "second", 6);
	tap_is_int(run_writer(r, 2, &buf, &len), 0, "two records write cleanly");
	tap_is_mem(buf, len, want, sizeof(want) - 1, "one object per line, nothing else");
	free(buf);
	kd_record_free(&r[0]);
	kd_record_free(&r[1]);
}

int main(void)
{
	test_full_record();
	test_absent_fields();
	test_escapes();
	test_dictionary();
	test_stream();
	writer_check_full_disk(KD_OUTPUT_JSONL);
	return tap_done();
}
