/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * drmprefix.h - DRM's message prefix, as drivers/gpu/drm/drm_print.c
 * prints it before the caller's format: "[drm:<function>] ", where a
 * module's function is "f [mod]" (brackets inside the brackets), and
 * "*ERROR* " after it for DRM_ERROR() (DRM_DEV_ERROR() has "*ERROR* " in
 * its format instead).  One rule for recovery's matcher (fmatch.c) and
 * the expansion of compact records (expand.c).
 */
#ifndef KDMESG_DRMPREFIX_H
#define KDMESG_DRMPREFIX_H

#include <stddef.h>
#include <string.h>

#define KD_DRM_NONE	((size_t)-1)

/*
 * kd_drm_prefix_end() - where "[drm:<function>] " that starts at @at of
 * the @n bytes at @t ends, or KD_DRM_NONE.
 */
static inline size_t kd_drm_prefix_end(const char *t, size_t n, size_t at)
{
	const char *e;

	if (at == KD_DRM_NONE || at > n || n - at < 8 || memcmp(t + at, "[drm:", 5) != 0)
		return KD_DRM_NONE;
	e = memmem(t + at + 5, n - at - 5, "] ", 2);
	return e ? (size_t)(e - t) + 2 : KD_DRM_NONE;
}

/*
 * kd_drm_error_end() - where DRM_ERROR()'s "*ERROR* " that starts at @at
 * of the @n bytes at @t ends, or KD_DRM_NONE.
 */
static inline size_t kd_drm_error_end(const char *t, size_t n, size_t at)
{
	static const char err[] = "*ERROR* ";

	if (at == KD_DRM_NONE || at > n || n - at < sizeof(err) - 1 ||
	    memcmp(t + at, err, sizeof(err) - 1) != 0)
		return KD_DRM_NONE;
	return at + sizeof(err) - 1;
}

#endif
