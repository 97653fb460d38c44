// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz-translate-catalog.c - libFuzzer target for the translation with a
 * fuzzed catalogue (issue 19: the record target's fixed test catalogue
 * never held a msgstr with a control character, so UBSan's NULL memcpy in
 * translate.c went unseen).  The input is a catalogue and a record:
 *
 *   N (one byte, entries = N % 8) | N times: msgid NUL msgstr NUL | record
 *
 * A msgid may hold msgctxt EOT msgid, an empty msgid is the header (its
 * charset is read).  The harness builds a valid .mo of those entries in a
 * directory of its own under the working directory (the file is rewritten
 * per input, the directory removed at exit), loads it as the
 * catalogue of language "xx", and translates the record (/dev/kmsg form)
 * twice (the second time from the translator's memo): no crash, no read or
 * write outside the buffers (ASan), no undefined behaviour (UBSan), a
 * translation within KD_TRANSLATE_MAX and the same both times.  A record
 * without FORMAT first goes through the recovery with the catalogue's
 * msgids as its only formats (msgids.h), as on a stock kernel: msgids
 * that are no kernel format must be skipped, the others matched. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "source/kmsg-parse.h"
#include "stage/catalog.h"
#include "stage/msgids.h"
#include "stage/recover.h"
#include "stage/translate.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ENTRIES	8

static char dir[64], sub[128], path[160];
static struct kd_record rec;

static void cleanup(void)
{
	unlink(path);
	rmdir(sub);
	*strrchr(sub, '/') = '\0';
	rmdir(sub);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	snprintf(dir, sizeof(dir), "kdmesg-fuzz-cat.XXXXXX");
	if (!mkdtemp(dir))
		abort();
	snprintf(sub, sizeof(sub), "%s/xx", dir);
	mkdir(sub, 0700);
	snprintf(sub, sizeof(sub), "%s/xx/LC_MESSAGES", dir);
	if (mkdir(sub, 0700) < 0)
		abort();
	snprintf(path, sizeof(path), "%s/linux-kmsg.mo", sub);
	atexit(cleanup);
	kd_record_init(&rec);
	return 0;
}

static void put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);	/* the machine's order: the magic says which */
}

/* A .mo of @n (msgid, msgstr) pairs into @path; 0 or -1. */
static int write_mo(const char *const *id, const size_t *idlen,
		    const char *const *str, const size_t *strlen_, unsigned int n)
{
	unsigned char head[28 + 16 * MAX_ENTRIES];
	uint32_t off = 28 + 16 * n;
	FILE *f = fopen(path, "wb");
	int rc = 0;

	if (!f)
		return -1;
	put32(head, 0x950412de);
	put32(head + 4, 0);
	put32(head + 8, n);
	put32(head + 12, 28);
	put32(head + 16, 28 + 8 * n);
	put32(head + 20, 0);
	put32(head + 24, 0);
	for (unsigned int i = 0; i < n; i++) {
		put32(head + 28 + 8 * i, (uint32_t)idlen[i]);
		put32(head + 32 + 8 * i, off);
		off += (uint32_t)idlen[i] + 1;
	}
	for (unsigned int i = 0; i < n; i++) {
		put32(head + 28 + 8 * n + 8 * i, (uint32_t)strlen_[i]);
		put32(head + 32 + 8 * n + 8 * i, off);
		off += (uint32_t)strlen_[i] + 1;
	}
	if (fwrite(head, 1, 28 + 16 * n, f) != 28 + 16 * n)
		rc = -1;
	for (unsigned int i = 0; i < n && !rc; i++)
		if (fwrite(id[i], 1, idlen[i] + 1, f) != idlen[i] + 1)
			rc = -1;
	for (unsigned int i = 0; i < n && !rc; i++)
		if (fwrite(str[i], 1, strlen_[i] + 1, f) != strlen_[i] + 1)
			rc = -1;
	if (fclose(f) != 0)
		rc = -1;
	return rc;
}

/*
 * The recovery of rec with the msgids of @cat alone.  The stage it returns
 * (or NULL) lends rec its strings: the caller frees it after the last use
 * of rec.
 */
static struct kd_recover *recover(const struct kd_catalog *cat)
{
	struct kd_msgids_stats st;
	struct kd_recover *r;
	struct kd_fidx *x;

	if (kd_msgids_index(cat, &x, &st) < 0)
		__builtin_trap();
	if (st.skipped > st.msgids || st.formats > st.msgids - st.skipped)
		__builtin_trap();
	if (!x)
		return NULL;
	if (kd_recover_new(&r) < 0 || kd_recover_add_fallback(r, x) < 0)
		__builtin_trap();
	if (kd_recover_apply(r, &rec) < 0)
		__builtin_trap();
	return r;
}

/* One translation of rec; its bytes folded into *@sum. */
static int translate(struct kd_translate *tr, unsigned int *sum, size_t *len)
{
	const char *out = NULL;
	int r = kd_translate_record(tr, &rec, &out, len);

	if (r == KD_KFMT_TRUSTED) {
		if (!out || *len > KD_TRANSLATE_MAX)
			__builtin_trap();
		for (size_t i = 0; i < *len; i++)
			*sum = *sum * 31 + (unsigned char)out[i];
	} else if (r != KD_TRANSLATE_NONE && (r < 0 || r >= KD_KFMT_NREASONS)) {
		__builtin_trap();
	}
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;
	const char *id[MAX_ENTRIES], *str[MAX_ENTRIES];
	size_t idlen[MAX_ENTRIES], strlen_[MAX_ENTRIES], n1 = 0, n2 = 0;
	struct kd_catalog *cat = NULL;
	struct kd_translate *tr = NULL;
	struct kd_recover *rs = NULL;
	unsigned int n, cut, s1 = 0, s2 = 0;
	int r1, r2;

	if (size < 1)
		return 0;
	n = (unsigned char)*p++ % MAX_ENTRIES;
	for (unsigned int i = 0; i < n; i++) {
		const char *z1 = memchr(p, '\0', (size_t)(end - p)), *z2;

		if (!z1 || !(z2 = memchr(z1 + 1, '\0', (size_t)(end - z1 - 1))))
			return 0;
		id[i] = p;
		idlen[i] = (size_t)(z1 - p);
		str[i] = z1 + 1;
		strlen_[i] = (size_t)(z2 - z1 - 1);
		p = z2 + 1;
	}
	if (kd_kmsg_parse(p, (size_t)(end - p), &rec, &cut) != 0)
		return 0;
	if (write_mo(id, idlen, str, strlen_, n) < 0)
		__builtin_trap();
	if (kd_catalog_new(&cat) < 0 || kd_catalog_add_dirs(cat, dir) < 0)
		__builtin_trap();
	/* No entry, or a header that names no charset iconv knows: no catalogue. */
	if (kd_catalog_load(cat, "xx", NULL, NULL) == 1)
		rs = recover(cat);
	if (kd_catalog_count(cat) == 1 && kd_translate_new(&tr, cat, "UTF-8") == 0) {
		r1 = translate(tr, &s1, &n1);
		r2 = translate(tr, &s2, &n2);
		if (r1 != r2 || n1 != n2 || s1 != s2)
			__builtin_trap();
		kd_translate_free(tr);
	}
	kd_recover_free(rs);
	kd_catalog_free(cat);
	return 0;
}
