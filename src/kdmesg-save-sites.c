// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kdmesg-save-sites.c - kdmesg --save-sites: keep the running kernel's
 * kprint site table (debugfs) under its build id, and which boot ran
 * it, so that kdmesg still expands the compact records of this boot when
 * it reads them later from a saved log or the journal (kdmesg-sites.c).
 * The only thing kdmesg ever writes; run at boot by
 * kdmesg-save-sites.service, and again after loading modules.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "nls.h"
#include "shared/buildid.h"
#include "shared/readfile.h"
#include "sink/rawdump.h"
#include "stage/sites-saved.h"
#include "stage/sites.h"
#include "kdmesg.h"

#ifndef SITESDIR
#define SITESDIR	"/var/lib/kdmesg/sites"
#endif

/* The first line of @s, bounded, into @out. */
static void first_line(const char *s, char *out, size_t cap)
{
	size_t n = strcspn(s, "\n");

	if (n >= cap)
		n = cap - 1;
	memcpy(out, s, n);
	out[n] = '\0';
}

static void __attribute__((__noreturn__)) write_failed(const char *dir, const char *name, int rc)
{
	errno = -rc;
	err(EXIT_FAILURE, _("cannot write %s/%s"), dir, name);
}

/* How many listing lines parse as sites (a copy is parsed: parsing changes it). */
static size_t count_sites(const char *text, size_t len)
{
	char *copy = malloc(len + 1);
	struct kd_sites *t;
	size_t n = 0;

	if (!copy)
		errx(EXIT_FAILURE, _("out of memory"));
	memcpy(copy, text, len + 1);
	if (kd_sites_load(&t, copy, len) == 0) {
		n = kd_sites_count(t);
		kd_sites_free(t);
	}
	return n;
}

int kdmesg_save_sites(struct ctl *c)
{
	const char *dir = kdmesg_env_or("KDMESG_SITES_DIR", SITESDIR);
	const char *proc = kdmesg_env_or("KDMESG_PROC", "/proc");
	char path[4200], name[KD_BUILDID_HEX_MAX + 16], boot[33];
	struct kd_sites_header h, oh;
	char *listing, *notes, *text, *old, *out;
	size_t len, nlen, olen = 0, out_len, merged, nsites;
	int rc;

	/* The table. */
	snprintf(path, sizeof(path), "%s/kprint/sites", kdmesg_env_or("KDMESG_DEBUGFS", "/sys/kernel/debug"));
	if (!(listing = kd_read_file(path, &len))) {
		if (errno == ENOENT)
			errx(EXIT_FAILURE, _("%s: no such file: the running kernel has no kprint site table (not a CONFIG_KPRINT kernel, or debugfs is not mounted)"),
			     path);
		err(EXIT_FAILURE, _("cannot read %s (reading debugfs needs root)"), path);
	}
	if (!(nsites = count_sites(listing, len)))
		errx(EXIT_FAILURE, _("%s: no call site in the kernel's site table: nothing saved"), path);

	/* Whose: the build id, the release and the banner of the running kernel. */
	memset(&h, 0, sizeof(h));
	snprintf(path, sizeof(path), "%s", kdmesg_env_or("KDMESG_NOTES", "/sys/kernel/notes"));
	if (!(notes = kd_read_file(path, &nlen)))
		err(EXIT_FAILURE, _("cannot read %s"), path);
	rc = kd_buildid_from_notes((const unsigned char *)notes, nlen, h.build_id);
	free(notes);
	if (rc < 0)
		errx(EXIT_FAILURE, _("%s: no GNU build id note: the table cannot be saved under the kernel's build id"),
		     path);
	snprintf(path, sizeof(path), "%s/version", proc);
	if (!(text = kd_read_file(path, &nlen)))
		err(EXIT_FAILURE, _("cannot read %s"), path);
	first_line(text, h.version, sizeof(h.version));
	free(text);
	/* "Linux version RELEASE ...": the release of the banner, else uname's. */
	if (sscanf(h.version, "Linux version %255s", h.release) != 1) {
		struct utsname u;

		snprintf(h.release, sizeof(h.release), "%s", uname(&u) == 0 ? u.release : "");
	}
	snprintf(path, sizeof(path), "%s/sys/kernel/random/boot_id", proc);
	if (!(text = kd_read_file(path, &nlen)))
		err(EXIT_FAILURE, _("cannot read %s"), path);
	if (!kd_sites_boot_id(text, boot))
		errx(EXIT_FAILURE, _("%s: not a boot id"), path);
	free(text);

	/* Sites of modules loaded before and not now: kept from the previous table. */
	snprintf(name, sizeof(name), "%s%s", h.build_id, KD_SITES_SUFFIX);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	old = kd_read_file(path, &olen);
	if (old && (kd_sites_header_read(old, olen, &oh) < 0 || strcmp(oh.build_id, h.build_id))) {
		free(old);	/* not ours to merge: replaced */
		old = NULL;
	}
	if (kd_sites_compose(&h, listing, len, old, old ? olen : 0, &out, &out_len, &merged) < 0)
		errx(EXIT_FAILURE, _("out of memory"));
	free(listing);
	free(old);
	if ((rc = kd_sites_write(dir, name, out, out_len)) < 0)
		write_failed(dir, name, rc);
	free(out);

	/* This boot ran this build. */
	snprintf(path, sizeof(path), "%s/%s", dir, KD_SITES_BOOTS);
	old = kd_read_file(path, &olen);
	if (kd_sites_boots_update(old, old ? olen : 0, boot, h.build_id, &out, &out_len) < 0)
		errx(EXIT_FAILURE, _("out of memory"));
	free(old);
	if ((rc = kd_sites_write(dir, KD_SITES_BOOTS, out, out_len)) < 0)
		write_failed(dir, KD_SITES_BOOTS, rc);
	free(out);
	if (c->verbose)
		printf(_("%s: saved %zu call sites of build %s (%s) to %s/%s, %zu lines kept from before\n"),
		       program_invocation_short_name, nsites, h.build_id, h.release, dir, name, merged);
	return EXIT_SUCCESS;
}
