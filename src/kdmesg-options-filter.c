// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kdmesg-options-filter.c - kdmesg's options of which records are shown:
 * levels, facilities, the time window, --subsystem/--device, the field
 * matches (--code-file, --function, --format, FIELD=VALUE), --module
 * with its aliases, --grep; and the words of those options that the
 * viewer shows.  See kdmesg-options.c for the table.
 */
#include <err.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "match/filter.h"
#include "match/timeparse.h"
#include "nls.h"
#include "record/priority.h"
#include "shared/modinfo.h"
#include "kdmesg.h"
#include "kdmesg-options-internal.h"

static void parse_levels(const char *arg, uint32_t *mask)
{
	const char *bad = arg;
	int rc = kd_filter_parse_list(arg, kd_priority_level_parse, KD_LEVEL_COUNT,
				      mask, &bad);

	if (rc == -ERANGE)
		errx(EXIT_FAILURE, _("failed to parse level '%s': %s"), bad,
		     strerror(ERANGE));
	if (rc < 0)
		errx(EXIT_FAILURE, _("unknown level '%s'"), bad);
}

static void parse_facilities(const char *arg, uint32_t *mask)
{
	const char *bad = arg;
	int rc = kd_filter_parse_list(arg, kd_priority_facility_parse, 0, mask, &bad);

	if (rc == -ERANGE)
		errx(EXIT_FAILURE, _("failed to parse facility '%s': %s"), bad,
		     strerror(ERANGE));
	if (rc < 0)
		errx(EXIT_FAILURE, _("unknown facility '%s'"), bad);
}

/* As in dmesg 2.42, a time of 0 (the epoch, "@0") leaves the end open. */
static void parse_time_option(const char *arg, bool *has, uint64_t *usec)
{
	uint64_t v;

	if (kd_timeparse(arg, time(NULL), &v) < 0)
		errx(EXIT_FAILURE, _("invalid time value \"%s\""), arg);
	*has = v != 0;
	*usec = v;
}

static void add_match(struct ctl *c, enum kd_match_kind kind,
		      enum kd_field_id id, const char *value)
{
	struct kd_field f = { .id = id };
	int rc;

	f.key = kd_field_name(&f);
	rc = kd_filter_add(&c->filter, kind, &f, 0, value, NULL);
	if (rc == -E2BIG)
		errx(EXIT_FAILURE, _("too many different filters"));
	if (rc < 0)
		err(EXIT_FAILURE, NULL);
}

/* FIELD=VALUE: journalctl's exact match on any field. */
static void add_field_match(struct ctl *c, const char *arg)
{
	const char *eq = strchr(arg, '=');
	struct kd_field f;
	char *name;
	int rc;

	if (!eq || eq == arg) {
		/* dmesg says only "bad usage": name the argument and what it may be. */
		warnx(_("bad usage: '%s' is not an option; an argument must be a FIELD=VALUE match, such as SUBSYSTEM=pci"),
		      arg);
		kdmesg_try_help();
	}
	name = strndup(arg, (size_t)(eq - arg));
	if (!name)
		err(EXIT_FAILURE, NULL);
	if (kd_field_lookup(name, &f) < 0)
		errx(EXIT_FAILURE, _("invalid field name '%s' (fields are upper case: CODE_FILE=..., SUBSYSTEM=...)"),
		     name);
	rc = kd_filter_add(&c->filter, KD_MATCH_EXACT, &f, 0, eq + 1, NULL);
	free(name);	/* kd_filter_add() keeps its own copy of the key */
	if (rc == -E2BIG)
		errx(EXIT_FAILURE, _("too many different filters"));
	if (rc < 0)
		err(EXIT_FAILURE, NULL);
}

static void add_module_name(void *data, const char *name)
{
	add_match(data, KD_MATCH_MODULE, KD_FIELD_MODULE, name);
}

/* --module: the name as given, and what it stands for as modprobe sees it. */
static void add_module(struct ctl *c, const char *name)
{
	struct kd_modinfo *m = kdmesg_modinfo_for_module();

	add_module_name(c, name);
	/* A module loaded from outside the tree is known, though no alias. */
	if (m && kd_modinfo_resolve(m, name, add_module_name, c) <= 0 &&
	    !kd_modinfo_get(m, name))
		warnx(_("note: libkmod knows no module or alias '%s': matching MODULE=%s as given"),
		      name, name);
}

static void add_grep(struct ctl *c, const char *re)
{
	const struct kd_field f = { .id = KD_FIELD_MESSAGE, .key = KD_KEY_MESSAGE };
	const char *why = NULL;
	int rc = kd_filter_add(&c->filter, KD_MATCH_REGEX, &f,
			       c->ignore_case ? KD_MATCH_ICASE : 0, re, &why);

	if (rc == -EINVAL)
		errx(EXIT_FAILURE, _("invalid regular expression '%s': %s"), re,
		     why ? why : "?");
	if (rc == -E2BIG)
		errx(EXIT_FAILURE, _("too many different filters"));
	if (rc < 0)
		err(EXIT_FAILURE, NULL);
}

/*
 * The filter options as given (@opt 0: a FIELD=VALUE argument), named by
 * their long names, in c->filter_desc: the viewer shows them, since the
 * records they hide are still there to bring back.
 */
void kdmesg_note_filter(struct ctl *c, int opt, const char *arg,
			const struct option *longopts)
{
	static const char *const filters[] = {
		"level", "facility", "kernel", "userspace", "ignore-case", "since", "until",
		"subsystem", "device", "code-file", "function", "module", "format", "grep",
	};
	size_t len = strlen(c->filter_desc);
	const char *name = NULL;

	for (const struct option *o = longopts; opt && o->name; o++)
		if (o->val == opt) {
			name = o->name;
			break;
		}
	for (size_t i = 0; name && i < sizeof(filters) / sizeof(*filters); i++)
		if (strcmp(name, filters[i]) == 0) {
			snprintf(c->filter_desc + len, sizeof(c->filter_desc) - len, "%s--%s%s%s",
				 len ? " " : "", name, arg ? " " : "", arg ? arg : "");
			return;
		}
	if (!opt)
		snprintf(c->filter_desc + len, sizeof(c->filter_desc) - len, "%s%s",
			 len ? " " : "", arg);
}

/*
 * Which records are shown.  --module and --grep are compiled once every
 * option is known (-i may come after them): kept in lists until then.
 */
bool kdmesg_filter_option(struct ctl *c, int ch, const char *arg)
{
	switch (ch) {
	case 'f':
		parse_facilities(arg, &c->filter.facilities);
		return true;
	case 'k':
		c->filter.facilities |= 1u << 0;
		return true;
	case 'u':
		for (unsigned int i = 1; i < KD_FACILITY_COUNT; i++)
			c->filter.facilities |= 1u << i;
		return true;
	case 'l':
		parse_levels(arg, &c->filter.levels);
		return true;
	case OPT_SINCE:
		parse_time_option(arg, &c->filter.has_since, &c->filter.since_usec);
		return true;
	case OPT_UNTIL:
		parse_time_option(arg, &c->filter.has_until, &c->filter.until_usec);
		return true;
	case OPT_SUBSYSTEM:
	case OPT_DEVICE:
		if (kd_filter_add_value(&c->filter, ch == OPT_SUBSYSTEM ?
					KD_FIELD_SUBSYSTEM : KD_FIELD_DEVICE, arg) < 0)
			err(EXIT_FAILURE, NULL);
		return true;
	case OPT_CODE_FILE:
		add_match(c, KD_MATCH_PATH, KD_FIELD_CODE_FILE, arg);
		return true;
	case OPT_FUNCTION:
		add_match(c, KD_MATCH_GLOB, KD_FIELD_CODE_FUNC, arg);
		return true;
	case OPT_FORMAT:
		add_match(c, KD_MATCH_EXACT, KD_FIELD_FORMAT, arg);
		return true;
	case OPT_MODULE:
		c->modules[c->nmodules++] = arg;
		return true;
	case OPT_GREP:
		c->greps[c->ngreps++] = arg;
		return true;
	case 'i':
		c->ignore_case = true;
		return true;
	}
	return false;
}

/* FIELD=VALUE arguments, then the --module and --grep lists, into the filter. */
void kdmesg_compile_matches(struct ctl *c, int argc, char **argv)
{
	for (; optind < argc; optind++) {
		kdmesg_note_filter(c, 0, argv[optind], NULL);
		add_field_match(c, argv[optind]);
	}
	for (size_t i = 0; i < c->nmodules; i++)
		add_module(c, c->modules[i]);
	for (size_t i = 0; i < c->ngreps; i++)
		add_grep(c, c->greps[i]);
	/* Compiled into the filter: the lists are done with. */
	free(c->greps);
	free(c->modules);
	c->greps = c->modules = NULL;
	c->ngreps = c->nmodules = 0;
}
