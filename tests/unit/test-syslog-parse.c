// SPDX-License-Identifier: GPL-2.0-or-later
/* test-syslog-parse.c - the syslog(2) buffer format: record splitting at
 * "\n<", priority, timestamp and caller id, and the odd inputs whose
 * output util-linux dmesg -F defines (checked against dmesg itself). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "source/syslog-parse.h"
#include "tap.h"

#define MAXREC 16

static struct kd_record recs[MAXREC];
static size_t nrecs;

/* Split and parse a whole buffer the way the -F reader does. */
static size_t parse_all(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;

	for (size_t i = 0; i < nrecs; i++)
		kd_record_reset(&recs[i]);
	nrecs = 0;
	while (nrecs < MAXREC) {
		const char *e;
		bool last;

		p = kd_syslog_skip_nul(p, end);
		if (p == end)
			break;
		e = kd_syslog_record_end(p, end);
		last = !e;
		if (!e)
			e = end;
		kd_syslog_parse(p, e, last, &recs[nrecs++], NULL);
		p = last ? end : e + 1;
	}
	return nrecs;
}

static size_t parse_str(const char *s)
{
	return parse_all(s, strlen(s));
}

static bool text_is(size_t i, const char *want, const char *name)
{
	return tap_is_mem(recs[i].text, recs[i].text_len, want, strlen(want), name);
}

static void test_plain(void)
{
	tap_is_int((long long)parse_str("<6>[    1.000000] one\n<4>[   12.345678] two\n"), 2,
		   "two records");
	tap_is_int(recs[0].level, 6, "level of the first");
	tap_is_int(recs[0].facility, 0, "facility of the first");
	tap_ok(recs[0].ts_usec == 1000000, "first timestamp");
	tap_ok(recs[0].seq == KD_NO_SEQ, "syslog records have no seq");
	text_is(0, "one", "first text");
	tap_ok(recs[1].ts_usec == 12345678, "second timestamp");
	text_is(1, "two", "last text loses its final newline");

	parse_str("<30>[123456.789012] systemd[1]: started\n");
	tap_is_int(recs[0].facility, 3, "daemon facility");
	tap_is_int(recs[0].level, 6, "info level");
	tap_ok(recs[0].ts_usec == 123456789012LL, "timestamp above 1e5 seconds");

	parse_str("<6>[    0.000000][  T412] Call Trace:\n");
	tap_is_str(recs[0].caller, "T412", "caller id right after the time");
	text_is(0, "Call Trace:", "text after the caller id");
	parse_str("<6>[    0.000000] [     C3] spaced caller\n");
	tap_is_str(recs[0].caller, "C3", "caller id after a space (util-linux test form)");
	text_is(0, "spaced caller", "its text");
}

static void test_odd(void)
{
	/* Expected values: what util-linux dmesg -F prints for the line. */
	parse_str("<x>[    1.100000] bad priority\n");
	tap_ok(!(recs[0].flags & KD_REC_HAS_PRI), "non-numeric priority: none");
	tap_is_int(recs[0].level, KD_NO_LEVEL, "no level");
	tap_ok(recs[0].ts_usec == 1100000, "timestamp still read");
	text_is(0, "bad priority", "text");

	parse_str("<6>no timestamp at all\n");
	tap_ok(recs[0].ts_usec == KD_NO_TIME, "no timestamp: KD_NO_TIME");
	text_is(0, "no timestamp at all", "text");

	parse_str("<6>[  abc] not a number\n");
	tap_ok(recs[0].ts_usec == KD_NO_TIME, "bad timestamp: none");
	text_is(0, " abc] not a number", "'[' and one blank eaten, as dmesg");

	parse_str("<6>[   12 junk] half a timestamp\n");
	tap_ok(recs[0].ts_usec == 12000000, "dmesg keeps the seconds it read");
	text_is(0, "  12 junk] half a timestamp", "text from after the '['");

	parse_str("<300>[    2.000000] facility 37\n");
	tap_is_int(recs[0].facility, 37, "facility beyond local7 kept");
	tap_is_int(recs[0].level, 4, "its level");

	tap_is_int((long long)parse_str("<6>[    3.000000] first\ncontinued\n<6>[    4.000000] next\n"),
		   2, "a line without '<' belongs to the record above");
	text_is(0, "first\ncontinued", "multi-line text");

	parse_str("<6>[    3.000000] \n<6>[    4.000000] x\n");
	tap_is_int((long long)recs[0].text_len, 0, "empty message");

	parse_str("<6>[    5.000000] a\n\n<6>[    6.000000] b\n");
	text_is(0, "a\n", "a blank line stays in the record above");

	parse_str("<7>[99999999.999999] no final newline");
	tap_ok(recs[0].ts_usec == 99999999999999LL, "large timestamp");
	text_is(0, "no final newline", "text to the end of input");

	tap_is_int((long long)parse_all("\0\0<6>[    1.000000] x\n\0\0", 24), 1,
		   "zero padding around the buffer");
	tap_is_mem(recs[0].text, recs[0].text_len, "x\n\0\0", 4,
		   "padding after the last newline is text (as dmesg)");

	parse_str("<6>[    1.000000][T1]x");
	tap_is_str(recs[0].caller, "T1", "caller id without padding");
	text_is(0, "", "the byte after ']' is eaten (dmesg expects a blank)");

	parse_str("<6>[     T1] caller without time\n");
	tap_is_str(recs[0].caller, "", "printk.time=0: dmesg reads the bracket as a time");
	text_is(0, "    T1] caller without time", "and shows the rest as text");

	parse_str("[    1.000000] no priority\n");
	tap_ok(!(recs[0].flags & KD_REC_HAS_PRI), "no priority");
	tap_ok(recs[0].ts_usec == 1000000, "timestamp without priority");

	parse_str("<6");
	tap_is_int((long long)recs[0].text_len, 0, "unterminated priority: empty text");
	parse_str("<6>[1.5]x\n");
	tap_ok(recs[0].ts_usec == 1000005, "\"1.5\" is 1 s + 5 us, as strtol reads it");
	parse_str("<6>[99999999999999999999.0] overflow\n");
	tap_ok(recs[0].ts_usec == INT64_MAX, "overflowing seconds saturate");
	parse_str("<6>[ -99999999999999999999.0] overflow\n");
	tap_ok(recs[0].ts_usec == -INT64_MAX, "and so do negative ones");
	parse_str("<6>[9223372036853.9223372036854775807] x\n");
	tap_ok(recs[0].ts_usec == 9223372036853922337LL,
	       "a fraction of 19 digits counts six, no overflow");
	parse_str("<6>[9223372036854.999999] x\n");
	tap_ok(recs[0].ts_usec == INT64_MAX, "a sum past INT64_MAX saturates");
	parse_str("<6>[18446744073709.551615] x\n");
	tap_ok(recs[0].ts_usec == INT64_MAX, "seconds past the range saturate, not 0");
	parse_str("<6>[ 1.9999999999] x\n");
	tap_ok(recs[0].ts_usec == 1999999, "ten fraction digits are 1.999999 s, not 10000.999999");
	parse_str("<6>[ 1.-9999999] x\n");
	tap_ok(recs[0].ts_usec == 1000000 - 999999, "a signed long fraction keeps its sign");
	tap_is_int((long long)parse_str("\n<6>[    1.000000] x\n"), 1,
		   "a leading newline does not split");
	text_is(0, "\n<6>[    1.000000] x", "and stays in the text, as dmesg");
}

/*
 * The fast path for the kernel's own prefix must agree with the strtol()
 * rules at its edges: short fields, long fields, stamps near the end of
 * the record, 13-digit seconds and 7-digit fractions (left to the general
 * parser), and a long text so both paths have room to run.
 */
static void test_prefix_edges(void)
{
	tap_is_int((long long)parse_str(
		"<6>[    1.000000] the usual form with text long enough for the fast path\n"
		"<6>[ 12.5] short fraction, as strtol reads it: 5 microseconds\n"
		"<6>[ 1.1234567] seven fraction digits: the first six count\n"
		"<6>[1234567890123.000001] thirteen digits of seconds, general path\n"
		"<999999999>[    2.000000] nine-digit priority masked as LOG_FAC/LOG_PRI\n"
		"<1234567890>[    3.000000] ten digits: not a fast priority\n"
		"<6>[    4.000000]"), 7, "seven records");
	tap_ok(recs[6].ts_usec == 4000000, "stamp of a record without text");
	tap_ok(recs[0].ts_usec == 1000000, "usual stamp");
	text_is(0, "the usual form with text long enough for the fast path",
		"usual text");
	tap_ok(recs[1].ts_usec == 12000005, "short fraction");
	tap_ok(recs[2].ts_usec == 1123456, "long fraction: six digits count");
	tap_ok(recs[3].ts_usec == (int64_t)1234567890123 * 1000000 + 1,
	       "thirteen-digit seconds");
	tap_is_int(recs[4].level, 999999999 & 7, "nine-digit priority level");
	tap_is_int(recs[4].facility, (999999999 & 0x3f8) >> 3,
		   "nine-digit priority facility");
	tap_ok(recs[4].ts_usec == 2000000, "stamp after a long priority");
	tap_is_int(recs[5].level, 1234567890 & 7, "ten-digit priority level");
	tap_ok(recs[5].ts_usec == 3000000, "stamp after a ten-digit priority");
	tap_is_int((long long)parse_str("<6>[    4.000000] x"), 1, "short record");
	tap_ok(recs[0].ts_usec == 4000000, "stamp of a record too short for the fast path");
	text_is(0, "x", "its text");
}

static void exact_size(size_t len, bool want_cut);

static void test_limits(void)
{
	static char big[KD_RECORD_MAX + 100];
	unsigned int cut;

	memcpy(big, "<6>", 3);
	memset(big + 3, 'A', sizeof(big) - 3);
	kd_syslog_parse(big, big + sizeof(big), true, &recs[0], &cut);
	tap_is_int((long long)recs[0].text_len, KD_RECORD_MAX, "text cut at KD_RECORD_MAX");
	tap_is_int(cut, 1, "cut reported");
	exact_size(KD_RECORD_MAX, false);
	exact_size(KD_RECORD_MAX + 1, true);
}

/*
 * A text of @len bytes, exactly at or one past the limit, through the
 * general parser and the one-pass one: kept whole up to KD_RECORD_MAX,
 * cut (and reported) one byte later.
 */
static void exact_size(size_t len, bool want_cut)
{
	static char buf[KD_RECORD_MAX + 200];
	const char *head = "<6>[    1.000000] ";
	size_t h = strlen(head), n;
	unsigned int cut = 9;
	const char *next;

	memcpy(buf, head, h);
	memset(buf + h, 'B', len);
	n = h + len;
	memcpy(buf + n, "\n<6>[    2.000000] next record long enough for the fast path\n", 62);
	kd_syslog_parse(buf, buf + n, false, &recs[0], &cut);
	tap_is_int((long long)recs[0].text_len, want_cut ? KD_RECORD_MAX : (long long)len,
		   want_cut ? "one byte past the limit: cut" : "exactly the limit: whole");
	tap_is_int(cut, want_cut, want_cut ? "and reported cut" : "and not reported cut");
	next = kd_syslog_parse_simple(buf, buf + n + 62, &recs[1], false);
	if (want_cut)
		tap_ok(!next, "the one-pass parser leaves a cut record to the general one");
	else
		tap_ok(next == buf + n + 1 && recs[1].text_len == len,
		       "the one-pass parser takes a record of exactly the limit whole");
}

int main(void)
{
	for (int i = 0; i < MAXREC; i++)
		kd_record_init(&recs[i]);
	test_plain();
	test_odd();
	test_prefix_edges();
	test_limits();
	for (int i = 0; i < MAXREC; i++)
		kd_record_free(&recs[i]);
	return tap_done();
}
