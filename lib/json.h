/* SPDX-License-Identifier: GPL-2.0-or-later */
/* json.h - placeholder, filled in by its owner. */
#ifndef KDMESG_JSON_H
#define KDMESG_JSON_H
#endif
