/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kmsg-parse.h - placeholder, filled in by its owner. */
#ifndef KDMESG_KMSG_PARSE_H
#define KDMESG_KMSG_PARSE_H
#endif
