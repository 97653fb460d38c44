/* SPDX-License-Identifier: GPL-2.0-or-later */
/* output-internal.h - placeholder, filled in by its owner. */
#ifndef KDMESG_OUTPUT_INTERNAL_H
#define KDMESG_OUTPUT_INTERNAL_H
#endif
