/* SPDX-License-Identifier: GPL-2.0-or-later */
/* klogctl.h - placeholder, filled in by its owner. */
#ifndef KDMESG_KLOGCTL_H
#define KDMESG_KLOGCTL_H
#endif
