// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-filter-alloc.c - filtering stays streaming: once set up, matching
 * records against every kind of structured filter (--code-file,
 * --function, --module, --format, FIELD=VALUE, a header field) and
 * counting them in --stats (known sites) calls no allocator, however
 * many records pass.  --grep is regexec(3), which in glibc allocates and
 * frees its own work buffers on each call: there the heap in use must
 * not grow.
 *
 * The allocator is counted by defining malloc(), calloc() and realloc()
 * here, in front of glibc's (its __libc_* entry points do the work).  A
 * sanitizer build brings its own allocator: the test then skips.
 */
#include <malloc.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match/filter.h"
#include "record/record.h"
#include "sink/stats.h"
#include "tap.h"

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif

#ifndef SANITIZED
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);

static bool counting;
static unsigned long calls;

void *malloc(size_t size)
{
	calls += counting;
	return __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
	calls += counting;
	return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
	calls += counting;
	return __libc_realloc(p, size);
}

#define NREC	64

static void add(struct kd_filter *f, enum kd_match_kind kind, enum kd_field_id id,
		const char *key, unsigned int flags, const char *value)
{
	struct kd_field fld = { .id = id, .key = key };

	if (kd_filter_add(f, kind, &fld, flags, value, NULL) != 0)
		tap_diag("kd_filter_add %s %s failed", key, value);
}

int main(void)
{
	static const char *const files[] = {
		"drivers/net/ethernet/intel/e1000/e1000_main.c", "drivers/pci/probe.c",
		"sound/pci/hda/hda_intel.c", "kernel/panic.c",
	};
	struct kd_record recs[NREC];
	struct kd_filter f, grep;
	struct kd_stats *st = NULL;
	unsigned long shown = 0, grepped = 0;
	size_t heap;
	int i, pass;

	kd_filter_init(&f);
	add(&f, KD_MATCH_PATH, KD_FIELD_CODE_FILE, "CODE_FILE", 0, "drivers/*");
	add(&f, KD_MATCH_PATH, KD_FIELD_CODE_FILE, "CODE_FILE", 0, "hda_intel.c");
	add(&f, KD_MATCH_GLOB, KD_FIELD_CODE_FUNC, "CODE_FUNC", 0, "fn_[0-9]*");
	add(&f, KD_MATCH_MODULE, KD_FIELD_MODULE, "MODULE", 0, "snd-hda-intel");
	add(&f, KD_MATCH_MODULE, KD_FIELD_MODULE, "MODULE", 0, "e1000");
	add(&f, KD_MATCH_EXACT, KD_FIELD_FORMAT, "FORMAT", 0, "x=%d\\n");
	add(&f, KD_MATCH_EXACT, KD_FIELD_DICT, "ARG0", 0, "7");
	add(&f, KD_MATCH_EXACT, KD_FIELD_DICT, "ARG0", 0, "9");
	add(&f, KD_MATCH_EXACT, KD_FIELD_LEVEL, "PRIORITY", 0, "6");
	kd_stats_new(&st);
	kd_filter_init(&grep);
	add(&grep, KD_MATCH_REGEX, KD_FIELD_MESSAGE, "MESSAGE", KD_MATCH_ICASE, "X=[0-7]+");

	for (i = 0; i < NREC; i++) {
		const char *file = files[i % 4];
		char text[32], func[16], arg[8];

		kd_record_init(&recs[i]);
		recs[i].level = 6;
		recs[i].facility = 0;
		recs[i].ts_usec = i * 1000;
		snprintf(text, sizeof(text), "x=%d", i % 10);
		snprintf(func, sizeof(func), "fn_%d", i % 5);
		snprintf(arg, sizeof(arg), "%d", i % 10);
		kd_record_set_text(&recs[i], text, strlen(text));
		kd_record_dict_add(&recs[i], "CODE_FILE", 9, file, strlen(file));
		kd_record_dict_add(&recs[i], "CODE_LINE", 9, "10", 2);
		kd_record_dict_add(&recs[i], "CODE_FUNC", 9, func, strlen(func));
		kd_record_dict_add(&recs[i], "MODULE", 6, i % 4 == 2 ? "snd_hda_intel" : "e1000", i % 4 == 2 ? 13 : 5);
		kd_record_dict_add(&recs[i], "FORMAT", 6, "x=%d\\n", 6);
		kd_record_dict_add(&recs[i], "ARG0", 4, arg, strlen(arg));
		/* The sites are known before counting starts. */
		kd_stats_add(st, &recs[i]);
	}

	/* Warm: the glob cache and regex buffers are filled on first use. */
	for (i = 0; i < NREC; i++)
		kd_filter_match(&f, &recs[i]);
	counting = true;
	for (pass = 0; pass < 1000; pass++)
		for (i = 0; i < NREC; i++) {
			shown += kd_filter_match(&f, &recs[i]);
			kd_stats_add(st, &recs[i]);
		}
	counting = false;

	tap_ok(shown > 0 && shown < 1000UL * NREC, "some records pass, some do not (%lu)", shown);
	tap_is_int((long long)calls, 0,
		   "64,000 records through every kind of filter and --stats: no allocation");

	for (i = 0; i < NREC; i++)
		kd_filter_match(&grep, &recs[i]);
	heap = mallinfo2().uordblks;
	for (pass = 0; pass < 1000; pass++)
		for (i = 0; i < NREC; i++)
			grepped += kd_filter_match(&grep, &recs[i]);
	/* Texts "x=0".."x=9" (i % 10): "X=[0-7]+" ignoring case takes 0..7. */
	for (i = 0; i < NREC; i++)
		grepped -= 1000 * (i % 10 <= 7);
	tap_ok(grepped == 0 && mallinfo2().uordblks == heap,
	       "--grep -i over 64,000 records: the matching ones, the heap in use stays at %zu bytes",
	       heap);

	for (i = 0; i < NREC; i++)
		kd_record_free(&recs[i]);
	kd_stats_free(st);
	kd_filter_free(&f);
	kd_filter_free(&grep);
	return tap_done();
}
#else
int main(void)
{
	puts("1..0 # SKIP a sanitizer's allocator cannot be counted here");
	return 0;
}
#endif
