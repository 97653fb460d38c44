// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz-syslog-parse.c - libFuzzer target: any bytes as a syslog(2) buffer,
 * split and parsed the way the -F reader does; where the one-pass parser
 * (kd_syslog_parse_simple()) takes a line, it must end it and read it as
 * the split and the general parser do. */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source/syslog-parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * @s, from kd_syslog_parse_simple() (lending the text when @lend), against
 * @g from the general parser.
 */
static void check_simple(const struct kd_record *s, const struct kd_record *g,
			 int lend)
{
	if (s->facility != g->facility || s->level != g->level ||
	    s->ts_usec != g->ts_usec || s->flags != g->flags ||
	    strcmp(s->caller, g->caller) != 0 || s->text_len != g->text_len ||
	    memcmp(s->text, g->text, g->text_len) != 0 || !s->text_plain ||
	    s->text_nl != lend || s->text[s->text_len] != (lend ? '\n' : '\0'))
		__builtin_trap();
	for (size_t i = 0; i < s->text_len; i++)
		if ((unsigned char)s->text[i] < 0x20 || (unsigned char)s->text[i] >= 0x7f)
			__builtin_trap();
	if (s->text_pre) {
		char pre[64];
		int n = snprintf(pre, sizeof(pre), "[%5" PRId64 ".%06" PRId64 "] ",
				 s->ts_usec / 1000000, s->ts_usec % 1000000);

		if (n != s->text_pre || memcmp(s->text - n, pre, (size_t)n) != 0)
			__builtin_trap();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct kd_record rec, simple;
	static int init;
	/* An exact-size copy, so ASan sees any read past the end. */
	char *buf = malloc(size ? size : 1);
	const char *p, *end;

	if (!buf)
		return 0;
	if (!init) {
		kd_record_init(&rec);
		kd_record_init(&simple);
		init = 1;
	}
	memcpy(buf, data, size);
	p = buf;
	end = buf + size;
	while (p < end) {
		const char *e;
		bool last;

		p = kd_syslog_skip_nul(p, end);
		if (p == end)
			break;
		e = kd_syslog_record_end(p, end);
		last = !e;
		if (!e)
			e = end;
		if (e <= p || e > end)
			__builtin_trap();
		kd_syslog_parse(p, e, last, &rec, NULL);
		if (rec.text_len > KD_RECORD_MAX || rec.text[rec.text_len] != '\0' ||
		    memchr(rec.caller, '\0', sizeof(rec.caller)) == NULL)
			__builtin_trap();
		for (int lend = 0; lend <= 1; lend++) {
			const char *next = kd_syslog_parse_simple(p, end, &simple, lend);

			if (!next)
				continue;
			if (last || next != e + 1 || (!lend && simple.text_pre))
				__builtin_trap();
			check_simple(&simple, &rec, lend);
		}
		p = last ? end : e + 1;
	}
	free(buf);
	return 0;
}
