// SPDX-License-Identifier: GPL-2.0-or-later
/* levels.c - placeholder, filled in by its owner. */
