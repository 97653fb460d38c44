// SPDX-License-Identifier: GPL-2.0-or-later
/* writer-run.c - see writer-run.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "writer-run.h"

int writer_run(const struct kd_output_opts *opts, const struct kd_record *recs,
	       size_t n, char **buf, size_t *len)
{
	struct kd_writer *w = NULL;
	struct kd_prev prev;
	FILE *out;
	int rc;

	kd_prev_init(&prev);
	*buf = NULL;
	*len = 0;
	out = open_memstream(buf, len);
	if (!out)
		return -errno;
	rc = kd_writer_new(&w, opts, out);
	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = writer_show(w, &prev, &recs[i]);
	if (rc == 0)
		rc = kd_writer_finish(w);
	kd_writer_free(w);
	fclose(out);
	return rc;
}

void writer_check(const struct kd_output_opts *opts, const struct kd_record *recs,
		  size_t n, const void *want, size_t want_len, const char *name)
{
	char *buf;
	size_t len;
	int rc = writer_run(opts, recs, n, &buf, &len);

	if (rc != 0)
		tap_diag("writer returned %d", rc);
	tap_is_mem(buf, len, want, want_len, name);
	free(buf);
}

void writer_check_full_disk(enum kd_output_mode mode)
{
	struct kd_output_opts opts;
	struct kd_writer *w = NULL;
	struct kd_record r;
	struct kd_prev prev;
	FILE *out = fopen("/dev/full", "w");
	int rc;

	if (!out) {
		tap_skip(1, "/dev/full is not available");
		return;
	}
	setvbuf(out, NULL, _IONBF, 0);
	memset(&opts, 0, sizeof(opts));
	opts.mode = mode;
	kd_record_init(&r);
	kd_record_set_text(&r, "lost", 4);
	kd_prev_init(&prev);
	rc = kd_writer_new(&w, &opts, out);
	if (rc == 0)
		rc = writer_show(w, &prev, &r);
	tap_is_int(rc, -EIO, "a full disk is reported as -EIO");
	kd_writer_free(w);
	fclose(out);
	kd_record_free(&r);
}

void record_add(struct kd_record *r, const char *key, const char *value, size_t len)
{
	if (kd_record_dict_add(r, key, strlen(key), value, len) != 0)
		tap_diag("kd_record_dict_add(%s) failed", key);
}
