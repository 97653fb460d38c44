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

#include "stage/fidx-internal.h"

#define BUDGET		256	/* steps per candidate and start */
#define NONE		((size_t)-1)
/*
 * Fewer literal bytes than this read almost any text: such a format is
 * claimed for a whole text only when its literal bytes are a quarter of
 * it, and never for the start of one.
 */
#define STRONG_LIT	8

/* One text being read by the programs of candidate formats. */
struct run {
	const char *t;
	size_t n;
	const char *str;
	const struct kd_fidx_op *ops;
	unsigned int nops;
	int budget;
	bool partial;		/* accept a match of the start of the text */
	bool cut;		/* partial, and the text may end inside the format */
	uint64_t bytes;		/* bit b & 63 for each byte b of the text */
	size_t nonblank;	/* bytes of the text that are not blanks */
	unsigned int flit;	/* literal bytes of the format being run */
	unsigned int want;	/* stop after this many solutions */
	unsigned int nsol;
	size_t end;		/* of the first solution */
	uint32_t cur[2 * 256], sol[2 * 256];	/* [start, end) per conversion */
};

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

#endif /* KDMESG_FMATCH_INTERNAL_H */
