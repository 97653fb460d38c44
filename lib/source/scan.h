/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scan.h - word-at-a-time helpers that the record parsers share: reading
 * up to eight decimal digits without a loop per digit.  A dump of a
 * million records has a few million numbers in it, and a loop with a
 * test per digit was a sixth of the time spent reading one.
 *
 * Bytes are loaded with memcpy() (no alignment assumed), first byte in
 * the lowest position as on every little-endian machine; on a big-endian
 * one the helpers reorder the word first.
 */
#ifndef KDMESG_SCAN_H
#define KDMESG_SCAN_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define KD_SCAN_BYTES(x)	(0x0101010101010101ULL * (x))

/* The eight bytes at @p, the first one in the lowest position. */
static inline uint64_t kd_scan_load8(const char *p)
{
	uint64_t x;

	memcpy(&x, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	return x;
}

/* How many of the bytes of @x, from the first, are decimal digits (0..8). */
static inline unsigned int kd_scan_lead_digits8(uint64_t x)
{
	/* c ^ '0' is 0..9 for a digit; adding 0x76 sets the top bit above 9. */
	uint64_t t = x ^ KD_SCAN_BYTES(0x30);
	uint64_t nd = (((t & KD_SCAN_BYTES(0x7f)) + KD_SCAN_BYTES(0x76)) | t) &
		      KD_SCAN_BYTES(0x80);

	return nd ? (unsigned int)__builtin_ctzll(nd) >> 3 : 8;
}

/*
 * The value of the first @k (1..8) bytes of @x, which are all digits:
 * the bytes after them are shifted out, so the digits become the low
 * end of an eight-digit number, which is combined pairwise (two, four,
 * eight digits) with three multiplications.
 */
static inline uint32_t kd_scan_digits8_value(uint64_t x, unsigned int k)
{
	uint64_t v = (x ^ KD_SCAN_BYTES(0x30)) << (8 * (8 - k));

	v = v * 10 + (v >> 8);
	v = (((v & 0x000000ff000000ffULL) * (100 + (1000000ULL << 32))) +
	     (((v >> 16) & 0x000000ff000000ffULL) * (1 + (10000ULL << 32)))) >> 32;
	return (uint32_t)v;
}

#ifdef __SSE2__
/*
 * 0xff in each byte of @v that the scans below pass over.  Plain is
 * 0x20..0x7e: plus one, taken as signed, that is exactly the bytes above
 * 0x20 (0x7f wraps to -128, bytes from 0x80 stay negative), an add and a
 * compare per sixteen bytes; with @backslash a backslash stops too.
 */
static inline __m128i kd_scan_pass16(__m128i v, bool backslash)
{
	__m128i ok = _mm_cmpgt_epi8(_mm_add_epi8(v, _mm_set1_epi8(1)),
				    _mm_set1_epi8(0x20));

	if (backslash)
		ok = _mm_andnot_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\')), ok);
	return ok;
}
#endif

/*
 * The first byte in [@p, @lim) that is not printable ASCII (0x20..0x7e),
 * or with @backslash is a backslash (where /dev/kmsg text has an
 * escape), or @lim.  Record text is almost all printable ASCII, so this
 * one scan finds where the text ends (its newline is the first other
 * byte), proves that it needs no unescaping and that the writer need not
 * escape it (struct kd_record text_plain); it reads every input byte
 * once and is most of what reading a -F or -K file costs.  Inline, with
 * @backslash a constant at each call.
 */
static inline const char *kd_scan_stop(const char *p, const char *lim,
				       bool backslash)
{
#ifdef __SSE2__
	unsigned int m;

	/* Thirty-two bytes per test: a line is about a hundred. */
	while (lim - p >= 32) {
		__m128i a = kd_scan_pass16(_mm_loadu_si128(
			(const __m128i *)(const void *)p), backslash);
		__m128i b = kd_scan_pass16(_mm_loadu_si128(
			(const __m128i *)(const void *)(p + 16)), backslash);

		if ((unsigned int)_mm_movemask_epi8(_mm_and_si128(a, b)) != 0xffff) {
			m = (unsigned int)_mm_movemask_epi8(a);
			if (m != 0xffff)
				return p + __builtin_ctz(~m);
			m = (unsigned int)_mm_movemask_epi8(b);
			return p + 16 + __builtin_ctz(~m);
		}
		p += 32;
	}
	if (lim - p >= 16) {
		m = (unsigned int)_mm_movemask_epi8(kd_scan_pass16(_mm_loadu_si128(
			(const __m128i *)(const void *)p), backslash));
		if (m != 0xffff)
			return p + __builtin_ctz(~m);
		p += 16;
	}
#endif
	for (; p < lim; p++) {
		unsigned char c = (unsigned char)*p;

		if (c < 0x20 || c >= 0x7f || (backslash && c == '\\'))
			return p;
	}
	return lim;
}

/* -F text: stops at the first byte that is not printable ASCII. */
static inline const char *kd_scan_plain(const char *p, const char *lim)
{
	return kd_scan_stop(p, lim, false);
}

#endif /* KDMESG_SCAN_H */
