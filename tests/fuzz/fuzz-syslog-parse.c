// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz-syslog-parse.c - libFuzzer target: any bytes as a syslog(2) buffer,
 * split and parsed the way the -F reader does. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "syslog-parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct kd_record rec;
	static int init;
	/* An exact-size copy, so ASan sees any read past the end. */
	char *buf = malloc(size ? size : 1);
	const char *p, *end;

	if (!buf)
		return 0;
	if (!init) {
		kd_record_init(&rec);
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
		p = last ? end : e + 1;
	}
	free(buf);
	return 0;
}
