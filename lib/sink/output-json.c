// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * output-json.c - dmesg -J, laid out as util-linux 2.42 writes it:
 *
 *   {
 *      "dmesg": [
 *         {
 *            "pri": 6,
 *            "time":     0.000000,
 *            "caller": "T1",
 *            "msg": "..."
 *         },{
 *         ...
 *      ]
 *   }
 *
 * Members in dmesg's order: "pri" (facility * 8 + level, a number) or,
 * with -x, "fac" and "pri" as names - only when dmesg considers the
 * priority valid; "time" as "%5ld.%06ld", a bare number padded with
 * spaces; "caller" when the record has one; "msg", cut at the first NUL
 * byte (null when the text starts with one).  dmesg ignores every time
 * format option and --noescape with -J, so does this writer.  A record
 * with empty text is skipped and nothing at all is printed when no record
 * was, as dmesg does.
 *
 * With opts.json_dict (-o json), beyond dmesg: the record's dictionary
 * follows "msg", one member per key named as the kernel sent it (a key
 * named like a member of the record itself, starting with "dict." or
 * holding a '[', as "dict.<key>"; a value kdmesg derived as
 * "<key>[recovered]"), a key that repeats becoming an array of its values;
 * then "module_info", libkmod's facts about the record's MODULE (an
 * object, as -o jsonl has it), when known.  A record without
 * a dictionary prints exactly what dmesg prints.  Without json_dict (-J)
 * the members are dmesg's alone.
 */
#include <errno.h>
#include <string.h>

#include "shared/modinfo.h"
#include "record/host.h"
#include "record/priority.h"
#include "sink/output-internal.h"
#include "sink/sink.h"

/*
 * A dictionary key named like one of the record's own members ("pri",
 * "msg", ...) becomes "dict.<key>": a key must never add a second
 * member of the same name (a reader would take either).
 */
static const char *member_name(const struct kd_dict_entry *e, char *buf,
			       size_t size)
{
	const char *key = e->key, *o = kd_output_origin_name(e->origin);
	static const char *const own[] = {
		"pri", "fac", "time", "caller", "msg", "msg_translated",
		"module_info", "_HOSTNAME", "_MACHINE_ID", "_BOOT_ID",
		"__REALTIME_TIMESTAMP", NULL
	};

	/* A value kdmesg derived is marked as -o verbose marks it. */
	if (o)
		snprintf(buf, size, "%s[%s]", key, o);
	else if (kd_output_dict_renamed(key, own))
		snprintf(buf, size, "dict.%s", key);
	else
		return key;
	return buf;
}

static void put_dict(struct kd_writer *w, const struct kd_record *rec)
{
	struct kd_json *j = &w->json;
	const struct kd_dict_entry *tr = kd_output_translation(rec);
	unsigned char count[KD_DICT_MAX];
	char name[KD_RECORD_MAX + 8];
	size_t i, k;

	kd_output_dict_count(rec, count, NULL);
	for (i = 0; i < rec->dict_len && i < KD_DICT_MAX; i++) {
		const struct kd_dict_entry *e = &rec->dict[i];
		const char *key;

		if (!count[i] || e == tr)
			continue;
		key = member_name(e, name, sizeof(name));
		if (count[i] == 1) {
			kd_json_open_exact(j, key, KD_JSON_VALUE);
			if (e->value_len && e->value[0])
				kd_json_quote(&w->line, e->value, e->value_len, false);
			else
				kd_escape_buf_put(&w->line, "null", 4);
			kd_json_close(j, KD_JSON_VALUE);
			continue;
		}
		kd_json_open_exact(j, key, KD_JSON_ARRAY);
		for (k = i; k < rec->dict_len; k++) {
			const struct kd_dict_entry *v = &rec->dict[k];

			if (!kd_output_same_field(v, e))
				continue;
			kd_json_value_str(j, NULL, v->value, v->value_len);
		}
		kd_json_close(j, KD_JSON_ARRAY);
	}
}

/*
 * -o json: the record's machine and boot, named as the journal names
 * them, where known (the journal's records, this machine's live log).
 */
static void put_exact(struct kd_json *j, struct kd_escape_buf *out, const char *name,
		      const char *s)
{
	/* The journal's names as they are (kd_json_value_str() lowers them). */
	kd_json_open_exact(j, name, KD_JSON_VALUE);
	kd_json_quote(out, s, strlen(s), false);
	kd_json_close(j, KD_JSON_VALUE);
}

static void put_host(struct kd_json *j, struct kd_escape_buf *out, const struct kd_host *h,
		     const struct kd_record *rec, int64_t boot_usec)
{
	int64_t rt = rec->realtime_usec;

	if (h && h->hostname[0])
		put_exact(j, out, "_HOSTNAME", h->hostname);
	if (h && h->machine_id[0])
		put_exact(j, out, "_MACHINE_ID", h->machine_id);
	if (h && h->boot_id[0])
		put_exact(j, out, "_BOOT_ID", h->boot_id);
	/* The journal's own, else boot time plus stamp for a known machine. */
	if (rt <= 0 && h && boot_usec > 0 && rec->ts_usec != KD_NO_TIME && rec->ts_usec >= 0 &&
	    __builtin_add_overflow(boot_usec, rec->ts_usec, &rt))
		rt = 0;
	if (rt > 0) {
		kd_json_open_exact(j, "__REALTIME_TIMESTAMP", KD_JSON_VALUE);
		kd_escape_buf_put_i64(out, rt);
		kd_json_close(j, KD_JSON_VALUE);
	}
}

static int json_write(struct kd_writer *w, const struct kd_record *rec,
		      const struct kd_prev *prev)
{
	struct kd_json *j = &w->json;
	int64_t usec = rec->ts_usec == KD_NO_TIME ? 0 : rec->ts_usec, sec, frac;
	const struct kd_dict_entry *tr;
	char ts[KD_FORMAT_STAMP_MAX];

	(void)prev;	/* dmesg ignores every time format with -J */
	if (!rec->text || rec->text_len == 0)
		return 0;

	if (!j->ready) {
		kd_json_init(j, &w->line);
		kd_json_open(j, NULL, KD_JSON_OBJECT);
		kd_json_open(j, "dmesg", KD_JSON_ARRAY);
	}
	kd_json_open(j, NULL, KD_JSON_OBJECT);

	if (kd_priority_valid(rec)) {
		int fac = kd_priority_dmesg_facility(rec);

		if (w->opts.decode) {
			const char *f = kd_priority_facility_name(fac);
			const char *l = kd_priority_level_name(rec->level);

			kd_json_value_str(j, "fac", f, strlen(f));
			kd_json_value_str(j, "pri", l, strlen(l));
		} else {
			kd_json_value_u64(j, "pri", (uint64_t)(fac * 8 + rec->level));
		}
	}

	kd_format_split_usec(usec, &sec, &frac);
	kd_format_sec_usec(ts, sec, frac);
	kd_json_value_raw(j, "time", ts);

	if (rec->caller[0])
		kd_json_value_str(j, "caller", rec->caller,
				  strnlen(rec->caller, sizeof(rec->caller)));

	kd_json_value_str(j, "msg", rec->text, rec->text_len);
	if ((tr = kd_output_translation(rec)))
		kd_json_value_str(j, "msg_translated", tr->value, tr->value_len);
	if (w->opts.json_dict) {
		const struct kd_modinfo_facts *facts = kd_output_facts(&w->opts, rec);

		put_host(j, &w->line, kd_output_host(&w->opts, rec), rec,
			 kd_record_boot_usec(rec, w->opts.boot_usec));
		put_dict(w, rec);
		if (facts)
			kd_modinfo_json(j, "module_info", facts);
	}
	kd_json_close(j, KD_JSON_OBJECT);
	return 0;
}

static int json_finish(struct kd_writer *w)
{
	struct kd_json *j = &w->json;

	/*
	 * No record: -J prints nothing, as dmesg -J does; -o json promises
	 * valid JSON, so it writes the document with an empty array.
	 */
	if (!j->ready && w->opts.json_dict)
		kd_escape_buf_puts(&w->line, "{\n   \"dmesg\": [\n   ]\n}\n");
	if (j->ready) {
		kd_json_close(j, KD_JSON_ARRAY);
		kd_json_close(j, KD_JSON_OBJECT);
		j->ready = false;
	}
	return 0;
}

/* The dictionary only for -o json's extra members. */
static unsigned int json_needs(const struct kd_output_opts *opts)
{
	return opts->json_dict ? KD_NEED_DICT : 0;
}

const struct kd_writer_ops kd_writer_json = {
	.name = "json",
	.flags = KD_OUTPUT_MODULE_FACTS | KD_OUTPUT_DECODED_PRI,
	.needs = json_needs,
	.write = json_write,
	.finish = json_finish,
};
