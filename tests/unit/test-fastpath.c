// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-fastpath.c - the speed-ups of the -F/-K readers and the text writer
 * against the general code they short-cut, on generated input that mixes
 * what takes the fast path (printable ASCII) with what must not (control
 * bytes, DEL, bytes >= 0x80, backslashes, multi-line text, dictionary
 * lines, odd headers, over-long records, a last record without its
 * newline), read from a mapped file and through a pipe whose 1 MiB
 * window boundaries fall inside records:
 *
 *  - -F: the one-pass split and plain-text check (source-file.c) gives
 *    the records kd_syslog_record_end() + kd_syslog_parse() give, and
 *    text_plain is set exactly when the text is printable ASCII;
 *  - -K: kd_kmsg_parse_simple() gives what splitting + kd_kmsg_parse()
 *    give, header numbers of 1..21 digits read as strtoull() reads them;
 *  - the writer's default path prints "[%5ld.%06ld] " + "[%*s] " + the
 *    escaped text as printf and kd_escape_write() would, with and without
 *    text_plain, within one second and across seconds;
 *  - -F lines are parsed in one pass (kd_syslog_parse_simple()) as the
 *    general code parses them, and -K headers read 48 bytes at a time
 *    as field by field;
 *  - what readers promise about lent text (text_nl, text_pre) holds,
 *    and the writer's whole-line copies that rely on it print the bytes
 *    it prints for the same records without those promises;
 *  - -K without the dictionary (KD_SOURCE_NO_DICT): the same records
 *    and the same counts of truncated records.
 */
#include <errno.h>
#include <inttypes.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "escape.h"
#include "kmsg-parse.h"
#include "output.h"
#include "source.h"
#include "syslog-parse.h"
#include "tap.h"

/* A small deterministic generator, so a failure can be reproduced. */
static uint64_t rng_state = 20261203;

static unsigned int rnd(unsigned int n)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned int)(rng_state >> 33) % n;
}

struct buf {
	char *p;
	size_t len, cap;
};

static void put(struct buf *b, const void *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			abort();
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void puts_(struct buf *b, const char *s)
{
	put(b, s, strlen(s));
}

static bool all_plain(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f)
			return false;
	return true;
}

/*
 * Message text: mostly printable ASCII of 0..200 bytes, sometimes one
 * byte that must be escaped or looked at (at any offset, so both the
 * sixteen-byte loop and its tail meet it), sometimes very long.
 * @nl: a newline may appear (followed by a non-'<' byte).
 */
static void gen_text(struct buf *b, bool nl)
{
	static const char *odd[] = {
		"\t", "\x7f", "\x01", "\x1b", "\xc3\xa9", "\xff", "\x80", "\\",
		"\\x41", "\\x0a", "\xe2\x82\xac", "\r",
	};
	unsigned int len = rnd(10) == 0 ? rnd(9000) : rnd(200);
	unsigned int where = rnd(3) == 0 ? rnd(len + 1) : UINT32_MAX;

	for (unsigned int i = 0; i < len; i++) {
		char c = (char)(' ' + rnd(95));

		/* In kmsg text a backslash starts an escape: only on purpose. */
		if (c == '\\' && !nl)
			c = '/';

		if (i == where) {
			if (nl && rnd(4) == 0)
				puts_(b, "\nx");
			else
				puts_(b, odd[rnd(sizeof(odd) / sizeof(odd[0]))]);
		}
		put(b, &c, 1);
	}
}

/* ---- -F ------------------------------------------------------------- */

static void gen_syslog(struct buf *b, unsigned int n, bool final_nl)
{
	char hdr[64];

	for (unsigned int i = 0; i < n; i++) {
		switch (rnd(20)) {
		case 0:		/* no priority */
			snprintf(hdr, sizeof(hdr), "[%5u.%06u] ", i / 7, rnd(1000000));
			break;
		case 1:		/* a caller id, as CONFIG_PRINTK_CALLER writes */
			snprintf(hdr, sizeof(hdr), "<%u>[%5u.%06u] [  T%u] ", rnd(192),
				 i / 7, rnd(1000000), rnd(100000));
			break;
		case 2:		/* an odd stamp */
			snprintf(hdr, sizeof(hdr), "<%u>[%u.%u] ", rnd(8), rnd(100000000), rnd(1000));
			break;
		default:
			snprintf(hdr, sizeof(hdr), "<%u>[%5u.%06u] ", rnd(192),
				 i / 7 + (i > n / 2 ? 123456 : 0), rnd(1000000));
			break;
		}
		puts_(b, hdr);
		gen_text(b, true);
		if (i + 1 < n || final_nl)
			puts_(b, "\n");
	}
}

static bool same_record(const struct kd_record *a, const struct kd_record *b)
{
	if (a->seq != b->seq || a->facility != b->facility ||
	    a->level != b->level || a->ts_usec != b->ts_usec ||
	    a->flags != b->flags || strcmp(a->caller, b->caller) ||
	    a->text_len != b->text_len || memcmp(a->text, b->text, a->text_len) ||
	    a->dict_len != b->dict_len)
		return false;
	for (size_t i = 0; i < a->dict_len; i++)
		if (strcmp(a->dict[i].key, b->dict[i].key) ||
		    a->dict[i].value_len != b->dict[i].value_len ||
		    memcmp(a->dict[i].value, b->dict[i].value, a->dict[i].value_len))
			return false;
	return true;
}

struct recs {
	struct kd_record *r;
	size_t n, cap;
	struct kd_source_stats stats;
	int rc;
	size_t lent;	/* records whose text pointed into the input */
	size_t pre;	/* ... and said the stamp before it is dmesg's */
	size_t promise_bad;	/* text_nl or text_pre that did not hold */
};

static struct kd_record *recs_add(struct recs *rs)
{
	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? rs->cap * 2 : 256;
		rs->r = realloc(rs->r, rs->cap * sizeof(*rs->r));
		if (!rs->r)
			abort();
	}
	kd_record_init(&rs->r[rs->n]);
	return &rs->r[rs->n++];
}

static void recs_free(struct recs *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		kd_record_free(&rs->r[i]);
	free(rs->r);
	memset(rs, 0, sizeof(*rs));
}

/*
 * What a reader promises for the writer's whole-line copies must hold: text_nl, a
 * newline after the text; text_pre, the input bytes before the text are
 * "[%5ld.%06ld] " of the stamp, and no caller id; both only on lent text.
 */
static void check_promises(struct recs *rs, const struct kd_record *r)
{
	bool lent = r->text != r->text_own;

	if ((r->text_nl || r->text_pre) && !lent)
		rs->promise_bad++;
	if (r->text_nl && r->text[r->text_len] != '\n')
		rs->promise_bad++;
	if (r->text_pre) {
		char pre[64];
		int64_t u = r->ts_usec == KD_NO_TIME ? 0 : r->ts_usec;
		int n = snprintf(pre, sizeof(pre), "[%5" PRId64 ".%06" PRId64 "] ",
				 u / 1000000, u % 1000000);

		rs->pre++;
		if (r->caller[0] || n != r->text_pre ||
		    memcmp(r->text - r->text_pre, pre, (size_t)n) != 0)
			rs->promise_bad++;
	}
}

/*
 * Every record of @path (NULL: standard input) through a source opened
 * with @flags.  Each record is copied before the next read, as
 * KD_SOURCE_LEND_TEXT requires.
 */
static void read_source(struct recs *rs, enum kd_source_kind kind, const char *path,
			unsigned int flags)
{
	struct kd_source *src;
	struct kd_record tmp;
	bool copy_bad = false;

	memset(rs, 0, sizeof(*rs));
	rs->rc = kd_source_open(&src, kind, path ? path : "-", flags, 0);
	if (rs->rc < 0)
		return;
	kd_record_init(&tmp);
	while ((rs->rc = kd_source_next(src, &tmp)) == 1) {
		struct kd_record *r = recs_add(rs);

		if (tmp.text != tmp.text_own)
			rs->lent++;
		check_promises(rs, &tmp);
		kd_record_copy(r, &tmp);
		/* A copy owns its text, NUL-terminated, lent or not. */
		if (r->text != r->text_own || r->text[r->text_len] != '\0')
			copy_bad = true;
		/* kd_record_copy() keeps the flag; say so if it did not. */
		if (r->text_plain != tmp.text_plain)
			copy_bad = true;
	}
	if (copy_bad)
		rs->rc = -EFAULT;
	rs->stats = *kd_source_stats(src);
	kd_record_free(&tmp);
	kd_source_close(src);
}

/* The same input through a pipe, so the reader works in windows. */
static void read_pipe(struct recs *rs, enum kd_source_kind kind, const struct buf *b,
		      unsigned int flags)
{
	int fds[2], saved = dup(STDIN_FILENO), status;
	pid_t pid;

	if (pipe(fds) < 0 || saved < 0)
		abort();
	pid = fork();
	if (pid == 0) {
		size_t off = 0;

		close(fds[0]);
		/* Uneven writes, so reads end at odd places. */
		while (off < b->len) {
			size_t n = 1 + rnd(70000);
			ssize_t w;

			if (n > b->len - off)
				n = b->len - off;
			w = write(fds[1], b->p + off, n);
			if (w <= 0)
				_exit(1);
			off += (size_t)w;
		}
		_exit(0);
	}
	close(fds[1]);
	dup2(fds[0], STDIN_FILENO);
	close(fds[0]);
	read_source(rs, kind, NULL, flags);
	dup2(saved, STDIN_FILENO);
	close(saved);
	waitpid(pid, &status, 0);
}

static const char *write_temp(const struct buf *b)
{
	static char path[] = "/tmp/kdmesg-fastpath-XXXXXX";
	int fd;

	strcpy(path + sizeof(path) - 7, "XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || write(fd, b->p, b->len) != (ssize_t)b->len)
		abort();
	close(fd);
	return path;
}

/* What the general syslog code makes of @b: split, then parse. */
static void syslog_reference(struct recs *rs, const struct buf *b)
{
	const char *p = b->p, *end = b->p + b->len, *e;
	unsigned int cut;

	memset(rs, 0, sizeof(*rs));
	while (p < end) {
		struct kd_record *r = recs_add(rs);

		e = kd_syslog_record_end(p, end);
		kd_syslog_parse(p, e ? e : end, !e, r, &cut);
		if (!e)
			break;
		p = e + 1;
	}
}

static void compare(const struct recs *got, const struct recs *want,
		    const char *what, size_t *nplain)
{
	size_t bad = 0, wrong_flag = 0, missed = 0;

	*nplain = 0;
	for (size_t i = 0; i < got->n && i < want->n; i++) {
		const struct kd_record *g = &got->r[i];
		bool plain = all_plain(want->r[i].text, want->r[i].text_len);

		if (!same_record(g, &want->r[i])) {
			if (bad++ == 0)
				tap_diag("%s: record %zu differs", what, i);
		}
		if (g->text_plain && !plain)
			wrong_flag++;
		if (g->text_plain)
			(*nplain)++;
		else if (plain && g->text_len > 0)
			missed++;
	}
	tap_ok(got->rc == 0 && got->n == want->n, "%s: %zu records (want %zu)",
	       what, got->n, want->n);
	tap_ok(bad == 0, "%s: every record as the general parser reads it", what);
	tap_ok(wrong_flag == 0, "%s: text_plain only on printable ASCII text", what);
	tap_diag("%s: %zu plain, %zu plain but not flagged", what, *nplain, missed);
}

static void test_syslog(void)
{
	for (int final_nl = 0; final_nl <= 1; final_nl++) {
		struct buf b = { 0 };
		struct recs want, got;
		const char *path;
		char what[64];
		size_t nplain, nplain_pipe;

		gen_syslog(&b, 30000, final_nl);
		syslog_reference(&want, &b);
		path = write_temp(&b);

		snprintf(what, sizeof(what), "-F mapped, %s final newline",
			 final_nl ? "with" : "without");
		read_source(&got, KD_SOURCE_SYSLOG_FILE, path, 0);
		compare(&got, &want, what, &nplain);
		tap_ok(nplain > want.n / 2, "%s: the fast path is taken (%zu of %zu)",
		       what, nplain, want.n);
		tap_ok(got.lent == 0, "%s: no text lent unless asked", what);
		recs_free(&got);

		snprintf(what, sizeof(what), "-F mapped, lent, %s final newline",
			 final_nl ? "with" : "without");
		read_source(&got, KD_SOURCE_SYSLOG_FILE, path, KD_SOURCE_LEND_TEXT);
		compare(&got, &want, what, &nplain_pipe);
		tap_ok(got.lent == want.n, "%s: every text lent (%zu of %zu)",
		       what, got.lent, want.n);
		tap_ok(got.promise_bad == 0 && got.pre > want.n / 2,
		       "%s: text_nl and text_pre hold (%zu with the stamp)",
		       what, got.pre);
		recs_free(&got);

		snprintf(what, sizeof(what), "-F pipe, %s final newline",
			 final_nl ? "with" : "without");
		read_pipe(&got, KD_SOURCE_SYSLOG_FILE, &b, 0);
		compare(&got, &want, what, &nplain_pipe);
		tap_ok(nplain_pipe == nplain, "%s: same records flagged plain as mapped", what);
		recs_free(&got);

		snprintf(what, sizeof(what), "-F pipe, lent, %s final newline",
			 final_nl ? "with" : "without");
		read_pipe(&got, KD_SOURCE_SYSLOG_FILE, &b, KD_SOURCE_LEND_TEXT);
		compare(&got, &want, what, &nplain_pipe);
		tap_ok(nplain_pipe == nplain && got.lent == want.n,
		       "%s: same plain records as mapped, every text lent", what);
		tap_ok(got.promise_bad == 0 && got.pre > want.n / 2,
		       "%s: text_nl and text_pre hold", what);
		recs_free(&got);
		recs_free(&want);
		unlink(path);
		free(b.p);
	}
}

/*
 * The bytes the sixteen-byte loop does not reach: the first byte of the
 * input, and the last ones (the scan stops one byte before the end).
 */
static void test_syslog_edges(void)
{
	static const struct {
		const char *data;
		size_t len;
	} cases[] = {
#define C(s) { s, sizeof(s) - 1 }
		C("<6>[    1.000000] abc\x7f"),
		C("<6>[    1.000000] ab\x7f\n"),
		C("<6>[    1.000000] ab\x7f\nc"),
		C("<6>[    1.000000] a\n<6>[    2.000000] b\x7f" "c"),
		C("<6>[    1.000000] a\n<6>[    2.000000] bc\x1b"),
		C("\x7f<6>[ 1.0] x\n<5>[    2.000000] ok\n"),
		C("\xc3\xa9<6>[    1.000000] x"),
		C("<6>[    1.000000] 0123456789abcdefghij\t\n<6>[    2.000000] tail\x01"),
		C("<6>[    1.000000] 0123456789abcdefghijklmnopqrstuvwxyz\xff"),
		C("<6>[    1.000000] 0123456789abcdefghijklmnopqrstuvwxyz\n"),
		C("<6>[    1.000000] 0123456789abcdefghijklmnopqrstuvwxyz"),
#undef C
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct buf b = { 0 };
		struct recs want, got;
		const char *path;
		char what[64];
		size_t nplain;

		put(&b, cases[i].data, cases[i].len);
		syslog_reference(&want, &b);
		path = write_temp(&b);
		snprintf(what, sizeof(what), "-F edge case %zu", i);
		read_source(&got, KD_SOURCE_SYSLOG_FILE, path, KD_SOURCE_LEND_TEXT);
		compare(&got, &want, what, &nplain);
		/* The cases whose last text is plain must say so. */
		if (i >= 9)
			tap_ok(nplain == 1, "%s: plain text flagged", what);
		recs_free(&got);
		recs_free(&want);
		unlink(path);
		free(b.p);
	}
}

/* ---- -K ------------------------------------------------------------- */

static void gen_digits(struct buf *b, unsigned int ndig)
{
	char c = (char)('1' + rnd(9));

	put(b, &c, 1);
	for (unsigned int i = 1; i < ndig; i++) {
		c = (char)('0' + rnd(10));
		put(b, &c, 1);
	}
}

static void gen_kmsg(struct buf *b, unsigned int n, bool nul)
{
	static const char *keys[] = { "SUBSYSTEM", "DEVICE", "DRIVER", "x" };
	char tmp[64];

	for (unsigned int i = 0; i < n; i++) {
		unsigned int k = rnd(40);

		if (k == 0)
			puts_(b, " ");			/* leading blank */
		snprintf(tmp, sizeof(tmp), "%u,", rnd(200));
		puts_(b, tmp);
		if (k == 1)
			gen_digits(b, 1 + rnd(21));	/* any length, overflow too */
		else
			gen_digits(b, 1 + rnd(8));
		puts_(b, ",");
		if (k == 2)
			gen_digits(b, 1 + rnd(21));
		else
			gen_digits(b, 1 + rnd(12));
		puts_(b, rnd(10) ? ",-" : ",c");
		if (rnd(3))
			puts_(b, rnd(2) ? ",caller=T1234" : ",caller=C3");
		if (k == 3)
			puts_(b, ",x\n");		/* newline in the header */
		puts_(b, ";");
		gen_text(b, false);
		puts_(b, "\n");
		for (unsigned int d = rnd(3) ? 0 : 1 + rnd(4); d > 0; d--) {
			puts_(b, " ");
			puts_(b, keys[rnd(4)]);
			puts_(b, rnd(20) ? "=" : "");
			snprintf(tmp, sizeof(tmp), rnd(15) ? "+pci:0000:%02x:%02x.%u" : "a\\x%02xb",
				 rnd(256), rnd(32), rnd(8));
			puts_(b, tmp);
			puts_(b, "\n");
		}
		if (nul)
			put(b, "", 1);
	}
}

/* The -K splitter's rule, as record_end() in source-file.c applies it. */
static void kmsg_reference(struct recs *rs, const struct buf *b)
{
	const char *p = b->p, *end = b->p + b->len;

	memset(rs, 0, sizeof(*rs));
	for (;;) {
		const char *s, *e, *next = NULL;
		bool blank = true;
		unsigned int cut;

		while (p < end && (*p == '\0' || *p == '\n'))
			p++;
		if (p == end)
			break;
		for (s = p; ; s = e + 1) {
			for (e = s; e < end && *e != '\n' && *e != '\0'; e++)
				;
			if (e == end) {
				next = e;
				break;
			}
			if (*e == '\0') {
				next = e + 1;
				break;
			}
			if (e + 1 == end || e[1] != ' ') {
				next = ++e;
				break;
			}
		}
		for (s = p; s < e; s++)
			blank = blank && strchr(" \n\t\r", *s);
		if (!blank) {
			struct kd_record *r = recs_add(rs);

			if (kd_kmsg_parse(p, (size_t)(e - p), r, &cut) < 0) {
				kd_record_free(r);
				rs->n--;
				rs->stats.malformed++;
			}
		}
		p = next;
	}
}

static void test_kmsg(void)
{
	for (int nul = 0; nul <= 1; nul++) {
		struct buf b = { 0 };
		struct recs want, got;
		const char *path;
		char what[64];
		size_t nplain;

		gen_kmsg(&b, 30000, nul);
		kmsg_reference(&want, &b);
		path = write_temp(&b);

		snprintf(what, sizeof(what), "-K %s mapped", nul ? "NUL" : "newline");
		read_source(&got, KD_SOURCE_KMSG_FILE, path, 0);
		compare(&got, &want, what, &nplain);
		tap_ok(got.stats.malformed == want.stats.malformed && want.stats.malformed > 0,
		       "%s: %" PRIu64 " malformed records counted (want %" PRIu64 ")",
		       what, got.stats.malformed, want.stats.malformed);
		tap_ok(nplain > want.n / 2, "%s: the fast path is taken (%zu of %zu)",
		       what, nplain, want.n);
		tap_ok(got.lent == 0, "%s: no text lent unless asked", what);
		recs_free(&got);

		snprintf(what, sizeof(what), "-K %s mapped, lent", nul ? "NUL" : "newline");
		read_source(&got, KD_SOURCE_KMSG_FILE, path, KD_SOURCE_LEND_TEXT);
		compare(&got, &want, what, &nplain);
		/*
		 * Only kd_kmsg_parse_simple() lends (a subset of the plain
		 * records); escaped text is unescaped into a copy.
		 */
		tap_ok(got.lent <= nplain && got.lent > want.n / 2,
		       "%s: the plain records' text lent (%zu of %zu)", what, got.lent, want.n);
		tap_ok(got.promise_bad == 0 && got.pre == 0,
		       "%s: text_nl holds, no text_pre", what);

		/* Without the dictionary: the same records and counts else. */
		{
			struct recs nd;
			size_t differ = 0, kept = 0, had = 0;

			snprintf(what, sizeof(what), "-K %s mapped, no dictionary",
				 nul ? "NUL" : "newline");
			read_source(&nd, KD_SOURCE_KMSG_FILE, path,
				    KD_SOURCE_LEND_TEXT | KD_SOURCE_NO_DICT);
			for (size_t i = 0; i < nd.n && i < got.n; i++) {
				size_t dl = got.r[i].dict_len;

				kept += nd.r[i].dict_len > 0;
				had += dl > 0;
				got.r[i].dict_len = nd.r[i].dict_len = 0;
				differ += !same_record(&nd.r[i], &got.r[i]);
				got.r[i].dict_len = dl;
			}
			tap_ok(nd.rc == 0 && nd.n == got.n && differ == 0 &&
			       kept < had / 2 &&
			       nd.stats.truncated == got.stats.truncated &&
			       nd.stats.malformed == got.stats.malformed &&
			       got.stats.truncated > 0,
			       "%s: same records but the dictionary (%zu of %zu kept by the general "
			       "path), %" PRIu64 " truncated as with it", what, kept, had,
			       nd.stats.truncated);
			recs_free(&nd);
		}
		recs_free(&got);

		snprintf(what, sizeof(what), "-K %s pipe", nul ? "NUL" : "newline");
		read_pipe(&got, KD_SOURCE_KMSG_FILE, &b, 0);
		compare(&got, &want, what, &nplain);
		tap_ok(got.stats.malformed == want.stats.malformed,
		       "%s: same malformed count", what);
		recs_free(&got);

		snprintf(what, sizeof(what), "-K %s pipe, lent", nul ? "NUL" : "newline");
		read_pipe(&got, KD_SOURCE_KMSG_FILE, &b, KD_SOURCE_LEND_TEXT);
		compare(&got, &want, what, &nplain);
		tap_ok(got.stats.malformed == want.stats.malformed &&
		       got.lent <= nplain && got.lent > want.n / 2,
		       "%s: same malformed count, plain texts lent", what);
		tap_ok(got.promise_bad == 0 && got.pre == 0,
		       "%s: text_nl holds, no text_pre", what);
		recs_free(&got);
		recs_free(&want);
		unlink(path);
		free(b.p);
	}
}

/* Header numbers of every length: as strtoull() reads them, or refused. */
static void test_kmsg_numbers(void)
{
	struct kd_record a, s;
	size_t bad = 0;

	kd_record_init(&a);
	kd_record_init(&s);
	for (unsigned int round = 0; round < 2000; round++) {
		struct buf b = { 0 };
		unsigned long long seq;
		const char *next;
		unsigned int cut, ndig = 1 + round % 22;
		int rc;

		puts_(&b, "6,");
		if (round % 50 == 0) {
			puts_(&b, "18446744073709551615");	/* UINT64_MAX */
			if (round % 100 == 0)
				b.p[b.len - 1] = '6';		/* just over */
		} else {
			gen_digits(&b, ndig);
		}
		puts_(&b, ",42,-;text\n");
		put(&b, "", 1);
		errno = 0;
		seq = strtoull(b.p + 2, NULL, 10);
		rc = kd_kmsg_parse(b.p, b.len - 1, &a, &cut);
		next = kd_kmsg_parse_simple(b.p, b.p + b.len, &s, &cut, ndig % 2); /* both modes */
		if (errno == ERANGE) {
			if (rc != -EINVAL || next)
				bad++;
		} else if (rc != 0 || a.seq != seq || !next || s.seq != seq ||
			   !same_record(&a, &s) || !s.text_plain ||
			   next != b.p + b.len - 1) {
			if (bad++ == 0)
				tap_diag("header %s: rc %d seq %" PRIu64 "/%" PRIu64 " want %llu",
					 b.p, rc, a.seq, s.seq, seq);
		}
		free(b.p);
	}
	tap_ok(bad == 0, "sequence numbers of 1..22 digits read as strtoull() reads them");
	kd_record_free(&a);
	kd_record_free(&s);
}

/*
 * The header read from the first 48 bytes at once (parse_header_fast()
 * in kmsg-parse.c, taken when 64 bytes or more follow the header's start)
 * against the field-by-field parser (taken for shorter input): the same
 * header, once with a short text and once with a long one, must parse to
 * the same fields or fail alike.  Headers of every shape: numbers of 0 to
 * 20 digits, a letter in one, missing fields, flags, caller ids of any
 * length, unknown fields, newline or NUL bytes, no ';' at all.
 */
static void gen_header(struct buf *b)
{
	static const char *fields[] = {
		"-", "c", "+", "caller=T1234", "caller=C3", "caller=", "x=y", "",
		"caller=T123456789012345", "c\n", "cx", "\\x", "caller=T1\n2",
	};
	char tmp[8];

	for (int f = 0; f < 3; f++) {
		unsigned int k = rnd(30);

		if (k == 0)
			;				/* empty */
		else if (k == 1)
			gen_digits(b, 10 + rnd(11));	/* long, may overflow */
		else
			gen_digits(b, 1 + rnd(f == 0 ? 3 : 12));
		if (rnd(40) == 0) {
			snprintf(tmp, sizeof(tmp), "%c", "a \n"[rnd(3)]);
			puts_(b, tmp);
		}
		if (rnd(60) == 0)
			put(b, "", 1);
		if (f < 2)
			puts_(b, rnd(50) ? "," : ";");
	}
	for (unsigned int n = rnd(4); n > 0; n--) {
		puts_(b, ",");
		puts_(b, fields[rnd(sizeof(fields) / sizeof(fields[0]))]);
	}
	if (rnd(50))
		puts_(b, ";");
}

static void test_kmsg_header(void)
{
	struct kd_record a, l;
	size_t bad = 0, parsed = 0, tried = 0;

	kd_record_init(&a);
	kd_record_init(&l);
	for (unsigned int round = 0; round < 20000; round++) {
		struct buf h = { 0 }, sb = { 0 }, lb = { 0 };
		unsigned int cut;
		int rs, rl;

		gen_header(&h);
		/* Short: under 64 bytes in all, the field-by-field parser. */
		if (h.len > 60) {
			free(h.p);
			continue;
		}
		tried++;
		put(&sb, h.p, h.len);
		puts_(&sb, "t\n");
		put(&lb, h.p, h.len);
		puts_(&lb, "t0123456789012345678901234567890123456789012345678901234567890123456789\n");
		rs = kd_kmsg_parse(sb.p, sb.len, &a, &cut);
		rl = kd_kmsg_parse(lb.p, lb.len, &l, &cut);
		if (rs != rl || (rs == 0 &&
		    (a.seq != l.seq || a.facility != l.facility || a.level != l.level ||
		     a.ts_usec != l.ts_usec || a.flags != l.flags ||
		     strcmp(a.caller, l.caller) != 0))) {
			if (bad++ < 3)
				tap_diag("header differs (%d/%d): %.*s", rs, rl, (int)h.len, h.p);
		}
		parsed += rs == 0;
		free(h.p);
		free(sb.p);
		free(lb.p);
	}
	tap_ok(bad == 0 && parsed > tried / 2 && parsed < tried,
	       "-K headers read at once as field by field (%zu of %zu parse)",
	       parsed, tried);
	kd_record_free(&a);
	kd_record_free(&l);
}

/* ---- the text writer -------------------------------------------------- */

static char *write_records(const struct kd_output_opts *o, struct kd_record *recs,
			   size_t n, size_t *len)
{
	struct kd_writer *w;
	char *out = NULL;
	FILE *f = open_memstream(&out, len);

	if (!f || kd_writer_new(&w, o, f) < 0)
		abort();
	for (size_t i = 0; i < n; i++)
		kd_writer_write(w, &recs[i]);
	kd_writer_finish(w);
	kd_writer_free(w);
	fclose(f);
	return out;
}

static void test_writer(void)
{
	static const int64_t stamps[] = {
		0, 1, 999999, 1000000, 1000001, 1999999, 2000000, 2000000,
		-1, 2000001, KD_NO_TIME, 2000002, 59999999, 60000000,
		99999999999, 100000000000, 100000123456, 123456789012345678,
		-1000001, 123456789012345679, 7,
	};
	static const char *texts[] = {
		"plain text", "a", "caf\xc3\xa9", "ctl\x01", "tab\there",
		"two\nlines", "del\x7f", "bad \xff utf", "x\\x41y",
		"exactly sixteen!", "",
	};
	static const int widths[] = { 6, 11, 16, 17 };
	const size_t ns = sizeof(stamps) / sizeof(stamps[0]);
	struct kd_record recs[sizeof(stamps) / sizeof(stamps[0])];

	for (size_t wi = 0; wi < sizeof(widths) / sizeof(widths[0]); wi++) {
		for (int flag = 0; flag <= 1; flag++) {
			struct kd_output_opts o = { .mode = KD_OUTPUT_TEXT,
						    .caller_width = widths[wi],
						    .batch = flag };
			struct buf want = { 0 };
			size_t len;
			char *got;

			for (size_t i = 0; i < ns; i++) {
				const char *t = texts[i % (sizeof(texts) / sizeof(texts[0]))];
				static const char *callers[] = { "", "T1", "C12", "T1234567890" };
				const char *id = callers[i % 4];
				int64_t u = stamps[i] == KD_NO_TIME ? 0 : stamps[i];
				char pre[128], *esc = NULL;
				size_t esclen = 0;
				int n;
				FILE *f;

				kd_record_init(&recs[i]);
				kd_record_set_text(&recs[i], t, strlen(t));
				recs[i].ts_usec = stamps[i];
				strcpy(recs[i].caller, id);
				/* The flag as a reader would set it: only where true. */
				recs[i].text_plain = flag && all_plain(t, strlen(t));

				if (!*t) {
					puts_(&want, "\n");
					continue;
				}
				n = snprintf(pre, sizeof(pre), "[%5" PRId64 ".%06" PRId64 "] ",
					     u / 1000000, u % 1000000);
				if (*id) {
					char cid[64];

					snprintf(cid, sizeof(cid), "[%*s] ", widths[wi], id);
					cid[22] = '\0';		/* dmesg's buffer */
					strcat(pre, cid);
					n = (int)strlen(pre);
				}
				puts_(&want, pre);
				f = open_memstream(&esc, &esclen);
				kd_escape_write(f, t, strlen(t), n, false);
				fclose(f);
				put(&want, esc, esclen);
				free(esc);
				puts_(&want, "\n");
			}
			got = write_records(&o, recs, ns, &len);
			if (!tap_is_mem(got, len, want.p, want.len, "default text output"))
				tap_diag("caller width %d, text_plain %s", widths[wi],
					 flag ? "set" : "clear");
			free(got);
			free(want.p);
			for (size_t i = 0; i < ns; i++)
				kd_record_free(&recs[i]);
		}
	}
}

struct line_input {
	struct buf in;			/* the lines, as a -F file holds them */
	struct kd_record *recs;
	size_t n;
};

/*
 * Records whose text lies in one input buffer, as a reader lends it:
 * mostly plain text with a newline after it (text_nl), some with the
 * stamp before it written as dmesg writes it (text_pre), some with a
 * caller id, some needing escapes, some empty, some owning their text.
 */
static void line_input_make(struct line_input *z, size_t n)
{
	static const char *odd[] = { "\x01", "caf\xc3\xa9", "two\nlines", "\xff", "\t" };
	size_t *off = calloc(n, sizeof(*off)), *pre = calloc(n, sizeof(*pre));
	size_t *len = calloc(n, sizeof(*len));
	unsigned int *kind = calloc(n, sizeof(*kind));

	memset(z, 0, sizeof(*z));
	z->n = n;
	z->recs = calloc(n, sizeof(*z->recs));
	if (!off || !pre || !len || !kind || !z->recs)
		abort();
	for (size_t i = 0; i < n; i++) {
		int64_t u = (int64_t)i * 1234567 + rnd(1000000);
		char hdr[64];
		size_t start;

		kind[i] = rnd(20);
		snprintf(hdr, sizeof(hdr), "<6>[%5" PRId64 ".%06" PRId64 "] ",
			 u / 1000000, u % 1000000);
		z->recs[i].ts_usec = u;
		puts_(&z->in, hdr);
		pre[i] = strlen(hdr) - 3;
		off[i] = z->in.len;
		start = z->in.len;
		if (kind[i] == 0)
			;				/* empty */
		else if (kind[i] == 1)
			puts_(&z->in, odd[rnd(sizeof(odd) / sizeof(odd[0]))]);
		else
			for (unsigned int k = rnd(150); k > 0; k--)
				put(&z->in, &"abcdefghij :.[]"[rnd(15)], 1);
		len[i] = z->in.len - start;
		puts_(&z->in, "\n");
	}
	/* Pointers into the input only now: it no longer moves. */
	for (size_t i = 0; i < n; i++) {
		struct kd_record *r = &z->recs[i];
		const char *t = z->in.p + off[i];
		int64_t u = r->ts_usec;

		kd_record_init(r);
		r->ts_usec = u;
		if (kind[i] == 2)
			strcpy(r->caller, "T12");
		if (kind[i] == 3) {
			kd_record_set_text(r, t, len[i]);
			r->text_plain = all_plain(t, len[i]);
			continue;
		}
		kd_record_ref_text(r, t, len[i]);
		r->text_plain = all_plain(t, len[i]);
		r->text_nl = kind[i] != 4;
		if (!r->caller[0] && r->text_nl && rnd(4))
			r->text_pre = (unsigned char)pre[i];
	}
	free(off);
	free(pre);
	free(len);
	free(kind);
}

static void line_input_free(struct line_input *z)
{
	for (size_t i = 0; i < z->n; i++)
		kd_record_free(&z->recs[i]);
	free(z->recs);
	free(z->in.p);
}

/*
 * The writer's whole-line copies (text_pre: the input's stamp, text and
 * newline at once; text_nl: text and newline at once) print what it
 * prints for the same records without those promises (owned copies),
 * record by record and batched, across many 64 KiB buffer flushes.
 */
static void test_whole_lines(void)
{
	struct line_input z;
	struct kd_record *copies;

	line_input_make(&z, 5000);
	copies = calloc(z.n, sizeof(*copies));
	if (!copies)
		abort();
	for (size_t i = 0; i < z.n; i++) {
		kd_record_init(&copies[i]);
		kd_record_copy(&copies[i], &z.recs[i]);
	}
	for (int batch = 0; batch <= 1; batch++) {
		struct kd_output_opts o = { .mode = KD_OUTPUT_TEXT, .caller_width = 6,
					    .batch = batch };
		size_t wlen, glen;
		char *want = write_records(&o, copies, z.n, &wlen);
		char *got = write_records(&o, z.recs, z.n, &glen);

		tap_is_mem(got, glen, want, wlen, batch ?
			   "lines copied whole, batched: the same bytes" :
			   "lines copied whole, record by record: the same bytes");
		free(want);
		free(got);
	}
	for (size_t i = 0; i < z.n; i++)
		kd_record_free(&copies[i]);
	free(copies);
	line_input_free(&z);
}

/* kd_record_reset() clears field by field: as good as a new record. */
static void test_record_reset(void)
{
	struct kd_record r, fresh;

	kd_record_init(&r);
	kd_record_init(&fresh);
	kd_record_set_text(&r, "text", 4);
	kd_record_dict_add(&r, "K", 1, "v", 1);
	r.seq = 7;
	r.facility = 3;
	r.level = 2;
	r.ts_usec = 99;
	r.flags = KD_REC_CONT | KD_REC_HAS_PRI;
	strcpy(r.caller, "T123456");
	r.text_plain = true;
	kd_record_reset(&r);
	tap_ok(r.seq == fresh.seq && r.facility == fresh.facility &&
	       r.level == fresh.level && r.ts_usec == fresh.ts_usec &&
	       r.flags == fresh.flags && strcmp(r.caller, fresh.caller) == 0 &&
	       r.text_len == 0 && r.text[0] == '\0' && !r.text_plain &&
	       r.dict_len == 0 && !kd_record_dict_get(&r, "K"),
	       "a reset record reads like a new one");

	/* A lent text is not written to, and reset returns to the own buffer. */
	{
		static const char input[] = "lentXYZ";
		struct kd_record c;

		kd_record_init(&c);
		kd_record_ref_text(&r, input, 4);
		tap_ok(r.text == input && r.text_len == 4 && !r.text_plain,
		       "kd_record_ref_text() points into the input");
		tap_ok(kd_record_copy(&c, &r) == 0 && c.text == c.text_own &&
		       c.text_len == 4 && memcmp(c.text, "lent", 5) == 0,
		       "a copy of a lent record owns a NUL-terminated text");
		kd_record_reset(&r);
		tap_ok(r.text == r.text_own && r.text_len == 0 && r.text[0] == '\0' &&
		       memcmp(input, "lentXYZ", 8) == 0,
		       "reset after lending: own buffer again, input untouched");
		kd_record_ref_text(&r, input, 7);
		tap_ok(kd_record_set_text(&r, r.text + 1, 3) == 0 && r.text == r.text_own &&
		       memcmp(r.text, "ent", 4) == 0,
		       "kd_record_set_text() from a lent text copies it");
		kd_record_free(&c);
	}
	kd_record_free(&r);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	/* UTF-8 where there is one, so the writer's oracle meets mbrtowc(). */
	if (!setlocale(LC_ALL, "C.UTF-8"))
		setlocale(LC_ALL, "");
	test_syslog();
	test_syslog_edges();
	test_kmsg();
	test_kmsg_numbers();
	test_kmsg_header();
	test_writer();
	test_whole_lines();
	test_record_reset();
	return tap_done();
}
