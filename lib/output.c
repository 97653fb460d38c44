// SPDX-License-Identifier: GPL-2.0-or-later
/* output.c - placeholder, filled in by its owner. */
