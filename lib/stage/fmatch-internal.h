/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fmatch-internal.h - what the reader of candidates (fmatch-read.c) and
 * the matcher (fmatch.c) share.  Not installed; see fmatch.h.
 */
#ifndef KDMESG_FMATCH_INTERNAL_H
#define KDMESG_FMATCH_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "stage/fidx-internal.h"
#include "stage/fmatch.h"

#define BUDGET		256	/* steps per candidate and start */
#define NONE		((size_t)-1)
/*
 * Fewer literal bytes than this read almost any text: such a format is
 * claimed for a whole text only when its literal bytes are a quarter of
 * it, and never for the start of one.
 */
#define STRONG_LIT	8

/*
 * Bigrams (pairs of adjacent bytes) of literal text, hashed to this many
 * bits (fmatch-prep.c).
 */
#define KD_FMATCH_BG_BITS	1024
#define KD_FMATCH_NO_BIGRAM	0xffff

static inline unsigned int kd_fmatch_bigram(unsigned char a, unsigned char b)
{
	return (((uint32_t)a << 8 | b) * 0x9e3779b1u) >> 22;
}

#define KD_FMATCH_MODSET_BITS	65536

/* The bit of a module name in kd_fmatch_prep.modset: '-' and '_' alike, as module_is(). */
static inline uint32_t kd_fmatch_module_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)(s[i] == '-' ? '_' : s[i])) * 16777619u;
	return h % KD_FMATCH_MODSET_BITS;
}

/*
 * What the matcher derives from an index when it is loaded: the
 * unanchored chain entries by their first bigram (fmatch-prep.c).
 */
struct kd_fmatch_prep {
	/*
	 * ulist[ubucket[h] .. ubucket[h + 1]): the chain indices of those
	 * with first bigram h, ascending; h == KD_FMATCH_BG_BITS: those
	 * without a bigram.
	 */
	uint32_t *ubucket, *ulist;
	/* Per unanchored entry (chain index - unanchored): all its bigrams. */
	uint64_t (*umask)[KD_FMATCH_BG_BITS / 64];
	uint64_t *scratch;	/* a bit per unanchored entry, for the matcher */
	/*
	 * Per unanchored entry: the first entry (in chain order) that
	 * fmatch.c's test() runs alike, and, for the matcher, where that
	 * one matched in the current text (or NONE).
	 */
	uint32_t *lead, *out;
	/* The first unanchored entry with fewer than STRONG_LIT literal bytes, or nolit. */
	uint32_t strong;
	/*
	 * Per anchored chain entry c: what its site shares with entry c + 1
	 * of its run (KD_FMATCH_SAME_*; 0 at the end of a run), so that the
	 * decision reads a run of hundreds of sites without their records.
	 */
	uint8_t *same;
	/*
	 * Per format id: 1 + its literal bytes other than blanks (the part
	 * of a reading's score that does not depend on the text), counted
	 * the first time the decision reads the format; 0: not yet.
	 */
	uint32_t *nblit;
	/*
	 * Per anchored chain entry: the last (up to 4) literal bytes of a
	 * format that ends in literal text, where they stand in the last 4
	 * bytes of a text it printed whole (@mask says which; 0: no test).
	 */
	struct kd_fmatch_tail { uint32_t bytes, mask; } *tail;
	/*
	 * A bit (kd_fmatch_module_hash()) for each module name of a site:
	 * a text whose first word has no bit is of no module of the index.
	 */
	uint64_t modset[KD_FMATCH_MODSET_BITS / 64];
	/*
	 * The sites of pr_cont() fragments (level 'c') by file (string
	 * offset, then id), made the first time kd_fmatch_cont_sites() is
	 * asked: only for the rare rival of fmatch.c.
	 */
	uint32_t *cont, ncont;
	bool cont_ready;
};

enum {
	KD_FMATCH_SAME_FILE	= 1 << 0,
	KD_FMATCH_SAME_FUNC	= 1 << 1,
	KD_FMATCH_SAME_MODULE	= 1 << 2,
	KD_FMATCH_SAME_LINE	= 1 << 3,
	/* The same format string, literal bytes and %pV flag: the decision reads them alike. */
	KD_FMATCH_SAME_FMT	= 1 << 4,
	KD_FMATCH_SAME_ALL	= 0x1f,
};

/**
 * kd_fmatch_pick_bigrams() - fill the bigram[] of the @n formats @fmt,
 * whose match programs are in @op and strings in @str (the index
 * writer's), but of the bytes of each one's anchor key (@key[2 i] its
 * string offset, @key[2 i + 1] its length, 0 for none): a text found by
 * the key has them; the rarest four in @four[i] for the bucket slots.
 * Returns 0 or -ENOMEM.
 */
int kd_fmatch_pick_bigrams(struct kd_fidx_fmt *fmt, size_t n, const struct kd_fidx_op *op,
			   const char *str, const uint32_t *key,
			   uint16_t (*four)[KD_FIDX_SLOT_BIGRAMS]);

/** kd_fmatch_prep_new() - derive it from the checked index @x.  Returns 0 or -ENOMEM. */
int kd_fmatch_prep_new(const struct kd_fidx *x, struct kd_fmatch_prep **out);

/** kd_fmatch_prep_free() - release @p (NULL is fine). */
void kd_fmatch_prep_free(struct kd_fmatch_prep *p);

#define KD_FMATCH_POOL	8192	/* struct run's pool: readings kept per collect() */

#define KD_FMATCH_WORDS_MAX	256	/* words of a text looked up */

/* Readable bytes after a text in the run's copy of it (fmatch-read.c's find_padded()). */
#define KD_FMATCH_PAD	16

/* One text being read by the programs of candidate formats. */
struct run {
	const char *t;
	size_t n;
	bool padded;		/* @t is followed by KD_FMATCH_PAD readable bytes */
	const char *str;
	const struct kd_fidx_op *ops;
	unsigned int nops;
	int budget;
	bool partial;		/* accept a match of the start of the text */
	bool cut;		/* partial, and the text may end inside the format */
	uint64_t bytes;		/* bit b & 63 for each byte b of the text */
	uint32_t last4;		/* its last 4 bytes (zeros before a shorter text) */
	/*
	 * The text's bigrams: bgmark[h] == gen for each, a store per byte
	 * of the text where a bit set cost a read, a shift and a write;
	 * @gen changes per text (all cleared when it wraps).  @bg is the
	 * same set as bits, made by kd_fmatch_bigram_bits() for the
	 * formats without an anchor word (bg_ready says it is this text's).
	 */
	uint8_t gen;
	bool bg_ready;
	uint8_t bgmark[KD_FMATCH_BG_BITS];
	uint8_t bmark[64];	/* bmark[b & 63] == gen for each byte b */
	/*
	 * The text's first @nw words (runs of kd_fmatch_is_word() bytes,
	 * up to KD_FMATCH_WORDS_MAX): [ws[k], we[k]), found with the sets.
	 */
	unsigned int nw;
	uint32_t ws[KD_FMATCH_WORDS_MAX], we[KD_FMATCH_WORDS_MAX];
	uint64_t bg[KD_FMATCH_BG_BITS / 64];
	size_t nonblank;	/* bytes of the text that are not blanks */
	unsigned int flit;	/* literal bytes of the format being run */
	unsigned int want;	/* stop after this many solutions */
	unsigned int nsol;
	size_t end;		/* of the first solution */
	unsigned int solconv;	/* its conversions (up to 256) */
	uint32_t cur[2 * 256], sol[2 * 256];	/* [start, end) per conversion */
	/*
	 * The readings of the matches collect() found (struct found's
	 * @sol): its end, its conversions and their spans, so that the
	 * decision need not read them again.
	 */
	uint32_t pool[KD_FMATCH_POOL];
	unsigned int npool;
};

/*
 * memcmp(@a, @b, @n) == 0 for the short pieces the matcher compares
 * (literal text of a format against the text): eight bytes at a time,
 * the last eight (or four) overlapping, never a byte outside either;
 * a call to memcmp() cost more than most pieces' bytes.
 */
static inline bool kd_fmatch_eq(const char *a, const char *b, size_t n)
{
	if (n >= 8) {
		uint64_t x, y, u, v;

		for (; n > 16; n -= 8, a += 8, b += 8) {
			memcpy(&x, a, 8);
			memcpy(&y, b, 8);
			if (x != y)
				return false;
		}
		memcpy(&x, a, 8);
		memcpy(&y, b, 8);
		memcpy(&u, a + n - 8, 8);
		memcpy(&v, b + n - 8, 8);
		return ((x ^ y) | (u ^ v)) == 0;
	}
	if (n >= 4) {
		uint32_t x, y, u, v;

		memcpy(&x, a, 4);
		memcpy(&y, b, 4);
		memcpy(&u, a + n - 4, 4);
		memcpy(&v, b + n - 4, 4);
		return ((x ^ y) | (u ^ v)) == 0;
	}
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

/* Blanks among the @n bytes at @s, eight at a time. */
static inline size_t kd_fmatch_blanks(const char *s, size_t n)
{
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7full, ones = 0x0101010101010101ull;
	size_t k = 0, c = 0;

	for (; k + 8 <= n; k += 8) {
		uint64_t w, t;

		memcpy(&w, s + k, 8);
		w ^= 0x2020202020202020ull;	/* a blank is now a zero byte */
		/* The top bit of each byte of t: the byte of w was not zero. */
		t = ((w & low7) + low7) | w;
		c += (size_t)(((~t >> 7) & ones) * ones >> 56);
	}
	for (; k < n; k++)
		c += s[k] == ' ';
	return c;
}

/*
 * The literal bytes of format @id of @x other than blanks ("    # %s: "
 * has 2), counted the first time they are asked for (kd_fmatch_prep's
 * @nblit): the formats that compete recur from text to text.
 */
static inline unsigned int kd_fmatch_nonblank_lit(const struct kd_fidx *x, uint32_t id)
{
	const struct kd_fidx_fmt *f = &x->fmt[id];
	uint32_t lit = x->prep->nblit[id];

	if (lit)
		return lit - 1;
	for (unsigned int i = 0; i < f->nops; i++) {
		const struct kd_fidx_op *op = &x->op[f->op + i];

		if (op->kind == KD_OP_LIT)
			lit += op->len - (uint32_t)kd_fmatch_blanks(x->str + op->arg, op->len);
	}
	x->prep->nblit[id] = lit + 1;
	return lit;
}

#define MATCHES_MAX	256	/* matching sites kept per record */

/* Where the kernel's prefixes put the format in a text (fmatch.c). */
struct starts {
	size_t dev, net3, net1, nulldev, nullnet;
	size_t acpi;		/* after ACPICA's "ACPI Error: " and the like */
	size_t probe;		/* after dev_err_probe()'s "error <err>: " */
	size_t first;		/* after the first ": " (ext4_msg(), btrfs, XFS, ...) */
	/*
	 * After one more word and its blank there: "ath: phy0: ",
	 * "brcmfmac: <function>: ", iwlwifi's "driver device: <function> ".
	 */
	size_t word;
	size_t scsi;		/* after SCSI's "[<disk>] " after the device's prefix */
	size_t drm;		/* after DRM's "[drm:<function>] " */
	size_t drm_err;		/* after "*ERROR* " there (DRM_ERROR()) */
	const char *hint;	/* the text's first word, for the module tie-break */
	size_t hint_len;
};

/*
 * Matching sites of one run of an index (sites of one format in a row,
 * struct kd_fidx_slot) and the start in the text they matched from: @n
 * sites from chain index @c on, the first being @id.  Unanchored
 * matches come one site at a time (@n 1).  The reading test() found for
 * @id is kept when it can be: the decision's own would be the same.
 */
struct found {
	uint32_t id;
	uint32_t start;
	uint32_t c, n;
	uint32_t sol;	/* site @id's reading in run.pool, or UINT32_MAX */
};

/**
 * kd_fmatch_decide() - the winner among the matches @m (@n runs) of
 * index @x for the text of @r, and what its competitors agree on, into
 * @res (fmatch-decide.c).
 */
void kd_fmatch_decide(struct run *r, const struct kd_fidx *x, const struct found *m, unsigned int n,
		      const struct starts *st, struct kd_fmatch_result *res);

/**
 * kd_fmatch_cont_sites() - the ids of the pr_cont() fragments of index
 * @x whose file is string @file of @x: *@n of them from the returned
 * pointer (NULL, *@n 0 when none or out of memory).
 */
const uint32_t *kd_fmatch_cont_sites(const struct kd_fidx *x, uint32_t file, uint32_t *n);

/**
 * kd_fmatch_solve() - read the text of @r with ops [@i, r->nops) from
 * byte @pos, conversion @conv on: each reading found counts in r->nsol
 * (the first in r->sol and r->end), until r->want or the budget.
 */
void kd_fmatch_solve(struct run *r, unsigned int i, size_t pos, unsigned int conv);

/**
 * kd_fmatch_feasible() - what any reading of r->ops needs, checked
 * before the backtracking one.
 */
bool kd_fmatch_feasible(const struct run *r);

/**
 * kd_fmatch_mark_unanchored() - mark in x->prep->scratch (a bit per
 * unanchored chain entry) those that may read the text of @r: filed
 * under one of its bigrams, or without a bigram.
 */
void kd_fmatch_mark_unanchored(const struct run *r, const struct kd_fidx *x);

/* Whether the text has bigram @b as an index stores it (+ 1; 0: none, always true). */
static inline bool kd_fmatch_bigram_in(const struct run *r, uint16_t b)
{
	return !b || b > KD_FMATCH_BG_BITS || r->bgmark[b - 1] == r->gen;
}

/** kd_fmatch_bigram_bits() - r->bg from r->bgmark, once per text (fmatch.c). */
void kd_fmatch_bigram_bits(struct run *r);

/* Whether the text has the two bigrams of @f's literal text the index writer picked. */
static inline bool kd_fmatch_bigrams_in(const struct run *r, const struct kd_fidx_fmt *f)
{
	return kd_fmatch_bigram_in(r, f->bigram[0]) && kd_fmatch_bigram_in(r, f->bigram[1]);
}

/* Whether the text has the bigrams of anchored chain entry @sl. */
static inline bool kd_fmatch_slot_bigrams_in(const struct run *r, const struct kd_fidx_slot *sl)
{
	return kd_fmatch_bigram_in(r, sl->bigram[0]) && kd_fmatch_bigram_in(r, sl->bigram[1]) &&
	       kd_fmatch_bigram_in(r, sl->bigram[2]) && kd_fmatch_bigram_in(r, sl->bigram[3]);
}

/* Whether the text has every bigram of unanchored entry @q's literal text (r->bg made). */
static inline bool kd_fmatch_all_bigrams_in(const struct run *r, const struct kd_fidx *x, uint32_t q)
{
	const uint64_t *m = x->prep->umask[q];
	uint64_t miss = 0;

	for (unsigned int k = 0; k < KD_FMATCH_BG_BITS / 64; k++)
		miss |= m[k] & ~r->bg[k];
	return !miss;
}

#endif /* KDMESG_FMATCH_INTERNAL_H */
