// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kdmesg-po.c - tools for translators of kernel messages:
 *   extract  a .pot of kernel formats from a kernel source tree, the
 *            running kernel's kprint site table or printk index, or a
 *            kdmesg/kmsg dump (only the formats that occurred);
 *   check    what msgfmt -c misses in a catalogue of kernel formats.
 * The scanning, the message set and the format rules live in lib/.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "record/field.h"
#include "po/csource.h"
#include "record/group.h"
#include "shared/kfmt.h"
#include "shared/readfile.h"
#include "nls.h"
#include "po/pofile.h"
#include "po/pot.h"
#include "sink/rawdump.h"
#include "record/record.h"
#include "source/source.h"
#include "stage/ksites.h"
#include "kdmesg-po.h"

#define SITES_PATH	"/sys/kernel/debug/kprint/sites"
#define INDEX_PATH	"/sys/kernel/debug/printk/index"

static struct kd_pot *pot;
static struct kd_csource_macros *macros;
static const char *root;
static size_t root_len;
static struct kd_csource_stats cstats;

/* When set (kdmesg-po index), each message found in C source goes here instead. */
int (*kdpo_source_hook)(const struct kd_csource_msg *m);
const char *kdpo_arch;
const char *kdpo_objects;

static void __attribute__((__noreturn__)) usage(void)
{
	printf(_("Usage:\n"
		 " %1$s extract [options] [PATH...]\n"
		 " %1$s check FILE.po...\n"
		 " %1$s index [options] SOURCE...\n"), program_invocation_short_name);
	fputs(_("\nTools for translators of kernel messages (text domain linux-kmsg).\n"), stdout);
	fputs(_("\nExtract options:\n"), stdout);
	fputs(_(" --root DIR            file names relative to DIR (default: the first PATH)\n"), stdout);
	fputs(_(" --sites[=FILE]        read the kprint site table\n"), stdout);
	fputs(_(" --printk-index[=DIR]  read the kernel's printk index\n"), stdout);
	fputs(_(" --dump FILE           read a /dev/kmsg dump (\"-\": standard input)\n"), stdout);
	fputs(_(" --sort=count|source   most frequent first, or in the order found\n"), stdout);
	fputs(_(" --context=none|module with module: also an entry per module (msgctxt)\n"
		"                         for each format of several modules\n"), stdout);
	fputs(_(" -n, --limit N         write only the first N messages (0: all)\n"), stdout);
	fputs(_(" --msgid-bugs-address ADDR\n"
		"                       the header's Report-Msgid-Bugs-To\n"), stdout);
	fputs(_(" -o, --output FILE     write to FILE instead of standard output\n"), stdout);
	fputs(_("\nIndex options (SOURCE: a kernel source tree, a printk index directory,\n"
		"a dynamic-debug control file, a kprint site table or a kmsg dump):\n"), stdout);
	fputs(_(" -o, --output FILE     write the format index to FILE (default: RELEASE.kdfi)\n"), stdout);
	fputs(_(" --release RELEASE     the kernel release the formats come from\n"), stdout);
	fputs(_(" --arch ARCH           the architecture of a source tree (default: this machine's;\n"
		"                         \"all\" for every arch/ directory)\n"), stdout);
	fputs(_(" --objects DIR         the tree's build directory: only files it built\n"), stdout);
	fputs(_(" -h, --help            display this help\n"), stdout);
	fputs(_(" -V, --version         display version\n"), stdout);
	exit(EXIT_SUCCESS);
}

static void __attribute__((__noreturn__)) try_help(void)
{
	fprintf(stderr, _("Try '%s --help' for more information.\n"),
		program_invocation_short_name);
	exit(2);
}

char *kdpo_read_file(const char *path, size_t *len)
{
	return strcmp(path, "-") == 0 ? kd_read_fd(STDIN_FILENO, len) : kd_read_file(path, len);
}

static void add(const struct kd_pot_msg *m)
{
	if (kd_pot_add(pot, m) < 0)
		errx(EXIT_FAILURE, _("out of memory"));
}

/* --- kernel source ------------------------------------------------------ */

static int on_source_msg(void *data, const struct kd_csource_msg *cm)
{
	struct kd_pot_msg m = {
		.msgid = cm->fmt, .msgid_len = cm->fmt_len, .file = cm->file,
		.line = cm->line, .func = *cm->func ? cm->func : NULL,
		.module = cm->module, .level = cm->level,
	};

	(void)data;
	if (kdpo_source_hook)
		return kdpo_source_hook(cm);
	add(&m);
	return 0;
}

/* KBUILD_MODNAME of @path, from the Makefile (or Kbuild) beside it. */
static void modname(const char *path, char *out, size_t cap)
{
	static char dir[4096], *mk;
	static size_t mk_len;
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	size_t dl = slash ? (size_t)(slash - path) : 0;
	char obj[256];
	size_t bl = strlen(base);

	if (bl >= sizeof(obj) || dl >= sizeof(dir) - 16)
		bl = 0;
	memcpy(obj, base, bl);
	obj[bl] = '\0';
	if (bl > 2 && obj[bl - 2] == '.')
		obj[bl - 2] = '\0';
	if (strlen(dir) != dl || strncmp(dir, path, dl) != 0 || !dir[0]) {
		char mkpath[4200];

		free(mk);
		mk = NULL;
		mk_len = 0;
		memcpy(dir, path, dl);
		dir[dl] = '\0';
		snprintf(mkpath, sizeof(mkpath), "%s/Makefile", dl ? dir : ".");
		mk = kdpo_read_file(mkpath, &mk_len);
		if (!mk) {
			snprintf(mkpath, sizeof(mkpath), "%s/Kbuild", dl ? dir : ".");
			mk = kdpo_read_file(mkpath, &mk_len);
		}
	}
	kd_csource_modname(mk ? mk : "", mk ? mk_len : 0, obj, out, cap);
}

/* The C files and headers under the PATHs, sorted so that output is stable. */
static char **files;
static size_t nfiles, files_cap;

static int collect_file(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	size_t n = strlen(path);

	(void)ftw;
	if (type != FTW_F || !S_ISREG(st->st_mode) || n < 3 || path[n - 2] != '.' ||
	    (path[n - 1] != 'c' && path[n - 1] != 'h'))
		return 0;
	/* kdmesg-po index --arch: the other architectures' code never runs. */
	if (kdpo_arch && root_len && strncmp(path, root, root_len) == 0 &&
	    strncmp(path + root_len, "/arch/", 6) == 0) {
		const char *a = path + root_len + 6;
		size_t al = strlen(kdpo_arch);

		if (strncmp(a, kdpo_arch, al) != 0 || a[al] != '/')
			return 0;
		/* arch/x86/um is User-mode Linux's: built for ARCH=um only */
		if (strcmp(kdpo_arch, "um") && strncmp(a + al, "/um/", 4) == 0)
			return 0;
	}
	if (nfiles == files_cap) {
		files_cap = files_cap ? files_cap * 2 : 4096;
		files = realloc(files, files_cap * sizeof(*files));
		if (!files)
			errx(EXIT_FAILURE, _("out of memory"));
	}
	if (!(files[nfiles++] = strdup(path)))
		errx(EXIT_FAILURE, _("out of memory"));
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * C files that another C file includes (kernel/sched/build_utility.c
 * includes clock.c): the compiler builds them as part of that file, so
 * their KBUILD_MODNAME is the includer's.  And headers that a C file
 * includes by a relative name (kernel/rcu/update.c includes "tasks.h"):
 * kd_csource_scan() reads them where they are included, with the
 * includer's module and pr_fmt(), so they are not scanned on their own
 * (which gave their messages a module named after the header, "tasks",
 * and every such call site twice).  Sorted by path.
 */
struct incl {
	char *path, *module, *includer;
};
static struct incl *incl;
static size_t nincl;

static int by_incl(const void *a, const void *b)
{
	return strcmp(((const struct incl *)a)->path, ((const struct incl *)b)->path);
}

static bool included_module(const char *path, char *out, size_t cap)
{
	struct incl key = { (char *)path, NULL, NULL }, *f;

	f = nincl ? bsearch(&key, incl, nincl, sizeof(*incl), by_incl) : NULL;
	if (!f)
		return false;
	snprintf(out, cap, "%s", f->module);
	return true;
}

/* Whether @path is a header that a C file includes (read where it is included). */
static bool included_header(const char *path)
{
	struct incl key = { (char *)path, NULL, NULL };
	size_t n = strlen(path);

	return n > 2 && path[n - 1] == 'h' && path[n - 2] == '.' && nincl &&
	       bsearch(&key, incl, nincl, sizeof(*incl), by_incl);
}

/* Whether @obj (a path under kdpo_objects) exists, as a file or a directory. */
static bool obj_exists(const char *rel, size_t len, const char *suffix)
{
	char path[4096];
	struct stat st;

	return snprintf(path, sizeof(path), "%s/%.*s%s", kdpo_objects, (int)len, rel, suffix) <
	       (int)sizeof(path) && stat(path, &st) == 0;
}

/*
 * kdmesg-po index --objects: whether the build directory has an object
 * of @path (a file of the tree): foo.o for foo.c (or the includer's for
 * a C file another includes); for a header, its directory or one above
 * it in the build directory (Kbuild makes the directories it builds in),
 * or a header of include/ or arch/ARCH/include.  Files outside the tree
 * (an external module's) are kept.
 */
static bool built_depth(const char *path, int depth);

static bool built(const char *path)
{
	return built_depth(path, 0);
}

static bool built_depth(const char *path, int depth)
{
	const char *rel, *slash;
	size_t n = strlen(path);

	if (!kdpo_objects || !root_len || strncmp(path, root, root_len) != 0 || path[root_len] != '/')
		return true;
	rel = path + root_len + 1;
	n -= root_len + 1;
	if (path[root_len + n] == 'c') {
		struct incl key = { (char *)path, NULL, NULL }, *f;

		if (obj_exists(rel, n - 2, ".o"))
			return true;
		f = nincl ? bsearch(&key, incl, nincl, sizeof(*incl), by_incl) : NULL;
		/* an includer, itself maybe included (not in a circle) */
		return f && depth < 4 && built_depth(f->includer, depth + 1);
	}
	if (strncmp(rel, "include/", 8) == 0 || (strncmp(rel, "arch/", 5) == 0 && strstr(rel, "/include/")))
		return true;
	/* a header: its directory, or the one above (tests/, a subdirectory of headers) */
	for (int up = 0; up < 2 && (slash = memrchr(rel, '/', n)); up++) {
		n = (size_t)(slash - rel);
		if (obj_exists(rel, n, "/"))
			return true;
	}
	return false;
}

/* Each '#include "x.c"' of the collected C files, before they are scanned. */
static void find_included(void)
{
	size_t cap = 0;

	for (size_t i = 0; i < nfiles; i++) {
		size_t n = strlen(files[i]), len;
		const char *slash = strrchr(files[i], '/');
		char *text, mod[256];

		if (files[i][n - 1] != 'c' || !(text = kdpo_read_file(files[i], &len)))
			continue;
		for (const char *p = text, *e = text + len; (p = memmem(p, (size_t)(e - p), "#include \"", 10));) {
			const char *name = p + 10, *q = name;
			char full[4096];

			while (q < e && *q != '"' && *q != '\n')
				q++;
			p = q;
			if (q >= e || *q != '"' || q - name < 3 || q[-2] != '.' ||
			    (q[-1] != 'c' && q[-1] != 'h'))
				continue;
			if (q[-1] == 'h') {
				/* as kd_csource_scan() will find it */
				if (!slash || !kd_csource_join_include(full, sizeof(full), files[i],
								       (size_t)(slash - files[i] + 1), name,
								       (size_t)(q - name)))
					continue;
			} else if (memchr(name, '/', (size_t)(q - name)) ||
				   /* a file that includes itself (a second pass over its text) */
				   ((size_t)(q - name) == strlen(slash ? slash + 1 : files[i]) &&
				    memcmp(name, slash ? slash + 1 : files[i], (size_t)(q - name)) == 0) ||
				   snprintf(full, sizeof(full), "%.*s/%.*s",
					    (int)(slash ? slash - files[i] : 0), files[i], (int)(q - name),
					    name) >= (int)sizeof(full)) {
				continue;
			}
			if (nincl == cap) {
				cap = cap ? 2 * cap : 64;
				if (!(incl = realloc(incl, cap * sizeof(*incl))))
					errx(EXIT_FAILURE, _("out of memory"));
			}
			modname(files[i], mod, sizeof(mod));
			if (!(incl[nincl].path = strdup(full)) || !(incl[nincl].module = strdup(mod)) ||
			    !(incl[nincl].includer = strdup(files[i])))
				errx(EXIT_FAILURE, _("out of memory"));
			nincl++;
		}
		free(text);
	}
	if (nincl)
		qsort(incl, nincl, sizeof(*incl), by_incl);
}

static void scan_file(const char *path)
{
	const char *rel = path;
	char mod[256], *text;
	size_t len;

	text = kdpo_read_file(path, &len);
	if (!text) {
		warn(_("cannot read %s"), path);
		return;
	}
	if (root_len && strncmp(path, root, root_len) == 0 && path[root_len] == '/')
		rel = path + root_len + 1;
	if (!included_module(path, mod, sizeof(mod)))
		modname(path, mod, sizeof(mod));
	if (kd_csource_scan(text, len, rel, path, mod, macros, on_source_msg, NULL, &cstats) < 0)
		errx(EXIT_FAILURE, _("out of memory"));
	free(text);
}

/* The wrapper macros (pci_err(), ata_dev_err()...) of the headers under ROOT/include. */
static void learn_headers(void)
{
	char dir[4096];
	size_t first = nfiles;
	struct stat st;

	if (kd_csource_macros_new(&macros) < 0)
		errx(EXIT_FAILURE, _("out of memory"));
	if (!root_len || snprintf(dir, sizeof(dir), "%.*s/include", (int)root_len, root) >=
			 (int)sizeof(dir) || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return;
	if (nftw(dir, collect_file, 16, FTW_PHYS) != 0)
		err(EXIT_FAILURE, _("cannot read %s"), dir);
	qsort(files + first, nfiles - first, sizeof(*files), by_name);
	for (size_t i = first; i < nfiles; i++) {
		size_t len, n = strlen(files[i]);
		char *text = files[i][n - 1] == 'h' ? kdpo_read_file(files[i], &len) : NULL;

		if (text && kd_csource_macros_learn(macros, text, len) == -ENOMEM)
			errx(EXIT_FAILURE, _("out of memory"));
		free(text);
		free(files[i]);
	}
	nfiles = first;
}

/*
 * Scan the @n kernel source trees or files at @paths (file names relative
 * to @top, default the first path), after learning the wrapper macros
 * of @top/include; messages go to the .pot or kdpo_source_hook.
 */
void kdpo_scan_tree(int n, char **paths, const char *top)
{
	root = top;
	if (!root && n > 0)
		root = paths[0];
	root_len = root ? strlen(root) : 0;
	while (root_len > 1 && root[root_len - 1] == '/')
		root_len--;
	if (n > 0)
		learn_headers();
	for (int i = 0; i < n; i++)
		if (nftw(paths[i], collect_file, 16, FTW_PHYS) != 0)
			err(EXIT_FAILURE, _("cannot read %s"), paths[i]);
	if (nfiles)
		qsort(files, nfiles, sizeof(*files), by_name);
	find_included();
	for (size_t i = 0; i < nfiles; i++) {
		if (built(files[i]) && !included_header(files[i]))
			scan_file(files[i]);
		free(files[i]);
	}
	for (size_t i = 0; i < nincl; i++) {
		free(incl[i].path);
		free(incl[i].module);
		free(incl[i].includer);
	}
	free(incl);
	incl = NULL;
	nincl = 0;
	free(files);
	files = NULL;
	nfiles = files_cap = 0;
	kd_csource_macros_free(macros);
	macros = NULL;
	if (cstats.skipped)
		fprintf(stderr, _("%s: %lu of %lu message calls have no constant format and were left out\n"),
			program_invocation_short_name, cstats.skipped, cstats.calls);
}

/* --- the running kernel ------------------------------------------------- */

/* A site of the running kernel's lists, as a message of the template. */
static int on_site(void *data, const struct kd_fidx_site *s)
{
	struct kd_pot_msg m = {
		.msgid = s->fmt, .msgid_len = s->fmt_len, .file = s->file,
		.line = s->line, .func = s->func, .module = s->module, .level = s->level,
	};

	(void)data;
	add(&m);
	return 0;
}

/* "object level file:line function module format" lines. */
static void read_sites(const char *path)
{
	size_t len;
	char *text = kdpo_read_file(path, &len);

	if (!text)
		err(EXIT_FAILURE, _("cannot read %s"), path);
	kd_ksites_table(text, len, on_site, NULL);
	free(text);
}

/*
 * One file of the printk index: <level> file:line function "format".
 * Its messages carry no module: the template has them once, whatever
 * module prints them.
 */
static int read_index_file(const char *path, const struct stat *st, int type,
			   struct FTW *ftw)
{
	size_t len;
	char *text;

	(void)st;
	(void)ftw;
	if (type != FTW_F || !(text = kdpo_read_file(path, &len)))
		return 0;
	kd_ksites_printk_index(text, len, NULL, on_site, NULL);
	free(text);
	return 0;
}

/*
 * The later parts of a record continued by pr_cont() (PART<k>_FORMAT,
 * man/kprint.7), counted as continuation fragments of @module (the
 * first part's: later parts carry none, and kdmesg looks them up so).
 */
static void add_parts(const struct kd_record *rec, const char *module)
{
	struct kd_group parts;

	kd_group_part_keys(&parts, rec);
	for (size_t i = 0; i < parts.n; i++) {
		const struct kd_dict_entry *d = parts.keys[i].entry;
		struct kd_pot_msg m = { .count = 1, .module = module, .level = 'c' };

		if (strcmp(parts.keys[i].name, KD_KEY_FORMAT) != 0 || !d->value_len)
			continue;
		m.msgid = d->value;
		m.msgid_len = d->value_len;
		add(&m);
	}
}

/*
 * Each FORMAT of a dump, as often as it occurred, with its parts.  A
 * wrapper's record that kept the format its %pV carried (PV_FORMAT,
 * man/kprint.7) gives that one, the caller's message, which kdmesg
 * translates; the wrapper's call site is not the caller's, so no place.
 */
static int on_dump_record(void *data, const struct kd_record *rec,
			  const struct kd_fidx_site *s)
{
	const struct kd_dict_entry *pv = kd_record_dict_get(rec, KD_KEY_PV_FORMAT);
	struct kd_pot_msg m;

	(void)data;
	if (!s)
		return 0;
	m = (struct kd_pot_msg){
		.count = 1, .msgid = s->fmt, .msgid_len = s->fmt_len, .file = s->file,
		.line = s->line, .func = s->func, .module = s->module, .level = s->level,
	};
	if (pv && pv->value_len) {
		m.msgid = pv->value;
		m.msgid_len = pv->value_len;
		m.file = NULL;
		m.line = 0;
		m.func = NULL;
	}
	add(&m);
	add_parts(rec, m.module);
	return 0;
}

/* POT-Creation-Date: now, or SOURCE_DATE_EPOCH for reproducible output. */
static int64_t pot_date(void)
{
	const char *e = getenv("SOURCE_DATE_EPOCH");
	char *end;
	long long v;

	if (e && *e) {
		errno = 0;
		v = strtoll(e, &end, 10);
		if (!errno && !*end && v >= 0)
			return v;
	}
	return (int64_t)time(NULL);
}

static int cmd_extract(int argc, char **argv)
{
	enum { OPT_ROOT = 256, OPT_SITES, OPT_INDEX, OPT_DUMP, OPT_SORT, OPT_CONTEXT,
	       OPT_BUGS };
	static const struct option opts[] = {
		{ "root", required_argument, NULL, OPT_ROOT },
		{ "msgid-bugs-address", required_argument, NULL, OPT_BUGS },
		{ "sites", optional_argument, NULL, OPT_SITES },
		{ "printk-index", optional_argument, NULL, OPT_INDEX },
		{ "dump", required_argument, NULL, OPT_DUMP },
		{ "sort", required_argument, NULL, OPT_SORT },
		{ "context", required_argument, NULL, OPT_CONTEXT },
		{ "limit", required_argument, NULL, 'n' },
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 }
	};
	struct { int kind; const char *arg; } sources[64];
	size_t nsources = 0;
	const char *output = NULL, *bugs_to = "";
	bool by_count = false;
	size_t limit = 0;
	FILE *out = stdout;
	int c;

	if (kd_pot_new(&pot) < 0)
		errx(EXIT_FAILURE, _("out of memory"));
	while ((c = getopt_long(argc, argv, "n:o:", opts, NULL)) != -1) {
		switch (c) {
		case OPT_ROOT:
			root = optarg;
			break;
		case OPT_BUGS:
			bugs_to = optarg;
			break;
		case OPT_SITES:
		case OPT_INDEX:
		case OPT_DUMP:
			/* Read after the options, which may change how (--context). */
			if (nsources == sizeof(sources) / sizeof(sources[0]))
				errx(2, _("too many sources"));
			sources[nsources].kind = c;
			sources[nsources++].arg = optarg ? optarg : c == OPT_SITES ? SITES_PATH :
						  c == OPT_INDEX ? INDEX_PATH : NULL;
			break;
		case OPT_SORT:
			if (strcmp(optarg, "count") && strcmp(optarg, "source")) {
				warnx(_("unknown sort order: %s"), optarg);
				try_help();
			}
			by_count = strcmp(optarg, "count") == 0;
			break;
		case OPT_CONTEXT:
			if (strcmp(optarg, "none") && strcmp(optarg, "module")) {
				warnx(_("unknown context: %s"), optarg);
				try_help();
			}
			kd_pot_set_module_contexts(pot, strcmp(optarg, "module") == 0);
			break;
		case 'n': {
			char *e;

			/* A count: digits only (no sign, no wrap); 0 is no limit. */
			errno = 0;
			limit = strtoul(optarg, &e, 10);
			if (*e || !*optarg || *optarg < '0' || *optarg > '9' || errno) {
				warnx(_("invalid number: %s"), optarg);
				try_help();
			}
			break;
		}
		case 'o':
			output = optarg;
			break;
		default:
			try_help();
		}
	}
	if (kd_pot_set_header(pot, bugs_to, pot_date()) < 0)
		errx(EXIT_FAILURE, _("out of memory"));
	for (size_t i = 0; i < nsources; i++) {
		const char *arg = sources[i].arg;

		if (sources[i].kind == OPT_SITES)
			read_sites(arg);
		else if (sources[i].kind == OPT_DUMP)
			kdpo_read_dump(arg, on_dump_record, NULL);
		else if (nftw(arg, read_index_file, 16, FTW_PHYS) != 0)
			err(EXIT_FAILURE, _("cannot read %s"), arg);
	}
	if (optind == argc && !nsources) {
		warnx(_("nothing to extract from: give a kernel source tree, --sites, --printk-index or --dump"));
		try_help();
	}
	kdpo_scan_tree(argc - optind, argv + optind, root);
	if (by_count)
		kd_pot_sort_count(pot);
	if (output && !(out = fopen(output, "w")))
		err(EXIT_FAILURE, _("cannot open %s"), output);
	if (kd_pot_write(pot, out, limit) < 0 || (out != stdout && fclose(out) != 0))
		err(EXIT_FAILURE, _("write error"));
	kd_pot_free(pot);
	return EXIT_SUCCESS;
}

/* --- check -------------------------------------------------------------- */

struct check {
	const char *path;
	unsigned int errors, warnings;
};

static void problem(struct check *ck, unsigned int line, bool error, const char *what)
{
	/* TRANSLATORS: FILE:LINE: error: WHAT or FILE:LINE: warning: WHAT */
	printf(error ? _("%s:%u: error: %s\n") : _("%s:%u: warning: %s\n"), ck->path, line, what);
	if (error)
		ck->errors++;
	else
		ck->warnings++;
}

static int check_entry(void *data, const struct kd_po_entry *e)
{
	static struct kd_kfmt id, str;
	struct check *ck = data;
	unsigned char map[KD_KFMT_MAX_CONV];
	enum kd_kfmt_reason r;
	int rc;

	if (!e->msgid_len || !e->msgstr_len)
		return 0;
	if (kd_kfmt_parse(e->msgid, e->msgid_len, &id) < 0) {
		problem(ck, e->line, false, _("msgid is not a kernel format; not checked"));
		return 0;
	}
	if (id.nconv && !e->c_format)
		problem(ck, e->line, false, _("no c-format flag: msgfmt -c does not check this entry"));
	if (id.has_pv) {
		/* xgettext:no-c-format */
		problem(ck, e->line, false, _("msgid has %pV: kdmesg never translates its records"));
		return 0;
	}
	rc = kd_kfmt_parse(e->msgstr, e->msgstr_len, &str);
	if (rc == -ERANGE) {
		problem(ck, e->msgstr_line, !e->fuzzy, _("msgstr: a position is 0 or above 64"));
		return 0;
	}
	if (rc < 0) {
		problem(ck, e->msgstr_line, !e->fuzzy,
			_("msgstr is not a valid format (unknown conversion, positional and plain conversions mixed, or one position with two types)"));
		return 0;
	}
	r = kd_kfmt_compare(e->msgid, &id, e->msgstr, &str, map);
	switch (r) {
	case KD_KFMT_TRUSTED:
		return 0;
	case KD_KFMT_CONVERSION:
		problem(ck, e->msgstr_line, !e->fuzzy, _("msgstr: an argument has another type or length than in the msgid ('*' widths count as arguments)"));
		break;
	case KD_KFMT_COUNT:
		problem(ck, e->msgstr_line, !e->fuzzy, _("msgstr has another number of arguments than the msgid"));
		break;
	case KD_KFMT_PEXT:
		/* xgettext:no-c-format */
		problem(ck, e->msgstr_line, !e->fuzzy, _("msgstr: a %p extension differs from the msgid's (such as %pI4 and %pI6)"));
		break;
	case KD_KFMT_SKIPPED:
		problem(ck, e->msgstr_line, !e->fuzzy, _("msgstr: the positions skip an argument of the msgid"));
		break;
	case KD_KFMT_POSITION:
		problem(ck, e->msgstr_line, !e->fuzzy, _("msgstr: a position beyond the msgid's arguments"));
		break;
	case KD_KFMT_PERCENT_N:
		/* xgettext:no-c-format */
		problem(ck, e->msgstr_line, !e->fuzzy, _("%n is not allowed"));
		break;
	default:
		problem(ck, e->msgstr_line, !e->fuzzy, kd_kfmt_reason_name(r));
	}
	return 0;
}

static int cmd_check(int argc, char **argv)
{
	int status = EXIT_SUCCESS;

	if (argc < 2) {
		warnx(_("no catalogue to check"));
		try_help();
	}
	for (int i = 1; i < argc; i++) {
		struct check ck = { .path = argv[i] };
		unsigned int line = 0;
		size_t len;
		char *text = kdpo_read_file(argv[i], &len);
		int rc;

		if (!text) {
			warn(_("cannot read %s"), argv[i]);
			status = 2;
			continue;
		}
		rc = kd_po_read(text, len, check_entry, &ck, &line);
		free(text);
		if (rc < 0) {
			printf(_("%s:%u: error: %s\n"), argv[i], line, _("PO syntax error"));
			ck.errors++;
		}
		if (ck.errors && status == EXIT_SUCCESS)
			status = EXIT_FAILURE;
	}
	return status;
}

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	bindtextdomain(PACKAGE, LOCALEDIR);
	textdomain(PACKAGE);

	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")))
		usage();
	if (argc >= 2 && (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version"))) {
		printf("%s (%s) %s\n", program_invocation_short_name, PACKAGE_NAME, PACKAGE_VERSION);
		return EXIT_SUCCESS;
	}
	if (argc >= 2 && !strcmp(argv[1], "extract"))
		return cmd_extract(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "check"))
		return cmd_check(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "index"))
		return kdpo_cmd_index(argc - 1, argv + 1);
	if (argc < 2)
		warnx(_("no command given"));
	else
		warnx(_("unknown command: %s"), argv[1]);
	try_help();
}
