// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-output-verbose.c - golden bytes of the -o verbose writer: the
 * lines of a multi-line value (a kprint group's MESSAGE, a dictionary
 * value with a newline) aligned under the value's first byte as
 * journalctl -o verbose aligns them, an empty line kept, a final newline
 * adding no line, escaping per line, and the origin mark counted in the
 * indent.
 */
#include <string.h>

#include "sink/output.h"
#include "record/record.h"
#include "tap.h"
#include "writer-run.h"

#define CHECK(rec, lit, name) \
	writer_check(&opts, rec, 1, lit, sizeof(lit) - 1, name)

int main(void)
{
	/* No boot time: the header shows the stamp, not a wall-clock time. */
	struct kd_output_opts opts = { .mode = KD_OUTPUT_VERBOSE };
	struct kd_record r;
	static const char group[] = "line 1\nline 2\n\nline \x1b 4\n";

	kd_record_init(&r);
	r.seq = 7;
	r.facility = 0;
	r.level = 5;
	r.ts_usec = 1500000;
	kd_record_set_text(&r, group, sizeof(group) - 1);
	record_add(&r, "GROUP", "4", 1);
	record_add(&r, "LINE1_FORMAT", "a\nb", 3);
	record_add(&r, "EMPTY", "", 0);
	CHECK(&r,
	      "[    1.500000] [seq=7 time=1.500000]\n"
	      "    PRIORITY=5\n"
	      "    SYSLOG_FACILITY=0\n"
	      "    MESSAGE=line 1\n"
	      "            line 2\n"
	      "            \n"
	      "            line \\x1b 4\n"
	      "    GROUP=4\n"
	      "    LINE1_FORMAT=a\n"
	      "                 b\n"
	      "    EMPTY=\n"
	      "\n",
	      "multi-line values: later lines under the first, as journalctl -o verbose");

	kd_record_reset(&r);
	r.ts_usec = 0;
	kd_record_set_text(&r, "x", 1);
	record_add(&r, "MESSAGE_TRANSLATED", "eins\nzwei", 9);
	r.dict[r.dict_len - 1].origin = KD_ORIGIN_TRANSLATED;
	CHECK(&r,
	      "[    0.000000] [time=0.000000]\n"
	      "    MESSAGE=x\n"
	      "    MESSAGE_TRANSLATED[translated]=eins\n"
	      "                                   zwei\n"
	      "\n",
	      "the origin mark is part of the indent");
	kd_record_free(&r);
	return tap_done();
}
