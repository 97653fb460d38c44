// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-output-text.c - golden bytes of dmesg's text output, driven through
 * the public writer interface with records built here: default stamps,
 * -x, -r, caller ids, every time format and their combinations, delta and
 * reltime state across records and skipped records, -p, indentation of
 * multi-line messages, --noescape.  Expected strings follow util-linux
 * 2.42's dmesg (TZ=GMT, boot time pinned to 1234567890.123456 as its own
 * test suite does).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sink/output.h"
#include "record/record.h"
#include "tap.h"
#include "writer-run.h"

#define BOOT	1234567890123456LL

struct rec_spec {
	int fac, lev;		/* -1: absent */
	int64_t usec;		/* KD_NO_TIME: absent */
	const char *caller;
	const char *text;
	size_t len;		/* 0: strlen(text) */
	bool skip;		/* feed to kd_writer_skip() instead */
};

static void build(struct kd_record *r, const struct rec_spec *s)
{
	kd_record_init(r);
	r->facility = s->fac;
	r->level = s->lev;
	r->ts_usec = s->usec;
	if (s->caller)
		snprintf(r->caller, sizeof(r->caller), "%s", s->caller);
	if (kd_record_set_text(r, s->text, s->len ? s->len : strlen(s->text)) != 0)
		tap_diag("kd_record_set_text failed");
}

static void run(const struct kd_output_opts *opts, const struct rec_spec *specs,
		size_t n, const char *want, size_t want_len, const char *name)
{
	struct kd_writer *w = NULL;
	struct kd_prev prev;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *out = open_memstream(&buf, &len);
	int rc;

	kd_prev_init(&prev);
	rc = kd_writer_new(&w, opts, out);
	for (i = 0; rc == 0 && i < n; i++) {
		struct kd_record r;

		build(&r, &specs[i]);
		if (specs[i].skip)
			kd_prev_rejected(&prev, &r);
		else
			rc = writer_show(w, &prev, &r);
		kd_record_free(&r);
	}
	if (rc == 0)
		rc = kd_writer_finish(w);
	kd_writer_free(w);
	fclose(out);
	if (rc != 0)
		tap_diag("writer returned %d", rc);
	tap_is_mem(buf, len, want, want_len, name);
	free(buf);
}

#define RUN(opts, specs, want, name) \
	run(opts, specs, sizeof(specs) / sizeof(specs[0]), want, strlen(want), name)

/* Every golden test runs twice: record by record, then with opts.batch. */
static bool batch;

static struct kd_output_opts text_opts(void)
{
	struct kd_output_opts o;

	memset(&o, 0, sizeof(o));
	o.batch = batch;
	o.mode = KD_OUTPUT_TEXT;
	o.boot_usec = BOOT;
	o.caller_width = 6;
	return o;
}

static void set_times(struct kd_output_opts *o, size_t n, ...)
{
	va_list ap;
	size_t i;

	va_start(ap, n);
	for (i = 0; i < n; i++)
		o->time[i] = (enum kd_time_format)va_arg(ap, int);
	va_end(ap);
	o->ntime = n;
}

/* The first records of util-linux's dmesg test input: <pri>, seconds. */
static const struct rec_spec example[] = {
	{ 0, 0, 0, NULL, "example[0]", 0, false },
	{ 0, 1, 1000000, NULL, "example[1]", 0, false },
	{ 0, 2, 8000000, NULL, "example[2]", 0, false },
	{ 0, 3, 27000000, NULL, "example[3]", 0, false },
	{ 0, 4, 64000000, NULL, "example[4]", 0, false },
	{ 12, 0, 884736000000LL, NULL, "example[96]", 0, false },
	{ 18, 6, 4557523000000LL, NULL, "example[105]", 0, false },
};

static void test_default(void)
{
	struct kd_output_opts o = text_opts();
	static const struct rec_spec odd[] = {
		{ 0, 6, KD_NO_TIME, NULL, "no stamp", 0, false },
		{ 0, 6, 5, NULL, "", 0, false },
		{ 0, 6, 123456789012LL, NULL, "wide", 0, false },
	};

	RUN(&o, example,
	    "[    0.000000] example[0]\n"
	    "[    1.000000] example[1]\n"
	    "[    8.000000] example[2]\n"
	    "[   27.000000] example[3]\n"
	    "[   64.000000] example[4]\n"
	    "[884736.000000] example[96]\n"
	    "[4557523.000000] example[105]\n",
	    "default: [%5ld.%06ld] stamps");
	RUN(&o, odd,
	    "[    0.000000] no stamp\n"
	    "\n"
	    "[123456.789012] wide\n",
	    "missing stamp is zero; empty text is a bare newline");
}

static void test_decode(void)
{
	struct kd_output_opts o = text_opts();
	static const struct rec_spec bad[] = {
		{ 24, 6, 1000000, NULL, "facility 24", 0, false },
		{ -1, -1, 2000000, NULL, "no priority", 0, false },
		{ 10, 5, 3000000, NULL, "authpriv", 0, false },
	};

	o.decode = true;
	RUN(&o, example,
	    "kern  :emerg : [    0.000000] example[0]\n"
	    "kern  :alert : [    1.000000] example[1]\n"
	    "kern  :crit  : [    8.000000] example[2]\n"
	    "kern  :err   : [   27.000000] example[3]\n"
	    "kern  :warn  : [   64.000000] example[4]\n"
	    "res0  :emerg : [884736.000000] example[96]\n"
	    "local2:info  : [4557523.000000] example[105]\n",
	    "-x: facility:level prefix");
	RUN(&o, bad,
	    "[    1.000000] facility 24\n"
	    "[    2.000000] no priority\n"
	    "authpriv:notice: [    3.000000] authpriv\n",
	    "-x: no prefix for invalid priorities; long names overflow");
}

static void test_raw(void)
{
	struct kd_output_opts o = text_opts();
	static const struct rec_spec specs[] = {
		{ 0, 6, 1000000, NULL, "kernel", 0, false },
		{ 3, 4, 2500000, "T42", "daemon", 0, false },
		{ 30, 6, 3000000, NULL, "odd facility", 0, false },
		{ -1, -1, KD_NO_TIME, NULL, "bare", 0, false },
		{ 0, 6, 4000000, NULL, "two\nlines", 0, false },
	};

	o.raw = true;
	RUN(&o, specs,
	    "<6>[    1.000000] kernel\n"
	    "<28>[    2.500000] [   T42] daemon\n"
	    "<-2>[    3.000000] odd facility\n"
	    "<-1>[    0.000000] bare\n"
	    "<6>[    4.000000] two\n                  lines\n",
	    "-r: <pri>[stamp] as dmesg recomposes it");
}

static void test_caller(void)
{
	struct kd_output_opts o = text_opts();
	static const struct rec_spec specs[] = {
		{ 0, 6, 1000000, "T1", "new\nline", 0, false },
		{ 0, 6, 2000000, "C1234567", "cpu", 0, false },
	};

	RUN(&o, specs,
	    "[    1.000000] [    T1] new\n                        line\n"
	    "[    2.000000] [C1234567] cpu\n",
	    "caller id right-aligned; it counts in the indent");
	o.caller_width = 11;
	RUN(&o, specs,
	    "[    1.000000] [         T1] new\n                             line\n"
	    "[    2.000000] [   C1234567] cpu\n",
	    "caller width from pid_max");
	/* Left to the writer: 6 for syslog sources, as dmesg's "0x7fff". */
	o.caller_width = 0;
	o.source_syslog = true;
	RUN(&o, specs,
	    "[    1.000000] [    T1] new\n                        line\n"
	    "[    2.000000] [C1234567] cpu\n",
	    "syslog sources: caller width 6");
	o.source_syslog = false;
	{
		/* kmsg sources: the length of pid_max as read, newline included. */
		char pm[32] = "", want[256];
		FILE *f = fopen("/proc/sys/kernel/pid_max", "r");
		size_t n = f ? fread(pm, 1, sizeof(pm) - 1, f) : 0;
		int width = f ? (int)n : 11;

		if (f)
			fclose(f);
		snprintf(want, sizeof(want), "[    2.000000] [%*s] cpu\n", width, "C1234567");
		run(&o, specs + 1, 1, want, strlen(want), "kmsg sources: caller width from pid_max");
	}
	o.caller_width = 6;
	set_times(&o, 1, KD_TIME_NONE);
	RUN(&o, specs,
	    "[    T1] new\n         line\n"
	    "[C1234567] cpu\n",
	    "notime: indent is the caller column only");
}

static void test_formats(void)
{
	struct kd_output_opts o = text_opts();
	static const struct rec_spec first3[] = {
		{ 0, 0, 0, NULL, "example[0]", 0, false },
		{ 0, 1, 1000000, NULL, "example[1]", 0, false },
		{ 0, 2, 8000000, NULL, "example[2]", 0, false },
	};

	set_times(&o, 3, KD_TIME_RAW, KD_TIME_CTIME, KD_TIME_ISO);
	RUN(&o, first3,
	    "[    0.000000] [Fri Feb 13 23:31:30 2009] 2009-02-13T23:31:30,123456+00:00 example[0]\n"
	    "[    1.000000] [Fri Feb 13 23:31:31 2009] 2009-02-13T23:31:31,123456+00:00 example[1]\n"
	    "[    8.000000] [Fri Feb 13 23:31:38 2009] 2009-02-13T23:31:38,123456+00:00 example[2]\n",
	    "raw + ctime + iso, in the order given");

	set_times(&o, 2, KD_TIME_ISO, KD_TIME_DELTA);
	RUN(&o, first3,
	    "2009-02-13T23:31:30,123456+00:00 [<    0.000000>] example[0]\n"
	    "2009-02-13T23:31:31,123456+00:00 [<    0.000000>] example[1]\n"
	    "2009-02-13T23:31:38,123456+00:00 [<    7.000000>] example[2]\n",
	    "iso + delta; no delta after a zero stamp");

	set_times(&o, 2, KD_TIME_RELTIME, KD_TIME_CTIME_DELTA);
	RUN(&o, example,
	    "[Feb13 23:31] [Fri Feb 13 23:31:30 2009 <    0.000000>] example[0]\n"
	    "[  +0.000000] [Fri Feb 13 23:31:31 2009 <    0.000000>] example[1]\n"
	    "[  +7.000000] [Fri Feb 13 23:31:38 2009 <    7.000000>] example[2]\n"
	    "[ +19.000000] [Fri Feb 13 23:31:57 2009 <   19.000000>] example[3]\n"
	    "[Feb13 23:32] [Fri Feb 13 23:32:34 2009 <   37.000000>] example[4]\n"
	    "[Feb24 05:17] [Tue Feb 24 05:17:06 2009 <884672.000000>] example[96]\n"
	    "[Apr 7 17:30] [Tue Apr  7 17:30:13 2009 <3672787.000000>] example[105]\n",
	    "reltime + ctime with delta");

	set_times(&o, 2, KD_TIME_RAW_DELTA, KD_TIME_CTIME);
	RUN(&o, first3,
	    "[    0.000000 <    0.000000>] [Fri Feb 13 23:31:30 2009] example[0]\n"
	    "[    1.000000 <    0.000000>] [Fri Feb 13 23:31:31 2009] example[1]\n"
	    "[    8.000000 <    7.000000>] [Fri Feb 13 23:31:38 2009] example[2]\n",
	    "-d: stamp and delta in one bracket");

	set_times(&o, 1, KD_TIME_NONE);
	RUN(&o, first3, "example[0]\nexample[1]\nexample[2]\n", "notime");
}

static void test_delta_state(void)
{
	struct kd_output_opts o = text_opts();
	static const struct rec_spec specs[] = {
		{ 0, 6, 1000000, NULL, "a", 0, false },
		{ 0, 6, 1500000, NULL, "filtered", 0, true },
		{ 0, 6, 1750000, NULL, "b", 0, false },
		{ 0, 6, 1800000, NULL, "", 0, false },
		{ 0, 6, 2000000, NULL, "c", 0, false },
		{ 0, 6, 1000000, NULL, "back in time", 0, false },
	};

	set_times(&o, 1, KD_TIME_DELTA);
	RUN(&o, specs,
	    "[<    0.000000>] a\n"
	    "[<    0.250000>] b\n"
	    "\n"
	    "[<    0.250000>] c\n"
	    "[<   -1.000000>] back in time\n",
	    "delta counts skipped records, not empty ones");
	set_times(&o, 1, KD_TIME_RELTIME);
	RUN(&o, specs,
	    "[Feb13 23:31] a\n"
	    "[  +0.250000] b\n"
	    "\n"
	    "[  +0.250000] c\n"
	    "[  -1.000000] back in time\n",
	    "reltime deltas, signed");
}

static void test_force_prefix(void)
{
	struct kd_output_opts o = text_opts();
	static const struct rec_spec specs[] = {
		{ 1, 2, 1000000, "T7", "first\nsecond\n\nthird\n", 0, false },
		{ 0, 6, 2000000, NULL, "\n\n", 0, false },
		{ 0, 6, 3000000, NULL, "cut\0hidden\nline", 15, false },
	};

	o.force_prefix = true;
	o.decode = true;
	RUN(&o, specs,
	    "user  :crit  : [    1.000000] [    T7] first\n"
	    "user  :crit  : [    1.000000] [    T7] second\n"
	    "user  :crit  : [    1.000000] [    T7] third\n"
	    "kern  :info  : [    2.000000] \n"
	    "kern  :info  : [    3.000000] cut\n",
	    "-p: prefix on every non-empty line, text ends at NUL");

	o.decode = false;
	set_times(&o, 1, KD_TIME_RELTIME);
	RUN(&o, specs,
	    "[Feb13 23:31] [    T7] first\n"
	    "[  +0.000000] [    T7] second\n"
	    "[  +0.000000] [    T7] third\n"
	    "[  +1.000000] \n"
	    "[  +1.000000] cut\n",
	    "-p with reltime: later lines show +0.000000");
}

static void test_escapes(void)
{
	struct kd_output_opts o = text_opts();
	static const struct rec_spec specs[] = {
		{ 0, 6, 1000000, NULL, "bell\a tab\t nul\0 esc\033", 20, false },
	};

	RUN(&o, specs, "[    1.000000] bell\\x07 tab\t nul\\x00 esc\\x1b\n",
	    "control bytes escaped as \\xNN");
	o.noescape = true;
	run(&o, specs, 1, "[    1.000000] bell\a tab\t nul\0 esc\033\n",
	    sizeof("[    1.000000] bell\a tab\t nul\0 esc\033\n") - 1, "--noescape");
}

/* When the bytes reach the stream: per record, or at finish with batch. */
static void test_batch_timing(void)
{
	struct kd_output_opts o = text_opts();
	struct kd_writer *w = NULL;
	struct kd_record r;
	struct kd_prev prev;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	build(&r, &example[1]);
	kd_prev_init(&prev);
	o.batch = false;
	kd_writer_new(&w, &o, out);
	writer_show(w, &prev, &r);
	fflush(out);
	tap_is_int((long long)len, 26, "without batch a record reaches the stream at once");
	kd_writer_free(w);

	o.batch = true;
	kd_writer_new(&w, &o, out);
	writer_show(w, &prev, &r);
	writer_show(w, &prev, &r);
	fflush(out);
	tap_is_int((long long)len, 26, "with batch records wait in the writer");
	kd_writer_finish(w);
	tap_is_int((long long)len, 78, "kd_writer_finish() writes them");
	kd_writer_free(w);

	o.follow = true;
	kd_writer_new(&w, &o, out);
	writer_show(w, &prev, &r);
	tap_is_int((long long)len, 104, "follow overrides batch");
	kd_writer_free(w);
	kd_record_free(&r);
	fclose(out);
	free(buf);
}

static void run_all(void)
{
	test_default();
	test_decode();
	test_raw();
	test_caller();
	test_formats();
	test_delta_state();
	test_force_prefix();
	test_escapes();
}

int main(void)
{
	setenv("TZ", "GMT", 1);
	tzset();

	run_all();
	batch = true;
	run_all();
	batch = false;
	test_batch_timing();
	return tap_done();
}
