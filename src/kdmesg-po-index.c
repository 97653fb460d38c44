// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kdmesg-po-index.c - `kdmesg-po index`: write a format index (lib/stage/fidx.h)
 * for kdmesg's recovery of call sites on stock kernels, from kernel
 * source trees (the extraction of `kdmesg-po extract`), printk index
 * directories or files, dynamic-debug control files, kprint site tables
 * and kmsg dumps of a CONFIG_KPRINT kernel (each FORMAT with its CODE_*).
 * What each SOURCE is, is told from what it holds, or by an option.
 */
#include <dirent.h>
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
#include <sys/utsname.h>
#include <unistd.h>

#include "stage/fidx.h"
#include "shared/kfmt.h"
#include "stage/ksites.h"
#include "nls.h"
#include "record/record.h"
#include "source/source.h"
#include "kdmesg-po.h"

enum kind { K_AUTO, K_TREE, K_PRINTK_INDEX, K_DYNDBG, K_SITES, K_DUMP };

static struct kd_fidx_builder *builder;
static unsigned long added, refused;
static char dump_release[128];

static void __attribute__((__noreturn__)) oom(void)
{
	errx(EXIT_FAILURE, _("out of memory"));
}

static int add_site(void *data, const struct kd_fidx_site *s)
{
	int rc = kd_fidx_builder_add(builder, s);

	(void)data;
	if (rc < 0) {
		if (rc == -E2BIG)
			errx(EXIT_FAILURE, _("too many formats for one index"));
		oom();
	}
	if (rc == 1)
		refused++;
	else
		added++;
	return 0;
}

static int on_source(const struct kd_csource_msg *m)
{
	struct kd_fidx_site s = {
		.fmt = m->fmt, .fmt_len = m->fmt_len, .file = m->file, .line = m->line,
		.func = m->func, .module = m->module, .level = m->level,
		.family = m->family == 'd' ? KD_FIDX_DEV : m->family == 'n' ? KD_FIDX_NETDEV :
			  m->family == 'a' ? KD_FIDX_ACPI : m->family == 'e' ? KD_FIDX_DEVPROBE :
			  m->family == 'w' ? KD_FIDX_WRAP : KD_FIDX_PLAIN,
	};

	return add_site(NULL, &s);
}

static void warn_skipped(const char *path, long skipped)
{
	if (skipped > 0)
		warnx(_("%s: %ld lines not understood and skipped"), path, skipped);
}

static void read_list(const char *path, enum kind k, const char *module)
{
	size_t len;
	char *text = kdpo_read_file(path, &len);
	long skipped;

	if (!text)
		err(EXIT_FAILURE, _("cannot read %s"), path);
	skipped = k == K_DYNDBG ? kd_ksites_dyndbg(text, len, add_site, NULL) :
		  k == K_SITES ? kd_ksites_table(text, len, add_site, NULL) :
		  kd_ksites_printk_index(text, len, module, add_site, NULL);
	free(text);
	warn_skipped(path, skipped);
}

static int read_index_file(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	if (type == FTW_F)
		read_list(path, K_PRINTK_INDEX, path + ftw->base);
	return 0;
}

/* "6.12.38" of the first record's "Linux version 6.12.38 ...", if it is that. */
static void note_release(const struct kd_record *rec)
{
	size_t k = 0;

	if (rec->text_len <= 14 || memcmp(rec->text, "Linux version ", 14) != 0)
		return;
	while (k + 1 < sizeof(dump_release) && 14 + k < rec->text_len &&
	       rec->text[14 + k] != ' ') {
		dump_release[k] = rec->text[14 + k];
		k++;
	}
	dump_release[k] = '\0';
}

/* Whether @fmt with the record's ARGn renders its whole text (a plain printk). */
static bool renders_whole_text(const struct kd_record *rec, const char *fmt, size_t fmt_len)
{
	static struct kd_kfmt parsed;
	struct kd_karg args[KD_KFMT_MAX_CONV];
	const struct kd_dict_entry *d;
	unsigned int n = 0;
	size_t start;
	char key[16];

	if (kd_kfmt_parse(fmt, fmt_len, &parsed) != 0)
		return false;
	for (; n < parsed.nconv; n++) {
		snprintf(key, sizeof(key), "ARG%u", n);
		if (!(d = kd_record_dict_get(rec, key)))
			break;
		args[n] = (struct kd_karg){ d->value, d->value_len };
	}
	return n == parsed.nconv &&
	       kd_kfmt_match_tail(fmt, fmt_len, &parsed, args, n, rec->text, rec->text_len,
				  &start) && start == 0;
}

/* The CODE_* of each FORMAT in a dump of a CONFIG_KPRINT kernel. */
static int on_dump_record(void *data, const struct kd_record *rec,
			  const struct kd_fidx_site *site)
{
	bool *first = data;
	struct kd_fidx_site s;

	if (*first)
		note_release(rec);
	*first = false;
	if (!site || kd_record_dict_get(rec, "FORMAT_PART"))
		return 0;
	s = *site;
	/* A format that renders the whole text is printed alone. */
	if (renders_whole_text(rec, s.fmt, s.fmt_len))
		s.family = KD_FIDX_PLAIN;
	return add_site(NULL, &s);
}

static void read_dump(const char *path)
{
	bool first = true;

	kdpo_read_dump(path, on_dump_record, &first);
}

/* What a SOURCE is, from its first bytes or its entries. */
static enum kind sniff(const char *path)
{
	struct stat st;
	char head[256] = "";
	ssize_t n;
	int fd;

	if (stat(path, &st) != 0)
		err(EXIT_FAILURE, _("cannot read %s"), path);
	if (S_ISDIR(st.st_mode)) {
		char sub[4096];

		/* A printk index has a "vmlinux" file; a source tree has not. */
		snprintf(sub, sizeof(sub), "%s/vmlinux", path);
		return stat(sub, &st) == 0 && S_ISREG(st.st_mode) ? K_PRINTK_INDEX : K_TREE;
	}
	n = strlen(path);
	if (n > 2 && path[n - 2] == '.' && (path[n - 1] == 'c' || path[n - 1] == 'h'))
		return K_TREE;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		err(EXIT_FAILURE, _("cannot read %s"), path);
	n = read(fd, head, sizeof(head) - 1);
	close(fd);
	head[n > 0 ? n : 0] = '\0';
	if (strncmp(head, "# filename:lineno", 17) == 0)
		return K_DYNDBG;
	if (strncmp(head, "# <level", 8) == 0 || head[0] == '<')
		return K_PRINTK_INDEX;
	{
		/* kmsg: "pri,seq,usec,flags[,caller];" */
		const char *semi = strchr(head, ';'), *comma = strchr(head, ',');

		if (semi && comma && comma < semi && head[0] >= '0' && head[0] <= '9')
			return K_DUMP;
	}
	return K_SITES;
}

/* The kernel's name (arch/NAME) for this machine's architecture. */
static const char *host_arch(void)
{
	static const struct { const char *m, *arch; } map[] = {
		{ "x86_64", "x86" }, { "i386", "x86" }, { "i686", "x86" },
		{ "aarch64", "arm64" }, { "arm", "arm" }, { "ppc64", "powerpc" },
		{ "ppc", "powerpc" }, { "s390", "s390" }, { "mips", "mips" },
		{ "riscv", "riscv" }, { "loongarch", "loongarch" }, { "sparc", "sparc" },
	};
	struct utsname u;

	if (uname(&u) != 0)
		return NULL;
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strncmp(u.machine, map[i].m, strlen(map[i].m)) == 0)
			return map[i].arch;
	return NULL;
}

/* "6.12.38" from a source tree's Makefile (VERSION, PATCHLEVEL, SUBLEVEL, EXTRAVERSION). */
static bool tree_release(const char *tree, char *out, size_t cap)
{
	char path[4096], *text, v[4][32] = { "", "", "", "" };
	static const char *const names[4] = { "VERSION", "PATCHLEVEL", "SUBLEVEL", "EXTRAVERSION" };
	size_t len;

	snprintf(path, sizeof(path), "%s/Makefile", tree);
	if (!(text = kdpo_read_file(path, &len)))
		return false;
	for (int k = 0; k < 4; k++) {
		size_t nl = strlen(names[k]);

		for (char *p = text; (p = strstr(p, names[k])); p += nl) {
			char *q = p + nl;

			if ((p != text && p[-1] != '\n'))
				continue;
			while (*q == ' ')
				q++;
			if (*q != '=')
				continue;
			q++;
			while (*q == ' ')
				q++;
			snprintf(v[k], sizeof(v[k]), "%.*s", (int)strcspn(q, " \n"), q);
			break;
		}
	}
	free(text);
	if (!*v[0] || !*v[1])
		return false;
	snprintf(out, cap, "%s.%s%s%s%s", v[0], v[1], *v[2] ? "." : "", v[2], v[3]);
	return true;
}

int kdpo_cmd_index(int argc, char **argv)
{
	enum { OPT_RELEASE = 256, OPT_ROOT, OPT_TREE, OPT_PINDEX, OPT_DYNDBG, OPT_SITES, OPT_DUMP,
	       OPT_ARCH, OPT_OBJECTS };
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "release", required_argument, NULL, OPT_RELEASE },
		{ "root", required_argument, NULL, OPT_ROOT },
		{ "tree", required_argument, NULL, OPT_TREE },
		{ "printk-index", required_argument, NULL, OPT_PINDEX },
		{ "dyndbg", required_argument, NULL, OPT_DYNDBG },
		{ "sites", required_argument, NULL, OPT_SITES },
		{ "dump", required_argument, NULL, OPT_DUMP },
		{ "arch", required_argument, NULL, OPT_ARCH },
		{ "objects", required_argument, NULL, OPT_OBJECTS },
		{ NULL, 0, NULL, 0 }
	};
	struct { enum kind k; char *path; } src[64];
	size_t nsrc = 0, len;
	char *trees[64], release[128] = "", outname[200];
	const char *output = NULL, *root = NULL, *why = NULL;
	int ntrees = 0, c;
	bool arch_set = false;
	void *image;
	FILE *out;

	while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
		enum kind k = K_AUTO;

		switch (c) {
		case 'o':
			output = optarg;
			continue;
		case OPT_RELEASE:
			snprintf(release, sizeof(release), "%s", optarg);
			continue;
		case OPT_ROOT:
			root = optarg;
			continue;
		case OPT_ARCH:
			/* "all": every architecture, as kdmesg-po extract reads them */
			kdpo_arch = strcmp(optarg, "all") ? optarg : NULL;
			arch_set = true;
			continue;
		case OPT_OBJECTS:
			kdpo_objects = optarg;
			continue;
		case OPT_TREE:
			k = K_TREE;
			break;
		case OPT_PINDEX:
			k = K_PRINTK_INDEX;
			break;
		case OPT_DYNDBG:
			k = K_DYNDBG;
			break;
		case OPT_SITES:
			k = K_SITES;
			break;
		case OPT_DUMP:
			k = K_DUMP;
			break;
		default:
			fprintf(stderr, _("Try '%s --help' for more information.\n"),
				program_invocation_short_name);
			return 2;
		}
		if (nsrc == sizeof(src) / sizeof(src[0]))
			errx(2, _("too many sources"));
		src[nsrc].k = k;
		src[nsrc++].path = optarg;
	}
	for (int i = optind; i < argc; i++) {
		if (nsrc == sizeof(src) / sizeof(src[0]))
			errx(2, _("too many sources"));
		src[nsrc].k = K_AUTO;
		src[nsrc++].path = argv[i];
	}
	if (!nsrc) {
		warnx(_("nothing to index: give a kernel source tree, a printk index, a dynamic-debug control file, a site table or a dump"));
		fprintf(stderr, _("Try '%s --help' for more information.\n"),
			program_invocation_short_name);
		return 2;
	}
	if (kd_fidx_builder_new(&builder) < 0)
		oom();
	for (size_t i = 0; i < nsrc; i++) {
		enum kind k = src[i].k == K_AUTO ? sniff(src[i].path) : src[i].k;
		struct stat st;

		switch (k) {
		case K_TREE:
			if (ntrees < 64)
				trees[ntrees++] = src[i].path;
			break;
		case K_PRINTK_INDEX:
			if (stat(src[i].path, &st) == 0 && S_ISDIR(st.st_mode)) {
				if (nftw(src[i].path, read_index_file, 16, FTW_PHYS) != 0)
					err(EXIT_FAILURE, _("cannot read %s"), src[i].path);
			} else {
				const char *base = strrchr(src[i].path, '/');

				read_list(src[i].path, k, base ? base + 1 : src[i].path);
			}
			break;
		case K_DUMP:
			read_dump(src[i].path);
			break;
		default:
			read_list(src[i].path, k, NULL);
		}
	}
	if (ntrees) {
		if (!arch_set)
			kdpo_arch = host_arch();
		kdpo_source_hook = on_source;
		kdpo_scan_tree(ntrees, trees, root);
		if (!*release)
			tree_release(root ? root : trees[0], release, sizeof(release));
	}
	if (!*release && *dump_release)
		snprintf(release, sizeof(release), "%s", dump_release);
	if (!output) {
		if (!*release)
			errx(2, _("no kernel release known: give --release or --output"));
		snprintf(outname, sizeof(outname), "%s%s", release, KD_FIDX_SUFFIX);
		output = outname;
	}
	if (!kd_fidx_builder_count(builder))
		errx(EXIT_FAILURE, _("no formats found"));
	c = kd_fidx_builder_image(builder, release, &image, &len);
	if (c < 0) {
		if (c == -E2BIG)
			errx(EXIT_FAILURE, _("too many formats for one index"));
		oom();
	}
	/* Checked as kdmesg will read it: a writer bug is caught here. */
	{
		void *copy = malloc(len);
		struct kd_fidx *x;

		if (!copy)
			oom();
		memcpy(copy, image, len);
		if (kd_fidx_from_image(&x, copy, len, &why) < 0)
			errx(EXIT_FAILURE, _("internal error: the index does not read back: %s"), why);
		kd_fidx_free(x);
	}
	if (strcmp(output, "-") == 0)
		out = stdout;
	else if (!(out = fopen(output, "wb")))
		err(EXIT_FAILURE, _("cannot open %s"), output);
	if (fwrite(image, 1, len, out) != len || (out != stdout && fclose(out) != 0))
		err(EXIT_FAILURE, _("write error"));
	free(image);
	fprintf(stderr, _("%s: %zu formats (%lu sites read, %lu not kernel formats) of %s in %s, %zu bytes\n"),
		program_invocation_short_name, kd_fidx_builder_count(builder), added + refused,
		refused, *release ? release : _("an unknown release"), output, len);
	kd_fidx_builder_free(builder);
	return EXIT_SUCCESS;
}
