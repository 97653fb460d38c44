/* SPDX-License-Identifier: GPL-2.0-or-later */
/* colors.h - placeholder, filled in by its owner. */
#ifndef KDMESG_COLORS_H
#define KDMESG_COLORS_H
#endif
