// SPDX-License-Identifier: GPL-2.0-or-later
/* output-json.c - placeholder, filled in by its owner. */
