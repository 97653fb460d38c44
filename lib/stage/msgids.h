/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * msgids.h - the third and last format source of the recovery
 * (recover.h): the msgids of the loaded linux-kmsg catalogues
 * (catalog.h).  Those msgids are kernel formats (pr_fmt() prefix
 * included, KERN_* level and trailing newline not), so a record whose
 * format a translator translated can be read back into FORMAT and ARGn
 * and translated even when no printk index or format index knows the
 * kernel.  A catalogue says nothing of where a format is printed: the
 * sites have no file, line, function or module (a msgctxt is a
 * translator's choice of wording, not proof of the module), and any
 * family of prefix (a dev_*() msgid leaves the device out).
 */
#ifndef KDMESG_MSGIDS_H
#define KDMESG_MSGIDS_H

#include <stddef.h>

#include "stage/catalog.h"
#include "stage/fidx.h"

/*
 * Bounds: a record's text is at most KD_RECORD_MAX bytes and a format's
 * literal text is in it, so a longer msgid is no kernel format of a
 * record; and at most this many msgids are read (a full catalogue of
 * Linux 6.12 would have about 204,000).
 */
#define KD_MSGIDS_LEN_MAX	4096
#define KD_MSGIDS_MAX		(1u << 20)

struct kd_msgids_stats {
	unsigned long msgids;	/* msgids read (headers and empty msgstrs not) */
	unsigned long formats;	/* distinct formats in the index */
	unsigned long skipped;	/* not a kernel format, or past the bounds */
};

/**
 * kd_msgids_index() - a format index of the msgids of @cat in *@out
 * (NULL when no msgid is a kernel format: nothing to match), counted in
 * *@st.  A msgid the kernel would not print (a positional or %n
 * conversion, a bad conversion, a NUL byte, above KD_MSGIDS_LEN_MAX) is
 * skipped, as are those past KD_MSGIDS_MAX.  Returns 0 or -ENOMEM.
 */
int kd_msgids_index(const struct kd_catalog *cat, struct kd_fidx **out,
		    struct kd_msgids_stats *st);

#endif /* KDMESG_MSGIDS_H */
