// SPDX-License-Identifier: GPL-2.0-or-later
/* boottime.c - placeholder, filled in by its owner. */
