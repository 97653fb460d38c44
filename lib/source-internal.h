/* SPDX-License-Identifier: GPL-2.0-or-later */
/* source-internal.h - placeholder, filled in by its owner. */
#ifndef KDMESG_SOURCE_INTERNAL_H
#define KDMESG_SOURCE_INTERNAL_H
#endif
