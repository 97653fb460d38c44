// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kdmesg-modinfo.c - kdmesg's use of libkmod (lib/shared/modinfo.h): set up on
 * first use, libkmod's own messages reported as kdmesg's, and a note
 * instead of an error when there are no modules to ask about.
 */
#include <err.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "shared/modinfo.h"
#include "nls.h"
#include "kdmesg.h"

static void kmod_log(void *data, int level, const char *msg)
{
	(void)data;
	(void)level;
	warnx("libkmod: %s", msg);
}

struct kd_modinfo *kdmesg_modinfo(void)
{
	static struct kd_modinfo *m;
	static bool tried;
	int rc;

	if (tried)
		return m;
	tried = true;
	rc = kd_modinfo_new(&m, kmod_log, NULL);
	if (rc == -ENOSYS)
		warnx(_("note: no module facts: kdmesg was built without libkmod"));
	else if (rc < 0)
		warnx(_("note: no module facts: libkmod cannot read the modules of this kernel (%s)"),
		      strerror(-rc));
	return rc < 0 ? NULL : m;
}

const struct kd_modinfo_facts *kdmesg_module_facts(void *data, const char *name)
{
	struct kd_modinfo *m = kdmesg_modinfo();

	(void)data;
	return m ? kd_modinfo_get(m, name) : NULL;
}
