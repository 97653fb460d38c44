// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz-translate-record.c - libFuzzer target for the translation of whole
 * records: any bytes as one /dev/kmsg record, translated with the test
 * catalogue (tests/fixtures/kmsg-test-xx.po, compiled by run-fuzz.sh into
 * the directory $KDMESG_FUZZ_CATALOG, language "xx").  The fuzzer mutates
 * the dictionary keys the translator reads (FORMAT, MODULE, ARGn,
 * ARGS_CUT, FORMAT_PART, PARTS, PART<k>_, GROUP, LINE<k>_): no crash, no
 * read or write outside the buffers (ASan), a translation within
 * KD_TRANSLATE_MAX, and a known outcome. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stage/catalog.h"
#include "source/kmsg-parse.h"
#include "stage/translate.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct kd_catalog *cat;
static struct kd_translate *tr;
static struct kd_record rec;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("KDMESG_FUZZ_CATALOG");

	(void)argc;
	(void)argv;
	if (!dir || kd_catalog_new(&cat) < 0 || kd_catalog_add_dirs(cat, dir) < 0 ||
	    kd_catalog_load(cat, "xx", NULL, NULL) != 1 ||
	    kd_translate_new(&tr, cat, "UTF-8") < 0)
		abort();	/* run-fuzz.sh sets up the catalogue */
	kd_record_init(&rec);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	volatile unsigned char sum = 0;
	const char *out = NULL;
	unsigned int cut;
	size_t n = 0;
	int r;

	if (kd_kmsg_parse((const char *)data, size, &rec, &cut) != 0)
		return 0;
	r = kd_translate_record(tr, &rec, &out, &n);
	if (r == KD_KFMT_TRUSTED) {
		if (!out || n > KD_TRANSLATE_MAX)
			__builtin_trap();
		for (size_t i = 0; i < n; i++)
			sum ^= (unsigned char)out[i];
	} else if (r != KD_TRANSLATE_NONE && (r < 0 || r >= KD_KFMT_NREASONS)) {
		__builtin_trap();
	}
	(void)sum;
	return 0;
}
