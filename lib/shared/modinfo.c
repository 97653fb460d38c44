// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * modinfo.c - libkmod facts about modules (modinfo.h).  libkmod reads
 * /lib/modules/$(uname -r); a machine or container without it gets
 * -ENOENT from kd_modinfo_new() and the program says so in a note.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "sink/json.h"
#include "shared/modinfo.h"
#include "shared/modname.h"

/* Modules remembered; past this, facts are looked up but not kept. */
#define CACHE_MAX	256

struct entry {
	char *name;			/* '-' folded to '_' */
	bool known;
	struct kd_modinfo_facts facts;
	char *strings[6];		/* what facts point into */
};

static void json_fact(struct kd_json *j, const char *name, const char *value)
{
	if (value)
		kd_json_value_str(j, name, value, strlen(value));
}

void kd_modinfo_json(struct kd_json *j, const char *name,
		     const struct kd_modinfo_facts *f)
{
	kd_json_open(j, name, KD_JSON_OBJECT);
	json_fact(j, "state", f->state);
	json_fact(j, "version", f->version);
	json_fact(j, "srcversion", f->srcversion);
	json_fact(j, "description", f->description);
	json_fact(j, "path", f->path);
	kd_json_close(j, KD_JSON_OBJECT);
}

#ifdef HAVE_LIBKMOD
#include <libkmod.h>

struct kd_modinfo {
	struct kmod_ctx *ctx;
	kd_modinfo_log_fn log;
	void *data;
	struct entry cache[CACHE_MAX];
	size_t n;
	struct entry scratch;		/* past CACHE_MAX */
	struct entry *last;		/* the entry asked for last */
};

/* @msg (a line, maybe with its newline) to the program, without controls. */
static void report(struct kd_modinfo *m, int priority, char *msg)
{
	size_t n = strlen(msg);

	if (!m->log)
		return;
	if (n && msg[n - 1] == '\n')
		msg[--n] = '\0';
	/* Names and paths from the modules tree reach a terminal: no controls. */
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)msg[i] < 0x20 || msg[i] == 0x7f)
			msg[i] = '?';
	m->log(m->data, priority, msg);
}

static void __attribute__((format(printf, 6, 0)))
log_to_program(void *data, int priority, const char *file, int line,
	       const char *fn, const char *format, va_list args)
{
	char msg[512];

	(void)file;
	(void)line;
	(void)fn;
	vsnprintf(msg, sizeof(msg), format, args);
	report(data, priority, msg);
}

/*
 * kmod_new() logs with libkmod's own logger, to stderr as it is at that
 * moment ("libkmod: FUNCTION: message"; Debian's kmod 30 writes
 * "libkmod: ERROR file.c:712 FUNCTION: message"), before a context exists whose
 * log function could be set: a bad line in /etc/modprobe.d, say.  So
 * stderr is a memory stream while it runs (glibc's stderr is a variable
 * for this), and what libkmod wrote goes to the program line by line,
 * without libkmod's prefix.  At libkmod's default priority only errors
 * are logged there.
 */
static struct kmod_ctx *new_ctx(struct kd_modinfo *m, const char *dir,
				const char *const *config)
{
	FILE *saved = stderr, *mem;
	struct kmod_ctx *ctx;
	char *buf = NULL, *line, *next;
	size_t len = 0;

	fflush(stderr);
	mem = open_memstream(&buf, &len);
	if (mem)
		stderr = mem;	/* else libkmod's own form, rather than nothing */
	ctx = kmod_new(dir, config);
	if (ctx)
		kmod_set_log_fn(ctx, log_to_program, m);
	stderr = saved;
	if (mem)
		fclose(mem);
	for (line = buf; line && *line; line = next) {
		char *p = line;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		/* libkmod's prefix, up to the function name's ": ", goes: the program has its own. */
		if (strncmp(p, "libkmod: ", 9) == 0 && strstr(p + 9, ": "))
			p = strstr(p + 9, ": ") + 2;
		if (*p)
			report(m, LOG_ERR, p);
	}
	free(buf);
	return ctx;
}

int kd_modinfo_new(struct kd_modinfo **out, kd_modinfo_log_fn log, void *data)
{
	struct kd_modinfo *m = calloc(1, sizeof(*m));
	const char *config = getenv("KDMESG_MODPROBE_CONFIG");
	const char *paths[] = { config, NULL };
	int rc;

	if (!m)
		return -ENOMEM;
	m->log = log;
	m->data = data;
	/* Tests point libkmod at a fixed tree (or none) and configuration instead of the host's. */
	m->ctx = new_ctx(m, getenv("KDMESG_MODULES_DIR"), config ? paths : NULL);
	if (!m->ctx) {
		free(m);
		return -ENOENT;
	}
	rc = kmod_load_resources(m->ctx);
	if (rc < 0) {
		kd_modinfo_free(m);
		return rc == -ENOMEM ? -ENOMEM : -ENOENT;
	}
	*out = m;
	return 0;
}

static const char *state_name(int st)
{
	switch (st) {
	case KMOD_MODULE_BUILTIN:
		return "builtin";
	case KMOD_MODULE_LIVE:
		return "live";
	case KMOD_MODULE_COMING:
		return "coming";
	case KMOD_MODULE_GOING:
		return "going";
	}
	return "not loaded";
}

static void clear_entry(struct entry *e)
{
	for (size_t i = 0; i < sizeof(e->strings) / sizeof(e->strings[0]); i++)
		free(e->strings[i]);
	free(e->name);
	memset(e, 0, sizeof(*e));
}

/*
 * The module called @name: as modprobe finds it (this kernel's modules
 * and built-ins), else a module loaded from elsewhere (insmod of a .ko
 * outside the tree), which only /sys/module knows.  NULL when neither.
 */
static struct kmod_module *find(struct kd_modinfo *m, const char *name)
{
	struct kmod_list *list = NULL;
	struct kmod_module *mod = NULL;
	int st;

	if (kmod_module_new_from_lookup(m->ctx, name, &list) >= 0 && list) {
		mod = kmod_module_get_module(list);
		kmod_module_unref_list(list);
		if (mod)
			return mod;
	}
	if (kmod_module_new_from_name(m->ctx, name, &mod) < 0)
		return NULL;
	/* Only a loaded one: a built-in would have been found above. */
	st = kmod_module_get_initstate(mod);
	if (st != KMOD_MODULE_LIVE && st != KMOD_MODULE_COMING &&
	    st != KMOD_MODULE_GOING) {
		kmod_module_unref(mod);
		return NULL;
	}
	return mod;
}

/* Fill @e from libkmod; @e->name is set. */
static void lookup(struct kd_modinfo *m, struct entry *e)
{
	struct kmod_list *info = NULL, *it;
	struct kmod_module *mod = find(m, e->name);
	char sum[1024];
	size_t n;

	if (!mod)
		return;
	e->known = true;
	e->facts.state = state_name(kmod_module_get_initstate(mod));
	if (kmod_module_get_path(mod))
		e->facts.path = e->strings[0] = strdup(kmod_module_get_path(mod));
	if (kmod_module_get_info(mod, &info) >= 0) {
		kmod_list_foreach(it, info) {
			const char *k = kmod_module_info_get_key(it);
			const char *v = kmod_module_info_get_value(it);

			if (!k || !v)
				continue;
			if (!e->facts.version && strcmp(k, "version") == 0)
				e->facts.version = e->strings[1] = strdup(v);
			else if (!e->facts.srcversion && strcmp(k, "srcversion") == 0)
				e->facts.srcversion = e->strings[2] = strdup(v);
			else if (!e->facts.description && strcmp(k, "description") == 0)
				e->facts.description = e->strings[3] = strdup(v);
		}
		kmod_module_info_free_list(info);
	}
	kmod_module_unref(mod);
	n = (size_t)snprintf(sum, sizeof(sum), "%s", e->facts.state);
	if (e->facts.version && n < sizeof(sum))
		n += (size_t)snprintf(sum + n, sizeof(sum) - n, ", version %s", e->facts.version);
	if (e->facts.srcversion && n < sizeof(sum))
		n += (size_t)snprintf(sum + n, sizeof(sum) - n, ", srcversion %s",
				      e->facts.srcversion);
	if (e->facts.description && n < sizeof(sum))
		n += (size_t)snprintf(sum + n, sizeof(sum) - n, ", %s", e->facts.description);
	if (e->facts.path && n < sizeof(sum))
		snprintf(sum + n, sizeof(sum) - n, ", %s", e->facts.path);
	e->facts.summary = e->strings[4] = strdup(sum);
}

/* Whether @name is @folded but for '-' written as '_'. */
static bool same_name(const char *folded, const char *name)
{
	return kd_modname_eq(folded, strlen(folded), name, strlen(name));
}

const struct kd_modinfo_facts *kd_modinfo_get(struct kd_modinfo *m, const char *name)
{
	struct entry *e;
	char *key;
	size_t i;

	/*
	 * Once per record of -o json/jsonl/verbose: the module of the
	 * record before is asked again most of the time, and a hit must
	 * not allocate.
	 */
	if (m->last && same_name(m->last->name, name))
		return m->last->known ? &m->last->facts : NULL;
	for (i = 0; i < m->n; i++)
		if (same_name(m->cache[i].name, name)) {
			m->last = &m->cache[i];
			return m->cache[i].known ? &m->cache[i].facts : NULL;
		}
	key = strdup(name);
	if (!key)
		return NULL;
	kd_modname_fold(key);
	if (m->n < CACHE_MAX) {
		e = &m->cache[m->n++];
	} else {
		e = &m->scratch;
		clear_entry(e);
	}
	e->name = key;
	m->last = e;
	lookup(m, e);
	return e->known ? &e->facts : NULL;
}

int kd_modinfo_resolve(struct kd_modinfo *m, const char *alias,
		       void (*each)(void *data, const char *name), void *data)
{
	struct kmod_list *list = NULL, *it;
	int rc = kmod_module_new_from_lookup(m->ctx, alias, &list), n = 0;

	if (rc < 0)
		return rc;
	kmod_list_foreach(it, list) {
		struct kmod_module *mod = kmod_module_get_module(it);

		if (!mod)
			continue;
		each(data, kmod_module_get_name(mod));
		kmod_module_unref(mod);
		n++;
	}
	kmod_module_unref_list(list);
	return n;
}

void kd_modinfo_free(struct kd_modinfo *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++)
		clear_entry(&m->cache[i]);
	clear_entry(&m->scratch);
	kmod_unref(m->ctx);
	free(m);
}

#else /* !HAVE_LIBKMOD */

int kd_modinfo_new(struct kd_modinfo **out, kd_modinfo_log_fn log, void *data)
{
	(void)out;
	(void)log;
	(void)data;
	return -ENOSYS;
}

const struct kd_modinfo_facts *kd_modinfo_get(struct kd_modinfo *m, const char *name)
{
	(void)m;
	(void)name;
	return NULL;
}

int kd_modinfo_resolve(struct kd_modinfo *m, const char *alias,
		       void (*each)(void *data, const char *name), void *data)
{
	(void)m;
	(void)alias;
	(void)each;
	(void)data;
	return -ENOSYS;
}

void kd_modinfo_free(struct kd_modinfo *m)
{
	(void)m;
}
#endif
