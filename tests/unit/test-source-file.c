// SPDX-License-Identifier: GPL-2.0-or-later
/* test-source-file.c - -F and -K readers on the fixtures: both kmsg dump
 * forms give the same records, syslog files match them, bad input is
 * counted or refused, stdin and pipes work, over-long records are cut. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "source/source.h"
#include "source/source-internal.h"
#include "tap.h"

#define MAXREC 64

struct dump {
	struct kd_record r[MAXREC];
	size_t n;
	int rc;				/* open error, or last next() result */
	struct kd_source_stats stats;
	const char *kind;
};

static char fixture_dir[4096];

static const char *fixture(const char *name)
{
	static char path[4200];

	snprintf(path, sizeof(path), "%s/%s", fixture_dir, name);
	return path;
}

static void dump_free(struct dump *d)
{
	for (size_t i = 0; i < MAXREC; i++)
		kd_record_free(&d->r[i]);
}

/* Read every record of @path into @d; keeps the first MAXREC. */
static void read_all(struct dump *d, const char *kind, const char *path)
{
	struct kd_source *src;
	struct kd_record tmp;

	memset(d, 0, sizeof(*d));
	for (size_t i = 0; i < MAXREC; i++)
		kd_record_init(&d->r[i]);
	d->rc = kd_source_open(&src, kind, path, 0, 0);
	if (d->rc < 0)
		return;
	d->kind = kd_source_name(src);
	kd_record_init(&tmp);
	for (;;) {
		struct kd_record *r = d->n < MAXREC ? &d->r[d->n] : &tmp;

		d->rc = kd_source_next(src, r);
		if (d->rc <= 0)
			break;
		d->n++;
	}
	d->stats = *kd_source_stats(src);
	kd_record_free(&tmp);
	kd_source_close(src);
}

static void test_kmsg_dumps(void)
{
	static struct dump nul, nl;
	bool same = true;

	read_all(&nul, KD_SOURCE_KMSG_FILE, fixture("kmsg-nul.dump"));
	read_all(&nl, KD_SOURCE_KMSG_FILE, fixture("kmsg-newline.dump"));
	tap_is_int(nul.rc, 0, "NUL dump read to the end");
	tap_is_int((long long)nul.n, 47, "47 records in the NUL dump");
	tap_is_int((long long)nl.n, 47, "47 records in the newline dump");
	tap_ok(nul.stats.malformed == 0 && nul.stats.truncated == 0, "nothing bad in the NUL dump");
	tap_ok(nl.stats.malformed == 0 && nl.stats.truncated == 0, "nothing bad in the newline dump");
	tap_ok(nul.stats.records == 47, "stats count the records");
	for (size_t i = 0; i < 47; i++)
		same = same && kd_record_same(&nul.r[i], &nl.r[i]);
	tap_ok(same, "both dump forms give identical records");

	tap_ok(nul.r[0].seq == 100 && nul.r[0].level == 0, "first record: seq 100, emerg");
	tap_is_str(nul.r[0].caller, "T0", "first caller");
	tap_is_int((long long)nul.r[8].dict_len, 2, "pci record has two dictionary entries");
	tap_is_str(nul.r[8].dict[1].value, "+pci:0000:00:1f.2", "DEVICE value");
	tap_ok(nul.r[14].flags & KD_REC_CONT, "continuation flag");
	tap_is_str(nul.r[12].caller, "C3", "CPU caller id");
	const char *trace = "Call Trace:\n <TASK>\n dump_stack_lvl+0x48/0x70\n __warn+0x81/0x130\n </TASK>";
	tap_is_mem(nul.r[15].text, nul.r[15].text_len, trace, strlen(trace), "multi-line text unescaped");
	tap_is_mem(nul.r[18].text, nul.r[18].text_len,
		   "usb 2-1: string descriptor 0 read error: \x80\xc3( \xff\xfe end", 51,
		   "invalid UTF-8 kept as bytes");
	tap_is_str(kd_record_dict_get(&nul.r[17], "MANUFACTURER")->value,
		   "Fr\xc3\xbchwald\\Ger\xc3\xa4tebau", "escaped dictionary value");
	tap_ok(nul.r[19].facility == 1 && nul.r[41].facility == 23, "facilities 1..23");
	tap_ok(nul.r[44].ts_usec == 99999999999999LL, "large timestamp");
	tap_is_int((long long)nul.r[46].text_len, 0, "empty text record");
	dump_free(&nul);
	dump_free(&nl);
}

static void test_syslog_files(void)
{
	static struct dump sl, slc, k;

	read_all(&sl, KD_SOURCE_SYSLOG_FILE, fixture("syslog.txt"));
	read_all(&slc, KD_SOURCE_SYSLOG_FILE, fixture("syslog-caller.txt"));
	read_all(&k, KD_SOURCE_KMSG_FILE, fixture("kmsg-nul.dump"));
	tap_is_int(sl.rc, 0, "syslog.txt read to the end");
	/* 47 records, the 5-line Call Trace is 5 syslog lines. */
	tap_is_int((long long)sl.n, 51, "one syslog record per line");
	tap_is_int((long long)slc.n, 51, "same with caller ids");
	tap_ok(strcmp(sl.kind, KD_SOURCE_SYSLOG_FILE) == 0, "kind is syslog file");
	tap_ok(sl.r[0].seq == KD_NO_SEQ, "no sequence numbers");
	tap_is_mem(sl.r[0].text, sl.r[0].text_len, k.r[0].text, k.r[0].text_len,
		   "same text as the kmsg dump");
	tap_is_str(slc.r[15].caller, "T412", "caller id from the syslog prefix");
	tap_is_mem(slc.r[16].text, slc.r[16].text_len, " <TASK>", 7, "continuation line is its own record");
	tap_ok(sl.r[48].ts_usec == 99999999999999LL && sl.r[48].level == 6, "time and level of a late record");
	tap_ok(slc.r[23].facility == 1 && slc.r[23].level == 1, "user facility from <pri>");
	tap_is_int((long long)sl.r[50].text_len, 0, "empty message");
	dump_free(&sl);
	dump_free(&slc);
	dump_free(&k);
}

static void test_bad_input(void)
{
	static struct dump d;

	read_all(&d, KD_SOURCE_KMSG_FILE, fixture("kmsg-malformed.dump"));
	tap_is_int((long long)d.n, 8, "malformed dump: the 8 usable records");
	tap_is_int((long long)d.stats.malformed, 6, "6 malformed records counted");
	tap_is_int((long long)d.stats.truncated, 3, "3 records cut (dict, text, bad dict line)");
	tap_is_int((long long)d.r[3].text_len, KD_RECORD_MAX, "long text bounded");
	tap_is_mem(d.r[7].text, d.r[7].text_len, "bad escapes \\xZZ \\x \\\\ AB", 25,
		   "bad escapes kept");
	dump_free(&d);

	read_all(&d, KD_SOURCE_KMSG_FILE, fixture("kmsg-truncated.dump"));
	tap_is_int((long long)d.n, 2, "truncated dump: 2 records");
	tap_is_int((long long)d.stats.truncated, 1, "the cut one counted as truncated");
	tap_is_int((long long)d.stats.malformed, 0, "and not as malformed");
	dump_free(&d);

	read_all(&d, KD_SOURCE_KMSG_FILE, fixture("kmsg-malformed-newline.dump"));
	tap_is_int((long long)d.n, 3, "newline dump with junk: 3 records");
	tap_is_int((long long)d.stats.malformed, 2, "junk line and short header counted");
	dump_free(&d);

	read_all(&d, KD_SOURCE_SYSLOG_FILE, fixture("syslog-malformed.txt"));
	tap_is_int((long long)d.n, 9, "odd syslog file: every span is a record");
	tap_is_int((long long)d.stats.malformed, 0, "nothing skipped");
	dump_free(&d);

	/* A newline dump with one stray NUL still splits at every header. */
	char tmp[] = "/tmp/kdmesg-nul-XXXXXX";
	int fd = mkstemp(tmp);
	const char mixed[] = "6,1,0,-;one\n SUBSYSTEM=pci\n6,2,0,-;two\n\0006,3,0,-;three\n";

	if (fd < 0 || write(fd, mixed, sizeof(mixed) - 1) != (ssize_t)sizeof(mixed) - 1)
		abort();
	close(fd);
	read_all(&d, KD_SOURCE_KMSG_FILE, tmp);
	unlink(tmp);
	tap_is_int((long long)d.n, 3, "newline dump with a stray NUL: 3 records");
	tap_ok(d.n == 3 && d.r[0].dict_len == 1 && d.r[1].seq == 2 && d.r[2].seq == 3,
	       "each with its own header and dictionary");
	dump_free(&d);

	const char *refused[] = { "binary.elf", "random.bin" };
	for (int i = 0; i < 2; i++) {
		read_all(&d, KD_SOURCE_SYSLOG_FILE, fixture(refused[i]));
		tap_is_int(d.rc, -EINVAL, "-F refuses binary input");
		read_all(&d, KD_SOURCE_KMSG_FILE, fixture(refused[i]));
		tap_is_int(d.rc, -EINVAL, "-K refuses binary input");
	}
	read_all(&d, KD_SOURCE_KMSG_FILE, fixture("syslog.txt"));
	tap_is_int(d.rc, -EMEDIUMTYPE, "-K refuses a syslog-format file: the other format");
	read_all(&d, KD_SOURCE_SYSLOG_FILE, fixture("kmsg-nul.dump"));
	tap_is_int(d.rc, -EMEDIUMTYPE, "-F refuses a /dev/kmsg dump: the other format");
	read_all(&d, KD_SOURCE_SYSLOG_FILE, fixture("kmsg-newline.dump"));
	tap_is_int(d.rc, -EMEDIUMTYPE, "-F refuses a newline /dev/kmsg dump: the other format");
	read_all(&d, KD_SOURCE_SYSLOG_FILE, fixture("empty.txt"));
	tap_is_int(d.rc, -ENODATA, "-F: empty file is -ENODATA");
	read_all(&d, KD_SOURCE_KMSG_FILE, fixture("empty.txt"));
	tap_is_int(d.rc, -ENODATA, "-K: empty file is -ENODATA");
	read_all(&d, KD_SOURCE_KMSG_FILE, fixture("does-not-exist"));
	tap_is_int(d.rc, -ENOENT, "missing file is -ENOENT");
	read_all(&d, KD_SOURCE_SYSLOG_FILE, fixture_dir);
	tap_is_int(d.rc, -EISDIR, "a directory is -EISDIR");
	dump_free(&d);
}

/* Run @fn with stdin fed by a child writing @len bytes of @data. */
static void with_stdin_pipe(const char *data, size_t len, struct dump *d,
			    const char *kind)
{
	int fds[2], saved = dup(STDIN_FILENO);
	pid_t pid;

	if (pipe(fds) < 0)
		abort();
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		while (len > 0) {
			ssize_t n = write(fds[1], data, len);

			if (n <= 0)
				_exit(1);
			data += n;
			len -= (size_t)n;
		}
		_exit(0);
	}
	close(fds[1]);
	dup2(fds[0], STDIN_FILENO);
	close(fds[0]);
	read_all(d, kind, "-");
	dup2(saved, STDIN_FILENO);
	close(saved);
	waitpid(pid, NULL, 0);
}

static void test_stdin(void)
{
	static struct dump d, ref;
	static char big[3 * 1024 * 1024];
	FILE *f;
	size_t n;
	bool same = true;

	f = fopen(fixture("kmsg-nul.dump"), "rb");
	n = f ? fread(big, 1, sizeof(big), f) : 0;
	if (f)
		fclose(f);
	read_all(&ref, KD_SOURCE_KMSG_FILE, fixture("kmsg-nul.dump"));
	with_stdin_pipe(big, n, &d, KD_SOURCE_KMSG_FILE);
	tap_is_int((long long)d.n, 47, "-K - reads a NUL dump from a pipe");
	for (size_t i = 0; i < 47; i++)
		same = same && kd_record_same(&d.r[i], &ref.r[i]);
	tap_ok(same, "same records as from the file");
	dump_free(&d);
	dump_free(&ref);

	/* A 2 MiB record through a pipe: cut, counted, and the next read. */
	n = (size_t)sprintf(big, "6,1,0,-;");
	memset(big + n, 'A', 2 * 1024 * 1024);
	n += 2 * 1024 * 1024;
	n += (size_t)sprintf(big + n, "\n SUBSYSTEM=x\n6,2,5,-;after\n");
	with_stdin_pipe(big, n, &d, KD_SOURCE_KMSG_FILE);
	tap_is_int((long long)d.n, 2, "over-long newline record in a pipe: 2 records");
	tap_is_int((long long)d.stats.truncated, 1, "one counted as truncated");
	tap_is_int((long long)d.r[0].text_len, KD_RECORD_MAX, "its text bounded");
	tap_is_mem(d.r[1].text, d.r[1].text_len, "after", 5, "the next record follows");
	dump_free(&d);

	n = (size_t)sprintf(big, "<6>[    1.000000] ");
	memset(big + n, 'B', 2 * 1024 * 1024);
	n += 2 * 1024 * 1024;
	n += (size_t)sprintf(big + n, "\n<6>[    2.000000] after\n");
	with_stdin_pipe(big, n, &d, KD_SOURCE_SYSLOG_FILE);
	tap_is_int((long long)d.n, 2, "over-long syslog record in a pipe: 2 records");
	tap_is_int((long long)d.stats.truncated, 1, "one counted as truncated");
	tap_ok(d.r[1].ts_usec == 2000000, "the next record follows");
	dump_free(&d);

	with_stdin_pipe("", 0, &d, KD_SOURCE_SYSLOG_FILE);
	tap_is_int(d.rc, -ENODATA, "empty stdin is -ENODATA");
	dump_free(&d);
	with_stdin_pipe("\0\0\0\0", 4, &d, KD_SOURCE_KMSG_FILE);
	tap_is_int(d.rc, -EINVAL, "only NUL bytes is binary (-EINVAL), not empty");
	dump_free(&d);
	with_stdin_pipe("\0\0\0\0", 4, &d, KD_SOURCE_SYSLOG_FILE);
	tap_is_int(d.rc, -EINVAL, "-F: only NUL bytes is binary too");
	dump_free(&d);
	memset(big, '\x01', 4096);
	with_stdin_pipe(big, 4096, &d, KD_SOURCE_SYSLOG_FILE);
	tap_is_int(d.rc, -EINVAL, "-F: control bytes without NUL and without a record line are binary");
	dump_free(&d);
	/* Most lines are records: read, whatever bytes their text holds. */
	memcpy(big, "<6>[    1.000000] ", 18);
	with_stdin_pipe(big, 4096, &d, KD_SOURCE_SYSLOG_FILE);
	tap_ok(d.rc == 0 && d.n == 1, "-F: a record line whose text is control bytes is read");
	dump_free(&d);
	memcpy(big, "\0\0\x01\x02\n", 5);
	memcpy(big + 5, "<6>[    1.000000] a\n<6>[    2.000000] b\0c\n<4>[    3.000000] d\n", 60);
	with_stdin_pipe(big, 65, &d, KD_SOURCE_SYSLOG_FILE);
	tap_ok(d.rc == 0 && d.n == 4, "-F: three record lines of four, NUL bytes in them: read");
	dump_free(&d);

	/* stdin redirected from a regular file. */
	int saved = dup(STDIN_FILENO), fd = open(fixture("syslog.txt"), O_RDONLY);

	dup2(fd, STDIN_FILENO);
	close(fd);
	read_all(&d, KD_SOURCE_SYSLOG_FILE, "-");
	dup2(saved, STDIN_FILENO);
	close(saved);
	tap_is_int((long long)d.n, 51, "-F - with stdin from a file");
	dump_free(&d);
}

/* A live pipe: the first record must come before the writer is done. */
static void test_live_pipe(void)
{
	int data[2], go[2], saved = dup(STDIN_FILENO);
	struct kd_source *src = NULL;
	struct kd_record r;
	char c = 0;
	pid_t pid;
	int rc;

	if (pipe(data) < 0 || pipe(go) < 0)
		abort();
	pid = fork();
	if (pid == 0) {
		close(data[0]);
		close(go[1]);
		if (write(data[1], "6,1,0,-;first\n\0", 15) != 15 ||
		    read(go[0], &c, 1) != 1 ||
		    write(data[1], "6,2,1,-;second\n\0", 16) != 16)
			_exit(1);
		_exit(0);
	}
	close(data[1]);
	close(go[0]);
	dup2(data[0], STDIN_FILENO);
	close(data[0]);
	alarm(10);	/* a reader that waits for more input hangs: fail */
	kd_record_init(&r);
	rc = kd_source_open(&src, KD_SOURCE_KMSG_FILE, "-", 0, 0);
	tap_is_int(rc, 0, "a live pipe opens after its first record");
	rc = rc == 0 ? kd_source_next(src, &r) : rc;
	tap_ok(rc == 1 && r.seq == 1, "first record before the writer goes on");
	if (write(go[1], "x", 1) != 1)
		abort();
	close(go[1]);
	rc = src ? kd_source_next(src, &r) : -1;
	tap_ok(rc == 1 && r.seq == 2, "then the second");
	tap_is_int(src ? kd_source_next(src, &r) : -1, 0, "then the end");
	alarm(0);
	kd_source_close(src);
	kd_record_free(&r);
	dup2(saved, STDIN_FILENO);
	close(saved);
	waitpid(pid, NULL, 0);
}

/*
 * The fuzz target's small window (kd_file_source_set_window()): a record
 * longer than the window is cut and counted, the next one read; a line
 * without a header is malformed at any length; 0 restores the default.
 */
static void test_small_window(void)
{
	static char buf[4096];
	static struct dump d;
	size_t n = 0;

	kd_file_source_set_window(256);
	n += (size_t)sprintf(buf + n, "6,1,1000,-;before\n6,2,2000,-;");
	memset(buf + n, 'c', 1000);
	n += 1000;
	n += (size_t)sprintf(buf + n, "\n SUBSYSTEM=x\n");
	memset(buf + n, 'a', 700);
	n += 700;
	n += (size_t)sprintf(buf + n, "\n6,3,3000,-;after\n");
	with_stdin_pipe(buf, n, &d, KD_SOURCE_KMSG_FILE);
	tap_ok(d.rc == 0 && d.n == 3 && d.stats.truncated == 1 && d.stats.malformed == 1,
	       "256-byte window: the long record cut (truncated), the header-less line malformed");
	tap_ok(d.n == 3 && d.r[1].text_len < 256 && d.r[2].ts_usec == 3000,
	       "the cut record's text within the window, the next record whole");
	dump_free(&d);
	with_stdin_pipe(buf + 31, n - 31, &d, KD_SOURCE_KMSG_FILE);
	tap_is_int(d.rc, -EINVAL, "256-byte window: input that starts with a header-less line is not a log");
	dump_free(&d);
	kd_file_source_set_window(0);
	with_stdin_pipe(buf, n, &d, KD_SOURCE_KMSG_FILE);
	tap_ok(d.rc == 0 && d.n == 3 && d.stats.truncated == 0 && d.r[1].text_len == 1000,
	       "the default window again: the long record whole");
	dump_free(&d);
}

int main(void)
{
	const char *top = getenv("top_srcdir");

	signal(SIGPIPE, SIG_IGN);
	snprintf(fixture_dir, sizeof(fixture_dir), "%s/tests/fixtures", top ? top : "..");
	test_kmsg_dumps();
	test_syslog_files();
	test_bad_input();
	test_small_window();
	test_stdin();
	test_live_pipe();
	return tap_done();
}
