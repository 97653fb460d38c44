// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-pipeline.c - lib/pipeline.c and lib/record/field.c: records flow from a
 * source through stages and the filter into sinks; a stage can drop or
 * rewrite records (with the origin of what it adds kept); rejected
 * records still become the delta reference; the reader keeps the
 * dictionary only when someone needs it; errors say where they happened.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/field.h"
#include "match/filter.h"
#include "pipeline.h"
#include "tap.h"

static char path[] = "/tmp/kdmesg-test-pipeline.XXXXXX";

/* Three records: one with a dictionary, one without text, one more. */
static const char dump[] =
	"6,1,1000000,-;first\n SUBSYSTEM=pci\n DEVICE=+pci:0000:00:01.0\n"
	"4,2,2000000,-;\n"
	"3,3,3500000,-;third\n CODE_FILE=drivers/net/e1000/e1000_main.c\n";

struct seen {
	int n;
	char text[4][32];
	size_t dict_len[4];
	int64_t prev_usec[4];
	int origin[4];
	int fail_at;
};

static int collect(void *data, const struct kd_record *rec, const struct kd_prev *prev)
{
	struct seen *s = data;
	const struct kd_dict_entry *e = kd_record_dict_get(rec, "RECOVERED");

	if (s->n == s->fail_at)
		return -EIO;
	if (s->n < 4) {
		snprintf(s->text[s->n], sizeof(s->text[0]), "%.*s",
			 (int)rec->text_len, rec->text);
		s->dict_len[s->n] = rec->dict_len;
		s->prev_usec[s->n] = prev->usec;
		s->origin[s->n] = e ? e->origin : -1;
	}
	s->n++;
	return 0;
}

/* Drops the record without text; adds a derived field to the others. */
static int rewrite(void *data, struct kd_record *rec)
{
	int rc;

	(void)data;
	if (rec->text_len == 0)
		return 0;
	rc = kd_record_dict_add(rec, "RECOVERED", 9, "yes", 3);
	if (rc < 0)
		return rc;
	rec->dict[rec->dict_len - 1].origin = KD_ORIGIN_RECOVERED;
	return 1;
}

static int failing(void *data, struct kd_record *rec)
{
	(void)data;
	(void)rec;
	return -EBADMSG;
}

static struct kd_pipeline *open_with(const struct kd_stage *stage,
				     const struct kd_filter *f, unsigned int need)
{
	struct kd_pipeline *p = NULL;

	if (kd_pipeline_new(&p) < 0)
		return NULL;
	if (stage)
		kd_pipeline_add_stage(p, stage);
	kd_pipeline_set_filter(p, f);
	kd_pipeline_need(p, need);
	if (kd_pipeline_open(p, KD_SOURCE_KMSG_FILE, path, 0, 0) < 0) {
		kd_pipeline_free(p);
		return NULL;
	}
	return p;
}

static void test_plain(void)
{
	struct seen s = { .fail_at = -1 };
	struct kd_sink sink = { .write = collect, .data = &s };
	struct kd_pipeline *p = open_with(NULL, NULL, 0);

	tap_ok(p != NULL, "open a -K file");
	if (!p)
		return;
	tap_is_int(kd_pipeline_add_sink(p, &(struct kd_sink){ .needs = KD_NEED_DICT,
				.write = collect, .data = &s }), -EINVAL,
		   "a sink needing the dictionary is refused after an open without it");
	tap_is_int(kd_pipeline_add_sink(p, &sink), 0, "add a sink");
	tap_is_int(kd_pipeline_run(p, NULL), 0, "run to the end");
	tap_is_int(s.n, 3, "every record reaches the sink");
	tap_is_str(s.text[2], "third", "in order");
	tap_is_int((long long)s.dict_len[0], 0, "nobody needs the dictionary: the reader skips it");
	tap_is_int(s.prev_usec[0], 0, "no delta reference before the first record");
	tap_is_int(s.prev_usec[1], 1000000, "the first record is the reference of the second");
	tap_is_int(s.prev_usec[2], 1000000, "a shown record without text does not move it");
	tap_is_int((long long)kd_pipeline_stats(p)->records, 3, "the source counted 3 records");
	kd_pipeline_free(p);
}

static void test_stage_and_filter(void)
{
	struct seen s = { .fail_at = -1 };
	struct kd_sink sink = { .needs = KD_NEED_DICT, .write = collect, .data = &s };
	struct kd_stage stage = { .apply = rewrite };
	struct kd_filter f;
	struct kd_pipeline *p;

	kd_filter_init(&f);
	kd_filter_add_value(&f, KD_FIELD_SUBSYSTEM, "pci");
	p = open_with(&stage, &f, KD_NEED_DICT);
	if (!tap_ok(p != NULL, "open with a stage and a field filter")) {
		kd_filter_free(&f);
		return;
	}
	kd_pipeline_add_sink(p, &sink);
	tap_is_int(kd_pipeline_run(p, NULL), 0, "run to the end");
	tap_is_int(s.n, 1, "the filter keeps only the pci record");
	tap_is_int((long long)s.dict_len[0], 3, "the dictionary is read, plus the stage's entry");
	tap_is_int(s.origin[0], KD_ORIGIN_RECOVERED, "the stage's field keeps its origin");
	kd_pipeline_free(p);

	/* A record the filter rejects is still the next delta reference. */
	kd_filter_free(&f);
	kd_filter_init(&f);
	f.levels = 1u << 3;	/* err: only the third record */
	memset(&s, 0, sizeof(s));
	s.fail_at = -1;
	p = open_with(NULL, &f, 0);
	if (p) {
		kd_pipeline_add_sink(p, &(struct kd_sink){ .write = collect, .data = &s });
		kd_pipeline_run(p, NULL);
		tap_is_int(s.n, 1, "-l err keeps one record");
		tap_is_int(s.prev_usec[0], 2000000,
			   "its delta reference is the rejected record before it");
		kd_pipeline_free(p);
	}
	kd_filter_free(&f);
}

/* A consumer of a few keys: the reader keeps only those. */
static void test_keys(void)
{
	static const char *const file_only[] = { "CODE_FILE", NULL };
	static const char *const func[] = { "CODE_FUNC", NULL };
	struct seen s = { .fail_at = -1 };
	struct kd_pipeline *p = NULL;

	kd_pipeline_new(&p);
	kd_pipeline_need_keys(p, file_only);
	if (kd_pipeline_open(p, KD_SOURCE_KMSG_FILE, path, 0, 0) < 0) {
		tap_ok(false, "open with keys");
		kd_pipeline_free(p);
		return;
	}
	tap_is_int(kd_pipeline_add_sink(p, &(struct kd_sink){ .needs = KD_NEED_DICT,
				.keys = func, .write = collect, .data = &s }), -EINVAL,
		   "a sink that needs a key not asked for is refused");
	tap_is_int(kd_pipeline_add_sink(p, &(struct kd_sink){ .needs = KD_NEED_DICT,
				.keys = file_only, .write = collect, .data = &s }), 0,
		   "a sink of the keys asked for is taken");
	kd_pipeline_run(p, NULL);
	tap_ok(s.n == 3 && s.dict_len[0] == 0 && s.dict_len[2] == 1,
	       "the reader kept CODE_FILE only (SUBSYSTEM and DEVICE left out)");
	kd_pipeline_free(p);
}

static void test_errors(void)
{
	struct seen s = { .fail_at = 1 };
	struct kd_stage stage = { .apply = failing };
	struct kd_pipeline *p = open_with(NULL, NULL, 0);

	if (p) {
		kd_pipeline_add_sink(p, &(struct kd_sink){ .write = collect, .data = &s });
		tap_is_int(kd_pipeline_run(p, NULL), -EIO, "a sink error ends the run");
		tap_is_int(kd_pipeline_failure(p), KD_PIPELINE_SINK, "... and says the sink");
		tap_is_int(s.n, 1, "... after the records before it");
		kd_pipeline_free(p);
	}
	p = open_with(&stage, NULL, 0);
	if (p) {
		tap_is_int(kd_pipeline_add_stage(p, &stage), -EBUSY,
			   "no stages after the source is open");
		tap_is_int(kd_pipeline_run(p, NULL), -EINVAL, "no run without a sink");
		kd_pipeline_add_sink(p, &(struct kd_sink){ .write = collect, .data = &s });
		tap_is_int(kd_pipeline_run(p, NULL), -EBADMSG, "a stage error ends the run");
		tap_is_int(kd_pipeline_failure(p), KD_PIPELINE_STAGE, "... and says the stage");
		kd_pipeline_free(p);
	}
	kd_pipeline_new(&p);
	tap_is_int(kd_pipeline_open(p, KD_SOURCE_KMSG_FILE, "/nonexistent/x", 0, 0),
		   -ENOENT, "a missing file is the source's error");
	kd_pipeline_free(p);
}

static void test_fields(void)
{
	struct kd_record r;
	struct kd_field f;
	struct kd_field_value v;
	char buf[KD_FIELD_BUF];

	kd_record_init(&r);
	r.seq = 42;
	r.level = 3;
	kd_record_set_text(&r, "hello", 5);
	kd_record_dict_add(&r, "CODE_FILE", 9, "kernel/fork.c", 13);
	kd_record_dict_add(&r, "ARG0", 4, "7", 1);

	tap_is_int(kd_field_lookup("CODE_FILE", &f), 0, "CODE_FILE is a field");
	tap_is_int(f.id, KD_FIELD_CODE_FILE, "... with its own id");
	tap_ok(kd_field_get(&r, &f, &v, buf) && v.len == 13 &&
	       memcmp(v.data, "kernel/fork.c", 13) == 0 && v.origin == KD_ORIGIN_KERNEL,
	       "its value, from the kernel");
	tap_is_int(kd_field_lookup("ARG0", &f), 0, "any upper-case key is a field");
	tap_ok(f.id == KD_FIELD_DICT && kd_field_get(&r, &f, &v, buf) && v.len == 1,
	       "... read from the dictionary");
	kd_field_lookup("SEQNUM", &f);
	tap_ok(kd_field_get(&r, &f, &v, buf) && v.len == 2 && memcmp(v.data, "42", 2) == 0,
	       "SEQNUM in decimal");
	kd_field_lookup("PRIORITY", &f);
	tap_ok(kd_field_get(&r, &f, &v, buf) && v.len == 1 && v.data[0] == '3',
	       "PRIORITY is the level");
	kd_field_lookup("CALLER", &f);
	tap_ok(!kd_field_get(&r, &f, &v, buf), "a missing caller id is no field");
	kd_field_lookup("MODULE", &f);
	tap_ok(!kd_field_get(&r, &f, &v, buf), "a missing key is no field");
	r.text_origin = KD_ORIGIN_TRANSLATED;
	kd_field_lookup("MESSAGE", &f);
	tap_ok(kd_field_get(&r, &f, &v, buf) && v.origin == KD_ORIGIN_TRANSLATED,
	       "MESSAGE carries the text's origin");
	tap_is_int(kd_field_lookup("code_file", &f), -EINVAL, "lower case is no kernel key");
	tap_is_int(kd_field_lookup("", &f), -EINVAL, "nor is an empty name");
	kd_record_free(&r);
}

int main(void)
{
	int fd = mkstemp(path);

	if (fd < 0 || write(fd, dump, sizeof(dump) - 1) != (ssize_t)(sizeof(dump) - 1))
		return 99;
	close(fd);
	test_plain();
	test_stage_and_filter();
	test_keys();
	test_errors();
	test_fields();
	unlink(path);
	return tap_done();
}
