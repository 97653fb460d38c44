// SPDX-License-Identifier: GPL-2.0-or-later
/* source-syslog.c - placeholder, filled in by its owner. */
