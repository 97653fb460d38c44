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
 * \f \n \r \t, \u00XX for the other control characters and DEL, and valid
 * UTF-8 copied as is.  Every byte that is not part of a valid UTF-8
 * sequence (stray continuation bytes, overlong forms, surrogates, code
 * points past U+10FFFF, truncated sequences) is written as \ufffd, the
 * replacement character, one per byte: the output is always valid JSON.
 * Use -o export when the exact bytes matter; it is binary-safe.
 *
 * This is not lib/sink/json.c's quoting: that one reproduces dmesg -J, which
 * stops at NUL; here every byte of the record must come out.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sink/output-internal.h"
#include "sink/output.h"
#include "shared/modinfo.h"
#include "record/record.h"

/* Write @len bytes of @s as the body of a JSON string (no quotes). */
static void jsonl_escape(FILE *out, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, run = 0;	/* bytes [run, i) still to copy as they are */

	while (i < len) {
		unsigned char c = p[i];
		size_t n;

		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
			i++;
			continue;
		}
		if (c >= 0x80) {
			n = kd_json_utf8_len(p + i, len - i);
			/* A C1 control (a terminal's CSI, OSC) is written \u00XX. */
			if (n == 2 && c == 0xc2 && p[i + 1] < 0xa0) {
				fwrite(p + run, 1, i - run, out);
				fputs("\\u00", out);
				putc(hex[p[i + 1] >> 4], out);
				putc(hex[p[i + 1] & 0xf], out);
				run = i += 2;
				continue;
			}
			if (n) {
				i += n;
				continue;
			}
		}
		fwrite(p + run, 1, i - run, out);
		switch (c) {
		case '"':  fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\b': fputs("\\b", out); break;
		case '\f': fputs("\\f", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		case '\t': fputs("\\t", out); break;
		default:
			if (c >= 0x80) {
				fputs("\\ufffd", out);
			} else {
				fputs("\\u00", out);
				putc(hex[c >> 4], out);
				putc(hex[c & 0xf], out);
			}
			break;
		}
		run = ++i;
	}
	fwrite(p + run, 1, i - run, out);
}

static void jsonl_string(FILE *out, const char *s, size_t len)
{
	putc('"', out);
	jsonl_escape(out, s, len);
	putc('"', out);
}

/* The members a record writes itself (a dictionary key never repeats one). */
static const char *const own_names[] = {
	"seq", "facility", "level", "time", "caller", "flags", "message",
	"message_translated", "module_info", NULL
};

/* The member name of a dictionary entry; see the top of the file. */
static void jsonl_dict_name(FILE *out, const struct kd_dict_entry *e)
{
	const char *o = kd_output_origin_name(e->origin);

	putc('"', out);
	if (!o && kd_output_dict_renamed(e->key, own_names))
		fputs("dict.", out);
	jsonl_escape(out, e->key, strlen(e->key));
	if (o)
		fprintf(out, "[%s]", o);
	fputs("\":", out);
}

/*
 * Write the dictionary: each distinct key once, at the position of its
 * first occurrence; repeated keys as an array.  At most KD_DICT_MAX
 * entries, so the quadratic scan stays cheap.
 */
static void jsonl_dict(FILE *out, const struct kd_record *rec)
{
	const struct kd_dict_entry *tr = kd_output_translation(rec);
	size_t i, j;

	for (i = 0; i < rec->dict_len; i++) {
		const struct kd_dict_entry *e = &rec->dict[i];
		size_t count = 1;
		bool seen = false;

		for (j = 0; j < i && !seen; j++)
			seen = kd_output_same_field(&rec->dict[j], e);
		if (seen || e == tr)
			continue;
		for (j = i + 1; j < rec->dict_len; j++)
			count += kd_output_same_field(&rec->dict[j], e);

		putc(',', out);
		jsonl_dict_name(out, e);
		if (count == 1) {
			jsonl_string(out, e->value, e->value_len);
			continue;
		}
		putc('[', out);
		for (j = i; j < rec->dict_len; j++) {
			if (!kd_output_same_field(&rec->dict[j], e))
				continue;
			if (j != i)
				putc(',', out);
			jsonl_string(out, rec->dict[j].value, rec->dict[j].value_len);
		}
		putc(']', out);
	}
}

/**
 * kd_output_jsonl_record() - write @rec to @out as one JSON line.
 * Returns 0, or -EIO when @out reports a write error.
 */
int kd_output_jsonl_record(FILE *out, const struct kd_record *rec)
{
	return kd_output_jsonl_record_facts(out, rec, NULL);
}

static void facts_member(FILE *out, const char *name, const char *value, bool first)
{
	if (!value)
		return;
	if (!first)
		putc(',', out);
	fprintf(out, "\"%s\":", name);
	jsonl_string(out, value, strlen(value));
}

int kd_output_jsonl_record_facts(FILE *out, const struct kd_record *rec,
				 const struct kd_modinfo_facts *facts)
{
	/* Separator before each member but the first that is present. */
	const char *sep = "{";
	const struct kd_dict_entry *tr;

	if (kd_record_has_seq(rec)) {
		fprintf(out, "%s\"seq\":%" PRIu64, sep, rec->seq);
		sep = ",";
	}
	if (rec->facility != KD_NO_FACILITY) {
		fprintf(out, "%s\"facility\":%d", sep, rec->facility);
		sep = ",";
	}
	if (rec->level != KD_NO_LEVEL) {
		fprintf(out, "%s\"level\":%d", sep, rec->level);
		sep = ",";
	}
	if (rec->ts_usec != KD_NO_TIME) {
		fprintf(out, "%s\"time\":%" PRId64, sep, rec->ts_usec);
		sep = ",";
	}
	if (rec->caller[0]) {
		fprintf(out, "%s\"caller\":", sep);
		jsonl_string(out, rec->caller, strnlen(rec->caller, sizeof(rec->caller)));
		sep = ",";
	}
	fprintf(out, "%s\"flags\":\"%s\",\"message\":", sep,
		(rec->flags & KD_REC_CONT) ? "c" : "");
	jsonl_string(out, rec->text ? rec->text : "", rec->text ? rec->text_len : 0);
	if ((tr = kd_output_translation(rec))) {
		fputs(",\"message_translated\":", out);
		jsonl_string(out, tr->value, tr->value_len);
	}
	jsonl_dict(out, rec);
	if (facts) {
		fputs(",\"module_info\":{", out);
		facts_member(out, "state", facts->state, true);
		facts_member(out, "version", facts->version, false);
		facts_member(out, "srcversion", facts->srcversion, false);
		facts_member(out, "description", facts->description, false);
		facts_member(out, "path", facts->path, false);
		putc('}', out);
	}
	fputs("}\n", out);

	return ferror(out) ? -EIO : 0;
}
