/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syslog-parse.h - placeholder, filled in by its owner. */
#ifndef KDMESG_SYSLOG_PARSE_H
#define KDMESG_SYSLOG_PARSE_H
#endif
