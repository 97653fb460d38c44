/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mo.h - one compiled gettext catalogue (a .mo file), read by kdmesg
 * itself rather than through gettext(3): glibc binds one directory per
 * text domain and ignores LANGUAGE in the C locale, while kernel-message
 * catalogues come from several directories and must work without
 * installed locales.  The file is untrusted: every offset is checked
 * once when it is loaded.
 */
#ifndef KDMESG_MO_H
#define KDMESG_MO_H

#include <stddef.h>
#include <stdint.h>

struct kd_mo;

/**
 * kd_mo_open() - load the .mo file at @path into *@mo.
 * Returns 0, -ENOENT (and the other open(2) errors), -EISDIR for a
 * directory, -ENODEV for another file that is not a regular one (a FIFO,
 * which is opened without blocking and never read, a device, a socket),
 * -EINVAL for a file that is not a valid .mo (bad magic, an offset or
 * length outside the file, a string without its terminating NUL), -EFBIG
 * above 64 MiB, or -ENOMEM.
 */
int kd_mo_open(const char *path, struct kd_mo **mo);

/**
 * kd_mo_open_mem() - kd_mo_open() of @len bytes at @data (copied).
 */
int kd_mo_open_mem(const void *data, size_t len, struct kd_mo **mo);

/** kd_mo_free() - release @mo (NULL is fine). */
void kd_mo_free(struct kd_mo *mo);

/**
 * kd_mo_lookup() - the translation of @msgid (@id_len bytes) in context
 * @ctx (NULL: no msgctxt), NUL-terminated, with its length in *@len; or
 * NULL when the catalogue has none (untranslated and fuzzy entries are
 * not in a .mo).  For a plural entry, the first form.  The string lives
 * as long as @mo.  Also returns the entry's index in *@index (for
 * callers that cache per entry), from 0 to kd_mo_count() - 1.
 */
const char *kd_mo_lookup(const struct kd_mo *mo, const char *ctx,
			 const char *msgid, size_t id_len, size_t *len,
			 unsigned int *index);

/** kd_mo_hash() - the hash kd_mo_lookup_hashed() wants for @msgid. */
uint32_t kd_mo_hash(const char *msgid, size_t id_len);

/**
 * kd_mo_lookup_hashed() - kd_mo_lookup() with the msgid's kd_mo_hash()
 * given, so that looking one msgid up in several catalogues, with and
 * without context, hashes it once.
 */
const char *kd_mo_lookup_hashed(const struct kd_mo *mo, const char *ctx,
				const char *msgid, size_t id_len, uint32_t id_hash,
				size_t *len, unsigned int *index);

/**
 * kd_mo_msgid() - the msgid of entry @i (below kd_mo_count()), without
 * its msgctxt, with its length in *@len; NULL for the header and for an
 * entry that translates nothing (an empty msgstr).  The string lives as
 * long as @mo.
 */
const char *kd_mo_msgid(const struct kd_mo *mo, unsigned int i, size_t *len);

/** kd_mo_count() - how many entries @mo holds (the header included). */
unsigned int kd_mo_count(const struct kd_mo *mo);

/**
 * kd_mo_charset() - the charset the header's Content-Type names
 * ("UTF-8"), or "" when it names none.
 */
const char *kd_mo_charset(const struct kd_mo *mo);

#endif /* KDMESG_MO_H */
