/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * modinfo.h - what libkmod knows about the module a record names in
 * MODULE=: built in or loaded (and its state), version, srcversion,
 * description and the path of its .ko; and the module names an alias
 * stands for, as modprobe resolves it.  Facts are looked up once per
 * module name and kept, so memory grows with the modules named, not
 * with the records.
 */
#ifndef KDMESG_MODINFO_H
#define KDMESG_MODINFO_H

#include <stdbool.h>

struct kd_modinfo_facts {
	/* "builtin", "live", "coming", "going", "not loaded" */
	const char *state;
	const char *version, *srcversion, *description, *path;	/* or NULL */
	/* One line for text reports: "live, version 1.0, ...". */
	const char *summary;
};

/* libkmod's own messages, for the program to report (level: syslog's). */
typedef void (*kd_modinfo_log_fn)(void *data, int level, const char *msg);

struct kd_modinfo;

/**
 * kd_modinfo_new() - a libkmod context for the running kernel's modules.
 * @log: where libkmod's messages go (NULL: dropped).
 * Returns 0, -ENOSYS when kdmesg was built without libkmod, or another
 * negative errno (-ENOENT: no modules directory for this kernel).
 */
int kd_modinfo_new(struct kd_modinfo **out, kd_modinfo_log_fn log, void *data);

/**
 * kd_modinfo_get() - the facts about module @name ('-' and '_' alike), or
 * NULL when libkmod knows no such module (KBUILD_MODNAME of built-in
 * code such as "main" names none).
 */
const struct kd_modinfo_facts *kd_modinfo_get(struct kd_modinfo *m, const char *name);

/**
 * kd_modinfo_resolve() - call @each with every module name @alias stands
 * for (modprobe's lookup: alias files, names, built-ins).  Returns how
 * many, or a negative errno.
 */
int kd_modinfo_resolve(struct kd_modinfo *m, const char *alias,
		       void (*each)(void *data, const char *name), void *data);

struct kd_json;

/**
 * kd_modinfo_json() - @f as the object member @name of the JSON being
 * written to @j: "state", "version", "srcversion", "description" and
 * "path", each only when known.  The JSON outputs and --stats share it.
 */
void kd_modinfo_json(struct kd_json *j, const char *name,
		     const struct kd_modinfo_facts *f);

/** kd_modinfo_free() - release @m; NULL is fine. */
void kd_modinfo_free(struct kd_modinfo *m);

#endif /* KDMESG_MODINFO_H */
