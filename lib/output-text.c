// SPDX-License-Identifier: GPL-2.0-or-later
/* output-text.c - dmesg's text output (in progress). */
#include <errno.h>

#include "output-internal.h"

int kd_output_text_write(struct kd_writer *w, const struct kd_record *rec)
{
	(void)w;
	(void)rec;
	return -ENOSYS;
}
