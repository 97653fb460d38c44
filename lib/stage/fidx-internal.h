/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fidx-internal.h - the bytes of a format index file (fidx.h), shared by
 * the writer (fidx-build.c), the loader (fidx.c) and the matcher
 * (fmatch.c).  Not installed.
 *
 * A file is, in this order, each section 8-byte aligned:
 *   struct kd_fidx_head
 *   struct kd_fidx_fmt   fmt[nfmt]        one per distinct site
 *   uint32_t             bucket[nbuckets + 1]
 *                        chain[bucket[b]] .. chain[bucket[b + 1]] are
 *                        the formats whose anchor word hashes to b
 *   struct kd_fidx_slot  slot[unanchored] what the matcher needs of
 *                        chain[k] before it reads the format, for the
 *                        anchored ones
 *   uint64_t             filter[KD_FIDX_FILTER_BITS / 64]: a bit for each
 *                        anchor hash (kd_fidx_filter_bit()), so that most
 *                        words of a text are dismissed in a small table
 *   uint32_t             chain[nchain]    format ids: the anchored ones
 *                        by bucket, then [unanchored, nolit) those with
 *                        literal text but no anchor word (most literal
 *                        bytes first), then
 *                        [nolit, nchain) those without literal text
 *   struct kd_fidx_op    op[nops]         each format's match program
 *   char                 str[str_len]     NUL-terminated strings, the
 *                        last byte NUL; offset 0 is ""
 * Numbers are in the byte order of the writer, which @byte_order tells.
 */
#ifndef KDMESG_FIDX_INTERNAL_H
#define KDMESG_FIDX_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KD_FIDX_MAGIC		"KDFIDX\r\n"
#define KD_FIDX_BYTE_ORDER	0x01020304u

struct kd_fidx_head {
	char magic[8];
	uint32_t version;
	uint32_t byte_order;
	uint64_t size;		/* of the whole file */
	uint32_t nfmt, nbuckets, nchain, nops;
	uint32_t unanchored, nolit;	/* chain indices, see above */
	uint32_t release;	/* string: the kernel release, "" unknown */
	uint32_t str_len;
	uint32_t filter_bits;	/* KD_FIDX_FILTER_BITS */
	uint32_t pad;
	uint64_t fmt_off, bucket_off, chain_off, op_off, str_off, slot_off, filter_off;
};

/* Flags of a format. */
enum {
	KD_FIDX_F_PV		= 1 << 0,	/* has %pV: its ARGn are another format's */
	KD_FIDX_F_NOARGS	= 1 << 1,	/* more conversions than ARGn lines */
};

struct kd_fidx_fmt {
	uint32_t fmt, fmt_len;		/* string: the format */
	uint32_t file, func, module;	/* strings, "" unknown */
	uint32_t line;			/* 0 unknown */
	uint32_t op;			/* first op */
	uint16_t nops;
	uint16_t lit;			/* literal bytes (capped at 65535) */
	uint32_t anchor;		/* hash of the anchor word */
	uint8_t family;			/* enum kd_fidx_family */
	uint8_t level;			/* '0'..'7', 'c', 0 */
	uint8_t flags;
	uint8_t nconv;
	uint64_t bytes;			/* bit b & 63 for each literal byte b */
	/*
	 * Where the anchor key starts in the text the format prints, when
	 * only literal text comes before it; KD_FIDX_NO_OFF otherwise.
	 */
	uint16_t anchor_off;
	/*
	 * Two bigrams of its literal text that few formats have, as
	 * kd_fmatch_bigram() + 1; 0: none.  A text it printed whole has
	 * them: fmatch.c dismisses a candidate without them cheaply.
	 */
	uint16_t bigram[2];
	uint16_t pad;
};

#define KD_FIDX_NO_OFF	0xffff

#define KD_FIDX_SLOT_BIGRAMS	4

/* An anchored chain entry as the matcher scans a bucket. */
struct kd_fidx_slot {
	uint32_t anchor;	/* the format's anchor hash */
	/*
	 * How many entries from this one on are sites of its format and
	 * family (at least 1): the matcher reads the format once for them.
	 */
	uint32_t run;
	uint64_t bytes;		/* as struct kd_fidx_fmt's */
	uint16_t anchor_off;	/* as struct kd_fidx_fmt's */
	uint8_t family;
	/*
	 * The first @head_len (up to 4) bytes of the format when it starts
	 * with literal text: the text has them where the format starts, a
	 * test the matcher makes before it reads the format.
	 */
	uint8_t head_len;
	char head[4];
	/*
	 * Four bigrams of its literal text outside the anchor key that few
	 * formats have, as struct kd_fidx_fmt's (0: none): tested in the
	 * bucket, before the format is read.
	 */
	uint16_t bigram[KD_FIDX_SLOT_BIGRAMS];
};

#define KD_FIDX_FILTER_BITS	(1u << 23)

/* The filter bit of an anchor hash: other bits than the bucket's. */
static inline uint32_t kd_fidx_filter_bit(uint32_t hash)
{
	return (hash * 0x9e3779b1u) >> 9;
}

/* Match program operations. */
enum kd_fidx_opkind {
	KD_OP_LIT,	/* @len bytes of str at @arg */
	KD_OP_INT,	/* %d %i */
	KD_OP_UINT,	/* %u */
	KD_OP_HEX,	/* %x */
	KD_OP_HEXU,	/* %X */
	KD_OP_OCT,	/* %o */
	KD_OP_CHAR,	/* %c */
	KD_OP_STR,	/* %s, %pV and the %p forms of free text: any bytes */
	KD_OP_PTR,	/* %p %px %pK: hex, or "(____ptrval____)" */
	KD_OP_ADDR,	/* %pa %pad %pap: 0x and hex */
	KD_OP_IP4,	/* %pI4 %pi4 */
	KD_OP_IP6,	/* %pI6 %pI6c %pi6 %pIS...: hex digits, ':', '.', [], % */
	KD_OP_MAC,	/* %pM %pMR %pMF %pm: hex digits, ':', '-' */
	KD_OP_HEXDUMP,	/* %ph %phC %phD %phN: hex pairs and the separator @arg */
	KD_OP_UUID,	/* %pU: hex digits and '-' */
	KD_OP_ERR,	/* %pe: an error name or number */
	KD_OP_SYM,	/* %pS %ps %pB: symbol[+0xoff/0xsize][ [module]] */
	KD_OP_RES,	/* %pR %pr: "[mem 0x1000-0x1fff pref]", one ']' (version 6) */
	KD_OP__COUNT
};

/* %d %u %x %X %o: the conversions that print a number */
static inline bool kd_fidx_op_number(unsigned int kind)
{
	return kind >= KD_OP_INT && kind <= KD_OP_OCT;
}

/* Conversion flags. */
enum {
	KD_OPF_LEFT	= 1 << 0,	/* '-' */
	KD_OPF_PLUS	= 1 << 1,	/* '+' */
	KD_OPF_SPACE	= 1 << 2,	/* ' ' */
	KD_OPF_ALT	= 1 << 3,	/* '#' */
	KD_OPF_WIDTH	= 1 << 4,	/* a width, or '*' */
	KD_OPF_EXACT	= 1 << 5,	/* %s exactly @len wide: "%-6.6s", "%8.4s" */
};

struct kd_fidx_op {
	uint8_t kind;		/* enum kd_fidx_opkind */
	uint8_t flags;
	uint16_t len;		/* KD_OP_LIT: bytes; a conversion: its written width or 0 */
	/*
	 * KD_OP_LIT: string offset; KD_OP_HEXDUMP: separator; KD_OP_STR of a
	 * "%.8s" without a width: 1 + its precision (0: no bound; indexes
	 * before 2026-12-08 have 0 there, which reads as before)
	 */
	uint32_t arg;
};

/* A loaded index: its sections, checked by kd_fidx_from_image()/kd_fidx_open(). */
struct kd_fidx {
	const struct kd_fidx_head *head;
	const struct kd_fidx_fmt *fmt;
	const uint32_t *bucket, *chain;
	const struct kd_fidx_slot *slot;
	const uint64_t *filter;
	const struct kd_fidx_op *op;
	const char *str;
	struct kd_fmatch_prep *prep;	/* the matcher's (fmatch-prep.c) */
	void *mem;		/* the mapping or the malloc'd image */
	size_t len;
	int mapped;
};

#endif /* KDMESG_FIDX_INTERNAL_H */
