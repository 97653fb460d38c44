// SPDX-License-Identifier: GPL-2.0-or-later
/* source.c - placeholder, filled in by its owner. */
