// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tui-model.c - the --tui viewer's work without the screen, on a large
 * -K dump: what src/tui.c does between two repaints, timed.
 *
 *   tui-model KMSG_DUMP
 *
 * Prints, one "name value" per line (bench/tui.sh turns them into ratios):
 *   dump_bytes, records       the input
 *   store_bytes               what the record store holds (lib/view/store.c)
 *   rss_kib                   peak resident memory of this process
 *   load_ms, load_cpu_ms      reading the whole dump into the store
 *   open_ms, open_cpu_ms      then the view: the last record selected
 *                             (wall clock and CPU time, as the machine may
 *                             be busy with other work)
 *   page_ms_<case>            a filter change (or search) until the page to
 *                             show is known and formatted
 *   step_max_ms_<case>        the longest loop turn (model work + formatting
 *                             a page) while the rest is done: the screen
 *                             is repainted at least this often
 *   done_ms_<case>            until the whole log is filtered (searched)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "sink/format.h"
#include "pipeline.h"
#include "view/store.h"
#include "view/view.h"

/* As src/tui.c: records the model may check per loop turn, rows on screen. */
#define WORK_STEP	2000
#define ROWS		50

/* CPU time (user + system) of this process so far, ms: the machine may be busy. */
static double cpu_ms(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int to_store(void *data, const struct kd_record *rec, const struct kd_prev *prev)
{
	(void)prev;
	return kd_store_append(data, rec);
}

/* What a repaint costs besides curses: format the rows shown. */
static void format_page(struct kd_view *v, const struct kd_store *st,
			struct kd_format *fmt, struct kd_escape_buf *buf,
			struct kd_record *rec)
{
	struct kd_prev prev = { .usec = 0, .shown_usec = KD_NO_TIME };
	size_t idx[ROWS], n = kd_view_rows(v, idx, ROWS);

	buf->len = 0;
	for (size_t i = 0; i < n; i++)
		if (kd_store_get(st, idx[i], rec) == 0)
			kd_format_text(fmt, rec, &prev, buf, NULL);
}

struct ctx {
	struct kd_store *st;
	struct kd_view *v;
	struct kd_format fmt;
	struct kd_escape_buf buf;
	struct kd_record rec;
};

/*
 * Run the loop of src/tui.c until the model has no work left; the page is
 * "known" once @page_known says so.  Prints the three timings of @name.
 */
static void run(struct ctx *c, const char *name, bool search)
{
	double t0 = now_ms(), page = -1, step_max = 0, t;
	bool more = true;

	while (more) {
		double s = now_ms();

		more = kd_view_work(c->v, WORK_STEP);
		format_page(c->v, c->st, &c->fmt, &c->buf, &c->rec);
		t = now_ms();
		if (t - s > step_max)
			step_max = t - s;
		if (page < 0 && (search ? kd_view_search_result(c->v) != 1 :
				 kd_view_selected(c->v) != KD_VIEW_NONE))
			page = t - t0;
	}
	printf("page_ms_%s %.1f\nstep_max_ms_%s %.1f\ndone_ms_%s %.1f\n",
	       name, page, name, step_max, name, now_ms() - t0);
}

int main(int argc, char **argv)
{
	struct kd_output_opts opts = { .mode = KD_OUTPUT_TEXT, .caller_width = 6 };
	/* As src/tui.c: the store copies each record before the next is read. */
	struct kd_sink sink = { .needs = KD_NEED_DICT, .write = to_store };
	struct kd_pipeline *p;
	struct ctx c = { 0 };
	struct rusage ru;
	struct stat sb;
	double t0, t1, c0, c1;
	int rc;

	if (argc != 2 || stat(argv[1], &sb) < 0) {
		fprintf(stderr, "usage: tui-model KMSG_DUMP\n");
		return 2;
	}
	if (kd_store_new(&c.st) < 0 || kd_pipeline_new(&p) < 0)
		return 1;
	sink.data = c.st;
	kd_pipeline_need(p, sink.needs);
	t0 = now_ms();
	c0 = cpu_ms();
	rc = kd_pipeline_open(p, KD_SOURCE_KMSG_FILE, argv[1], 0, 0);
	if (rc == 0)
		rc = kd_pipeline_add_sink(p, &sink);
	while (rc >= 0 && (rc = kd_pipeline_step(p, NULL, 5000)) == 1)
		;
	if (rc < 0) {
		fprintf(stderr, "tui-model: %s: %s\n", argv[1], strerror(-rc));
		return 1;
	}
	t1 = now_ms();
	c1 = cpu_ms();
	kd_view_new(&c.v, c.st);
	kd_view_set_height(c.v, ROWS);
	kd_record_init(&c.rec);
	c.buf.cap = 65536;
	c.buf.data = malloc(c.buf.cap);
	kd_format_init(&c.fmt, &opts, 6);
	while (kd_view_selected(c.v) == KD_VIEW_NONE && kd_view_work(c.v, WORK_STEP))
		;
	format_page(c.v, c.st, &c.fmt, &c.buf, &c.rec);
	getrusage(RUSAGE_SELF, &ru);
	printf("dump_bytes %lld\nrecords %zu\nstore_bytes %zu\nrss_kib %ld\n",
	       (long long)sb.st_size, kd_store_count(c.st), kd_store_bytes(c.st), ru.ru_maxrss);
	printf("load_ms %.1f\nopen_ms %.1f\nload_cpu_ms %.1f\nopen_cpu_ms %.1f\n",
	       t1 - t0, now_ms() - t0, c1 - c0, cpu_ms() - c0);
	while (kd_view_work(c.v, WORK_STEP))
		;

	/* From the middle of the log, as a user who scrolled up. */
	kd_view_move(c.v, -(long)(kd_store_count(c.st) / 2));
	kd_view_filter(c.v)->max_level = 4;
	kd_view_refilter(c.v);
	run(&c, "level", false);
	kd_view_filter(c.v)->max_level = 7;
	kd_vfilter_add(kd_view_filter(c.v), KD_VF_TEXT_IN, "usb|scsi");
	kd_view_refilter(c.v);
	run(&c, "regex", false);
	kd_vfilter_free(kd_view_filter(c.v));
	kd_vfilter_add(kd_view_filter(c.v), KD_VF_SUBSYSTEM, "p?i");
	kd_view_refilter(c.v);
	run(&c, "subsystem", false);
	kd_vfilter_free(kd_view_filter(c.v));
	kd_view_refilter(c.v);
	run(&c, "none", false);
	/* A pattern no record has: the search goes all the way round. */
	kd_view_search_set(c.v, "no such text anywhere");
	kd_view_search(c.v, 1, false);
	run(&c, "search", true);

	kd_pipeline_free(p);
	kd_view_free(c.v);
	kd_store_free(c.st);
	kd_format_release(&c.fmt);
	kd_record_free(&c.rec);
	free(c.buf.data);
	return 0;
}
