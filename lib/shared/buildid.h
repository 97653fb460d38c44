/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * buildid.h - the GNU build id of a kernel from its ELF notes
 * (/sys/kernel/notes: the vmlinux .notes section, a sequence of
 * Elf32_Nhdr-framed notes): the note of type NT_GNU_BUILD_ID (3) whose
 * name is "GNU".  It names one build of vmlinux, so a site table saved
 * under it belongs to exactly that kernel.
 */
#ifndef KDMESG_BUILDID_H
#define KDMESG_BUILDID_H

#include <stddef.h>

/* Hex digits of the longest build id kept (SHA-256 would be 64). */
#define KD_BUILDID_HEX_MAX	128

/**
 * kd_buildid_from_notes() - the build id in the @len bytes of notes at
 * @notes (untrusted: every header is checked against @len), as lower-case
 * hex into @hex (KD_BUILDID_HEX_MAX + 1 bytes).  Returns 0, or -ENOENT
 * when there is no such note (or it is empty or longer than kept).
 */
int kd_buildid_from_notes(const unsigned char *notes, size_t len, char *hex);

/** kd_buildid_valid() - @s is 2 to KD_BUILDID_HEX_MAX lower-case hex digits. */
int kd_buildid_valid(const char *s);

#endif /* KDMESG_BUILDID_H */
