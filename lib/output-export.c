// SPDX-License-Identifier: GPL-2.0-or-later
/* output-export.c - placeholder, filled in by its owner. */
