// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz-kmsg-parse.c - libFuzzer target: any bytes as one /dev/kmsg record;
 * where kd_kmsg_parse_simple() takes the start of the bytes as a record,
 * it must read it as kd_kmsg_parse() reads the span the -K splitter cuts,
 * with and without the dictionary. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "source/kmsg-parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same(const struct kd_record *a, const struct kd_record *b, int dict)
{
	if (a->seq != b->seq || a->facility != b->facility || a->level != b->level ||
	    a->ts_usec != b->ts_usec || a->flags != b->flags ||
	    strcmp(a->caller, b->caller) != 0 || a->text_len != b->text_len ||
	    memcmp(a->text, b->text, a->text_len) != 0)
		return 0;
	if (!dict)
		return 1;
	if (a->dict_len != b->dict_len)
		return 0;
	for (size_t i = 0; i < a->dict_len; i++)
		if (strcmp(a->dict[i].key, b->dict[i].key) != 0 ||
		    a->dict[i].value_len != b->dict[i].value_len ||
		    memcmp(a->dict[i].value, b->dict[i].value, a->dict[i].value_len) != 0)
			return 0;
	return 1;
}

static void check_simple(const char *buf, size_t size)
{
	static struct kd_record s, g;
	static int init;
	static const unsigned int modes[] = { 0, KD_KMSG_LEND, KD_KMSG_LEND | KD_KMSG_NO_DICT };

	if (!init) {
		kd_record_init(&s);
		kd_record_init(&g);
		init = 1;
	}
	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		unsigned int cs, cg;
		const char *next = kd_kmsg_parse_simple(buf, buf + size, &s, &cs, modes[m]);
		size_t span;

		if (!next)
			continue;
		if (next <= buf || next > buf + size)
			__builtin_trap();
		/* Up to a NUL byte, or up to and with the newline before the next record. */
		span = (size_t)(next - buf) - (next[-1] == '\0');
		if (kd_kmsg_parse(buf, span, &g, &cg) != 0 || cs != cg ||
		    !same(&s, &g, !(modes[m] & KD_KMSG_NO_DICT)) || !s.text_plain ||
		    (s.text_nl && s.text[s.text_len] != '\n') || s.text_pre)
			__builtin_trap();
	}
}

/*
 * kd_kmsg_parse_simple_lend() on a copy: the record kd_kmsg_parse() reads
 * in the original bytes, with and without kept keys; the copy untouched
 * when it declines.
 */
static void check_lend(const char *buf, size_t size)
{
	static const char *const names[] = { "CODE_FILE", "A", NULL };
	static struct kd_record s, g;
	static struct kd_kmsg_keys keys;
	static int init;
	char *w;

	if (!init) {
		kd_record_init(&s);
		kd_record_init(&g);
		kd_kmsg_keys_init(&keys, names);
		init = 1;
	}
	w = malloc(size ? size : 1);
	if (!w)
		return;
	for (int k = 0; k < 2; k++) {
		unsigned int cs, cg;
		const char *next;
		size_t span;

		memcpy(w, buf, size);
		next = kd_kmsg_parse_simple_lend(w, w + size, &s, &cs, k ? &keys : NULL);
		if (!next) {
			if (memcmp(w, buf, size) != 0)
				__builtin_trap();
			continue;
		}
		span = (size_t)(next - w) - (next[-1] == '\0');
		if (kd_kmsg_parse(buf, span, &g, &cg) != 0 || cs != cg ||
		    s.dict_len > g.dict_len || (!k && !same(&s, &g, 1)) ||
		    (k && !same(&s, &g, 0)))
			__builtin_trap();
		for (size_t i = 0; i < s.dict_len; i++)
			if (s.dict[i].value[s.dict[i].value_len] != '\0' ||
			    s.dict[i].key + strlen(s.dict[i].key) + 1 != s.dict[i].value)
				__builtin_trap();
	}
	free(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct kd_record rec;
	static int init;
	unsigned int cut;
	char out[64];
	int more;

	if (!init) {
		kd_record_init(&rec);
		init = 1;
	}
	if (kd_kmsg_parse((const char *)data, size, &rec, &cut) == 0) {
		/* Every invariant a writer relies on. */
		if (rec.text_len > KD_RECORD_MAX || rec.dict_len > KD_DICT_MAX ||
		    rec.text[rec.text_len] != '\0' || rec.level < 0 || rec.level > 7 ||
		    rec.facility < 0 || rec.facility > 127 ||
		    memchr(rec.caller, '\0', sizeof(rec.caller)) == NULL)
			__builtin_trap();
		for (size_t i = 0; i < rec.dict_len; i++)
			if (rec.dict[i].value_len > KD_RECORD_MAX || !rec.dict[i].key[0])
				__builtin_trap();
	}
	if (kd_kmsg_unescape(out, sizeof(out), (const char *)data, size, &more) > sizeof(out))
		__builtin_trap();
	check_simple((const char *)data, size);
	check_lend((const char *)data, size);
	return 0;
}
