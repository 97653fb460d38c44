// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kdmesg-po-dump.c - kdmesg-po reading a kmsg dump (extract --dump,
 * index --dump): each record with its site, and a dump of compact
 * records (printk.kprint_dict=site) expanded first with the site table
 * KDMESG_SITES names, as kdmesg --sites does.
 */
#include <err.h>
#include <errno.h>
#include <stdlib.h>

#include "nls.h"
#include "source/source.h"
#include "stage/expand.h"
#include "stage/ksites.h"
#include "stage/sites.h"
#include "kdmesg-po.h"

static const struct kd_sites *dump_table(void *data, const struct kd_record *rec)
{
	(void)rec;
	return data;
}

/*
 * KDMESG_SITES: a dump of compact records (printk.kprint_dict=site) is
 * read with its kernel's site table, as kdmesg --sites reads it.
 */
static struct kd_expand *dump_expander(struct kd_sites **table)
{
	const char *path = getenv("KDMESG_SITES");
	struct kd_expand *x;
	size_t len;
	char *text;

	*table = NULL;
	if (!path || !*path)
		return NULL;
	if (!(text = kdpo_read_file(path, &len)))
		err(EXIT_FAILURE, _("cannot read the site table %s"), path);
	if (kd_sites_load(table, text, len) < 0 || kd_expand_new(&x, dump_table, *table) < 0)
		errx(EXIT_FAILURE, _("out of memory"));
	return x;
}

void kdpo_read_dump(const char *path, kd_ksites_record_fn fn, void *data)
{
	struct kd_source *src;
	struct kd_sites *table;
	struct kd_expand *x = dump_expander(&table);
	unsigned long total, with;
	int rc = kd_source_open(&src, KD_SOURCE_KMSG_FILE, path, 0, 0);

	if (rc < 0) {
		errno = -rc;
		err(EXIT_FAILURE, _("cannot open %s"), path);
	}
	rc = kd_ksites_dump(src, x ? kd_expand_apply : NULL, x, fn, data, &total, &with);
	kd_source_close(src);
	kd_expand_free(x);
	kd_sites_free(table);
	if (rc < 0) {
		errno = -rc;
		err(EXIT_FAILURE, _("read of %s failed"), path);
	}
	if (total && !with)
		warnx(_("%s: no record has a FORMAT field (a kernel without CONFIG_KPRINT?)"),
		      path);
}

