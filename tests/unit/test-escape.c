// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-escape.c - dmesg's escaping of message bytes in the C and a UTF-8
 * locale, --noescape, and continuation-line indenting.
 */
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shared/escape.h"
#include "tap.h"

static void check(const char *in, size_t len, int indent, bool noesc,
		  const char *want, const char *name)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *out = open_memstream(&buf, &n);
	int rc;

	if (!out) {
		tap_ok(false, "%s: open_memstream", name);
		return;
	}
	rc = kd_escape_write(out, in, len, indent, noesc);
	fclose(out);
	if (rc != 0)
		tap_diag("kd_escape_write returned %d", rc);
	tap_is_mem(buf, n, want, strlen(want), name);
	free(buf);
}

/* The checks of the UTF-8 half, skipped one by one without the locale. */
#define UTF8_CHECKS	8

#define CHECK(in, indent, noesc, want, name) \
	check(in, sizeof(in) - 1, indent, noesc, want, name)

/* kd_escape_buf_put_u64() and _i64() (shared/decimal.h) as printf writes them. */
static void check_numbers(void)
{
	char want[32], data[64];
	unsigned int bad = 0, runs = 0;
	uint64_t v = 1, seed = 88172645463325252ull;

	for (int k = 0; k < 64 * 4 + 1000; k++) {
		struct kd_escape_buf b = { .data = data, .cap = sizeof(data) };
		uint64_t u;

		/* Each power of 10 and its neighbours, then random widths. */
		if (k < 64 * 4) {
			u = k % 4 == 0 ? v : k % 4 == 1 ? v - 1 : k % 4 == 2 ? v + 1 : v * 9;
			if (k % 4 == 3)
				v = v > UINT64_MAX / 10 ? 1 : v * 10;
		} else {
			seed ^= seed << 13;
			seed ^= seed >> 7;
			seed ^= seed << 17;
			u = seed >> (seed % 64);
		}
		kd_escape_buf_put_u64(&b, u);
		snprintf(want, sizeof(want), "%llu", (unsigned long long)u);
		bad += b.len != strlen(want) || memcmp(b.data, want, b.len) != 0;
		b.len = 0;
		kd_escape_buf_put_i64(&b, (long long)u);
		snprintf(want, sizeof(want), "%lld", (long long)u);
		bad += b.len != strlen(want) || memcmp(b.data, want, b.len) != 0;
		runs += 2;
	}
	for (int k = 0; k < 2; k++) {
		struct kd_escape_buf b = { .data = data, .cap = sizeof(data) };
		long long s = k ? INT64_MIN : INT64_MAX;

		kd_escape_buf_put_i64(&b, s);
		snprintf(want, sizeof(want), "%lld", s);
		bad += b.len != strlen(want) || memcmp(b.data, want, b.len) != 0;
		b.len = 0;
		kd_escape_buf_put_u64(&b, k ? UINT64_MAX : 0);
		snprintf(want, sizeof(want), "%llu", k ? (unsigned long long)UINT64_MAX : 0ull);
		bad += b.len != strlen(want) || memcmp(b.data, want, b.len) != 0;
		runs += 2;
	}
	tap_ok(bad == 0, "numbers as printf's %%llu and %%lld (%u of them)", runs);
}

int main(void)
{
	bool utf8;

	setlocale(LC_ALL, "C");
	CHECK("plain text", 0, false, "plain text", "printable ASCII as is");
	CHECK("a\tb\rc\vd\fe", 0, false, "a\tb\rc\vd\fe", "white space as is");
	CHECK("esc\033[1m", 0, false, "esc\\x1b[1m", "ESC is escaped");
	CHECK("nul\0x", 0, false, "nul\\x00x", "NUL is escaped");
	CHECK("del\177", 0, false, "del\\x7f", "DEL is escaped");
	CHECK("caf\xc3\xa9", 0, false, "caf\\xc3\\xa9",
	      "bytes >= 0x80 are escaped in the C locale");
	CHECK("esc\033\xff", 0, true, "esc\033\xff", "--noescape copies bytes");
	CHECK("a\nb\nc", 4, false, "a\n    b\n    c", "continuation lines indented");
	CHECK("a\nb\nc", 4, true, "a\n    b\n    c", "--noescape still indents");
	CHECK("a\n", 4, false, "a\n", "no indent after a final newline");
	CHECK("a\n\nb", 2, false, "a\n  \n  b", "every newline before a byte");
	CHECK("a\n\0b", 2, false, "a\n\\x00b", "no indent when NUL follows");
	CHECK("a\nb", 0, false, "a\nb", "indent 0 adds nothing");

	utf8 = setlocale(LC_ALL, "C.UTF-8") || setlocale(LC_ALL, "en_US.UTF-8");
	if (!utf8) {
		tap_skip(UTF8_CHECKS, "no UTF-8 locale (C.UTF-8 or en_US.UTF-8)");
	} else {
		CHECK("caf\xc3\xa9", 0, false, "caf\xc3\xa9", "valid UTF-8 kept");
		CHECK("\xe2\x82\xac 5", 0, false, "\xe2\x82\xac 5", "euro sign kept");
		CHECK("x\xc3(", 0, false, "x\\xc3(", "invalid sequence: one byte escaped");
		CHECK("end\xe2\x82", 0, false, "end\\xe2\\x82",
		      "truncated sequence: each byte escaped");
		CHECK("\xc2\x85|", 0, false, "\\xc2\\x85|",
		      "C1 control U+0085 is not printable: escaped whole");
		CHECK("\xe2\x80\xa8|", 0, false, "\xe2\x80\xa8|",
		      "U+2028 line separator counts as space: kept");
		CHECK("\xed\xa0\x80", 0, false, "\\xed\\xa0\\x80", "surrogates are invalid");
		CHECK("\033", 0, false, "\\x1b", "ESC still escaped in UTF-8");
	}
	check_numbers();
	return tap_done();
}
