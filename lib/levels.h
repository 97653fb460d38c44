/* SPDX-License-Identifier: GPL-2.0-or-later */
/* levels.h - placeholder, filled in by its owner. */
#ifndef KDMESG_LEVELS_H
#define KDMESG_LEVELS_H
#endif
