// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * output.c - the writer object: set-up that every format shares (copying
 * the options, loading colours, choosing the caller-id width as dmesg
 * does) and dispatch of each record to the format's own file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sink/colors.h"
#include "record/host.h"
#include "sink/output-internal.h"
#include "sink/output.h"
#include "pipeline.h"

/*
 * Width of dmesg's "[%*s] " caller-id column.  dmesg sizes it with the
 * stringified SHRT_MAX / INT_MAX macros, which GCC spells in hex: for the
 * syslog(2) buffer and -F files that is strlen("0x7fff") = 6; for
 * /dev/kmsg and -K it is the length of what /proc/sys/kernel/pid_max
 * reads, trailing newline included ("32768\n" gives 6), or
 * sizeof("0x7fffffff") = 11 when that file cannot be read.
 */
int kd_output_caller_width(const struct kd_output_opts *opts)
{
	char buf[20];
	ssize_t n;
	int fd;

	if (opts->caller_width > 0)
		return opts->caller_width;
	if (opts->source_syslog)
		return 6;

	fd = open("/proc/sys/kernel/pid_max", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 11;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0)
		return 11;
	return (int)strnlen(buf, (size_t)n);
}

int kd_writer_new(struct kd_writer **out_writer, const struct kd_output_opts *opts,
		  FILE *out)
{
	struct kd_writer *w;

	if (!out_writer || !opts || !out)
		return -EINVAL;
	if (opts->ntime > KD_TIME_FORMATS_MAX)
		return -EINVAL;

	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->opts = *opts;
	w->out = out;
	w->caller_width = kd_output_caller_width(opts);
	w->prev.shown_usec = KD_NO_TIME;

	if (opts->mode == KD_OUTPUT_TEXT) {
		int rc = kd_output_text_prepare(w);

		if (rc == 0 && opts->color)
			rc = kd_colors_new(&w->colors, "dmesg");
		if (rc < 0) {
			kd_writer_free(w);
			return rc;
		}
		w->text_fast = w->fmt.tf_default && !w->colors && !opts->follow;
	}
	*out_writer = w;
	return 0;
}

const struct kd_modinfo_facts *kd_output_facts(const struct kd_output_opts *opts,
					       const struct kd_record *rec)
{
	const struct kd_dict_entry *e;

	if (!opts->module_facts || !rec->dict_len ||
	    !(e = kd_record_dict_get(rec, "MODULE")) || strlen(e->value) != e->value_len)
		return NULL;
	return opts->module_facts(opts->module_facts_data, e->value);
}

const char *kd_output_origin_name(unsigned int origin)
{
	switch (origin) {
	case KD_ORIGIN_RECOVERED:
		return "recovered";
	case KD_ORIGIN_TRANSLATED:
		return "translated";
	}
	return NULL;
}

bool kd_output_dict_renamed(const char *key, const char *const *own)
{
	/*
	 * Once per dictionary entry: the kernel's keys are upper case, and
	 * no member name and not "dict." starts with a capital.
	 */
	if (*key >= 'A' && *key <= 'Z')
		return strchr(key, '[') != NULL;
	if (strncmp(key, "dict.", 5) == 0 || strchr(key, '['))
		return true;
	for (; *own; own++)
		if (strcmp(key, *own) == 0)
			return true;
	return false;
}

static int dispatch(struct kd_writer *w, const struct kd_record *rec,
		    const struct kd_prev *prev)
{
	switch (w->opts.mode) {
	case KD_OUTPUT_TEXT:
		return kd_output_text_write(w, rec, prev);
	case KD_OUTPUT_JSON:
		return kd_output_json_write(w, rec);
	case KD_OUTPUT_JSONL:
		return kd_output_jsonl_record_facts(w->out, rec,
						    kd_output_facts(&w->opts, rec));
	case KD_OUTPUT_EXPORT:
		return kd_output_export_record_host(w->out, rec, w->opts.boot_usec,
						    w->opts.host);
	case KD_OUTPUT_VERBOSE:
		return kd_output_verbose_record(w->out, rec,
						kd_record_boot_usec(rec, w->opts.boot_usec),
						kd_output_facts(&w->opts, rec));
	}
	return -EINVAL;
}

int kd_writer_sink_write(void *data, const struct kd_record *rec,
			 const struct kd_prev *prev)
{
	struct kd_writer *w = data;
	int rc;

	/* The common cases first, without a frame: once per record. */
	if (w->text_fast) {
		kd_format_text_default(&w->fmt, rec, &w->line);
		return kd_output_text_end(w);
	}
	if (w->opts.mode == KD_OUTPUT_TEXT && !w->opts.follow) {
		if (w->colors)
			return kd_output_text_write(w, rec, prev);
		rc = kd_format_text(&w->fmt, rec, prev, &w->line, NULL);
		return rc < 0 ? rc : kd_output_text_end(w);
	}
	rc = dispatch(w, rec, prev);

	if (rc == 0 && w->opts.follow && fflush(w->out) != 0)
		rc = -EIO;
	return rc;
}

int kd_writer_write(struct kd_writer *w, const struct kd_record *rec)
{
	int rc = kd_writer_sink_write(w, rec, &w->prev);

	/* The pipeline's rules (lib/pipeline.c), for callers without one. */
	if (rec->text_len) {
		w->prev.usec = rec->ts_usec == KD_NO_TIME ? 0 : rec->ts_usec;
		w->prev.shown_usec = w->prev.usec;
	}
	return rc;
}

unsigned int kd_output_needs(const struct kd_output_opts *opts)
{
	if ((opts->mode == KD_OUTPUT_TEXT && !opts->location) ||
	    (opts->mode == KD_OUTPUT_JSON && !opts->json_dict))
		return 0;
	return KD_NEED_DICT;
}

const char *const *kd_output_keys(const struct kd_output_opts *opts)
{
	static const char *const location[] = {
		"CODE_FILE", "CODE_LINE", "CODE_FUNC", NULL
	};

	/* Text reads the dictionary only for --location. */
	return opts->mode == KD_OUTPUT_TEXT && opts->location ? location : NULL;
}

void kd_writer_skip(struct kd_writer *w, const struct kd_record *rec)
{
	/* dmesg: "remember time of the rejected record to not affect delta" */
	w->prev.usec = rec->ts_usec == KD_NO_TIME ? 0 : rec->ts_usec;
}

int kd_writer_finish(struct kd_writer *w)
{
	int rc = 0;

	if (w->opts.mode == KD_OUTPUT_TEXT)
		kd_output_text_flush(w);
	if (w->opts.mode == KD_OUTPUT_JSON)
		rc = kd_output_json_finish(w);
	if (fflush(w->out) != 0 || ferror(w->out))
		rc = -EIO;
	return rc;
}

void kd_writer_free(struct kd_writer *w)
{
	if (!w)
		return;
	kd_colors_free(w->colors);
	if (w->opts.mode == KD_OUTPUT_TEXT)
		kd_output_text_release(w);
	free(w);
}
