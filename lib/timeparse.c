// SPDX-License-Identifier: GPL-2.0-or-later
/* timeparse.c - placeholder, filled in by its owner. */
