// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kdmesg-modinfo.c - kdmesg's one libkmod context (lib/shared/modinfo.h),
 * for the command line and the viewer: set up on first use, libkmod's own
 * messages reported as kdmesg's (on standard error, or where the viewer
 * says), and a note instead of an error when there are no modules.
 */
#include <err.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "shared/modinfo.h"
#include "nls.h"
#include "kdmesg.h"

/* Where libkmod's messages go: standard error unless the viewer says. */
static void (*log_fn)(void *data, int level, const char *msg);
static void *log_data;

static struct kd_modinfo *modinfo;
static bool tried;
static int setup_rc;

static void kmod_log(void *data, int level, const char *msg)
{
	(void)data;
	if (log_fn)
		log_fn(log_data, level, msg);
	else
		warnx("libkmod: %s", msg);
}

void kdmesg_modinfo_log_to(void (*fn)(void *data, int level, const char *msg), void *data)
{
	log_fn = fn;
	log_data = data;
}

int kdmesg_modinfo_open(struct kd_modinfo **out)
{
	if (!tried) {
		tried = true;
		setup_rc = kd_modinfo_new(&modinfo, kmod_log, NULL);
		if (setup_rc < 0)
			modinfo = NULL;
	}
	*out = modinfo;
	return setup_rc;
}

struct kd_modinfo *kdmesg_modinfo(void)
{
	struct kd_modinfo *m;

	kdmesg_modinfo_open(&m);
	return m;
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

	if (noted || !tried || setup_rc >= 0)
		return;
	noted = true;
	if (setup_rc == -ENOSYS && facts)
		warnx(_("note: no module facts: kdmesg was built without libkmod"));
	else if (setup_rc == -ENOSYS)
		warnx(_("note: --module matches module names as given, without aliases: kdmesg was built without libkmod"));
	else if (facts)
		warnx(_("note: no module facts: libkmod cannot read the modules of this kernel (%s)"),
		      strerror(-setup_rc));
	else
		warnx(_("note: --module matches module names as given, without aliases: libkmod cannot read the modules of this kernel (%s)"),
		      strerror(-setup_rc));
}

struct kd_modinfo *kdmesg_modinfo_for_module(void)
{
	struct kd_modinfo *m = kdmesg_modinfo();

	kmod_note(false);
	return m;
}

void kdmesg_modinfo_free(void)
{
	kd_modinfo_free(modinfo);
	modinfo = NULL;
}

const struct kd_modinfo_facts *kdmesg_module_facts(void *data, const char *name)
{
	struct kd_modinfo *m = kdmesg_modinfo();

	(void)data;
	kmod_note(true);
	return m ? kd_modinfo_get(m, name) : NULL;
}
