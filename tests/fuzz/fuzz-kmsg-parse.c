// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz-kmsg-parse.c - libFuzzer target: any bytes as one /dev/kmsg record. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kmsg-parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct kd_record rec;
	static int init;
	unsigned int cut;
	char out[64];
	int more;

	if (!init) {
		kd_record_init(&rec);
		init = 1;
	}
	if (kd_kmsg_parse((const char *)data, size, &rec, &cut) == 0) {
		/* Every invariant a writer relies on. */
		if (rec.text_len > KD_RECORD_MAX || rec.dict_len > KD_DICT_MAX ||
		    rec.text[rec.text_len] != '\0' || rec.level < 0 || rec.level > 7 ||
		    rec.facility < 0 || rec.facility > 127 ||
		    memchr(rec.caller, '\0', sizeof(rec.caller)) == NULL)
			__builtin_trap();
		for (size_t i = 0; i < rec.dict_len; i++)
			if (rec.dict[i].value_len > KD_RECORD_MAX || !rec.dict[i].key[0])
				__builtin_trap();
	}
	if (kd_kmsg_unescape(out, sizeof(out), (const char *)data, size, &more) > sizeof(out))
		__builtin_trap();
	return 0;
}
