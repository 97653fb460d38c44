/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sites.h - a kprint site table in memory: the call-site descriptors of
 * a kernel and its modules (/sys/kernel/debug/kprint/sites, or a copy
 * kdmesg --save-sites kept), looked up by (object, index) as a compact
 * record's SITE=<object>:<index> names them (kprint(7)).
 *
 * The table is untrusted input: lines that do not parse, duplicates and
 * indexes past KD_KSITES_INDEX_MAX are skipped and counted; the text
 * and the number of sites are bounded (KD_SITES_MAX_BYTES,
 * KD_SITES_MAX_SITES, and the index arrays to four entries per site).  Old tables whose lines name only the object
 * (no ":index") number each object's lines from 0 in the order given,
 * which is the kernel's index only when it listed every descriptor.
 */
#ifndef KDMESG_SITES_H
#define KDMESG_SITES_H

#include <stddef.h>

/* Bounds of one table. */
#define KD_SITES_MAX_BYTES	(256UL << 20)
#define KD_SITES_MAX_SITES	(1UL << 20)

/* One descriptor: what full mode writes for it (kprint(7)). */
struct kd_site {
	const char *file;	/* CODE_FILE */
	const char *line;	/* CODE_LINE, as the table wrote it */
	const char *func;	/* CODE_FUNC, NULL for "-" (no function names) */
	const char *module;	/* MODULE, NULL for "-" */
	const char *fmt;	/* FORMAT (unescaped; may hold NUL bytes), fmt_len 0: none */
	size_t fmt_len;
};

struct kd_sites;

/**
 * kd_sites_load() - a table from the @len bytes at @text (a listing, or
 * a saved table with its '#' header).  @text is taken over (freed by
 * kd_sites_free(), also on failure) and must have a NUL byte after its
 * @len bytes.  Returns 0, -ENOMEM, or -EFBIG past the bounds.
 */
int kd_sites_load(struct kd_sites **out, char *text, size_t len);

/**
 * kd_sites_get() - the site @index of @object (@object_len bytes), or
 * NULL when the table has none.
 */
const struct kd_site *kd_sites_get(const struct kd_sites *t, const char *object,
				   size_t object_len, unsigned long index);

/** kd_sites_count() - the sites loaded. */
size_t kd_sites_count(const struct kd_sites *t);

/** kd_sites_skipped() - the lines left out (malformed, duplicate, out of range). */
size_t kd_sites_skipped(const struct kd_sites *t);

/** kd_sites_free() - release @t (NULL is fine). */
void kd_sites_free(struct kd_sites *t);

#endif /* KDMESG_SITES_H */
