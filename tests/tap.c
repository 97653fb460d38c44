// SPDX-License-Identifier: GPL-2.0-or-later
/* tap.c - see tap.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"

static unsigned int tap_count, tap_failed;

static bool tap_vok(bool cond, const char *fmt, va_list ap)
{
	tap_count++;
	if (!cond)
		tap_failed++;
	printf("%sok %u - ", cond ? "" : "not ", tap_count);
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
	return cond;
}

bool tap_ok(bool cond, const char *fmt, ...)
{
	va_list ap;
	bool r;

	va_start(ap, fmt);
	r = tap_vok(cond, fmt, ap);
	va_end(ap);
	return r;
}

void tap_skip(unsigned int n, const char *why)
{
	while (n--) {
		tap_count++;
		printf("ok %u # SKIP %s\n", tap_count, why);
	}
	fflush(stdout);
}

void tap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static void print_escaped(const char *label, const void *p, size_t len)
{
	const unsigned char *s = p;

	printf("#   %s: \"", label);
	for (size_t i = 0; i < len; i++) {
		if (s[i] >= 0x20 && s[i] < 0x7f && s[i] != '"' && s[i] != '\\')
			putchar(s[i]);
		else
			printf("\\x%02x", s[i]);
	}
	puts("\"");
}

bool tap_is_mem(const void *got, size_t got_len, const void *want,
		size_t want_len, const char *name)
{
	bool eq = got && got_len == want_len && memcmp(got, want, want_len) == 0;

	tap_ok(eq, "%s", name);
	if (!eq) {
		if (got)
			print_escaped("got ", got, got_len);
		else
			puts("#   got : NULL");
		print_escaped("want", want, want_len);
	}
	return eq;
}

bool tap_is_str(const char *got, const char *want, const char *name)
{
	if (!got || !want) {
		bool eq = got == want;

		tap_ok(eq, "%s", name);
		if (!eq)
			printf("#   got %s, want %s\n", got ? got : "NULL",
			       want ? want : "NULL");
		return eq;
	}
	return tap_is_mem(got, strlen(got), want, strlen(want), name);
}

bool tap_is_int(long long got, long long want, const char *name)
{
	bool eq = got == want;

	tap_ok(eq, "%s", name);
	if (!eq)
		printf("#   got %lld, want %lld\n", got, want);
	return eq;
}

int tap_done(void)
{
	printf("1..%u\n", tap_count);
	return tap_failed ? 1 : 0;
}
