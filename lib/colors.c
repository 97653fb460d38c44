// SPDX-License-Identifier: GPL-2.0-or-later
/* colors.c - placeholder, filled in by its owner. */
