// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fmatch-memo.c - the matcher's answers for texts it has seen, per
 * index.  A log repeats many texts word for word ("Cancelled inflight0
 * request did not reset", the same warning from each CPU), and what
 * fmatch.c finds for a text depends on nothing but the text and the
 * index: every piece of state it keeps between calls is written before
 * it is read within a call.  So the answer kept for the same bytes
 * against the same index is the answer a new match would give, byte for
 * byte (the argument offsets are into the text, which is the same; arg[]
 * past nargs, which nobody reads, is left zero).
 * A direct-mapped table by a hash of the text: a slot keeps the last
 * text that hashed to it; texts longer than MEMO_TEXT are not kept.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "stage/fmatch.h"
#include "stage/fmatch-internal.h"

#define MEMO_SLOTS	16384	/* a power of two */
#define MEMO_TEXT	128

struct slot {
	uint32_t len;		/* of the text; 0: empty (an empty text is not kept) */
	char text[MEMO_TEXT];
	struct kd_fmatch_result res;
};

struct kd_fmatch_memo {
	struct slot slot[MEMO_SLOTS];
};

/* The slot of @len bytes at @t (len <= MEMO_TEXT): eight bytes at a time. */
static size_t slot_of(const char *t, size_t len)
{
	uint64_t h = len * 0x9e3779b97f4a7c15ull;
	size_t k = 0;

	for (; k + 8 <= len; k += 8) {
		uint64_t w;

		memcpy(&w, t + k, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	for (; k < len; k++)
		h = (h ^ (unsigned char)t[k]) * 0x100000001b3ull;
	h ^= h >> 29;
	return (size_t)(h * 0xc4ceb9fe1a85ec53ull >> 40) & (MEMO_SLOTS - 1);
}

/*
 * The bytes of @r worth keeping: all but the unused end of arg[] (no
 * reader looks past nargs), so that a kept answer writes a few cache
 * lines, not the whole slot.
 */
static size_t kept(const struct kd_fmatch_result *r)
{
	return offsetof(struct kd_fmatch_result, arg) + (r->nargs > 0 ? (size_t)r->nargs : 0) *
	       sizeof(r->arg[0]);
}

bool kd_fmatch_memo_find(struct kd_fmatch_prep *p, const char *text, size_t len,
			 struct kd_fmatch_result *res)
{
	const struct slot *s;

	if (!p->memo || !len || len > MEMO_TEXT)
		return false;
	s = &p->memo->slot[slot_of(text, len)];
	if (s->len != len || memcmp(s->text, text, len) != 0)
		return false;
	memset(res, 0, sizeof(*res));
	memcpy(res, &s->res, kept(&s->res));
	return true;
}

void kd_fmatch_memo_keep(struct kd_fmatch_prep *p, const char *text, size_t len,
			 const struct kd_fmatch_result *res)
{
	struct slot *s;

	if (!len || len > MEMO_TEXT)
		return;
	/* Untouched pages of calloc()'s mapping cost nothing: a few MiB at most. */
	if (!p->memo && !p->memo_failed && !(p->memo = calloc(1, sizeof(*p->memo))))
		p->memo_failed = true;	/* matched without a memo, as before */
	if (!p->memo)
		return;
	s = &p->memo->slot[slot_of(text, len)];
	s->len = (uint32_t)len;
	memcpy(s->text, text, len);
	memcpy(&s->res, res, kept(res));
}

void kd_fmatch_memo_free(struct kd_fmatch_prep *p)
{
	free(p->memo);
	p->memo = NULL;
}
