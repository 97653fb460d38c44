/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tui.h - `kdmesg --tui`, the live viewer (src/tui.c). */
#ifndef KDMESG_TUI_H
#define KDMESG_TUI_H

#include "kdmesg.h"

/**
 * kdmesg_tui() - run the viewer on what @c names until q, Ctrl-C or
 * SIGTERM; the terminal is restored before it returns.  Exits with a
 * message when standard output is not a terminal.  Returns the exit status.
 */
int kdmesg_tui(struct ctl *c);

#endif /* KDMESG_TUI_H */
