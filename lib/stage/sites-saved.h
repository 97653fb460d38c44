/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sites-saved.h - the site tables kdmesg --save-sites keeps, so that a
 * saved log or a journal of an older boot still resolves its compact
 * records (kprint(7)).  A directory holds:
 *
 *   <build-id>.sites   one per vmlinux GNU build id (buildid.h): a header
 *                      "# kdmesg-sites 1", "# build-id HEX",
 *                      "# release UNAME-R", "# version <proc/version>",
 *                      then the debugfs listing's lines
 *   boots              "<boot-id> <build-id>" lines: which kernel each
 *                      boot ran (boot ids as 32 hex digits, no dashes)
 *
 * Everything read here is untrusted (bounded, bad lines ignored).
 * Nothing here prints; writes are atomic (a temporary file renamed).
 */
#ifndef KDMESG_SITES_SAVED_H
#define KDMESG_SITES_SAVED_H

#include <stdbool.h>
#include <stddef.h>

#include "shared/buildid.h"

#define KD_SITES_SUFFIX		".sites"
#define KD_SITES_BOOTS		"boots"
/* Lines the boots file keeps, the newest. */
#define KD_SITES_BOOTS_MAX	1024

struct kd_sites_header {
	char build_id[KD_BUILDID_HEX_MAX + 1];
	char release[256];
	char version[1024];	/* without its newline */
};

/**
 * kd_sites_header_read() - the header of a saved table (the first lines
 * of its @len bytes).  Returns 0, or -EBADMSG when it does not start with
 * "# kdmesg-sites 1".  Unknown header lines are ignored.
 */
int kd_sites_header_read(const char *text, size_t len, struct kd_sites_header *h);

/**
 * kd_sites_compose() - a saved table: @h's header, the @len bytes of the
 * kernel's @listing, then the lines of @old (a previous saved table of
 * the same build, NULL for none) whose object the listing does not name
 * (modules not loaded now).  Into a new buffer *@out of *@out_len bytes;
 * *@merged counts the lines taken from @old.  Returns 0 or -ENOMEM.
 */
int kd_sites_compose(const struct kd_sites_header *h, const char *listing, size_t len,
		     const char *old, size_t old_len, char **out, size_t *out_len,
		     size_t *merged);

/**
 * kd_sites_boots_find() - the build id of boot @boot_id in the @len bytes
 * of a boots file, into @build_id (KD_BUILDID_HEX_MAX + 1 bytes); the
 * last line for it wins.  Returns 0 or -ENOENT.
 */
int kd_sites_boots_find(const char *text, size_t len, const char *boot_id, char *build_id);

/**
 * kd_sites_boots_update() - the boots file @old (NULL for none) with the
 * line of @boot_id set to @build_id, the newest KD_SITES_BOOTS_MAX lines
 * kept.  Into a new buffer.  Returns 0 or -ENOMEM.
 */
int kd_sites_boots_update(const char *old, size_t old_len, const char *boot_id,
			  const char *build_id, char **out, size_t *out_len);

/**
 * kd_sites_write() - write @len bytes to @dir/@name atomically: a
 * temporary file in @dir, synced, renamed over @name.  @dir is created
 * (mode 0755, with its parents) when missing.  Returns 0 or a negative errno.
 */
int kd_sites_write(const char *dir, const char *name, const char *buf, size_t len);

/** kd_sites_boot_id() - @raw (a /proc boot_id, dashes and newline) as 32 hex digits; false if not one. */
bool kd_sites_boot_id(const char *raw, char out[33]);

#endif /* KDMESG_SITES_SAVED_H */
