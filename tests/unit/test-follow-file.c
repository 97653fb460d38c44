// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-follow-file.c - what the --tui viewer reads through: a pipeline
 * taken in steps (kd_pipeline_step(): bounded, never waits) into a record
 * store, over -K files and pipes that grow while they are read
 * (KD_SOURCE_FOLLOW_FILE): new records are taken, a half-written record
 * waits for its rest, a pipe whose writer went away ends the input, and
 * a file that is truncated or replaced under its name (rotation) is read
 * again from its start, as `tail -F` does, with the change counted.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pipeline.h"
#include "view/store.h"
#include "tap.h"

static int to_store(void *data, const struct kd_record *rec, const struct kd_prev *prev)
{
	(void)prev;
	return kd_store_append(data, rec);
}

static void put(int fd, const char *s)
{
	if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		tap_diag("short write");
}

/* Steps until the pipeline has nothing more now; returns the last result. */
static int drain(struct kd_pipeline *p)
{
	int rc;

	while ((rc = kd_pipeline_step(p, NULL, 2)) == 1)
		;
	return rc;
}

static struct kd_pipeline *open_follow(const char *path, struct kd_store *st)
{
	struct kd_pipeline *p;
	struct kd_sink sink = { .needs = KD_NEED_DICT, .write = to_store, .data = st };

	kd_pipeline_new(&p);
	kd_pipeline_need(p, KD_NEED_DICT);
	if (kd_pipeline_open(p, KD_SOURCE_KMSG_FILE, path, KD_SOURCE_FOLLOW_FILE, 0) < 0) {
		kd_pipeline_free(p);
		return NULL;
	}
	kd_pipeline_add_sink(p, &sink);
	return p;
}

static void text_is(struct kd_store *st, size_t i, const char *want, const char *name)
{
	struct kd_record r;

	kd_record_init(&r);
	if (kd_store_get(st, i, &r) == 0)
		tap_is_mem(r.text, r.text_len, want, strlen(want), name);
	else
		tap_ok(false, "%s (no record %zu)", name, i);
	kd_record_free(&r);
}

static void test_growing_file(void)
{
	char path[] = "/tmp/kdmesg-test-follow.XXXXXX";
	int fd = mkstemp(path);
	struct kd_pipeline *p;
	struct kd_store *st;

	kd_store_new(&st);
	put(fd, "6,1,1000,-;one\n SUBSYSTEM=pci\n6,2,2000,-;two\n");
	p = open_follow(path, st);
	tap_ok(p != NULL, "a growing file opens");
	if (!p)
		goto out;
	tap_is_int(drain(p), -EAGAIN, "at its end: -EAGAIN, not the end");
	tap_is_int((long long)kd_store_count(st), 2, "both records");
	put(fd, "3,3,3000,-;thr");
	tap_is_int(drain(p), -EAGAIN, "half a record: nothing yet");
	tap_is_int((long long)kd_store_count(st), 2, "it waits");
	put(fd, "ee\n SUBSYSTEM=usb\n");
	tap_is_int(drain(p), -EAGAIN, "the rest came");
	tap_is_int((long long)kd_store_count(st), 3, "now it is there");
	text_is(st, 2, "three", "whole");
	put(fd, "4,4,4000,-;four\n");
	drain(p);
	tap_is_int((long long)kd_store_count(st), 4, "and the next");
	kd_pipeline_free(p);
out:
	close(fd);
	unlink(path);
	kd_store_free(st);
}

static void test_fifo(void)
{
	char dir[] = "/tmp/kdmesg-test-fifo.XXXXXX", path[64];
	struct kd_pipeline *p;
	struct kd_store *st;
	int wfd;

	kd_store_new(&st);
	if (!mkdtemp(dir))
		return;
	snprintf(path, sizeof(path), "%s/fifo", dir);
	mkfifo(path, 0600);
	/* O_RDWR does not wait for a reader (Linux), so one process does both. */
	wfd = open(path, O_RDWR);
	/* Opening reads until it can tell the format: a newline and a byte. */
	put(wfd, "6,1,1000,-;one\n6,2,2000,-;two\n");
	p = open_follow(path, st);
	tap_ok(p != NULL && kd_pipeline_fd(p) >= 0, "a pipe opens, with a descriptor to poll");
	if (!p)
		goto out;
	tap_is_int(drain(p), -EAGAIN, "an open pipe with nothing more: -EAGAIN");
	tap_is_int((long long)kd_store_count(st), 2, "the records");
	put(wfd, "6,3,3000,-;three\n");
	drain(p);
	tap_is_int((long long)kd_store_count(st), 3, "what came later");
	close(wfd);
	wfd = -1;
	tap_is_int(drain(p), 0, "the writer gone: the end of the input, not an error");
	tap_is_int((long long)kd_store_count(st), 3, "nothing lost or doubled");
	kd_pipeline_free(p);
out:
	if (wfd >= 0)
		close(wfd);
	unlink(path);
	rmdir(dir);
	kd_store_free(st);
}

/* `: > f`, then `mv f f.1; new f`: each read from its start, and counted. */
static void test_truncate_rotate(void)
{
	char path[] = "/tmp/kdmesg-test-follow.XXXXXX", old[64];
	int fd = mkstemp(path);
	const struct kd_source_stats *sst;
	struct kd_pipeline *p;
	struct kd_store *st;

	kd_store_new(&st);
	snprintf(old, sizeof(old), "%s.1", path);
	put(fd, "6,1,1000,-;one\n6,2,2000,-;two\n");
	p = open_follow(path, st);
	tap_ok(p != NULL, "a file to truncate opens");
	if (!p)
		goto out;
	tap_is_int(kd_pipeline_fd(p), -1, "a regular file offers no descriptor to poll");
	drain(p);
	tap_is_int(ftruncate(fd, 0), 0, "truncate it");
	lseek(fd, 0, SEEK_SET);
	put(fd, "6,3,3000,-;three\n");
	drain(p);
	drain(p);
	sst = kd_pipeline_stats(p);
	tap_is_int((long long)kd_store_count(st), 3, "truncated: the new first record is read");
	text_is(st, 2, "three", "from the start of the truncated file");
	tap_is_int((long long)sst->rewound, 1, "counted as rewound");

	put(fd, "6,4,4000,-;four, the old file's last\n");
	tap_is_int(rename(path, old), 0, "rotate it by rename");
	close(fd);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	put(fd, "6,5,5000,-;five, in the new file\n");
	drain(p);
	drain(p);
	tap_is_int((long long)kd_store_count(st), 5, "the old file's rest, then the new file");
	text_is(st, 3, "four, the old file's last", "the old file is read to its end first");
	text_is(st, 4, "five, in the new file", "then the new file from its start");
	tap_is_int((long long)sst->reopened, 1, "counted as reopened");
	put(fd, "6,6,6000,-;six\n");
	drain(p);
	tap_is_int((long long)kd_store_count(st), 6, "and the new file is followed on");
	kd_pipeline_free(p);
out:
	close(fd);
	unlink(path);
	unlink(old);
	kd_store_free(st);
}

/* Without KD_SOURCE_FOLLOW_FILE a file ends as before. */
static void test_no_follow(void)
{
	char path[] = "/tmp/kdmesg-test-follow.XXXXXX";
	int fd = mkstemp(path);
	struct kd_pipeline *p;
	struct kd_store *st;
	struct kd_sink sink = { .write = to_store };

	kd_store_new(&st);
	sink.data = st;
	put(fd, "6,1,1000,-;one\n6,2,2000,-;tw");
	kd_pipeline_new(&p);
	kd_pipeline_open(p, KD_SOURCE_KMSG_FILE, path, 0, 0);
	kd_pipeline_add_sink(p, &sink);
	tap_is_int(kd_pipeline_step(p, NULL, 1), 1, "one step, one record");
	tap_is_int(kd_pipeline_step(p, NULL, 5), 0, "then the end");
	tap_is_int((long long)kd_store_count(st), 2, "the cut record is taken at the end");
	kd_pipeline_free(p);
	close(fd);
	unlink(path);
	kd_store_free(st);
}

int main(void)
{
	test_growing_file();
	test_fifo();
	test_truncate_rotate();
	test_no_follow();
	return tap_done();
}
