/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kmsg-parse-internal.h - what the /dev/kmsg record parsers
 * (kmsg-parse.c) take from the reader of the record header
 * (kmsg-header.c).
 */
#ifndef KDMESG_KMSG_PARSE_INTERNAL_H
#define KDMESG_KMSG_PARSE_INTERNAL_H

#include "record/record.h"

/*
 * kd_kmsg_header_parse() - the header "pri,seq,usec[,flags][,name=value...];"
 * at @p (@end: the end of the input) into @rec: priority and facility,
 * sequence number, timestamp, the continuation flag and the caller id.
 * Returns where the text starts: after the ';', or after the first field
 * when a caller id is longer than dmesg keeps (dmesg prints the rest of
 * the header as text); NULL when it does not parse.  A NUL byte or a
 * newline ends the header early, as a cut record does.
 */
const char *kd_kmsg_header_parse(const char *p, const char *end, struct kd_record *rec);

#endif /* KDMESG_KMSG_PARSE_INTERNAL_H */
