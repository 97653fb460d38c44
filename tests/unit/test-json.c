// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-json.c - lib/sink/json.c: the one JSON string escaper (every flag,
 * every byte class, a special byte at every position around the 16-byte
 * steps of the fast path) against a byte-at-a-time reference, and the
 * util-linux layout of objects, arrays and values.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shared/utf8.h"
#include "sink/json.h"
#include "tap.h"

/* A memory buffer for the writer (no stream). */
struct mem {
	struct kd_escape_buf b;
};

static void mem_init(struct mem *m)
{
	memset(m, 0, sizeof(*m));
}

static void escape(struct mem *m, const char *s, size_t len, unsigned int flags)
{
	m->b.len = 0;
	kd_json_escape(&m->b, s, len, flags);
}

/* The rules of json.h, one byte at a time: what the fast path must equal. */
static size_t reference(char *out, const char *s, size_t len, unsigned int flags)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = p[i];
		size_t n;

		if (c == 0 && (flags & KD_JSON_TO_NUL))
			break;
		if (c == '"' || c == '\\') {
			out[o++] = '\\';
			out[o++] = (char)c;
		} else if (c == '\b' || c == '\t' || c == '\n' || c == '\f' || c == '\r') {
			out[o++] = '\\';
			out[o++] = c == '\b' ? 'b' : c == '\t' ? 't' : c == '\n' ? 'n' :
				   c == '\f' ? 'f' : 'r';
		} else if (c < 0x20 || c == 0x7f) {
			o += (size_t)sprintf(out + o, "\\u%04x", c);
		} else if (c >= 0x80) {
			n = kd_utf8_len(p + i, len - i);
			if (n == 2 && c == 0xc2 && p[i + 1] < 0xa0) {
				o += (size_t)sprintf(out + o, "\\u%04x", p[i + 1]);
				i++;
			} else if (n) {
				memcpy(out + o, p + i, n);
				o += n;
				i += n - 1;
			} else {
				memcpy(out + o, "\\ufffd", 6);
				o += 6;
			}
		} else if ((flags & KD_JSON_LOWER) && c >= 'A' && c <= 'Z') {
			out[o++] = (char)(c - 'A' + 'a');
		} else {
			out[o++] = (char)c;
		}
	}
	return o;
}

static void check_escape(const char *s, size_t len, unsigned int flags, const char *want,
			 const char *name)
{
	struct mem m;

	mem_init(&m);
	escape(&m, s, len, flags);
	tap_is_mem(m.b.data, m.b.len, want, strlen(want), name);
	free(m.b.data);
}

#define ESC(lit, flags, want, name)	check_escape(lit, sizeof(lit) - 1, flags, want, name)

/* Every special byte at every position 0..47 of strings of 1..48 bytes. */
static void sweep(void)
{
	static const unsigned char special[] = {
		'"', '\\', '\n', 0x01, 0x1f, 0x7f, 0x80, 0xff, 0xc3, 0xc2, 0, 'A',
	};
	static const unsigned int flags[] = {
		0, KD_JSON_TO_NUL, KD_JSON_LOWER, KD_JSON_LOWER | KD_JSON_TO_NUL,
	};
	char in[48], want[48 * 6 + 1];
	struct mem m;
	unsigned int bad = 0, runs = 0;

	mem_init(&m);
	for (size_t f = 0; f < sizeof(flags) / sizeof(flags[0]); f++)
		for (size_t len = 1; len <= sizeof(in); len++)
			for (size_t at = 0; at < len; at++)
				for (size_t k = 0; k < sizeof(special); k++) {
					size_t n;

					memset(in, 'a', sizeof(in));
					in[at] = (char)special[k];
					n = reference(want, in, len, flags[f]);
					escape(&m, in, len, flags[f]);
					runs++;
					if (m.b.len != n || memcmp(m.b.data, want, n) != 0) {
						if (!bad++)
							tap_diag("differs: flags %u, len %zu, byte 0x%02x at %zu",
								 flags[f], len, special[k], at);
					}
				}
	tap_ok(bad == 0, "%u strings with a special byte anywhere: as the reference", runs);
	free(m.b.data);
}

/* Valid and invalid UTF-8 at the end of strings of every length. */
static void sweep_utf8(void)
{
	static const char *const seqs[] = {
		"\xc3\xa4", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xc3", "\xe2\x82",
		"\xed\xa0\x80", "\xf4\x90\x80\x80", "\xc0\xaf", "\xe0\x80\xaf", "\xc2\x85",
	};
	char in[64], want[64 * 6 + 1];
	struct mem m;
	unsigned int bad = 0, runs = 0;

	mem_init(&m);
	for (size_t k = 0; k < sizeof(seqs) / sizeof(seqs[0]); k++)
		for (size_t pre = 0; pre < 40; pre++) {
			size_t sl = strlen(seqs[k]), len = pre + sl, n;

			memset(in, 'z', pre);
			memcpy(in + pre, seqs[k], sl);
			n = reference(want, in, len, 0);
			escape(&m, in, len, 0);
			runs++;
			if (m.b.len != n || memcmp(m.b.data, want, n) != 0)
				bad++;
		}
	tap_ok(bad == 0, "%u strings ending in (in)valid UTF-8: as the reference", runs);
	free(m.b.data);
}

static void layout(void)
{
	struct mem m;
	struct kd_json j;
	const char *want =
		"{\n"
		"   \"dmesg\": [\n"
		"      {\n"
		"         \"pri\": 6,\n"
		"         \"msg\": \"a\\\"b\",\n"
		"         \"Key\": null\n"
		"      },{\n"
		"         \"list\": [\n"
		"             \"x\", \"y\"\n"	/* an unnamed value: indent and a blank */
		"         ],\n"
		"         \"time\":     1.000000\n"
		"      }\n"
		"   ]\n"
		"}\n";

	mem_init(&m);
	kd_json_init(&j, &m.b);
	kd_json_open(&j, NULL, KD_JSON_OBJECT);
	kd_json_open(&j, "DMESG", KD_JSON_ARRAY);	/* lower-cased as util-linux does */
	kd_json_open(&j, NULL, KD_JSON_OBJECT);
	kd_json_value_u64(&j, "pri", 6);
	kd_json_value_str(&j, "msg", "a\"b\0c", 5);	/* stops at NUL */
	kd_json_open_exact(&j, "Key", KD_JSON_VALUE);	/* as given */
	kd_escape_buf_puts(&m.b, "null");
	kd_json_close(&j, KD_JSON_VALUE);
	kd_json_close(&j, KD_JSON_OBJECT);
	kd_json_open(&j, NULL, KD_JSON_OBJECT);
	kd_json_open(&j, "list", KD_JSON_ARRAY);
	kd_json_value_str(&j, NULL, "x", 1);
	kd_json_value_str(&j, NULL, "y", 1);
	kd_json_close(&j, KD_JSON_ARRAY);
	kd_json_value_raw(&j, "time", "    1.000000");
	kd_json_close(&j, KD_JSON_OBJECT);
	kd_json_close(&j, KD_JSON_ARRAY);
	kd_json_close(&j, KD_JSON_OBJECT);
	tap_is_mem(m.b.data, m.b.len, want, strlen(want), "layout as util-linux writes it");
	free(m.b.data);
}

/*
 * kd_json_string(): the quoted reference of every string of sweep() with
 * flags 0, and of plain strings of 0..48 bytes, with room in the buffer
 * (its fast path) and without (a memory buffer that has to grow).
 */
static void sweep_string(void)
{
	static const unsigned char special[] = { '"', '\\', '\n', 0x01, 0x7f, 0x80, 0xc3, 0, 'x' };
	char in[48], want[48 * 6 + 3];
	unsigned int bad = 0, runs = 0;

	for (int room = 0; room < 2; room++)
		for (size_t len = 0; len <= sizeof(in); len++)
			for (size_t at = 0; at < (len ? len : 1); at++)
				for (size_t k = 0; k < sizeof(special); k++) {
					struct mem m;
					size_t n;

					mem_init(&m);
					if (room) {
						m.b.cap = 1024;
						m.b.data = malloc(m.b.cap);
					}
					memset(in, 'a', sizeof(in));
					if (len)
						in[at] = (char)special[k];
					want[0] = '"';
					n = 1 + reference(want + 1, in, len, 0);
					want[n++] = '"';
					kd_json_string(&m.b, in, len);
					runs++;
					if (m.b.len != n || memcmp(m.b.data, want, n) != 0) {
						if (!bad++)
							tap_diag("differs: len %zu, byte 0x%02x at %zu, room %d",
								 len, special[k], at, room);
					}
					free(m.b.data);
				}
	tap_ok(bad == 0, "kd_json_string(): %u strings quoted as the reference", runs);
}

int main(void)
{
	ESC("plain text 0123456789 with more than sixteen bytes", 0,
	    "plain text 0123456789 with more than sixteen bytes", "plain bytes copied");
	ESC("q\"b\\n\nt\tr\rf\fb\b", 0, "q\\\"b\\\\n\\nt\\tr\\rf\\fb\\b", "short forms");
	ESC("\x01\x1f", 0, "\\u0001\\u001f", "other controls as \\u00XX");
	ESC("a\0b", 0, "a\\u0000b", "NUL escaped without TO_NUL");
	ESC("a\0b", KD_JSON_TO_NUL, "a", "TO_NUL stops at NUL (dmesg -J)");
	ESC("d\x7f", 0, "d\\u007f", "DEL escaped: inert on a terminal");
	ESC("c\xc2\x9b" "1m\xc2\xa0", 0, "c\\u009b" "1m\xc2\xa0", "C1 controls escaped, U+00A0 copied");
	ESC("Name_X", KD_JSON_LOWER, "name_x", "LOWER: member names lower-cased");
	ESC("Ger\xc3\xa4t \xe2\x82\xac", 0, "Ger\xc3\xa4t \xe2\x82\xac", "valid UTF-8 copied");
	ESC("\xff\xc3(\xed\xa0\x80", 0, "\\ufffd\\ufffd(\\ufffd\\ufffd\\ufffd",
	    "each invalid byte as U+FFFD (surrogates, truncated, stray)");
	sweep();
	sweep_utf8();
	sweep_string();
	layout();
	return tap_done();
}
