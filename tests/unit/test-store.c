// SPDX-License-Identifier: GPL-2.0-or-later
/* test-store.c - lib/view/store.c: every field round-trips, chunks and limits. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view/store.h"
#include "tap.h"

static void make(struct kd_record *r, unsigned int i)
{
	char text[64];
	int n;

	kd_record_reset(r);
	r->seq = i;
	r->ts_usec = (int64_t)i * 1000003;
	r->level = (int)(i % 8);
	r->facility = (int)(i % 24);
	r->flags = i % 3 == 0 ? KD_REC_CONT | KD_REC_HAS_PRI : KD_REC_HAS_PRI;
	snprintf(r->caller, sizeof(r->caller), "T%u", i);
	n = snprintf(text, sizeof(text), "record %u text", i);
	kd_record_set_text(r, text, (size_t)n);
	if (i % 2)
		kd_record_dict_add(r, "SUBSYSTEM", 9, "pci", 3);
	if (i % 5 == 0)
		kd_record_dict_add(r, "DEVICE", 6, "+pci:0\0x", 8);
	/* What pipeline stages mark (lib/record/record.h) must survive too. */
	if (i % 7 == 0) {
		kd_record_dict_add(r, "CODE_FILE", 9, "x.c", 3);
		r->dict[r->dict_len - 1].origin = KD_ORIGIN_RECOVERED;
		r->text_origin = KD_ORIGIN_TRANSLATED;
	}
}

static void test_roundtrip(void)
{
	struct kd_store *st;
	struct kd_record in, out;
	unsigned int bad = 0, n = 5000;

	kd_record_init(&in);
	kd_record_init(&out);
	tap_is_int(kd_store_new(&st), 0, "new store");
	tap_is_int((long long)kd_store_count(st), 0, "a new store is empty");
	for (unsigned int i = 0; i < n; i++) {
		make(&in, i);
		if (kd_store_append(st, &in) < 0)
			bad++;
	}
	tap_is_int(bad, 0, "5000 records appended");
	tap_is_int((long long)kd_store_count(st), n, "count");
	bad = 0;
	for (unsigned int i = 0; i < n; i++) {
		make(&in, i);
		if (kd_store_get(st, i, &out) < 0 || !kd_record_same(&in, &out) ||
		    kd_store_level(st, i) != (int)(i % 8))
			bad++;
	}
	tap_is_int(bad, 0, "every record reads back the same, level too");
	tap_is_int(kd_store_get(st, n, &out), -ERANGE, "past the end is -ERANGE");
	tap_is_int(kd_store_level(st, n), KD_NO_LEVEL, "no level past the end");
	kd_record_free(&in);
	kd_record_free(&out);
	kd_store_free(st);
}

/* Absent fields stay absent; negative times and odd facilities survive. */
static void test_absent_and_edges(void)
{
	struct kd_store *st;
	struct kd_record in, out;

	kd_record_init(&in);
	kd_record_init(&out);
	kd_store_new(&st);
	kd_store_append(st, &in);
	in.ts_usec = -5;
	in.facility = 127;
	in.level = 3;
	memset(in.caller, 'C', sizeof(in.caller));	/* not terminated */
	kd_record_set_text(&in, "x\0y\n", 4);
	kd_store_append(st, &in);
	kd_store_get(st, 0, &out);
	tap_ok(out.seq == KD_NO_SEQ && out.ts_usec == KD_NO_TIME &&
	       out.level == KD_NO_LEVEL && out.facility == KD_NO_FACILITY &&
	       out.caller[0] == '\0' && out.text_len == 0 && out.dict_len == 0,
	       "an empty record reads back empty");
	kd_store_get(st, 1, &out);
	tap_ok(out.ts_usec == -5, "negative time");
	tap_is_int(out.facility, 127, "facility 127");
	tap_ok(strlen(out.caller) == sizeof(out.caller) - 1 &&
	       strspn(out.caller, "C") == sizeof(out.caller) - 1,
	       "an unterminated caller id is cut to the buffer less its NUL");
	tap_is_mem(out.text, out.text_len, "x\0y\n", 4, "text with NUL and newline");
	tap_ok(out.text[out.text_len] == '\0', "lent text is followed by a NUL byte");
	kd_record_free(&in);
	kd_record_free(&out);
	kd_store_free(st);
}

/* Large records fill chunks; many distinct keys go inline. */
static void test_chunks_and_keys(void)
{
	struct kd_store *st;
	struct kd_record in, out;
	static char big[KD_RECORD_MAX];
	char key[16];
	unsigned int bad = 0;

	kd_record_init(&in);
	kd_record_init(&out);
	kd_store_new(&st);
	memset(big, 'b', sizeof(big));
	for (unsigned int i = 0; i < 400; i++) {
		kd_record_reset(&in);
		in.seq = i;
		big[0] = (char)('A' + i % 26);
		kd_record_set_text(&in, big, sizeof(big));
		snprintf(key, sizeof(key), "K%u", i);
		kd_record_dict_add(&in, key, strlen(key), "v", 1);
		if (kd_store_append(st, &in) < 0)
			bad++;
	}
	tap_is_int(bad, 0, "400 records of 8 KiB (over 3 chunks) appended");
	for (unsigned int i = 0; i < 400; i++) {
		snprintf(key, sizeof(key), "K%u", i);
		if (kd_store_get(st, i, &out) < 0 || out.seq != i ||
		    out.text_len != sizeof(big) || out.text[0] != (char)('A' + i % 26) ||
		    out.dict_len != 1 || strcmp(out.dict[0].key, key) != 0)
			bad++;
	}
	tap_is_int(bad, 0, "they read back, keys past the table's 255 too");
	tap_ok(kd_store_bytes(st) >= 400 * sizeof(big), "bytes counts the chunks");
	kd_record_free(&in);
	kd_record_free(&out);
	kd_store_free(st);
}

/* The store must be smaller than the dump it holds (issue 10: <= 1.5x). */
static void test_compact(void)
{
	struct kd_store *st;
	struct kd_record r;
	size_t dump = 0;
	char line[256];

	kd_record_init(&r);
	kd_store_new(&st);
	for (unsigned int i = 0; i < 100000; i++) {
		make(&r, i);
		/* What `cat /dev/kmsg` writes for this record. */
		dump += (size_t)snprintf(line, sizeof(line), "%d,%u,%lld,-,caller=%s;%.*s\n",
					 r.facility * 8 + r.level, i, (long long)r.ts_usec,
					 r.caller, (int)r.text_len, r.text);
		for (size_t k = 0; k < r.dict_len; k++)
			dump += 3 + strlen(r.dict[k].key) + r.dict[k].value_len;
		kd_store_append(st, &r);
	}
	tap_diag("store %zu bytes for a dump of %zu", kd_store_bytes(st), dump);
	tap_ok(kd_store_bytes(st) <= dump, "100000 records take less than their dump");
	kd_record_free(&r);
	kd_store_free(st);
}

int main(void)
{
	test_roundtrip();
	test_absent_and_edges();
	test_chunks_and_keys();
	test_compact();
	return tap_done();
}
