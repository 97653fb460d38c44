// SPDX-License-Identifier: GPL-2.0-or-later
/* syslog-parse.c - placeholder, filled in by its owner. */
