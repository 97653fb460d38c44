/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * catalog.h - the kernel-message catalogues of the user's languages: the
 * text domain "linux-kmsg", DIR/LL/LC_MESSAGES/linux-kmsg.mo in each
 * catalogue directory, languages chosen as gettext chooses them.  A
 * message is looked up in each loaded catalogue in turn (first language
 * first), with its msgctxt (the MODULE) and then without, as gettext
 * falls back from one language of LANGUAGE to the next.
 */
#ifndef KDMESG_CATALOG_H
#define KDMESG_CATALOG_H

#include <stddef.h>

#define KD_CATALOG_DOMAIN	"linux-kmsg"

struct kd_catalog;

/**
 * kd_catalog_languages() - the language list gettext would use, from the
 * environment: the first non-empty of LC_ALL, LC_MESSAGES, LANG is the
 * locale; when it is unset, "C" or "POSIX" there is no language (and
 * LANGUAGE is ignored, as gettext does); otherwise a non-empty LANGUAGE
 * (a colon-separated list) wins over the locale.  Unlike gettext the
 * locale need not be installed: "LANGUAGE=de LC_ALL=C.UTF-8" gives "de".
 * Returns a pointer into the environment, or "" for none.
 */
const char *kd_catalog_languages(void);

/** kd_catalog_new() - an empty catalogue set.  Returns 0 or -ENOMEM. */
int kd_catalog_new(struct kd_catalog **cat);

/**
 * kd_catalog_add_dirs() - append catalogue directories, a colon-separated
 * list (empty items are skipped); earlier directories are searched first.
 * Returns 0, -ENOMEM or -E2BIG past 32 directories.
 */
int kd_catalog_add_dirs(struct kd_catalog *cat, const char *list);

/**
 * kd_catalog_load() - load the catalogue of each language of @languages
 * (colon-separated, as kd_catalog_languages() returns) from the first
 * directory that has one, trying each name as gettext does: ll_CC.cs@mod,
 * ll_CC@mod, ll_CC.cs, ll_CC, ll@mod, ll.  A file that exists but is not a
 * valid .mo is reported through @bad (when not NULL) and skipped.
 * Returns the number of catalogues loaded, or -ENOMEM.
 */
int kd_catalog_load(struct kd_catalog *cat, const char *languages,
		    void (*bad)(void *data, const char *path, int err), void *data);

/**
 * kd_catalog_lookup() - the translation of @msgid (@id_len bytes) for
 * module @ctx (NULL for none), with its length in *@len and an id, below
 * kd_catalog_entries(), that is the same for every lookup that finds the
 * same entry.  NULL when no catalogue has it.
 */
const char *kd_catalog_lookup(const struct kd_catalog *cat, const char *ctx,
			      const char *msgid, size_t id_len, size_t *len,
			      unsigned int *id);

/** kd_catalog_entries() - an upper bound for the ids of kd_catalog_lookup(). */
unsigned int kd_catalog_entries(const struct kd_catalog *cat);

/**
 * kd_catalog_msgid() - the msgid of entry @id (below kd_catalog_entries(),
 * the ids of kd_catalog_lookup()) as kd_mo_msgid() gives it: without its
 * msgctxt; NULL for headers and entries that translate nothing.
 */
const char *kd_catalog_msgid(const struct kd_catalog *cat, unsigned int id, size_t *len);

/** kd_catalog_count() - how many catalogues are loaded. */
unsigned int kd_catalog_count(const struct kd_catalog *cat);

/**
 * kd_catalog_dir() - the @i-th directory searched (in order), or NULL
 * past the last: for a message that says where catalogues were looked for.
 */
const char *kd_catalog_dir(const struct kd_catalog *cat, unsigned int i);

/** kd_catalog_free() - release @cat (NULL is fine). */
void kd_catalog_free(struct kd_catalog *cat);

#endif /* KDMESG_CATALOG_H */
