// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * output.c - the table of writers (one row per output mode, each defined
 * in its own output-*.c) and the writer object: set-up that every mode
 * shares (copying the options, the line buffer, choosing the caller-id
 * width as dmesg does) and the hand-over of each record's bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/field.h"
#include "sink/colors.h"
#include "record/host.h"
#include "sink/output-internal.h"
#include "sink/output.h"
#include "sink/sink.h"

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

/* The table of writers: one row per enum kd_output_mode. */
static const struct kd_writer_ops *const writers[KD_OUTPUT_MODES] = {
	[KD_OUTPUT_TEXT]	= &kd_writer_text,
	[KD_OUTPUT_JSON]	= &kd_writer_json,
	[KD_OUTPUT_JSONL]	= &kd_writer_jsonl,
	[KD_OUTPUT_EXPORT]	= &kd_writer_export,
	[KD_OUTPUT_VERBOSE]	= &kd_writer_verbose,
};

static const struct kd_writer_ops *ops_of(const struct kd_output_opts *opts)
{
	return (unsigned int)opts->mode < KD_OUTPUT_MODES ? writers[opts->mode] : NULL;
}

int kd_output_mode_from_name(const char *name)
{
	for (int i = 0; i < KD_OUTPUT_MODES; i++)
		if (strcmp(name, writers[i]->name) == 0)
			return i;
	return -EINVAL;
}

unsigned int kd_output_flags(const struct kd_output_opts *opts)
{
	const struct kd_writer_ops *ops = ops_of(opts);

	return ops ? ops->flags : 0;
}

/* Size of the line buffer: any usual record fits; opts.batch fills it
 * with many records before one fwrite(). */
#define LINE_CAP	(64 * 1024)

int kd_writer_new(struct kd_writer **out_writer, const struct kd_output_opts *opts,
		  FILE *out)
{
	struct kd_writer *w;
	int rc = 0;

	if (!out_writer || !opts || !out || !ops_of(opts))
		return -EINVAL;
	if (opts->ntime > KD_TIME_FORMATS_MAX)
		return -EINVAL;

	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->ops = ops_of(opts);
	w->opts = *opts;
	w->out = out;
	w->caller_width = kd_output_caller_width(opts);
	w->line.cap = LINE_CAP;
	w->line.data = malloc(w->line.cap);
	w->line.out = out;
	if (!w->line.data)
		rc = -ENOMEM;
	if (rc == 0 && w->ops->prepare)
		rc = w->ops->prepare(w);
	if (rc < 0) {
		kd_writer_free(w);
		return rc;
	}
	*out_writer = w;
	return 0;
}

const struct kd_modinfo_facts *kd_output_facts(const struct kd_output_opts *opts,
					       const struct kd_record *rec)
{
	if (!opts->module_facts || !rec->dict_len)
		return NULL;
	return kd_output_facts_of(opts, kd_record_dict_get(rec, KD_KEY_MODULE));
}

const struct kd_modinfo_facts *kd_output_facts_of(const struct kd_output_opts *opts,
						  const struct kd_dict_entry *e)
{
	if (!opts->module_facts || !e || strlen(e->value) != e->value_len)
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

const unsigned char kd_output_key_byte[256] = {
	['A' ... 'Z'] = 1, ['0' ... '9'] = 1, ['_'] = 1,
};

void kd_output_dict_count(const struct kd_record *rec, unsigned char *count, size_t *plain)
{
	uint32_t h[KD_DICT_MAX];
	size_t n = rec->dict_len < KD_DICT_MAX ? rec->dict_len : KD_DICT_MAX;
	uint64_t seen = 0;

	/*
	 * A cheap key summary first, then compares of keys only where two agree:
	 * every JSON record asks, and compares of all pairs were a sixth of
	 * -o jsonl's time (bench/run-outputs.sh).
	 */
	for (size_t i = 0; i < n; i++) {
		const struct kd_dict_entry *e = &rec->dict[i];
		const unsigned char *k = (const unsigned char *)e->key;
		size_t len = 0;
		/* Length and three bytes tell CODE_FILE, CODE_LINE, CODE_FUNC
		 * and ARG0.. apart; a collision only costs a compare. */
		uint32_t last, before;
		uint64_t bit;

		/*
		 * What the entry's maker knew (a stage's keys), else the plain
		 * bytes first: most keys are only those (SUBSYSTEM, DEVICE).
		 */
		if (e->key_plain) {
			len = e->key_plain;
			if (plain)
				plain[i] = len;
		} else {
			while (kd_output_key_byte[k[len]])
				len++;
			if (plain)
				plain[i] = !k[len] && len && k[0] >= 'A' && k[0] <= 'Z' ? len : 0;
			if (k[len])
				len += strlen(e->key + len);
		}
		last = len ? k[len - 1] : 0;
		before = len > 1 ? k[len - 2] : 0;

		h[i] = ((uint32_t)len ^ e->origin) | (uint32_t)k[0] << 8 |
		       last << 16 | before << 24;
		count[i] = 1;
		/* One bit of 64 per summary seen: most keys meet no earlier twin. */
		bit = (uint64_t)1 << ((h[i] * 0x9e3779b1u) >> 26);
		if (!(seen & bit)) {
			seen |= bit;
			continue;
		}
		for (size_t j = 0; j < i; j++) {
			if (count[j] && h[j] == h[i] &&
			    kd_output_same_field(&rec->dict[j], e)) {
				count[j]++;
				count[i] = 0;
				break;
			}
		}
	}
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

int kd_writer_sink_write(void *data, const struct kd_record *rec,
			 const struct kd_prev *prev)
{
	struct kd_writer *w = data;
	int rc;

	/* The common case first, without a frame: once per record. */
	if (w->text_fast) {
		kd_format_text_default(&w->fmt, rec, &w->line);
		return kd_writer_end(w);
	}
	rc = w->ops->write(w, rec, prev);
	if (rc < 0)
		return rc;
	rc = kd_writer_end(w);
	if (rc == 0 && w->opts.follow && fflush(w->out) != 0)
		rc = -EIO;
	return rc;
}

unsigned int kd_output_needs(const struct kd_output_opts *opts)
{
	const struct kd_writer_ops *ops = ops_of(opts);

	if (!ops)
		return 0;
	return ops->needs ? ops->needs(opts) : KD_NEED_DICT;
}

const char *const *kd_output_keys(const struct kd_output_opts *opts)
{
	const struct kd_writer_ops *ops = ops_of(opts);

	return ops && ops->keys ? ops->keys(opts) : NULL;
}

int kd_writer_finish(struct kd_writer *w)
{
	int rc = w->ops->finish ? w->ops->finish(w) : 0;

	kd_escape_buf_flush(&w->line);
	if (fflush(w->out) != 0 || ferror(w->out))
		rc = -EIO;
	return rc;
}

void kd_writer_free(struct kd_writer *w)
{
	if (!w)
		return;
	if (w->ops->release)
		w->ops->release(w);
	free(w->line.data);
	free(w);
}
