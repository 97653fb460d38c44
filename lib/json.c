// SPDX-License-Identifier: GPL-2.0-or-later
/* json.c - placeholder, filled in by its owner. */
