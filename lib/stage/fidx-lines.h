/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fidx-lines.h - the function at a source file and line, from a format
 * index.  A kernel built without CONFIG_KPRINT_FUNC_NAMES (its default
 * without CONFIG_KALLSYMS, as on tinyconfig) sends CODE_FILE and
 * CODE_LINE but no CODE_FUNC; an index written from the same source knows
 * which function holds that line (recover.c names it, marked recovered).
 */
#ifndef KDMESG_FIDX_LINES_H
#define KDMESG_FIDX_LINES_H

#include "stage/fidx.h"

struct kd_fidx_lines;

/**
 * kd_fidx_lines_new() - the sites of @x by file and line (@x must outlive
 * the table).  Returns 0 or -ENOMEM.
 */
int kd_fidx_lines_new(const struct kd_fidx *x, struct kd_fidx_lines **out);

/**
 * kd_fidx_lines_func() - the function of the sites at @file:@line when
 * every one of them with a function names the same one; NULL when none
 * does or two disagree (a macro that defines functions).
 */
const char *kd_fidx_lines_func(const struct kd_fidx_lines *t, const char *file,
			       unsigned int line);

/** kd_fidx_lines_free() - release @t (NULL is fine). */
void kd_fidx_lines_free(struct kd_fidx_lines *t);

#endif /* KDMESG_FIDX_LINES_H */
