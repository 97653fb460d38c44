/* SPDX-License-Identifier: GPL-2.0-or-later */
/* boottime.h - placeholder, filled in by its owner. */
#ifndef KDMESG_BOOTTIME_H
#define KDMESG_BOOTTIME_H
#endif
