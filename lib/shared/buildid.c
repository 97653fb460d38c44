// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * buildid.c - the GNU build id note of a kernel.  See buildid.h.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "shared/buildid.h"

#define NT_GNU_BUILD_ID	3

/* Notes are 4-byte aligned in the kernel's .notes (Elf32_Nhdr and Elf64_Nhdr alike). */
static size_t align4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

int kd_buildid_from_notes(const unsigned char *notes, size_t len, char *hex)
{
	static const char digits[] = "0123456789abcdef";
	size_t p = 0;

	while (len - p >= 12) {
		uint32_t namesz, descsz, type;
		size_t name, desc;

		/* The running kernel's byte order: the file is its memory. */
		memcpy(&namesz, notes + p, 4);
		memcpy(&descsz, notes + p + 4, 4);
		memcpy(&type, notes + p + 8, 4);
		name = p + 12;
		if (namesz > len - name || align4(namesz) > len - name)
			return -ENOENT;
		desc = name + align4(namesz);
		if (descsz > len - desc)
			return -ENOENT;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && memcmp(notes + name, "GNU", 4) == 0) {
			if (!descsz || descsz * 2 > KD_BUILDID_HEX_MAX)
				return -ENOENT;
			for (size_t i = 0; i < descsz; i++) {
				hex[2 * i] = digits[notes[desc + i] >> 4];
				hex[2 * i + 1] = digits[notes[desc + i] & 15];
			}
			hex[2 * descsz] = '\0';
			return 0;
		}
		if (align4(descsz) > len - desc)
			return -ENOENT;
		p = desc + align4(descsz);
	}
	return -ENOENT;
}

int kd_buildid_valid(const char *s)
{
	size_t n = 0;

	for (; s[n]; n++)
		if (!((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f')) ||
		    n == KD_BUILDID_HEX_MAX)
			return 0;
	return n >= 2;
}
