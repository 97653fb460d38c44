// SPDX-License-Identifier: GPL-2.0-or-later
/* output-text.c - placeholder, filled in by its owner. */
