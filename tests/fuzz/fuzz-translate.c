// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz-translate.c - libFuzzer target for the renderer: the input is
 * msgid NUL msgstr NUL text NUL arg0 NUL arg1 ...; both formats are
 * parsed, compared and rendered into exact-size heap buffers (ASan sees
 * any write or read past them), the prefix is searched, the literal
 * parts must be the rendering without arguments, and the whole input is
 * also offered as a .mo file. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shared/kfmt.h"
#include "stage/mo.h"
#include "stage/translate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct kd_kfmt fo, ft;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *part[3 + KD_KFMT_MAX_CONV];
	size_t plen[3 + KD_KFMT_MAX_CONV], cap, pre;
	unsigned int n = 0, nargs;
	const char *p = (const char *)data, *end = p + size;
	struct kd_karg args[KD_KFMT_MAX_CONV];
	unsigned char map[KD_KFMT_MAX_CONV];
	struct kd_mo *mo;
	char *out;
	ssize_t r;

	if (kd_mo_open_mem(data, size, &mo) == 0) {
		kd_mo_lookup(mo, "ctx", "%s", 2, NULL, NULL);
		kd_mo_free(mo);
	}
	while (n < 3 + KD_KFMT_MAX_CONV) {
		const char *z = memchr(p, '\0', (size_t)(end - p));

		part[n] = p;
		plen[n] = z ? (size_t)(z - p) : (size_t)(end - p);
		n++;
		if (!z)
			break;
		p = z + 1;
	}
	while (n < 3) {
		part[n] = "";
		plen[n++] = 0;
	}
	nargs = n - 3;
	for (unsigned int i = 0; i < nargs; i++) {
		args[i].s = part[3 + i];
		args[i].len = plen[3 + i];
	}
	if (kd_kfmt_parse(part[0], plen[0], &fo) < 0)
		return 0;
	for (unsigned int k = 0; k < fo.nconv; k++)
		if (fo.conv[k].start >= fo.conv[k].end || fo.conv[k].end > plen[0] ||
		    fo.conv[k].pos >= fo.nargs)
			__builtin_trap();
	/* The literal parts (exactly lit_len bytes) are the render without arguments. */
	{
		unsigned int ends[KD_KFMT_MAX_CONV + 1];
		char *lits = malloc(fo.lit_len + 1), *whole = malloc(fo.lit_len + 1);
		struct kd_karg none[KD_KFMT_MAX_CONV] = { { NULL, 0 } };

		for (unsigned int k = 0; k < fo.nconv; k++)
			none[k].s = "";
		kd_kfmt_literals(part[0], plen[0], &fo, lits, ends);
		r = kd_kfmt_render(part[0], plen[0], &fo, NULL, none, fo.nconv, whole, fo.lit_len);
		if (ends[fo.nconv] != fo.lit_len || r != (ssize_t)fo.lit_len ||
		    memcmp(lits, whole, fo.lit_len) != 0)
			__builtin_trap();
		for (unsigned int k = 1; k <= fo.nconv; k++)
			if (ends[k] < ends[k - 1])
				__builtin_trap();
		free(lits);
		free(whole);
	}
	cap = (size_t)(data[0] % 64) * 8;	/* small buffers too */
	out = malloc(cap ? cap : 1);
	r = kd_kfmt_render(part[0], plen[0], &fo, NULL, args, nargs, out, cap);
	if (r > (ssize_t)cap)
		__builtin_trap();
	if (kd_translate_prefix(part[2], plen[2], part[0], plen[0], &fo, args, nargs, out,
				cap, &pre) == KD_KFMT_TRUSTED && pre > plen[2])
		__builtin_trap();
	if (kd_kfmt_parse(part[1], plen[1], &ft) == 0 &&
	    kd_kfmt_compare(part[0], &fo, part[1], &ft, map) == KD_KFMT_TRUSTED) {
		for (unsigned int k = 0; k < ft.nconv; k++)
			if (map[k] >= fo.nconv)
				__builtin_trap();
		r = kd_kfmt_render(part[1], plen[1], &ft, map, args, nargs, out, cap);
		if (r > (ssize_t)cap)
			__builtin_trap();
	}
	free(out);
	return 0;
}
