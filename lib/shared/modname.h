/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * modname.h - module names as the kernel and modprobe compare them: '-'
 * and '_' are the same character (KBUILD_MODNAME has '_' where the
 * object file has '-').  One rule for the --module filter, libkmod's
 * facts and kdmesg-po's KBUILD_MODNAME.
 */
#ifndef KDMESG_MODNAME_H
#define KDMESG_MODNAME_H

#include <stdbool.h>
#include <stddef.h>

/** kd_modname_char() - @c as a module name has it: '-' is '_'. */
static inline char kd_modname_char(char c)
{
	return c == '-' ? '_' : c;
}

/** kd_modname_fold() - write every '-' of the string @s as '_'. */
static inline void kd_modname_fold(char *s)
{
	for (; *s; s++)
		*s = kd_modname_char(*s);
}

/** kd_modname_copy() - @n bytes of @src into @dst, folded; no NUL added. */
static inline void kd_modname_copy(char *dst, const char *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] = kd_modname_char(src[i]);
}

/**
 * kd_modname_eq() - whether @name (@len bytes) names the module @folded
 * (@flen bytes, already folded).
 */
static inline bool kd_modname_eq(const char *folded, size_t flen, const char *name,
				 size_t len)
{
	if (flen != len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (kd_modname_char(name[i]) != folded[i])
			return false;
	return true;
}

#endif /* KDMESG_MODNAME_H */
