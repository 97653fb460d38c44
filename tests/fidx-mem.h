/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fidx-mem: a format index built in memory from sites, for unit tests. */
#ifndef KDMESG_TESTS_FIDX_MEM_H
#define KDMESG_TESTS_FIDX_MEM_H

#include <stddef.h>

#include "stage/fidx.h"

/*
 * The index of @n sites, as kdmesg-po would write it (release
 * "6.12.0-test"); a site the builder refuses is reported as a TAP
 * diagnostic.  Aborts when the image does not open: every test after it
 * would be meaningless.
 */
struct kd_fidx *test_fidx_build(const struct kd_fidx_site *s, size_t n);

#endif
