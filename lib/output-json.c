// SPDX-License-Identifier: GPL-2.0-or-later
/* output-json.c - dmesg -J output (in progress). */
#include <errno.h>

#include "output-internal.h"

int kd_output_json_write(struct kd_writer *w, const struct kd_record *rec)
{
	(void)w;
	(void)rec;
	return -ENOSYS;
}

int kd_output_json_finish(struct kd_writer *w)
{
	(void)w;
	return 0;
}
