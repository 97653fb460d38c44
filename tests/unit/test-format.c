// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-format.c - the stateless formatter (lib/sink/format.c) as the viewer
 * uses it: a record and its previous record in, bytes and colour spans
 * out, into a memory buffer that grows; the same inputs give the same
 * bytes in any order; spans cover exactly what dmesg colours.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sink/format.h"
#include "tap.h"

#define BOOT	1234567890123456LL

static void rec_at(struct kd_record *r, int level, int64_t usec, const char *text)
{
	kd_record_reset(r);
	r->facility = 0;
	r->level = level;
	r->ts_usec = usec;
	kd_record_set_text(r, text, strlen(text));
}

/* Format @r after @prev into a fresh memory buffer; returns the string. */
static char *fmt(struct kd_format *f, const struct kd_record *r,
		 const struct kd_prev *prev, struct kd_spans *spans)
{
	struct kd_escape_buf b = { .data = malloc(16), .cap = 16 };
	char *s;

	if (spans)
		spans->n = 0;
	if (kd_format_text(f, r, prev, &b, spans) < 0)
		tap_diag("kd_format_text failed");
	s = strndup(b.data, b.len);
	free(b.data);
	return s;
}

int main(void)
{
	struct kd_output_opts o = { .mode = KD_OUTPUT_TEXT, .boot_usec = BOOT,
				    .ntime = 1, .time = { KD_TIME_RAW_DELTA } };
	struct kd_prev none = { .usec = 0, .shown_usec = KD_NO_TIME };
	struct kd_prev after1 = { .usec = 1000000, .shown_usec = 1000000 };
	struct kd_spans spans = { 0 };
	struct kd_format f;
	struct kd_record r;
	char *a, *b, *c;

	setenv("TZ", "GMT", 1);
	kd_record_init(&r);
	tap_is_int(kd_format_init(&f, &o, 6), 0, "a -d formatter");
	rec_at(&r, 6, 2500000, "second record, long enough to grow a 16-byte buffer");
	a = fmt(&f, &r, &after1, NULL);
	b = fmt(&f, &r, &none, NULL);
	c = fmt(&f, &r, &after1, NULL);
	tap_is_str(a, "[    2.500000 <    1.500000>] second record, long enough to grow a 16-byte buffer\n",
		   "the delta comes from the previous record given");
	tap_is_str(b, "[    2.500000 <    0.000000>] second record, long enough to grow a 16-byte buffer\n",
		   "no previous record: a zero delta, as dmesg");
	tap_is_str(c, a, "formatting again gives the same bytes: nothing is kept");
	free(a);
	free(b);
	free(c);
	kd_format_release(&f);

	/* reltime: the break depends on the previous shown record only. */
	o.time[0] = KD_TIME_RELTIME;
	kd_format_init(&f, &o, 6);
	rec_at(&r, 6, 2500000, "x");
	a = fmt(&f, &r, &after1, NULL);
	b = fmt(&f, &r, &none, NULL);
	tap_is_str(a, "[  +1.500000] x\n", "reltime: same minute as the previous record");
	tap_is_str(b, "[Feb13 23:31] x\n", "reltime: no previous record, a break");
	free(a);
	free(b);
	kd_format_release(&f);

	/* Colour spans: stamp, subsystem prefix, the rest by level. */
	o.ntime = 0;
	o.color = true;
	kd_format_init(&f, &o, 6);
	rec_at(&r, 3, 1000000, "usb 1-1: failed");
	a = fmt(&f, &r, &none, &spans);
	tap_is_str(a, "[    1.000000] usb 1-1: failed\n", "spans leave the bytes plain");
	tap_is_int((long long)spans.n, 3, "three spans: time, subsystem, error");
	if (spans.n == 3) {
		tap_ok(spans.v[0].color == KD_COLOR_TIME && spans.v[0].start == 0 &&
		       spans.v[0].len == 15, "the stamp with its blank is 'time'");
		tap_ok(spans.v[1].color == KD_COLOR_SUBSYS && spans.v[1].start == 15 &&
		       spans.v[1].len == 9, "\"usb 1-1: \" is 'subsys'");
		tap_ok(spans.v[2].color == KD_COLOR_ERR && spans.v[2].start == 24 &&
		       spans.v[2].len == 6, "the rest of an error is 'err'");
	}
	free(a);
	rec_at(&r, 6, 1000000, "plain info");
	a = fmt(&f, &r, &none, &spans);
	tap_is_int((long long)spans.n, 1, "info: only the stamp is coloured");
	free(a);
	kd_format_release(&f);
	kd_spans_release(&spans);
	kd_record_free(&r);
	return tap_done();
}
