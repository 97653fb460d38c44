// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * msgids.c - a format index of the loaded catalogues' msgids, for the
 * recovery's last source.  See msgids.h.
 */
#include <errno.h>
#include <string.h>

#include "stage/msgids.h"

int kd_msgids_index(const struct kd_catalog *cat, struct kd_fidx **out,
		    struct kd_msgids_stats *st)
{
	struct kd_fidx_builder *b;
	unsigned int n = kd_catalog_entries(cat);
	void *image;
	size_t len;
	int rc = 0;

	*out = NULL;
	memset(st, 0, sizeof(*st));
	if ((rc = kd_fidx_builder_new(&b)) < 0)
		return rc;
	for (unsigned int id = 0; id < n; id++) {
		struct kd_fidx_site s = { .family = KD_FIDX_ANY };

		if (!(s.fmt = kd_catalog_msgid(cat, id, &s.fmt_len)))
			continue;
		st->msgids++;
		if (st->msgids > KD_MSGIDS_MAX || s.fmt_len > KD_MSGIDS_LEN_MAX) {
			st->skipped++;
			continue;
		}
		/* The same msgid in two languages, or with a msgctxt: one site. */
		rc = kd_fidx_builder_add(b, &s);
		if (rc == 1)
			st->skipped++;
		else if (rc < 0)
			goto out;
	}
	rc = 0;
	st->formats = kd_fidx_builder_count(b);
	if (!st->formats)
		goto out;
	/* The image is checked as a file would be: -EBADMSG is a bug of ours. */
	if ((rc = kd_fidx_builder_image(b, "", &image, &len)) < 0 ||
	    (rc = kd_fidx_from_image(out, image, len, NULL)) < 0)
		rc = rc == -E2BIG || rc == -EBADMSG ? -ENOMEM : rc;
out:
	kd_fidx_builder_free(b);
	return rc;
}
