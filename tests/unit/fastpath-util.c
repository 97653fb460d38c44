// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fastpath-util.c - what the fast-path tests (test-fastpath.c for -F and
 * the text writer, test-fastpath-kmsg.c for -K) share: a deterministic
 * generator of message text, and reading every record of an input
 * through a source, from a file or through a pipe, to compare with what the
 * general parsers make of the same bytes.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fastpath-util.h"
#include "tap.h"

/* A small deterministic generator, so a failure can be reproduced. */
static uint64_t rng_state = 20261203;

unsigned int rnd(unsigned int n)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned int)(rng_state >> 33) % n;
}

void put(struct buf *b, const void *s, size_t n)
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

void puts_(struct buf *b, const char *s)
{
	put(b, s, strlen(s));
}

bool all_plain(const char *s, size_t n)
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
void gen_text(struct buf *b, bool nl)
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

struct kd_record *recs_add(struct recs *rs)
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

void recs_free(struct recs *rs)
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
const char *const *read_keep_keys;

void read_source(struct recs *rs, const char *kind, const char *path,
			unsigned int flags)
{
	struct kd_source *src;
	struct kd_record tmp;
	bool copy_bad = false;

	memset(rs, 0, sizeof(*rs));
	rs->rc = kd_source_open(&src, kind, path ? path : "-", flags, 0);
	if (rs->rc < 0)
		return;
	if (read_keep_keys)
		kd_source_keep_keys(src, read_keep_keys);
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
void read_pipe(struct recs *rs, const char *kind, const struct buf *b,
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

const char *write_temp(const struct buf *b)
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

void compare(const struct recs *got, const struct recs *want,
		    const char *what, size_t *nplain)
{
	size_t bad = 0, wrong_flag = 0, missed = 0;

	*nplain = 0;
	for (size_t i = 0; i < got->n && i < want->n; i++) {
		const struct kd_record *g = &got->r[i];
		bool plain = all_plain(want->r[i].text, want->r[i].text_len);

		if (!kd_record_same(g, &want->r[i])) {
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

void gen_digits(struct buf *b, unsigned int ndig)
{
	char c = (char)('1' + rnd(9));

	put(b, &c, 1);
	for (unsigned int i = 1; i < ndig; i++) {
		c = (char)('0' + rnd(10));
		put(b, &c, 1);
	}
}
