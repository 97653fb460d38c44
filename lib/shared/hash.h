/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hash.h - a hash of a byte string by its length and ends, for the small
 * caches that remember recent strings (the glob cache of lib/match/match.c, the
 * translation memo of lib/stage/translate.c).  Not every byte: the strings are
 * paths and formats that share their start and differ near one end, and
 * each cache slot keeps a copy that settles a collision.
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

#endif /* KDMESG_HASH_H */
