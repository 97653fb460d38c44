/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hash.h - the hashes of lib/, one file for both kinds:
 *  - kd_hash_ends(): by the length and both ends, for what hashes a
 *    string per record and settles a collision with a compare (the glob
 *    cache of lib/match/match.c, the translation memo of
 *    lib/stage/translate.c, the .mo lookup of lib/stage/mo.c): the
 *    strings are paths and formats that differ near one end;
 *  - kd_hash_bytes(): every byte, eight a step, for hash tables whose
 *    keys may agree at both ends (--stats call sites, kdmesg-po's .pot
 *    entries and wrapper macros).
 */
#ifndef KDMESG_HASH_H
#define KDMESG_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/** kd_hash_ends() - a hash of @len, the first and the last 8 bytes of @s. */
static inline uint32_t kd_hash_ends(const char *s, size_t len)
{
	uint64_t a = 0, b = 0, h;

	if (len >= 8) {
		memcpy(&a, s, 8);
		memcpy(&b, s + len - 8, 8);
	} else {
		memcpy(&a, s, len);
	}
	/* MurmurHash3's fmix64: every input bit reaches the low bits. */
	h = a ^ (b * 0xc2b2ae3d27d4eb4fULL) ^ len;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return (uint32_t)h;
}

/** kd_hash_bytes() - a hash of all @len bytes of @p. */
static inline uint32_t kd_hash_bytes(const char *p, size_t len)
{
	uint64_t h = len * 0x9e3779b97f4a7c15ULL, w;

	for (; len >= 8; p += 8, len -= 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 29;
	}
	w = 0;
	memcpy(&w, p, len);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 32;
	return (uint32_t)h;
}

#endif /* KDMESG_HASH_H */
