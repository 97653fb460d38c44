/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pager.h - kdmesg -H's pager (src/pager.c).
 */
#ifndef KDMESG_PAGER_H
#define KDMESG_PAGER_H

#include <stdbool.h>

/**
 * kd_pager_open() - send standard output (and standard error when it is a
 * terminal) through $PAGER, "less" by default, with LESS=FRSX and LV=-c
 * unless they are set, as util-linux does.  Does nothing when standard output is not a terminal, $PAGER is
 * empty or "cat", or the pager is not found.  Returns 0 or a negative errno.
 */
int kd_pager_open(void);

/** kd_pager_active() - is the output going through a pager now? */
bool kd_pager_active(void);

/** kd_pager_close() - flush, signal end of input and wait for the pager. */
void kd_pager_close(void);

#endif /* KDMESG_PAGER_H */
