/* SPDX-License-Identifier: GPL-2.0-or-later */
/* timeparse.h - placeholder, filled in by its owner. */
#ifndef KDMESG_TIMEPARSE_H
#define KDMESG_TIMEPARSE_H
#endif
