// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * output-jsonl.c - the -o jsonl writer: one compact JSON object per record,
 * one record per line, for jq, log shippers and scripts.
 *
 * Unlike -J (dmesg's schema, kept byte-identical), this format carries
 * every field of the record model.  Members, in this order, each omitted
 * when the source did not provide it:
 *
 *   "seq"       number   kernel sequence number
 *   "facility"  number   0..127 (syslog facility code, 0 = kern)
 *   "level"     number   0..7 (0 = emerg ... 7 = debug)
 *   "time"      number   microseconds since boot, an integer, so no
 *                        precision is lost to floating point
 *   "caller"    string   printk caller id, "T<pid>" or "C<cpu>"
 *   "flags"     string   always present: "c" for a continuation record,
 *                        "" otherwise
 *   "message"   string   the message text, always present
 *   then one member per dictionary key, named exactly as the kernel sent
 *   it (SUBSYSTEM, DEVICE, ...), in the kernel's order.  A key that occurs
 *   more than once becomes an array of its values, in order.  A key equal
 *   to one of the member names of this list (or starting with "dict.", or
 *   holding a '[') is written as "dict.<key>", so it never adds a second
 *   member of a name.  A value kdmesg derived rather than the kernel sent
 *   is "<key>[recovered]" (lib/record/record.h: enum kd_origin).
 *
 * Last, "module_info": libkmod's facts about the MODULE= module (state,
 * version, srcversion, description, path), when known.
 *
 * Facility and level are numbers only: names are a fixed mapping (see
 * syslog(3)) and numbers compare and sort without a lookup table.
 *
 * Strings are escaped as RFC 8259 requires, with the short forms \" \\ \b
 * \f \n \r \t, \u00XX for the other control characters, DEL and the C1
 * controls (U+0080..U+009F), and other valid UTF-8 copied as is.  Every byte that is not part of a valid UTF-8
 * sequence (stray continuation bytes, overlong forms, surrogates, code
 * points past U+10FFFF, truncated sequences) is written as \ufffd, the
 * replacement character, one per byte: the output is always valid JSON.
 * Use -o export when the exact bytes matter; it is binary-safe.
 *
 * The escaping is lib/sink/json.c's kd_json_escape() without dmesg -J's
 * stop at NUL: here every byte of the record must come out.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sink/output-internal.h"
#include "sink/sink.h"
#include "sink/output.h"
#include "shared/modinfo.h"
#include "shared/utf8.h"
#include "record/record.h"

/* How this format escapes: every byte, NUL too (see the top of the file). */
#define JSONL_ESCAPE	0

_Static_assert(JSONL_ESCAPE == 0, "kd_json_string() escapes every byte");

static void jsonl_string(struct kd_escape_buf *b, const char *s, size_t len)
{
	kd_json_string(b, s, len);
}

/* The members a record writes itself (a dictionary key never repeats one). */
static const char *const own_names[] = {
	"seq", "facility", "level", "time", "caller", "flags", "message",
	"message_translated", "module_info", NULL
};

/*
 * What follows a plain key of each origin (enum kd_origin) up to its
 * value: 16 bytes each, so that one fixed-size move copies any of them.
 */
static const struct {
	char s[16];
	size_t n;
} name_end[] = {
	[KD_ORIGIN_KERNEL] = { "\":", 2 },
	[KD_ORIGIN_RECOVERED] = { "[recovered]\":", 13 },
	[KD_ORIGIN_TRANSLATED] = { "[translated]\":", 14 },
};

/*
 * The member name of a dictionary entry; see the top of the file.
 * @n is kd_output_plain_key_len() of its key.
 */
static void jsonl_dict_name(struct kd_escape_buf *b, const struct kd_dict_entry *e, size_t n)
{
	const char *o;

	/*
	 * A plain key (nearly all) of a known origin: ',"', the key and
	 * what ends the name in one reservation, fixed-size moves where
	 * the lengths allow (once per entry).
	 */
	if (n && e->origin < sizeof(name_end) / sizeof(name_end[0]) && n + 20 <= b->cap &&
	    b->data) {
		char *d = kd_escape_buf_reserve(b, n + 20);

		d[0] = ',';
		d[1] = '"';
		kd_copy_short(d + 2, e->key, n);
		memcpy(d + 2 + n, name_end[e->origin].s, 16);
		b->len += 2 + n + name_end[e->origin].n;
		return;
	}
	o = kd_output_origin_name(e->origin);
	kd_escape_buf_putc(b, ',');
	kd_escape_buf_putc(b, '"');
	/* Once per entry: the common key copied whole, as escaping leaves it. */
	if (n) {
		kd_escape_buf_put_short(b, e->key, n);
	} else {
		if (!o && kd_output_dict_renamed(e->key, own_names))
			kd_escape_buf_put(b, "dict.", 5);
		kd_json_escape(b, e->key, strlen(e->key), JSONL_ESCAPE);
	}
	if (o) {
		kd_escape_buf_putc(b, '[');
		kd_escape_buf_puts(b, o);
		kd_escape_buf_putc(b, ']');
	}
	kd_escape_buf_put(b, "\":", 2);
}

/*
 * Write the dictionary: each distinct key once, at the position of its
 * first occurrence; repeated keys as an array (kd_output_dict_count()).
 * Returns the first MODULE entry (kd_record_dict_get()'s), found on the
 * way, or NULL.
 */
static const struct kd_dict_entry *jsonl_dict(struct kd_escape_buf *out,
					      const struct kd_record *rec,
					      const struct kd_dict_entry *tr)
{
	const struct kd_dict_entry *module = NULL;
	unsigned char count[KD_DICT_MAX];
	size_t plain[KD_DICT_MAX];
	size_t i, j;

	kd_output_dict_count(rec, count, plain);
	for (i = 0; i < rec->dict_len && i < KD_DICT_MAX; i++) {
		const struct kd_dict_entry *e = &rec->dict[i];

		/* "MODULE" is a plain key of 6 bytes: others are not compared. */
		if (!module && plain[i] == sizeof(KD_KEY_MODULE) - 1 &&
		    memcmp(e->key, KD_KEY_MODULE, sizeof(KD_KEY_MODULE) - 1) == 0)
			module = e;
		if (!count[i] || e == tr)
			continue;
		jsonl_dict_name(out, e, plain[i]);
		if (count[i] == 1) {
			jsonl_string(out, e->value, e->value_len);
			continue;
		}
		kd_escape_buf_putc(out, '[');
		for (j = i; j < rec->dict_len; j++) {
			if (!kd_output_same_field(&rec->dict[j], e))
				continue;
			if (j != i)
				kd_escape_buf_putc(out, ',');
			jsonl_string(out, rec->dict[j].value, rec->dict[j].value_len);
		}
		kd_escape_buf_putc(out, ']');
	}
	/* The entries a record cannot have (past KD_DICT_MAX) as kd_record_dict_get() sees them. */
	if (!module && rec->dict_len > KD_DICT_MAX)
		module = kd_record_dict_get(rec, KD_KEY_MODULE);
	return module;
}

static void facts_member(struct kd_escape_buf *out, const char *name,
			 const char *value, bool first)
{
	if (!value)
		return;
	if (!first)
		kd_escape_buf_putc(out, ',');
	kd_escape_buf_putc(out, '"');
	kd_escape_buf_puts(out, name);
	kd_escape_buf_put(out, "\":", 2);
	jsonl_string(out, value, strlen(value));
}

/*
 * @sep ('{' before the first member, ',' after), then the member name
 * @name, a string literal with its quotes and colon: its length is known
 * when compiled (no strlen() per member and record).
 */
static inline void member_n(struct kd_escape_buf *out, char *sep, const char *name, size_t n)
{
	kd_escape_buf_putc(out, *sep);
	kd_escape_buf_put_short(out, name, n);
	*sep = ',';
}

#define member(out, sep, name)	member_n(out, sep, name "", sizeof(name "") - 1)

static int jsonl_write(struct kd_writer *w, const struct kd_record *rec,
		       const struct kd_prev *prev)
{
	const struct kd_modinfo_facts *facts;
	struct kd_escape_buf *out = &w->line;
	/* Separator before each member but the first that is present. */
	char sep = '{';
	const struct kd_dict_entry *tr;

	(void)prev;
	if (kd_record_has_seq(rec)) {
		member(out, &sep, "\"seq\":");
		kd_escape_buf_put_u64(out, rec->seq);
	}
	if (rec->facility != KD_NO_FACILITY) {
		member(out, &sep, "\"facility\":");
		kd_escape_buf_put_i64(out, rec->facility);
	}
	if (rec->level != KD_NO_LEVEL) {
		member(out, &sep, "\"level\":");
		kd_escape_buf_put_i64(out, rec->level);
	}
	if (rec->ts_usec != KD_NO_TIME) {
		member(out, &sep, "\"time\":");
		kd_escape_buf_put_i64(out, rec->ts_usec);
	}
	if (rec->caller[0]) {
		member(out, &sep, "\"caller\":");
		jsonl_string(out, rec->caller, strnlen(rec->caller, sizeof(rec->caller)));
	}
	member(out, &sep, "\"flags\":");
	if (rec->flags & KD_REC_CONT)
		kd_escape_buf_put(out, "\"c\",\"message\":", 14);
	else
		kd_escape_buf_put(out, "\"\",\"message\":", 13);
	jsonl_string(out, rec->text ? rec->text : "", rec->text ? rec->text_len : 0);
	if ((tr = kd_output_translation(rec))) {
		kd_escape_buf_puts(out, ",\"message_translated\":");
		jsonl_string(out, tr->value, tr->value_len);
	}
	/* After the dictionary, which finds its MODULE entry on the way. */
	facts = kd_output_facts_of(&w->opts, jsonl_dict(out, rec, tr));
	if (facts) {
		kd_escape_buf_puts(out, ",\"module_info\":{");
		facts_member(out, "state", facts->state, true);
		facts_member(out, "version", facts->version, false);
		facts_member(out, "srcversion", facts->srcversion, false);
		facts_member(out, "description", facts->description, false);
		facts_member(out, "path", facts->path, false);
		kd_escape_buf_putc(out, '}');
	}
	kd_escape_buf_put(out, "}\n", 2);
	return 0;
}

const struct kd_writer_ops kd_writer_jsonl = {
	.name = "jsonl",
	.flags = KD_OUTPUT_WALL_CLOCK | KD_OUTPUT_MODULE_FACTS,
	.write = jsonl_write,
};
