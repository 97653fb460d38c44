// SPDX-License-Identifier: GPL-2.0-or-later
/* test-record.c - ownership, reuse and limits of struct kd_record. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "record/record.h"
#include "tap.h"

static void test_empty(void)
{
	struct kd_record r;

	kd_record_init(&r);
	tap_ok(r.seq == KD_NO_SEQ, "new record has no sequence number");
	tap_is_int(r.level, KD_NO_LEVEL, "new record has no level");
	tap_ok(r.ts_usec == KD_NO_TIME, "new record has no time");
	tap_ok(kd_record_dict_get(&r, "SUBSYSTEM") == NULL, "empty dictionary");
	kd_record_free(&r);
}

static void test_text_with_nul(void)
{
	struct kd_record r;

	kd_record_init(&r);
	tap_is_int(kd_record_set_text(&r, "a\0b", 3), 0, "set text with NUL");
	tap_is_mem(r.text, r.text_len, "a\0b", 3, "text keeps embedded NUL");
	tap_ok(r.text[3] == '\0', "text is NUL-terminated");
	kd_record_free(&r);
}

static void test_dict_order_and_reset(void)
{
	struct kd_record r, c;
	const struct kd_dict_entry *e;

	kd_record_init(&r);
	kd_record_init(&c);
	kd_record_dict_add(&r, "SUBSYSTEM", 9, "pci", 3);
	kd_record_dict_add(&r, "DEVICE", 6, "+pci:0000:00:01.0", 17);
	kd_record_dict_add(&r, "SUBSYSTEM", 9, "second", 6);
	tap_is_int((long long)r.dict_len, 3, "three entries kept");
	tap_is_str(r.dict[1].key, "DEVICE", "order is kept");
	e = kd_record_dict_get(&r, "SUBSYSTEM");
	tap_is_str(e ? e->value : NULL, "pci", "get returns the first match");

	r.seq = 7;
	kd_record_set_text(&r, "hello", 5);
	tap_is_int(kd_record_copy(&c, &r), 0, "copy succeeds");
	tap_is_str(c.dict[2].value, "second", "copy has the dictionary");
	tap_is_int((long long)c.seq, 7, "copy has the header");
	tap_ok(kd_record_same(&c, &r), "a copy is the same record");
	c.dict[1].value[0] = 'x';
	tap_ok(!kd_record_same(&c, &r), "a changed dictionary value is not the same");
	c.dict[1].value[0] = '+';
	c.text[0] = 'j';
	tap_ok(!kd_record_same(&c, &r), "changed text is not the same");
	c.text[0] = 'h';
	c.caller[0] = 'T';
	tap_ok(!kd_record_same(&c, &r), "a caller id is not the same as none");
	c.caller[0] = '\0';
	tap_ok(kd_record_same(&c, &r), "restored, the same again");

	kd_record_reset(&r);
	tap_is_int((long long)r.dict_len, 0, "reset empties the dictionary");
	tap_is_int((long long)r.text_len, 0, "reset empties the text");
	tap_ok(r.seq == KD_NO_SEQ, "reset clears the header");
	kd_record_free(&r);
	kd_record_free(&c);
}

/* A reset record reuses its entries' buffers: values must not leak over. */
static void test_dict_reuse(void)
{
	struct kd_record r;
	char big[300];
	const struct kd_dict_entry *e;

	memset(big, 'v', sizeof(big));
	kd_record_init(&r);
	kd_record_dict_add(&r, "SUBSYSTEM", 9, "pci", 3);
	kd_record_dict_add(&r, "DEVICE", 6, "+pci:0000:00:01.0", 17);
	kd_record_reset(&r);
	tap_ok(kd_record_dict_get(&r, "DEVICE") == NULL,
	       "a spare entry is not found after reset");
	kd_record_dict_add(&r, "K", 1, big, sizeof(big));
	kd_record_dict_add(&r, "DEV", 3, "a\0b", 3);
	tap_is_int((long long)r.dict_len, 2, "two entries after reuse");
	tap_is_str(r.dict[0].key, "K", "reused key");
	tap_is_mem(r.dict[0].value, r.dict[0].value_len, big, sizeof(big),
		   "a value longer than the old buffer");
	tap_is_mem(r.dict[1].value, r.dict[1].value_len, "a\0b", 3,
		   "a shorter value with a NUL byte");
	tap_ok(r.dict[1].value[3] == '\0', "value stays NUL-terminated");
	e = kd_record_dict_get(&r, "DEV");
	tap_ok(e == &r.dict[1], "get finds the reused entry");
	kd_record_free(&r);
	tap_ok(r.dict == NULL && r.dict_cap == 0, "free releases the spares");
}

static void test_dict_limit(void)
{
	struct kd_record r;
	int rc = 0;
	char key[16];

	kd_record_init(&r);
	for (int i = 0; i < KD_DICT_MAX && rc == 0; i++) {
		snprintf(key, sizeof(key), "K%d", i);
		rc = kd_record_dict_add(&r, key, strlen(key), "v", 1);
	}
	tap_is_int(rc, 0, "KD_DICT_MAX entries fit");
	tap_is_int(kd_record_dict_add(&r, "X", 1, "v", 1), -E2BIG,
		   "one more is refused with -E2BIG");
	kd_record_free(&r);
}

/*
 * Lent entries point into the caller's bytes; an owned entry added after
 * one is lent in the same slot (spares keep their block), a copy owns
 * everything, and free() releases only what the record allocated
 * (ASan in CI sees a free of the lent bytes).
 */
static void test_dict_lend(void)
{
	char input[] = "MODULE\0e1000e\0CODE_FUNC\0e1000_probe";
	struct kd_record r, c;

	kd_record_init(&r);
	kd_record_init(&c);
	kd_record_dict_add(&r, "SUBSYSTEM", 9, "pci", 3);
	kd_record_reset(&r);
	tap_is_int(kd_record_dict_lend(&r, input, input + 7, 6), 0, "lend one entry");
	tap_is_int(kd_record_dict_lend(&r, input + 14, input + 24, 11), 0, "lend another");
	tap_ok(r.dict[0].key == input && r.dict[0].value == input + 7 &&
	       r.dict[0].origin == KD_ORIGIN_KERNEL, "a lent entry is the caller's bytes, the kernel's");
	tap_ok(kd_record_dict_get(&r, "CODE_FUNC") == &r.dict[1], "get finds a lent entry");
	tap_is_int(kd_record_dict_add(&r, "FORMAT", 6, "x %s", 4), 0, "add after lent ones");
	tap_ok(kd_record_copy(&c, &r) == 0 && kd_record_same(&c, &r) &&
	       c.dict[0].key != input && c.dict[1].value != input + 24,
	       "a copy owns its entries and holds the same");
	input[7] = 'E';
	tap_is_str(c.dict[0].value, "e1000e", "the copy does not change with the input");
	tap_is_str(r.dict[0].value, "E1000e", "the lent entry does");
	kd_record_reset(&r);
	tap_is_int(kd_record_dict_add(&r, "A", 1, "b", 1), 0, "a slot that was lent takes a copy");
	tap_ok(r.dict[0].key != input && strcmp(r.dict[0].value, "b") == 0, "into its own block");
	/* key_plain is a promise of the entry's maker: a reused slot does not keep it. */
	r.dict[0].key_plain = 1;
	tap_ok(kd_record_copy(&c, &r) == 0 && c.dict[0].key_plain == 1, "a copy keeps key_plain");
	kd_record_reset(&r);
	tap_ok(kd_record_dict_add(&r, "a-b", 3, "c", 1) == 0 && r.dict[0].key_plain == 0,
	       "an added entry's key_plain is 0 (not known)");
	r.dict[0].key_plain = 3;
	kd_record_reset(&r);
	tap_ok(kd_record_dict_lend(&r, input, input + 7, 6) == 0 && r.dict[0].key_plain == 0,
	       "a lent entry's key_plain is 0 (not known)");
	kd_record_free(&r);
	kd_record_free(&c);
}

int main(void)
{
	test_empty();
	test_text_with_nul();
	test_dict_order_and_reset();
	test_dict_reuse();
	test_dict_limit();
	test_dict_lend();
	return tap_done();
}
