/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fmatch.h - find the kernel format that produced a message text, in
 * format indexes (fidx.h), and the text each conversion printed.
 *
 * Candidates come from the words of the text: each format is filed
 * under one anchor word of its literal text (fidx-build.c), so a record
 * meets only the formats filed under its own words, never every format.
 * A candidate matches when its program reads the whole text from where
 * the kernel puts the format (after the "driver device: " prefix of
 * dev_printk(), the netdev_printk() prefixes, at the start otherwise),
 * each conversion reading what vsnprintf() prints for it.
 *
 * What is claimed is what is proven: among the matching formats the one
 * with the most literal bytes wins (a format of the module the text
 * starts with first); its competitors are the matches with at least
 * half its literal bytes (word-less formats only when no format with
 * words matched); the call site's file, line, function and
 * module are given only where every competitor agrees; the arguments
 * only when the winner reads the text in exactly one way.
 */
#ifndef KDMESG_FMATCH_H
#define KDMESG_FMATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stage/fidx.h"

/* Anchor keys are runs of up to this many words (fidx-build.c). */
#define KD_FMATCH_KEY_WORDS	3

/* kprint(7): at most 32 ARGn lines. */
#define KD_FMATCH_MAX_ARGS	32

/** kd_fmatch_is_word() - a byte of a word: letters, digits, '_'. */
static inline bool kd_fmatch_is_word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/*
 * A word that starts with a digit is no part of an anchor key: such words
 * are mostly numbers a conversion printed, and looking them up is waste.
 */
static inline bool kd_fmatch_keyword(const char *w)
{
	return !(*w >= '0' && *w <= '9');
}

/** kd_fmatch_hash() - FNV-1a of @n bytes: the hash of anchor words and strings. */
static inline uint32_t kd_fmatch_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

enum kd_fmatch_status {
	KD_FMATCH_NONE,		/* no format can have produced the text */
	KD_FMATCH_FULL,		/* a format produced the whole text */
	/*
	 * A format with literal text produced its start, nothing its whole:
	 * the rest was appended by pr_cont() or is another line.
	 */
	KD_FMATCH_PARTIAL,
	KD_FMATCH_NOLIT,	/* only formats without literal text ("%s") fit */
};

struct kd_fmatch_result {
	enum kd_fmatch_status status;
	unsigned int index;	/* which of the indexes the winner is from */
	uint32_t id;		/* the winner (kd_fidx_get()) */
	/*
	 * The competitors (see fmatch.c: decide()): their distinct formats
	 * and their sites; more than one site: the pick is ambiguous.
	 */
	unsigned int nformats;
	unsigned int nsites;
	/* Whether every matching site names the same (known) value. */
	bool same_file, same_line, same_func, same_module;
	size_t start, end;	/* the bytes of the text the format produced */
	/* Literal bytes and bytes of typed conversions of the winner's reading. */
	unsigned int score;
	size_t read;		/* non-blank bytes of the text that reading covers */
	size_t free;		/* bytes of it that free-text conversions read */
	/*
	 * The text of conversion k: arg[k], for k < @nargs; -1 when not
	 * proven (the text reads in two ways, a %pV, more than
	 * KD_FMATCH_MAX_ARGS conversions, a partial match).
	 */
	int nargs;
	struct { uint32_t off, len; } arg[KD_FMATCH_MAX_ARGS];
};

/**
 * kd_fmatch_text() - match the @len bytes of @text against the @n
 * indexes @idx, most exact first: the first index with a matching format
 * decides.  Fills @r; returns @r->status.
 */
enum kd_fmatch_status kd_fmatch_text(const struct kd_fidx *const *idx, unsigned int n,
				     const char *text, size_t len,
				     struct kd_fmatch_result *r);

#endif /* KDMESG_FMATCH_H */
