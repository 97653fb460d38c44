// SPDX-License-Identifier: GPL-2.0-or-later
/* fidx-mem: a format index built in memory from sites, for unit tests. */
#include <stdlib.h>

#include "fidx-mem.h"
#include "tap.h"

struct kd_fidx *test_fidx_build(const struct kd_fidx_site *s, size_t n)
{
	struct kd_fidx_builder *b;
	struct kd_fidx *x = NULL;
	const char *why = NULL;
	void *img;
	size_t len;

	if (kd_fidx_builder_new(&b) < 0)
		abort();
	for (size_t i = 0; i < n; i++)
		if (kd_fidx_builder_add(b, &s[i]) != 0)
			tap_diag("not added: %s", s[i].fmt);
	if (kd_fidx_builder_image(b, "6.12.0-test", &img, &len) < 0 ||
	    kd_fidx_from_image(&x, img, len, &why) < 0) {
		tap_diag("index: %s", why ? why : "?");
		abort();
	}
	kd_fidx_builder_free(b);
	return x;
}
