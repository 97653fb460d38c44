// SPDX-License-Identifier: GPL-2.0-or-later
/* filter.c - placeholder, filled in by its owner. */
