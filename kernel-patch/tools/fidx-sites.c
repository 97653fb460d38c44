// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fidx-sites: print the sites of a kdmesg format index (lib/stage/fidx.h),
 * one a line, as the columns of a kprint site table after the site's
 * family (enum kd_fidx_family: 0 any, 1 plain, 2 dev_*(), 3 netdev_*()):
 *   family object level file:line function module format
 * ("-" for what the index does not know; bytes below 0x20, from 0x7f and
 * the backslash of the format as \xhh).  tools/sites-for-dump.py turns
 * them into sources `kdmesg-po index` reads back with their family.
 *
 * A maintainer's tool of debian-sites.sh, built by it against the build
 * tree's lib/libkdmesg.a; not installed.
 */
#include <stdio.h>
#include <stdlib.h>

#include "stage/fidx.h"

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

int main(int argc, char **argv)
{
	struct kd_fidx *x;
	const char *why = NULL;
	uint32_t n;
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: fidx-sites INDEX\n");
		return 2;
	}
	rc = kd_fidx_open(&x, argv[1], &why);
	if (rc < 0) {
		fprintf(stderr, "fidx-sites: %s: %s\n", argv[1], why ? why : "cannot open");
		return 1;
	}
	n = kd_fidx_count(x);
	for (uint32_t id = 0; id < n; id++) {
		struct kd_fidx_entry e;

		kd_fidx_get(x, id, &e);
		printf("%d %s %c %s:%u %s %s ", (int)e.family, *e.module ? e.module : "vmlinux",
		       e.level ? e.level : '-', or_dash(e.file), e.line, or_dash(e.func),
		       or_dash(e.module));
		for (size_t i = 0; i < e.fmt_len; i++) {
			unsigned char c = (unsigned char)e.fmt[i];

			if (c < 0x20 || c >= 0x7f || c == '\\')
				printf("\\x%02x", c);
			else
				putchar(c);
		}
		putchar('\n');
	}
	kd_fidx_free(x);
	return 0;
}
