// SPDX-License-Identifier: GPL-2.0-or-later
/* klogctl.c - placeholder, filled in by its owner. */
