// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz-source-file.c - libFuzzer target: any bytes as a -F and a -K file
 * (a memfd) and as standard input: format detection, record splitting and
 * the stats must hold for every input, and a -K file read with its text
 * and dictionary lent gives the same records.
 *
 * Fast (issue 19: it ran 25 inputs a second): the memfd is made once and
 * rewritten per input, standard input is the same memfd (the reader has
 * one read() path for files and pipes), and the read window is 1 KiB
 * instead of 1 MiB, so inputs of a few KiB reach the paths of records
 * longer than the window (cut, skipped to the next record, a format check
 * on a window without a whole record). */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "source/source.h"
#include "source/source-internal.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void drain(const char *kind, const char *path)
{
	static struct kd_record rec;
	static int init;
	struct kd_source *src;
	uint64_t n = 0;
	int rc;

	if (!init) {
		kd_record_init(&rec);
		init = 1;
	}
	rc = kd_source_open(&src, kind, path, 0, 0);
	if (rc < 0) {
		/* Not a log, an empty one, or one of the other kind (-F/-K). */
		if (rc != -EINVAL && rc != -ENODATA && rc != -EMEDIUMTYPE)
			__builtin_trap();
		return;
	}
	while ((rc = kd_source_next(src, &rec)) == 1) {
		if (rec.text_len > KD_RECORD_MAX || rec.dict_len > KD_DICT_MAX)
			__builtin_trap();
		n++;
	}
	if (rc != 0 || kd_source_stats(src)->records != n)
		__builtin_trap();
	kd_source_close(src);
}

/*
 * The same input read with and without KD_SOURCE_LEND_TEXT (text and -K
 * dictionary lent from the read window, terminated in place): the same
 * records in the same order and the same counts.
 */
static void drain_lent(const char *kind, const char *path)
{
	static struct kd_record own, lent;
	static int init;
	struct kd_source *a, *b;
	int ra, rb;

	if (!init) {
		kd_record_init(&own);
		kd_record_init(&lent);
		init = 1;
	}
	if (kd_source_open(&a, kind, path, 0, 0) < 0)
		return;
	if (kd_source_open(&b, kind, path, KD_SOURCE_LEND_TEXT, 0) < 0)
		__builtin_trap();
	do {
		ra = kd_source_next(a, &own);
		rb = kd_source_next(b, &lent);
		if (ra != rb || (ra == 1 && !kd_record_same(&own, &lent)))
			__builtin_trap();
	} while (ra == 1);
	if (kd_source_stats(a)->truncated != kd_source_stats(b)->truncated ||
	    kd_source_stats(a)->malformed != kd_source_stats(b)->malformed)
		__builtin_trap();
	kd_source_close(a);
	kd_source_close(b);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	kd_file_source_set_window(1024);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	int saved;

	if (fd < 0) {
		fd = memfd_create("fuzz", MFD_CLOEXEC);
		if (fd < 0)
			__builtin_trap();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) < 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		__builtin_trap();
	drain(KD_SOURCE_SYSLOG_FILE, path);
	drain(KD_SOURCE_KMSG_FILE, path);
	drain_lent(KD_SOURCE_KMSG_FILE, path);

	/* As standard input ("-"), from the start of the same file. */
	saved = dup(STDIN_FILENO);
	if (saved >= 0 && lseek(fd, 0, SEEK_SET) == 0 && dup2(fd, STDIN_FILENO) >= 0) {
		drain(KD_SOURCE_KMSG_FILE, "-");
		dup2(saved, STDIN_FILENO);
	}
	if (saved >= 0)
		close(saved);
	return 0;
}
