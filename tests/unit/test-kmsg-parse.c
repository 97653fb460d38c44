// SPDX-License-Identifier: GPL-2.0-or-later
/* test-kmsg-parse.c - the /dev/kmsg record parser: header, escapes,
 * dictionary, caller ids, flags, limits and every error path. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "source/kmsg-parse.h"
#include "tap.h"

static struct kd_record r;
static unsigned int cut;

static int parse(const char *s)
{
	return kd_kmsg_parse(s, strlen(s), &r, &cut);
}

static void test_header(void)
{
	tap_is_int(parse("6,1234,5000001,-;hello world\n"), 0, "plain record parses");
	tap_is_int(r.facility, 0, "facility 0");
	tap_is_int(r.level, 6, "level 6");
	tap_ok(r.seq == 1234, "seq 1234");
	tap_ok(r.ts_usec == 5000001, "timestamp in usec");
	tap_ok(r.flags & KD_REC_HAS_PRI, "priority present");
	tap_ok(!(r.flags & KD_REC_CONT), "no continuation");
	tap_is_str(r.caller, "", "no caller id");
	tap_is_mem(r.text, r.text_len, "hello world", 11, "text without newline");
	tap_is_int((long long)r.dict_len, 0, "no dictionary");
	tap_is_int(cut, 0, "nothing cut");

	tap_is_int(parse("30,7,0,-;systemd[1]: x\n"), 0, "user facility record");
	tap_is_int(r.facility, 3, "facility daemon");
	tap_is_int(r.level, 6, "level info");
	tap_is_int(parse("191,8,0,-;local7 debug\n"), 0, "local7.debug parses");
	tap_is_int(r.facility, 23, "facility 23");
	tap_is_int(r.level, 7, "level 7");
	tap_is_int(parse("1024,9,0,-;pri above 1023\n"), 0, "pri > 1023");
	tap_is_int(r.facility, 0, "facility masked as LOG_FAC() does");

	tap_is_int(parse("4,5,12,c;cont\n"), 0, "continuation record");
	tap_ok(r.flags & KD_REC_CONT, "'c' flag sets KD_REC_CONT");
	tap_is_int(parse("4,5,12;no flags field\n"), 0, "header without flags (old kernels)");
	tap_is_mem(r.text, r.text_len, "no flags field", 14, "its text");

	tap_is_int(parse("6,1,0,-,caller=T123;x\n"), 0, "caller id T");
	tap_is_str(r.caller, "T123", "caller T123");
	tap_is_int(parse("6,1,0,-,caller=C7,other=1;x\n"), 0, "caller id C plus unknown field");
	tap_is_str(r.caller, "C7", "caller C7");
	tap_is_int(parse("6,1,0,-,future=1,caller=T9;x\n"), 0, "caller after an unknown field");
	tap_is_str(r.caller, "T9", "caller T9");
	tap_is_int(parse("6,1,0,caller=T3;x\n"), 0, "caller id without a flags field");
	tap_is_str(r.caller, "T3", "caller T3");
	tap_ok(!(r.flags & KD_REC_CONT), "the 'c' of caller= is not the continuation flag");
	tap_is_int(parse("6,1,0,+;x\n"), 0, "'+' flag (old kernels)");
	tap_ok(!(r.flags & KD_REC_CONT), "is not a continuation");
	tap_is_int(parse("6,1,0,-,caller=T12345678901234567;x\n"), 0, "18-character caller id");
	tap_is_str(r.caller, "T12345678901234567", "kept whole, as dmesg keeps it");
	tap_is_int(parse("6,1,0,-,caller=T123456789012345678;x\n"), 0, "19-character caller id");
	tap_is_str(r.caller, "", "over-long caller id ignored");
	tap_is_mem(r.text, r.text_len, "caller=T123456789012345678;x", 28,
		   "the text starts after the flags, as dmesg prints it");
	{
		/* The header reader for long inputs (64 bytes or more). */
		static const char s[] = "6,1,0,-,caller=T123456789012345678;x\n"
			"                                        ";

		tap_is_int(kd_kmsg_parse(s, sizeof(s) - 1, &r, &cut), 0,
			   "19-character caller id, long input");
		tap_is_mem(r.text, r.text_len, "caller=T123456789012345678;x", 28,
			   "the same text");
	}

	tap_is_int(parse("\n  6,2,3,-;leading blanks\n"), 0, "leading blanks skipped");
	tap_is_int(parse("6,1,0,-;no final newline"), 0, "record without final newline");
	/* dmesg loses the last two bytes of a text line the kernel cut. */
	tap_is_mem(r.text, r.text_len, "no final newli", 14,
		   "its text loses two bytes, as in dmesg");
	tap_is_int(kd_kmsg_parse_dump("6,1,0,-;xyz", 11, &r, &cut), 0,
		   "dump record without final newline");
	tap_is_mem(r.text, r.text_len, "xyz", 3, "a dump's record keeps every byte");
	tap_is_int(parse("6,1,0,-;a\n\nx\n"), 0, "blank line right after the text");
	tap_is_mem(r.text, r.text_len, "a\n", 2, "one newline stays in the text, as in dmesg -K");
	tap_is_int(parse("6,1,0,-;a\n SUBSYSTEM=x\n\n"), 0, "blank line after the dictionary");
	tap_is_mem(r.text, r.text_len, "a", 1, "the text is unchanged");
	tap_is_int(parse("6,1,0,-;\n"), 0, "empty text");
	tap_is_int((long long)r.text_len, 0, "text is empty");
	tap_is_int(parse("6,18446744073709551615,9223372036854775807,-;max\n"), 0,
		   "largest seq and timestamp");
	tap_ok(r.seq == 18446744073709551615ULL, "seq u64 max");
	tap_ok(r.ts_usec == 9223372036854775807LL, "timestamp int64 max");
}

static void test_escapes(void)
{
	tap_is_int(parse("6,1,0,-;a\\x0ab\\x5c\\x1b[1m\\xc3\\xa4\\xff\n"), 0, "escaped record");
	tap_is_mem(r.text, r.text_len, "a\nb\\\x1b[1m\xc3\xa4\xff", 11, "escapes undone");
	tap_is_int(parse("6,1,0,-;bad \\xZZ \\x4 \\x\n"), 0, "broken escapes");
	tap_is_mem(r.text, r.text_len, "bad \\xZZ \\x4 \\x", 15, "kept literally");
	tap_is_int(parse("6,1,0,-;nul\\x00inside\n"), 0, "escaped NUL");
	tap_is_mem(r.text, r.text_len, "nul\0inside", 10, "NUL kept in text");
	tap_is_int(parse("6,1,0,-;\\x41\\x42\n"), 0, "escape at the very end");
	tap_is_mem(r.text, r.text_len, "AB", 2, "decoded");

	char out[4];
	int more;
	size_t n = kd_kmsg_unescape(out, sizeof(out), "\\x41BCDE", 8, &more);
	tap_is_int((long long)n, 4, "unescape stops at max");
	tap_ok(more, "and says more was dropped");
	tap_is_mem(out, n, "ABCD", 4, "bounded output");
}

static void test_dict(void)
{
	const struct kd_dict_entry *e;

	tap_is_int(parse("6,1,0,-;pci 0000:00:1f.2: x\n SUBSYSTEM=pci\n DEVICE=+pci:0000:00:1f.2\n"),
		   0, "record with dictionary");
	tap_is_int((long long)r.dict_len, 2, "two entries");
	tap_is_str(r.dict[0].key, "SUBSYSTEM", "first key");
	tap_is_str(r.dict[0].value, "pci", "first value");
	tap_is_str(r.dict[1].key, "DEVICE", "second key in order");
	e = kd_record_dict_get(&r, "DEVICE");
	tap_is_str(e ? e->value : NULL, "+pci:0000:00:1f.2", "DEVICE value");

	tap_is_int(parse("6,1,0,-;x\n KEY=a\\x5cb\\x0ac=d\n"), 0, "escaped value");
	tap_is_mem(r.dict[0].value, r.dict[0].value_len, "a\\b\nc=d", 7, "value unescaped, '=' kept");

	tap_is_int(parse("6,1,0,-;x\n NOEQUALS\n =empty key\n GOOD=1\n"), 0,
		   "bad dictionary lines do not fail the record");
	tap_is_int((long long)r.dict_len, 1, "only the good line kept");
	tap_ok(cut & KD_KMSG_BAD_DICT, "bad lines reported");
	tap_is_int(parse("6,1,0,-;x\nnot indented\n K=v\n"), 0, "unindented line");
	tap_ok(cut & KD_KMSG_BAD_DICT, "reported as a bad dictionary line");
	tap_is_int((long long)r.dict_len, 1, "following line still read");

	char big[70 * 16 + 64];
	size_t n = (size_t)snprintf(big, sizeof(big), "6,1,0,-;many\n");
	for (int i = 0; i < 70; i++)
		n += (size_t)snprintf(big + n, sizeof(big) - n, " K%02d=%d\n", i, i);
	tap_is_int(kd_kmsg_parse(big, n, &r, &cut), 0, "70 dictionary lines");
	tap_is_int((long long)r.dict_len, KD_DICT_MAX, "KD_DICT_MAX kept");
	tap_ok(cut & KD_KMSG_CUT_DICT, "the rest reported as cut");
	tap_is_str(r.dict[63].key, "K63", "the first 64 in order");
}

/*
 * A text of @len bytes (\x41 escapes with @esc), exactly at or one past
 * the limit, through kd_kmsg_parse() and kd_kmsg_parse_simple(): kept
 * whole up to KD_RECORD_MAX, cut and reported one byte later.
 */
static void exact_size(size_t len, bool esc, bool want_cut)
{
	static char buf[KD_RECORD_MAX * 4 + 64];
	size_t n = (size_t)snprintf(buf, sizeof(buf), "6,1,0,-;");
	const char *next;

	for (size_t i = 0; i < len; i++) {
		if (esc) {
			memcpy(buf + n, "\\x41", 4);
			n += 4;
		} else {
			buf[n++] = 'A';
		}
	}
	buf[n++] = '\n';
	tap_is_int(kd_kmsg_parse(buf, n, &r, &cut), 0, "record at the size limit parses");
	tap_is_int((long long)r.text_len, want_cut ? KD_RECORD_MAX : (long long)len,
		   want_cut ? "one byte past the limit: cut" : "exactly the limit: whole");
	tap_is_int(!!(cut & KD_KMSG_CUT_TEXT), want_cut,
		   want_cut ? "and reported cut" : "and not reported cut");
	if (esc)
		return;
	/* The one-pass parser needs the next record's start after it. */
	buf[n] = '6';
	next = kd_kmsg_parse_simple(buf, buf + n + 1, &r, &cut, 0);
	tap_ok(next == buf + n && r.text_len == (want_cut ? KD_RECORD_MAX : len) &&
	       !!(cut & KD_KMSG_CUT_TEXT) == want_cut,
	       "the one-pass parser: the same text and cut flag");
}

/* A dictionary value of @len bytes: whole up to the limit, cut after. */
static void exact_value(size_t len, bool want_cut)
{
	static char buf[KD_RECORD_MAX + 64];
	size_t n = (size_t)snprintf(buf, sizeof(buf), "6,1,0,-;x\n K=");

	memset(buf + n, 'V', len);
	n += len;
	buf[n++] = '\n';
	tap_is_int(kd_kmsg_parse(buf, n, &r, &cut), 0, "value at the size limit parses");
	tap_ok(r.dict_len == 1 &&
	       r.dict[0].value_len == (want_cut ? KD_RECORD_MAX : len) &&
	       !!(cut & KD_KMSG_CUT_TEXT) == want_cut,
	       want_cut ? "a value one byte past the limit is cut and reported" :
			  "a value of exactly the limit is whole");
}

static void test_limits(void)
{
	static char big[KD_RECORD_MAX * 5];
	size_t n = (size_t)snprintf(big, sizeof(big), "6,1,0,-;");

	memset(big + n, 'A', KD_RECORD_MAX + 100);
	n += KD_RECORD_MAX + 100;
	big[n++] = '\n';
	tap_is_int(kd_kmsg_parse(big, n, &r, &cut), 0, "over-long text parses");
	tap_is_int((long long)r.text_len, KD_RECORD_MAX, "text cut at KD_RECORD_MAX");
	tap_ok(cut & KD_KMSG_CUT_TEXT, "reported as cut");

	n = (size_t)snprintf(big, sizeof(big), "6,1,0,-;");
	for (int i = 0; i < KD_RECORD_MAX; i++)
		n += (size_t)snprintf(big + n, sizeof(big) - n, "\\x41");
	tap_is_int(kd_kmsg_parse(big, n, &r, &cut), 0, "over-long escaped text");
	tap_is_int((long long)r.text_len, KD_RECORD_MAX, "cut after unescaping");

	tap_is_int(kd_kmsg_parse("6,1,0,-;ab\0cd\n", 14, &r, &cut), 0, "NUL ends the record");
	tap_is_mem(r.text, r.text_len, "ab", 2, "text up to the NUL");

	for (int esc = 0; esc < 2; esc++) {
		exact_size(KD_RECORD_MAX, esc, false);
		exact_size(KD_RECORD_MAX + 1, esc, true);
	}
	exact_value(KD_RECORD_MAX, false);
	exact_value(KD_RECORD_MAX + 1, true);
}

static void test_errors(void)
{
	const char *bad[] = {
		"", "\n", "   ", "hello world\n", ";empty header\n",
		"6,1,0,- no semicolon\n", "6,1,0,-\n;semicolon on the next line\n",
		"x,1,0,-;bad pri\n", "6,x,0,-;bad seq\n", "6,1,x,-;bad ts\n",
		"-6,1,0,-;negative pri\n", "6,-1,0,-;negative seq\n",
		"6,1;too few fields\n", "6,1,0", "6,1,0,",
		"6,18446744073709551616,0,-;seq overflow\n",
		"6,1,9223372036854775808,-;ts beyond int64\n",
		"6,1,99999999999999999999,-;ts overflow\n",
		"2147483648,1,0,-;pri beyond int\n",
		"6 ,1,0,-;blank in field\n",
		"\x7f" "ELF\x02\x01\x01",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		tap_is_int(parse(bad[i]), -EINVAL, "malformed record refused");
	tap_is_int(kd_kmsg_parse("6,1\0,0,-;nul in header\n", 23, &r, &cut), -EINVAL,
		   "NUL inside the header");
}

int main(void)
{
	kd_record_init(&r);
	test_header();
	test_escapes();
	test_dict();
	test_limits();
	test_errors();
	kd_record_free(&r);
	return tap_done();
}
