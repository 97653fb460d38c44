// SPDX-License-Identifier: GPL-2.0-or-later
/* source-file.c - placeholder, filled in by its owner. */
