// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * floor-syslog.c - the least work that `kdmesg -F FILE` must do, as one
 * loop, to show how far kdmesg is from it and how far it is from cat.
 *
 * It reads FILE as kdmesg does (256 KiB read()s), and for each
 * "<pri>[ sec.usec] text" line reads the three numbers with the parsers'
 * word-at-a-time helpers (lib/source/scan.h), finds the end of the line with the
 * same printable-ASCII scan that also proves the text needs no escaping,
 * and copies "[ sec.usec] text\n" to a 64 KiB output buffer that it
 * writes to standard output.  Other lines (no "<", continuation lines)
 * are copied as they are.  No record model, no filter, no options, no
 * checks of what kdmesg checks: not a reader, a measuring stick.
 *
 * Usage: floor-syslog FILE > OUT; prints on standard error the number of
 * lines and a checksum of the numbers, so the compiler cannot drop them.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "source/scan.h"

#define CHUNK	(256 * 1024)
#define OUT_CAP	(64 * 1024)

static char out[OUT_CAP];
static size_t out_len;

static void put(const char *p, size_t n)
{
	if (out_len + n > OUT_CAP) {
		if (write(STDOUT_FILENO, out, out_len) != (ssize_t)out_len)
			exit(1);
		out_len = 0;
	}
	if (n > OUT_CAP) {
		if (write(STDOUT_FILENO, p, n) != (ssize_t)n)
			exit(1);
		return;
	}
	memcpy(out + out_len, p, n);
	out_len += n;
}

/* One "<pri>[ sec.usec] text\n" line at @p (64 bytes or more readable). */
static const char *line(const char *p, const char *end, uint64_t *sum)
{
	const char *q, *lb, *nl;
	unsigned int k, pri;
	uint64_t x, sec, usec;

	x = kd_scan_load8(p + 1);
	k = kd_scan_lead_digits8(x);
	if (k == 0 || k > 3 || p[1 + k] != '>' || p[2 + k] != '[')
		return NULL;
	pri = kd_scan_digits8_value(x, k);
	lb = p + 2 + k;
	for (q = lb + 1; *q == ' ' && q - lb < 12; q++)
		;
	x = kd_scan_load8(q);
	k = kd_scan_lead_digits8(x);
	if (k == 0 || k > 7 || q[k] != '.')
		return NULL;
	sec = kd_scan_digits8_value(x, k);
	usec = kd_scan_digits8_value(kd_scan_load8(q + k + 1), 6);
	nl = kd_scan_plain(q + k + 9, end);
	if (nl == end || *nl != '\n')
		return NULL;
	*sum += pri + sec * 1000000 + usec;
	put(lb, (size_t)(nl + 1 - lb));
	return nl + 1;
}

/* The lines of the window [@p, @end); returns where the unread part starts. */
static const char *lines_of(const char *p, const char *end, int eof,
			    size_t *lines, uint64_t *sum)
{
	const char *next, *nl;

	while (p < end && (end - p >= 64 || eof)) {
		next = NULL;
		if (*p == '<' && end - p >= 64)
			next = line(p, end, sum);
		if (!next) {
			nl = memchr(p, '\n', (size_t)(end - p));
			if (!nl && !eof)
				break;
			next = nl ? nl + 1 : end;
			put(p, (size_t)(next - p));
		}
		(*lines)++;
		p = next;
	}
	return p;
}

int main(int argc, char **argv)
{
	static char buf[CHUNK];
	size_t keep = 0, lines = 0;
	uint64_t sum = 0;
	const char *p;
	ssize_t n;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: floor-syslog FILE\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	do {
		if (keep == CHUNK) {	/* a line longer than the window */
			put(buf, keep);
			keep = 0;
		}
		n = read(fd, buf + keep, CHUNK - keep);
		if (n < 0) {
			perror(argv[1]);
			return 1;
		}
		p = lines_of(buf, buf + keep + (size_t)n, n == 0, &lines, &sum);
		keep = (size_t)(buf + keep + (size_t)n - p);
		memmove(buf, p, keep);
	} while (n > 0);
	if (write(STDOUT_FILENO, out, out_len) != (ssize_t)out_len)
		return 1;
	fprintf(stderr, "%zu lines, checksum %" PRIu64 "\n", lines, sum);
	return 0;
}
