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

/* kd_modinfo_new()'s result: 1 before the first try. */
static int kmod_rc = 1;
static struct kd_modinfo *kmod;

struct kd_modinfo *kdmesg_modinfo(void)
{
	if (kmod_rc == 1)
		kmod_rc = kd_modinfo_new(&kmod, kmod_log, NULL);
	return kmod_rc < 0 ? NULL : kmod;
}

/*
 * Why libkmod gives nothing, said once per run and only by the first
 * user that misses it: a container without /lib/modules hears of it when
 * a record's module facts would have been shown, or when --module cannot
 * resolve aliases, not on every structured command.
 */
static void kmod_note(bool facts)
{
	static bool noted;

	if (noted || kmod_rc >= 0)
		return;
	noted = true;
	if (kmod_rc == -ENOSYS && facts)
		warnx(_("note: no module facts: kdmesg was built without libkmod"));
	else if (kmod_rc == -ENOSYS)
		warnx(_("note: --module matches module names as given, without aliases: kdmesg was built without libkmod"));
	else if (facts)
		warnx(_("note: no module facts: libkmod cannot read the modules of this kernel (%s)"),
		      strerror(-kmod_rc));
	else
		warnx(_("note: --module matches module names as given, without aliases: libkmod cannot read the modules of this kernel (%s)"),
		      strerror(-kmod_rc));
}

struct kd_modinfo *kdmesg_modinfo_for_module(void)
{
	struct kd_modinfo *m = kdmesg_modinfo();

	kmod_note(false);
	return m;
}

const struct kd_modinfo_facts *kdmesg_module_facts(void *data, const char *name)
{
	struct kd_modinfo *m = kdmesg_modinfo();

	(void)data;
	kmod_note(true);
	return m ? kd_modinfo_get(m, name) : NULL;
}
