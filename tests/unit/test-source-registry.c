// SPDX-License-Identifier: GPL-2.0-or-later
/* test-source-registry.c - sources opened by name: the registry lists each
 * built-in source once with the capabilities callers ask for, unknown
 * names are refused, and kd_source_open_fd() reads a descriptor exactly as
 * the path it came from (and owns it, also when it refuses). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "source/source.h"
#include "tap.h"

static char fixture_dir[4096];

static const char *fixture(const char *name)
{
	static char path[4200];

	snprintf(path, sizeof(path), "%s/tests/fixtures/%s", fixture_dir, name);
	return path;
}

/* Texts of every record of @src, joined by newlines; closes @src. */
static char *drain(struct kd_source *src, size_t *n)
{
	struct kd_record r;
	char *all = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&all, &len);

	*n = 0;
	kd_record_init(&r);
	while (f && kd_source_next(src, &r) == 1) {
		fprintf(f, "%llu %d ", (unsigned long long)r.seq, r.level);
		fwrite(r.text, 1, r.text_len, f);
		for (size_t i = 0; i < r.dict_len; i++)
			fprintf(f, " %s=%s", r.dict[i].key, r.dict[i].value);
		putc('\n', f);
		(*n)++;
	}
	if (f)
		fclose(f);
	kd_record_free(&r);
	kd_source_close(src);
	return all;
}

static void test_registry(void)
{
	static const char *const names[] = {
		KD_SOURCE_KMSG, KD_SOURCE_SYSLOG, KD_SOURCE_SYSLOG_FILE, KD_SOURCE_KMSG_FILE,
	};
	const struct kd_source_type *t;
	size_t i, count = 0;
	bool once = true;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		t = kd_source_type_find(names[i]);
		tap_ok(t && strcmp(t->name, names[i]) == 0 && t->open && t->summary,
		       "%s is registered", names[i]);
	}
	for (i = 0; (t = kd_source_type_at(i)); i++) {
		count++;
		once &= kd_source_type_find(t->name) == t;
	}
	tap_ok(once, "every entry is found by its own name");
#ifdef HAVE_SYSTEMD
	tap_is_int((long long)count, 5, "five sources with libsystemd");
	t = kd_source_type_find(KD_SOURCE_JOURNAL);
	tap_ok(t && (t->caps & KD_SOURCE_HAS_HOST) && (t->caps & KD_SOURCE_CAN_FOLLOW) &&
	       (t->caps & KD_SOURCE_HAS_WALLCLOCK) && !(t->caps & KD_SOURCE_HAS_SEQ),
	       "the journal follows, dates its records and names their hosts; no seq");
#else
	tap_is_int((long long)count, 4, "four sources without libsystemd");
	tap_ok(!kd_source_type_find(KD_SOURCE_JOURNAL), "no journal without libsystemd");
#endif
	tap_ok(!kd_source_type_find("nope") && !kd_source_type_find(NULL), "unknown names: NULL");

	/* What the front ends ask instead of testing the kind. */
	t = kd_source_type_find(KD_SOURCE_KMSG);
	tap_ok((t->caps & (KD_SOURCE_CAN_FOLLOW | KD_SOURCE_HAS_SEQ | KD_SOURCE_HAS_DICT |
			   KD_SOURCE_THIS_BOOT | KD_SOURCE_HAS_BOOT_TIME)) ==
	       (KD_SOURCE_CAN_FOLLOW | KD_SOURCE_HAS_SEQ | KD_SOURCE_HAS_DICT |
		KD_SOURCE_THIS_BOOT | KD_SOURCE_HAS_BOOT_TIME) &&
	       !(t->caps & (KD_SOURCE_SYSLOG_TEXT | KD_SOURCE_NAMED_INPUT)) && !t->reads_fd,
	       "kmsg: follows, this boot, seq, dictionaries; no descriptor");
	t = kd_source_type_find(KD_SOURCE_SYSLOG);
	tap_ok((t->caps & KD_SOURCE_SYSLOG_TEXT) && (t->caps & KD_SOURCE_THIS_BOOT) &&
	       !(t->caps & (KD_SOURCE_CAN_FOLLOW | KD_SOURCE_HAS_SEQ | KD_SOURCE_HAS_DICT)),
	       "syslog: syslog text of this boot, no follow, no seq, no dictionaries");
	t = kd_source_type_find(KD_SOURCE_KMSG_FILE);
	tap_ok((t->caps & KD_SOURCE_CAN_FOLLOW_FILE) && (t->caps & KD_SOURCE_HAS_SEQ) &&
	       (t->caps & KD_SOURCE_NAMED_INPUT) && t->reads_fd &&
	       !(t->caps & (KD_SOURCE_HAS_BOOT_TIME | KD_SOURCE_THIS_BOOT | KD_SOURCE_SYSLOG_TEXT)),
	       "kmsg-file: grows, seq, named input, descriptor; its boot time unknown");
	t = kd_source_type_find(KD_SOURCE_SYSLOG_FILE);
	tap_ok((t->caps & KD_SOURCE_SYSLOG_TEXT) && (t->caps & KD_SOURCE_CAN_FOLLOW_FILE) &&
	       t->reads_fd && !(t->caps & (KD_SOURCE_HAS_SEQ | KD_SOURCE_HAS_DICT)),
	       "syslog-file: syslog text, grows, descriptor");
}

static void test_open_errors(void)
{
	struct kd_source *src = (struct kd_source *)1;
	int fd;

	tap_is_int(kd_source_open(&src, "nope", "x", 0, 0), -ENOENT, "unknown name: -ENOENT");
	tap_ok(src == NULL, "... and no source");
#ifndef HAVE_SYSTEMD
	tap_is_int(kd_source_open(&src, KD_SOURCE_JOURNAL, NULL, 0, 0), -EOPNOTSUPP,
		   "journal not built in: -EOPNOTSUPP");
#else
	tap_skip(1, "the journal is built in");
#endif
	tap_is_int(kd_source_open(&src, KD_SOURCE_KMSG_FILE, NULL, 0, 0), -EINVAL,
		   "a file source without a path: -EINVAL");
	tap_is_int(kd_source_open_fd(&src, KD_SOURCE_KMSG_FILE, -1, 0), -EBADF,
		   "open_fd(-1): -EBADF");

	fd = open(fixture("kmsg-nul.dump"), O_RDONLY | O_CLOEXEC);
	tap_is_int(kd_source_open_fd(&src, KD_SOURCE_KMSG, fd, 0), -EOPNOTSUPP,
		   "the live device reads no descriptor");
	tap_ok(fcntl(fd, F_GETFD) < 0 && errno == EBADF, "... and the refused descriptor is closed");
	fd = open(fixture("kmsg-nul.dump"), O_RDONLY | O_CLOEXEC);
	tap_is_int(kd_source_open_fd(&src, "nope", fd, 0), -ENOENT, "open_fd: unknown name");
	tap_ok(fcntl(fd, F_GETFD) < 0 && errno == EBADF, "... descriptor closed");
	fd = open(fixture("empty.txt"), O_RDONLY | O_CLOEXEC);
	tap_is_int(kd_source_open_fd(&src, KD_SOURCE_KMSG_FILE, fd, 0), -ENODATA,
		   "open_fd: an empty file is -ENODATA as by path");
	tap_ok(fcntl(fd, F_GETFD) < 0 && errno == EBADF, "... descriptor closed on failure");
	fd = open(fixture_dir, O_RDONLY | O_CLOEXEC);
	tap_is_int(kd_source_open_fd(&src, KD_SOURCE_SYSLOG_FILE, fd, 0), -EISDIR,
		   "open_fd: a directory is -EISDIR");
}

/* A descriptor gives what its path gives; the source closes it. */
static void test_open_fd(void)
{
	static const struct { const char *name, *file; size_t n; } cases[] = {
		{ KD_SOURCE_KMSG_FILE, "kmsg-nul.dump", 0 },
		{ KD_SOURCE_KMSG_FILE, "kmsg-newline.dump", 0 },
		{ KD_SOURCE_SYSLOG_FILE, "syslog.txt", 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kd_source *a = NULL, *b = NULL;
		char *by_path = NULL, *by_fd = NULL;
		size_t na = 0, nb = 0;
		int fd = open(fixture(cases[i].file), O_RDONLY | O_CLOEXEC), p[2];

		if (kd_source_open(&a, cases[i].name, fixture(cases[i].file), 0, 0) == 0)
			by_path = drain(a, &na);
		tap_is_int(kd_source_open_fd(&b, cases[i].name, fd, 0), 0, cases[i].file);
		if (b) {
			tap_is_str(kd_source_name(b), cases[i].name, "... its name");
			tap_ok(kd_source_caps(b) == kd_source_type_find(cases[i].name)->caps,
			       "... its type's capabilities");
			by_fd = drain(b, &nb);
		}
		tap_ok(na > 3 && na == nb && by_path && by_fd && strcmp(by_path, by_fd) == 0,
		       "%s: %zu records by descriptor as by path", cases[i].file, nb);
		tap_ok(fcntl(fd, F_GETFD) < 0 && errno == EBADF, "... and the source closed it");
		free(by_path);
		free(by_fd);

		/* A pipe, as a socket or a parent's redirection would give. */
		if (i == 0 && pipe(p) == 0) {
			static const char rec[] = "6,7,8,-;from a pipe\n SUBSYSTEM=pci\n";

			if (write(p[1], rec, sizeof(rec) - 1) != (ssize_t)sizeof(rec) - 1)
				abort();
			close(p[1]);
			tap_is_int(kd_source_open_fd(&b, KD_SOURCE_KMSG_FILE, p[0], 0), 0,
				   "a pipe opens");
			by_fd = b ? drain(b, &nb) : NULL;
			tap_is_str(by_fd, "7 6 from a pipe SUBSYSTEM=pci\n", "... and reads its record");
			free(by_fd);
		}
	}
}

int main(void)
{
	const char *top = getenv("top_srcdir");

	snprintf(fixture_dir, sizeof(fixture_dir), "%s", top ? top : "..");
	test_registry();
	test_open_errors();
	test_open_fd();
	return tap_done();
}
