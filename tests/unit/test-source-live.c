// SPDX-License-Identifier: GPL-2.0-or-later
/* test-source-live.c - the live readers, /dev/kmsg and syslog(2), run
 * against the LD_PRELOAD shim (tests/shim/kmsg-shim.c): draining until
 * EAGAIN, SEEK_DATA after a clear, -w and -W, EPIPE overruns counted from
 * the sequence gap, malformed records, permission errors, the fallback to
 * syslog(2), buffer sizes and read-and-clear.  The program re-executes
 * itself with the shim preloaded. */
#include <dlfcn.h>
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "source/source.h"
#include "tap.h"

static char dir[] = "/tmp/kdmesg-live-XXXXXX";
static char kmsg_path[64], syslog_path[64], log_path[64], seek_path[64];

static void write_file(const char *path, const char *data, const char *mode)
{
	FILE *f = fopen(path, mode);

	if (!f || fputs(data, f) < 0 || fclose(f) != 0)
		abort();
}

/* Open the default source and read up to @max records' seqs into @seq. */
static int drain(unsigned int flags, size_t size, unsigned long long *seq,
		 int max, int *n, struct kd_source_stats *st,
		 const char **kind)
{
	struct kd_source *src;
	struct kd_record r;
	int rc;

	*n = 0;
	rc = kd_source_open(&src, KD_SOURCE_KMSG, NULL, flags, size);
	if (rc < 0)
		return rc;
	if (kind)
		*kind = kd_source_name(src);
	kd_record_init(&r);
	while (*n < max) {
		rc = kd_source_next(src, &r);
		if (rc == -EPIPE) {
			seq[(*n)++] = 0;	/* marks where the overrun was seen */
			continue;
		}
		if (rc <= 0)
			break;
		seq[(*n)++] = r.seq == KD_NO_SEQ ? (unsigned long long)r.ts_usec : r.seq;
	}
	if (st)
		*st = *kd_source_stats(src);
	kd_record_free(&r);
	kd_source_close(src);
	return rc;
}

static bool seqs_are(const unsigned long long *got, int n, const char *want)
{
	char buf[256] = "";
	size_t len = 0;

	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%llu",
					i ? " " : "", got[i]);
	return tap_is_str(buf, want, "sequence of records");
}

static void test_drain(void)
{
	unsigned long long s[16];
	struct kd_source_stats st;
	const char *kind = "";
	int n;

	write_file(kmsg_path,
		   "6,1,100,-;one\n"
		   "6,2,200,-,caller=T5;two\n SUBSYSTEM=pci\n"
		   "this is not a record\n"
		   "6,3,300,c;three\n", "w");
	tap_is_int(drain(0, 0, s, 16, &n, &st, &kind), 0, "non-blocking drain ends at EAGAIN");
	tap_ok(strcmp(kind, KD_SOURCE_KMSG) == 0, "kind is kmsg");
	seqs_are(s, n, "1 2 3");
	tap_is_int((long long)st.malformed, 1, "malformed device record counted");
	tap_is_int((long long)st.records, 3, "records counted");

	/* Records appended after a clear: SEEK_DATA starts after it. */
	write_file(kmsg_path, "#CLEAR\n6,4,400,-;after clear\n", "a");
	drain(0, 0, s, 16, &n, NULL, NULL);
	seqs_are(s, n, "4");

	write_file(kmsg_path, "", "w");
	tap_is_int(drain(0, 0, s, 16, &n, NULL, &kind), 0, "empty device");
	tap_is_int(n, 0, "no records");
	tap_ok(strcmp(kind, KD_SOURCE_KMSG) == 0, "no fallback for an empty device");
}

static void test_epipe(void)
{
	unsigned long long s[16];
	struct kd_source_stats st;
	int n;

	write_file(kmsg_path,
		   "6,10,1,-;a\n6,11,2,-;b\n#EPIPE\n6,15,3,-;c\n6,16,4,-;d\n", "w");
	drain(0, 0, s, 16, &n, &st, NULL);
	seqs_are(s, n, "10 11 0 15 16");
	tap_is_int((long long)st.lost, 3, "three records lost (seq 12..14)");
	tap_is_int((long long)st.records, 4, "every surviving record returned");

	write_file(kmsg_path, "#EPIPE\n6,50,1,-;first\n6,51,2,-;second\n", "w");
	drain(0, 0, s, 16, &n, &st, NULL);
	seqs_are(s, n, "50 51");
	tap_is_int((long long)st.lost, 0, "overrun before the first record is not a loss");
}

/*
 * In a child: append @rec to the fake /dev/kmsg once the reader has
 * positioned itself (the shim's lseek note in @seek_path), or after 20 s.
 */
static void append_after_seek(const char *rec)
{
	struct stat st;

	for (int i = 0; i < 2000; i++) {
		if (stat(seek_path, &st) == 0 && st.st_size > 0)
			break;
		usleep(10 * 1000);
	}
	write_file(kmsg_path, rec, "a");
}

static void test_follow(void)
{
	unsigned long long s[16];
	pid_t pid;
	int n, rc;

	/* -w: old records, then one appended while we wait. */
	write_file(kmsg_path, "6,1,1,-;old\n#CLEAR\n6,2,2,-;kept\n", "w");
	/*
	 * The longest a blocked read waits for a record that never comes:
	 * long, so that a loaded machine (ASan, a kernel build) cannot make
	 * a record that does come late; a passing run never waits it out.
	 */
	setenv("KDMESG_SHIM_WAIT_MS", "20000", 1);
	pid = fork();
	if (pid == 0) {
		usleep(200 * 1000);
		write_file(kmsg_path, "6,3,3,-;new\n", "a");
		_exit(0);
	}
	rc = drain(KD_SOURCE_FOLLOW, 0, s, 2, &n, NULL, NULL);
	waitpid(pid, NULL, 0);
	tap_is_int(rc, 1, "follow: records keep coming");
	seqs_are(s, n, "2 3");

	/*
	 * -W: only what arrives after the start.  The record is appended
	 * once the reader has moved (not after a fixed head start, which a
	 * loaded machine can outlast: the record was then before the end
	 * the reader skipped to, and never read).  A reader that does not
	 * skip to the end reads the older records first and fails.
	 */
	unlink(seek_path);
	setenv("KDMESG_SHIM_SEEK_LOG", seek_path, 1);
	pid = fork();
	if (pid == 0) {
		append_after_seek("6,4,4,-;newer\n");
		_exit(0);
	}
	rc = drain(KD_SOURCE_FOLLOW | KD_SOURCE_FOLLOW_NEW, 0, s, 1, &n, NULL, NULL);
	waitpid(pid, NULL, 0);
	unsetenv("KDMESG_SHIM_SEEK_LOG");
	seqs_are(s, n, "4");

	/* Nothing arrives: the shim interrupts the blocked read. */
	setenv("KDMESG_SHIM_WAIT_MS", "100", 1);
	rc = drain(KD_SOURCE_FOLLOW_NEW, 0, s, 1, &n, NULL, NULL);
	tap_is_int(rc, -EINTR, "an interrupted blocking read is -EINTR");
	unsetenv("KDMESG_SHIM_WAIT_MS");
}

static void test_errors_and_fallback(void)
{
	unsigned long long s[16];
	const char *kind = "";
	struct kd_source *src;
	FILE *f;
	char line[64];
	int n;

	write_file(syslog_path, "<6>[    1.000000] from syslog\n<4>[    2.000000] two\n", "w");

	setenv("KDMESG_SHIM_KMSG_OPEN_ERRNO", "1", 1);		/* EPERM */
	setenv("KDMESG_SHIM_SYSLOG_ERRNO", "1", 1);
	tap_is_int(drain(0, 0, s, 16, &n, NULL, NULL), -EPERM,
		   "dmesg_restrict: -EPERM from /dev/kmsg is returned");
	unsetenv("KDMESG_SHIM_SYSLOG_ERRNO");
	tap_is_int(drain(0, 0, s, 16, &n, NULL, &kind), 0,
		   "/dev/kmsg refused, syslog(2) allowed: fallback");
	tap_ok(strcmp(kind, KD_SOURCE_SYSLOG) == 0, "kind says syslog");
	seqs_are(s, n, "1000000 2000000");
	unsetenv("KDMESG_SHIM_KMSG_OPEN_ERRNO");

	write_file(kmsg_path, "#EINVAL\n6,1,1,-;x\n", "w");
	drain(0, 0, s, 16, &n, NULL, &kind);
	tap_ok(strcmp(kind, KD_SOURCE_SYSLOG) == 0, "old kernel (read EINVAL): fallback to syslog(2)");

	tap_is_int(kd_source_open(&src, KD_SOURCE_KMSG, "/dev/kmsg", 0, 0) == 0 ? 0 : -1, -1,
		   "explicit path: no fallback");

	/* syslog(2) directly: sizes and read-and-clear. */
	unlink(log_path);
	tap_is_int(kd_source_open(&src, KD_SOURCE_SYSLOG, NULL, KD_SOURCE_CLEAR, 0), 0,
		   "syslog source opens");
	kd_source_close(src);
	tap_is_int(kd_source_open(&src, KD_SOURCE_SYSLOG, NULL, 0, 4096), 0,
		   "syslog source with -s 4096");
	kd_source_close(src);
	f = fopen(log_path, "r");
	tap_ok(f && fgets(line, sizeof(line), f), "klogctl calls logged");
	tap_is_str(line, "klogctl 10 0\n", "kernel buffer size asked first");
	tap_ok(f && fgets(line, sizeof(line), f) && strncmp(line, "klogctl 4 ", 10) == 0,
	       "KD_SOURCE_CLEAR reads with SYSLOG_ACTION_READ_CLEAR");
	tap_ok(f && fgets(line, sizeof(line), f) && strcmp(line, "klogctl 3 4104\n") == 0,
	       "-s size: READ_ALL with size + 8, no size query");
	if (f)
		fclose(f);

	/* No size from the kernel: the buffer grows until the log fits. */
	static char big[70000];
	memset(big, 'x', sizeof(big) - 2);
	memcpy(big, "<6>[    9.000000] ", 18);
	big[sizeof(big) - 2] = '\n';
	big[sizeof(big) - 1] = '\0';
	write_file(syslog_path, big, "w");
	setenv("KDMESG_SHIM_SYSLOG_SIZE", "0", 1);
	setenv("KDMESG_SHIM_KMSG_OPEN_ERRNO", "2", 1);
	drain(0, 0, s, 16, &n, NULL, &kind);
	seqs_are(s, n, "9000000");
	unsetenv("KDMESG_SHIM_SYSLOG_SIZE");
	unsetenv("KDMESG_SHIM_KMSG_OPEN_ERRNO");
}

static const char *shim_path(const char *argv0)
{
	static char path[4096];
	const char *top = getenv("top_builddir");
	char *copy;

	if (top) {
		snprintf(path, sizeof(path), "%s/tests/shim/kmsg-shim.so", top);
	} else {
		copy = strdup(argv0);
		snprintf(path, sizeof(path), "%s/../shim/kmsg-shim.so", dirname(copy));
		free(copy);
	}
	return path;
}

int main(int argc, char **argv)
{
	(void)argc;
	if (!getenv("KDMESG_SHIM_REEXEC")) {
		const char *asan = getenv("ASAN_OPTIONS");
		char opts[1024];

		snprintf(opts, sizeof(opts), "%s%sverify_asan_link_order=0",
			 asan ? asan : "", asan ? ":" : "");
		setenv("ASAN_OPTIONS", opts, 1);
		setenv("LD_PRELOAD", shim_path(argv[0]), 1);
		setenv("KDMESG_SHIM_REEXEC", "1", 1);
		execv("/proc/self/exe", argv);
		printf("Bail out! cannot re-execute under the shim\n");
		return 1;
	}
	if (!dlsym(RTLD_DEFAULT, "kd_shim_loaded")) {
		printf("Bail out! the kmsg shim is not preloaded\n");
		return 1;
	}
	if (!mkdtemp(dir)) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	snprintf(kmsg_path, sizeof(kmsg_path), "%s/kmsg", dir);
	snprintf(syslog_path, sizeof(syslog_path), "%s/syslog", dir);
	snprintf(log_path, sizeof(log_path), "%s/log", dir);
	snprintf(seek_path, sizeof(seek_path), "%s/seek", dir);
	setenv("KDMESG_SHIM_KMSG", kmsg_path, 1);
	setenv("KDMESG_SHIM_SYSLOG", syslog_path, 1);
	setenv("KDMESG_SHIM_LOG", log_path, 1);
	write_file(syslog_path, "", "w");

	test_drain();
	test_epipe();
	test_follow();
	test_errors_and_fallback();

	unlink(kmsg_path);
	unlink(syslog_path);
	unlink(log_path);
	unlink(seek_path);
	rmdir(dir);
	return tap_done();
}
