/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cstring.h - the escapes of C string literals, shared by the readers of
 * C source (csource.c), PO files (pofile.c) and the kernel's printk index
 * and site table (kdmesg-po).
 */
#ifndef KDMESG_CSTRING_H
#define KDMESG_CSTRING_H

#include <stddef.h>

/**
 * kd_cstring_escape() - the byte an escape stands for, *@p pointing just
 * after its backslash (and before @end): \n \t \r \a \b \f \v \e, \x with
 * one or two hex digits, one to three octal digits, any other byte as
 * itself (\" \\ \').  Moves *@p past the escape.  Needs *@p < @end.
 */
int kd_cstring_escape(const char **p, const char *end);

/**
 * kd_cstring_unescape() - undo the C escapes of @s[0..@n) in place (the
 * site table's \xhh, the printk index's \n \t \" \\ \ooo); returns the
 * new length.
 */
size_t kd_cstring_unescape(char *s, size_t n);

#endif /* KDMESG_CSTRING_H */
