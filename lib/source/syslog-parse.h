/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * syslog-parse.h - split and parse the syslog(2) buffer format:
 *
 *	<pri>[sssss.uuuuuu] text\n			(printk.time=1)
 *	<pri>[sssss.uuuuuu][  T123] text\n		(CONFIG_PRINTK_CALLER)
 *
 * This is what SYSLOG_ACTION_READ_ALL returns and what `dmesg -F` reads.
 * util-linux dmesg splits records only where a newline is followed by
 * '<', and reads a bracket after the time as a caller id; these parsers
 * follow the same rules so that kdmesg prints what dmesg prints, odd
 * input included.  Text is kept raw (syslog(2) does not escape).
 */
#ifndef KDMESG_SYSLOG_PARSE_H
#define KDMESG_SYSLOG_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#include "record/record.h"

/**
 * kd_syslog_record_end() - where the record starting at @begin ends.
 * Returns the newline of the first "\n<" after @begin (a "\n<" at @begin
 * itself does not count, as in dmesg), or NULL when @end comes first: the
 * record then runs to @end if that is the end of the input.  The byte at
 * @end is never read, so a newline at @end - 1 is not a boundary.
 */
const char *kd_syslog_record_end(const char *begin, const char *end);

/**
 * kd_syslog_skip_nul() - skip the NUL bytes dmesg ignores before a record
 * (zero padding at the end of a buffer).  Returns the first other byte or
 * @end.
 */
const char *kd_syslog_skip_nul(const char *p, const char *end);

/**
 * kd_syslog_parse() - parse one record [@begin, @end) into @rec.
 * @last: the record runs to the end of the input (a final newline is then
 *        not part of the text).
 * @cut:  set to 1 when the text was cut at KD_RECORD_MAX, else 0; may be
 *        NULL.
 *
 * Every span is a record for dmesg, so this never fails on content: a
 * missing or non-numeric priority leaves facility/level at KD_NO_* (and
 * KD_REC_HAS_PRI clear), a missing timestamp leaves ts_usec at KD_NO_TIME
 * (dmesg prints those as 0.000000), seq is always KD_NO_SEQ.  The text may
 * be empty (dmesg prints an empty line for it).  Returns 0 or -ENOMEM.
 */
int kd_syslog_parse(const char *begin, const char *end, bool last,
		    struct kd_record *rec, unsigned int *cut);

/**
 * kd_syslog_parse_ref() - kd_syslog_parse() that lends the text: the
 * record's text points into [@begin, @end) (kd_record_ref_text()), so
 * that memory must outlive the record's use.  Returns 0.
 */
int kd_syslog_parse_ref(const char *begin, const char *end, bool last,
			struct kd_record *rec, unsigned int *cut);

/* @flags of kd_syslog_parse_flags(). */
enum kd_syslog_flags {
	KD_SYSLOG_LEND		= 1 << 0,	/* as kd_syslog_parse_ref() */
	/*
	 * Read "<pri>" as dmesg does when it decodes the priority (-x, -l,
	 * -f, colours, -J): unless it is a number right up to the '>', the
	 * text starts after the '<' (no stamp).  Without this flag the
	 * text starts after the '>', as dmesg's plain output has it.
	 */
	KD_SYSLOG_DECODED_PRI	= 1 << 1,
};

/**
 * kd_syslog_parse_flags() - kd_syslog_parse(), or with KD_SYSLOG_LEND
 * kd_syslog_parse_ref(), reading the priority as @flags say.
 */
int kd_syslog_parse_flags(const char *begin, const char *end, bool last,
			  struct kd_record *rec, unsigned int *cut,
			  unsigned int flags);

/**
 * kd_syslog_parse_simple() - the common line of a -F file, split and
 * parsed in one pass where it lies: @buf is the start of a record, @end
 * the end of the input read so far.  When the record is "<N>" (1..3
 * digits), "[", blanks, 1..7 digits, ".", six digits, "] ", no caller id,
 * and printable ASCII up to a newline that is followed by '<' before
 * @end, parses it into @rec exactly as kd_syslog_record_end() and
 * kd_syslog_parse() (or, with @lend, kd_syslog_parse_ref()) would, sets
 * @rec->text_plain and returns where the next record starts (after the
 * newline).  With @lend it also sets text_nl, and text_pre when the stamp
 * is written as dmesg writes it.  Returns NULL for anything else
 * (including allocation failure; @rec is then unspecified), and the
 * caller takes the general path.
 */
const char *kd_syslog_parse_simple(const char *buf, const char *end,
				   struct kd_record *rec, bool lend);

#endif /* KDMESG_SYSLOG_PARSE_H */
