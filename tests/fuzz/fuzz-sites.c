// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz-sites.c - libFuzzer target for the kprint site table and the
 * expansion of compact records: the input up to its first NUL byte is a
 * site table (lib/stage/sites.c), the rest one /dev/kmsg record whose
 * SITE (with its spans), FORMAT_PART, ARGS_CUT, PARTS, LINE<k>_ and PART<k>_ keys
 * the stage reads (lib/stage/expand.c).  No crash, no access outside
 * the buffers (ASan), and an expanded record within the record limits,
 * each ARGn the stage added within the text (an input key such as
 * "ARGS_CU" or an ARGn the record already had is the input's). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "source/kmsg-parse.h"
#include "stage/expand.h"
#include "stage/sites.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct kd_expand *x;
static struct kd_record rec;
static const struct kd_sites *table;

/* The record's keys before the stage ran, NUL-separated. */
static char before_keys[KD_RECORD_MAX + KD_DICT_MAX];

static void keep_keys(void)
{
	size_t at = 0;

	for (size_t i = 0; i < rec.dict_len; i++) {
		size_t n = strlen(rec.dict[i].key) + 1;

		if (at + n >= sizeof(before_keys))
			break;
		memcpy(before_keys + at, rec.dict[i].key, n);
		at += n;
	}
	before_keys[at] = '\0';
}

static int had_key(const char *key)
{
	for (const char *k = before_keys; *k; k += strlen(k) + 1)
		if (!strcmp(k, key))
			return 1;
	return 0;
}

/* ARG<n>, LINE<k>_ARG<n> or PART<k>_ARG<n>: an argument the stage writes. */
static int arg_key(const char *key)
{
	const char *a = strstr(key, "ARG");

	if (!a || (a != key && a[-1] != '_') || !a[3])
		return 0;
	for (a += 3; *a; a++)
		if (*a < '0' || *a > '9')
			return 0;
	return 1;
}

static const struct kd_sites *pick(void *data, const struct kd_record *r)
{
	(void)data;
	(void)r;
	return table;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (kd_expand_new(&x, pick, NULL) < 0)
		abort();
	kd_record_init(&rec);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	size_t tlen = nul ? (size_t)(nul - data) : size;
	struct kd_sites *t;
	unsigned int cut;
	char *text = malloc(tlen + 1);

	if (!text)
		return 0;
	memcpy(text, data, tlen);
	text[tlen] = '\0';
	if (kd_sites_load(&t, text, tlen) < 0)
		return 0;
	table = t;
	if (nul && kd_kmsg_parse((const char *)nul + 1, size - tlen - 1, &rec, &cut) == 0) {
		uint64_t before = kd_expand_stats(x)->expanded;

		keep_keys();
		if (kd_expand_apply(x, &rec) != 1 || rec.dict_len > KD_DICT_MAX)
			__builtin_trap();
		/* Expanded: every argument added is bytes of the text. */
		for (size_t i = 0; kd_expand_stats(x)->expanded != before && i < rec.dict_len; i++)
			if (arg_key(rec.dict[i].key) && !had_key(rec.dict[i].key) &&
			    rec.dict[i].value_len > rec.text_len)
				__builtin_trap();
	}
	kd_sites_free(t);
	return 0;
}
