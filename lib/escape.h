/* SPDX-License-Identifier: GPL-2.0-or-later */
/* escape.h - placeholder, filled in by its owner. */
#ifndef KDMESG_ESCAPE_H
#define KDMESG_ESCAPE_H
#endif
