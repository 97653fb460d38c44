// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fmatch-prep.c - the bigrams (pairs of adjacent bytes) of the literal
 * text of formats, with which the matcher dismisses most candidates
 * before it searches their literal pieces in a text.  A text a format
 * printed whole holds each of its literal pieces, hence each of their
 * bigrams.  The index writer picks two bigrams per format, those the
 * fewest formats have (they tell formats apart best); the loader files
 * the formats without an anchor word under the first and keeps all of
 * their bigrams, so that they need not be tried one by one.  Bigrams
 * are hashed to KD_FMATCH_BG_BITS bits: a shared bit only lets a
 * candidate through to the full test, it never drops one.
 *
 * The loader also derives the other tables the matcher tests before it
 * reads a format: the last literal bytes of each anchored format, what
 * each site of a run shares with the next (the decision takes a run at
 * once), and a bit per module name.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "stage/fmatch.h"
#include "stage/fmatch-internal.h"

/*
 * Set in @set the bigram bit of each pair of adjacent literal bytes of
 * ops [@op, @op + @n), but those of the @skip_len bytes at @str + @skip.
 */
static void literal_bigrams(const struct kd_fidx_op *op, unsigned int n, const char *str,
			    uint64_t *set, uint32_t skip, uint32_t skip_len)
{
	for (unsigned int i = 0; i < n; i++) {
		const unsigned char *s = (const unsigned char *)str + op[i].arg;

		if (op[i].kind != KD_OP_LIT)
			continue;
		for (unsigned int k = 0; k + 1 < op[i].len; k++) {
			unsigned int h = kd_fmatch_bigram(s[k], s[k + 1]);
			uint32_t at = op[i].arg + k;

			if (skip_len && at >= skip && at + 2 <= skip + skip_len)
				continue;
			set[h / 64] |= 1ull << (h % 64);
		}
	}
}

#define EACH_BIT(set, h, body) do {						\
	for (unsigned int w_ = 0; w_ < KD_FMATCH_BG_BITS / 64; w_++)		\
		for (uint64_t b_ = (set)[w_]; b_; b_ &= b_ - 1) {		\
			unsigned int h = w_ * 64 + (unsigned int)__builtin_ctzll(b_); \
			body;							\
		}								\
} while (0)

int kd_fmatch_pick_bigrams(struct kd_fidx_fmt *fmt, size_t n, const struct kd_fidx_op *op,
			   const char *str, const uint32_t *key,
			   uint16_t (*four)[KD_FIDX_SLOT_BIGRAMS])
{
	uint32_t *df = calloc(KD_FMATCH_BG_BITS, sizeof(*df));

	if (!df)
		return -ENOMEM;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n; i++) {
			uint64_t set[KD_FMATCH_BG_BITS / 64] = { 0 };
			unsigned int best[KD_FIDX_SLOT_BIGRAMS], nb = 0;

			literal_bigrams(op + fmt[i].op, fmt[i].nops, str, set, key[2 * i], key[2 * i + 1]);
			/* First how many formats have each, then each format's rarest four. */
			EACH_BIT(set, h, {
				unsigned int k;

				if (!pass) {
					df[h]++;
					continue;
				}
				/* Insert h into best[], rarest first; of equals the first. */
				for (k = nb; k > 0 && df[best[k - 1]] > df[h]; k--)
					if (k < KD_FIDX_SLOT_BIGRAMS)
						best[k] = best[k - 1];
				if (k < KD_FIDX_SLOT_BIGRAMS) {
					best[k] = h;
					nb += nb < KD_FIDX_SLOT_BIGRAMS;
				}
			});
			if (!pass)
				continue;
			for (unsigned int k = 0; k < KD_FIDX_SLOT_BIGRAMS; k++) {
				uint16_t v = k < nb ? (uint16_t)(best[k] + 1) : 0;

				if (k < 2)
					fmt[i].bigram[k] = v;
				four[i][k] = v;
			}
		}
	free(df);
	return 0;
}

/* Whether formats @f and @g run alike in fmatch.c's test(): one test answers for both. */
static bool same_test(const struct kd_fidx *x, const struct kd_fidx_fmt *f,
		      const struct kd_fidx_fmt *g)
{
	if (f->family != g->family || f->lit != g->lit || f->nops != g->nops ||
	    f->bytes != g->bytes || f->bigram[0] != g->bigram[0] || f->bigram[1] != g->bigram[1])
		return false;
	for (unsigned int i = 0; i < f->nops; i++) {
		const struct kd_fidx_op *a = &x->op[f->op + i], *b = &x->op[g->op + i];

		if (a->kind != b->kind || a->flags != b->flags || a->len != b->len ||
		    (a->kind == KD_OP_LIT ? memcmp(x->str + a->arg, x->str + b->arg, a->len) != 0 :
		     a->arg != b->arg))
			return false;
	}
	return true;
}

static uint32_t test_hash(const struct kd_fidx *x, const struct kd_fidx_fmt *f)
{
	uint32_t h = kd_fmatch_hash(x->str + f->fmt, f->fmt_len > 64 ? 64 : f->fmt_len);

	return (h ^ f->family ^ ((uint32_t)f->lit << 8)) * 0x9e3779b1u;
}

/*
 * The unanchored entries that test alike (sites of one format, often
 * dozens: "%s: %s"): lead[q] is the first of q's kind, in chain order.
 */
static int group_unanchored(const struct kd_fidx *x, struct kd_fmatch_prep *p)
{
	uint32_t un = x->head->unanchored, nun = x->head->nolit - un, cap = 64, *tab;

	while (cap < 2 * nun)
		cap *= 2;
	if (!(tab = malloc(cap * sizeof(*tab))))
		return -ENOMEM;
	memset(tab, 0xff, cap * sizeof(*tab));
	for (uint32_t q = 0; q < nun; q++) {
		const struct kd_fidx_fmt *f = &x->fmt[x->chain[un + q]];
		uint32_t k = test_hash(x, f) & (cap - 1);

		while (tab[k] != UINT32_MAX && !same_test(x, &x->fmt[x->chain[un + tab[k]]], f))
			k = (k + 1) & (cap - 1);
		if (tab[k] == UINT32_MAX)
			tab[k] = q;
		p->lead[q] = tab[k];
	}
	free(tab);
	return 0;
}

/* What each anchored chain entry's site shares with the next one of its run. */
static void runs_same(const struct kd_fidx *x, uint8_t *same)
{
	for (uint32_t c = 0; c < x->head->unanchored; c++) {
		const struct kd_fidx_fmt *f, *g;

		same[c] = 0;
		if (x->slot[c].run < 2)
			continue;
		f = &x->fmt[x->chain[c]];
		g = &x->fmt[x->chain[c + 1]];
		same[c] = (uint8_t)((f->file == g->file ? KD_FMATCH_SAME_FILE : 0) |
				    (f->func == g->func ? KD_FMATCH_SAME_FUNC : 0) |
				    (f->module == g->module ? KD_FMATCH_SAME_MODULE : 0) |
				    (f->line == g->line ? KD_FMATCH_SAME_LINE : 0) |
				    (f->fmt == g->fmt && f->lit == g->lit &&
				     (f->flags & KD_FIDX_F_PV) == (g->flags & KD_FIDX_F_PV) ?
				     KD_FMATCH_SAME_FMT : 0));
	}
}

/*
 * The last literal bytes of each anchored format that ends in literal
 * text, placed as in a text's last 4 bytes (fmatch.c: run.last4).
 */
static void tails(const struct kd_fidx *x, struct kd_fmatch_tail *tail)
{
	for (uint32_t c = 0; c < x->head->unanchored; c++) {
		const struct kd_fidx_fmt *f = &x->fmt[x->chain[c]];
		const struct kd_fidx_op *o = f->nops ? &x->op[f->op + f->nops - 1] : NULL;
		unsigned char b[4] = { 0 }, m[4] = { 0 };
		unsigned int n;

		if (o && o->kind == KD_OP_LIT && o->len) {
			const char *e = x->str + o->arg + o->len;

			n = o->len < 4 ? o->len : 4;
			for (unsigned int k = 1; k <= n; k++) {
				b[4 - k] = (unsigned char)e[-(int)k];
				m[4 - k] = 0xff;
			}
		}
		memcpy(&tail[c].bytes, b, 4);
		memcpy(&tail[c].mask, m, 4);
	}
}

/*
 * The bits of the sites' module names.  A few thousand names for
 * hundreds of thousands of sites: a name whose string was hashed lately
 * (a small table by its offset) is not hashed again.
 */
static void module_set(const struct kd_fidx *x, uint64_t *set)
{
	uint32_t done[1024];

	memset(done, 0xff, sizeof(done));
	for (uint32_t i = 0; i < x->head->nfmt; i++) {
		uint32_t off = x->fmt[i].module, *d = &done[(off * 0x9e3779b1u) >> 22], h;
		const char *m = x->str + off;

		if (*d == off || !*m)
			continue;
		*d = off;
		h = kd_fmatch_module_hash(m, strlen(m));
		set[h / 64] |= 1ull << (h % 64);
	}
}

int kd_fmatch_prep_new(const struct kd_fidx *x, struct kd_fmatch_prep **out)
{
	const struct kd_fidx_head *hd = x->head;
	struct kd_fmatch_prep *p = calloc(1, sizeof(*p));
	uint32_t nun = hd->nolit - hd->unanchored, *fill = NULL;

	if (!p)
		return -ENOMEM;
	p->ubucket = calloc(KD_FMATCH_BG_BITS + 2, sizeof(*p->ubucket));
	p->ulist = malloc(((size_t)nun + 1) * sizeof(*p->ulist));
	p->umask = calloc((size_t)nun + 1, sizeof(*p->umask));
	p->scratch = malloc(((size_t)nun + 64) / 64 * sizeof(*p->scratch));
	p->lead = malloc(((size_t)nun + 1) * sizeof(*p->lead));
	p->out = malloc(((size_t)nun + 1) * sizeof(*p->out));
	p->same = malloc((size_t)hd->unanchored + 1);
	/* Zero pages until a format is read: the counts are made on first use. */
	p->nblit = calloc((size_t)hd->nfmt + 1, sizeof(*p->nblit));
	p->tail = malloc(((size_t)hd->unanchored + 1) * sizeof(*p->tail));
	fill = malloc((KD_FMATCH_BG_BITS + 1) * sizeof(*fill));
	if (!p->ubucket || !p->ulist || !p->umask || !p->scratch || !p->lead || !p->out || !fill ||
	    !p->same || !p->nblit || !p->tail || group_unanchored(x, p) < 0) {
		free(fill);
		kd_fmatch_prep_free(p);
		return -ENOMEM;
	}
	/*
	 * The unanchored entries by their first bigram (its bucket past the
	 * end, KD_FMATCH_BG_BITS, for those without one), each bucket in
	 * chain order, and all their bigrams.
	 */
	for (uint32_t c = hd->unanchored; c < hd->nolit; c++) {
		const struct kd_fidx_fmt *f = &x->fmt[x->chain[c]];
		uint16_t a = f->bigram[0];

		p->ubucket[(a && a <= KD_FMATCH_BG_BITS ? a - 1u : KD_FMATCH_BG_BITS) + 1]++;
		literal_bigrams(x->op + f->op, f->nops, x->str, p->umask[c - hd->unanchored], 0, 0);
	}
	for (unsigned int k = 0; k <= KD_FMATCH_BG_BITS; k++)
		p->ubucket[k + 1] += p->ubucket[k];
	memcpy(fill, p->ubucket, (KD_FMATCH_BG_BITS + 1) * sizeof(*fill));
	for (uint32_t c = hd->unanchored; c < hd->nolit; c++) {
		uint16_t a = x->fmt[x->chain[c]].bigram[0];

		p->ulist[fill[a && a <= KD_FMATCH_BG_BITS ? a - 1u : KD_FMATCH_BG_BITS]++] = c;
	}
	runs_same(x, p->same);
	tails(x, p->tail);
	module_set(x, p->modset);
	for (p->strong = hd->unanchored; p->strong < hd->nolit; p->strong++)
		if (x->fmt[x->chain[p->strong]].lit < STRONG_LIT)
			break;
	free(fill);
	*out = p;
	return 0;
}

/*
 * Mark in x->prep->scratch (a bit per unanchored chain entry) those filed
 * under a bigram of the text, and those without a bigram: the others
 * lack a literal piece of their format.
 */
void kd_fmatch_mark_unanchored(const struct run *r, const struct kd_fidx *x)
{
	const struct kd_fmatch_prep *p = x->prep;
	uint32_t nun = x->head->nolit - x->head->unanchored;

	memset(p->scratch, 0, ((size_t)nun + 63) / 64 * sizeof(*p->scratch));
	for (unsigned int wd = 0; wd <= KD_FMATCH_BG_BITS / 64; wd++) {
		/* The bucket past the end: those without a bigram. */
		uint64_t bits = wd < KD_FMATCH_BG_BITS / 64 ? r->bg[wd] : 1;

		while (bits) {
			unsigned int hb = wd * 64 + (unsigned int)__builtin_ctzll(bits);

			bits &= bits - 1;
			for (uint32_t k = p->ubucket[hb]; k < p->ubucket[hb + 1]; k++) {
				uint32_t q = p->ulist[k] - x->head->unanchored;

				p->scratch[q / 64] |= 1ull << (q % 64);
			}
		}
	}
}

static int by_cont(const void *a, const void *b, void *data)
{
	const struct kd_fidx *x = data;
	uint32_t ia = *(const uint32_t *)a, ib = *(const uint32_t *)b;
	uint32_t fa = x->fmt[ia].file, fb = x->fmt[ib].file;

	return fa != fb ? (fa < fb ? -1 : 1) : ia < ib ? -1 : ia > ib;
}

const uint32_t *kd_fmatch_cont_sites(const struct kd_fidx *x, uint32_t file, uint32_t *n)
{
	struct kd_fmatch_prep *p = x->prep;
	uint32_t lo = 0, hi, first;

	*n = 0;
	if (!p->cont_ready) {
		p->cont_ready = true;
		for (uint32_t i = 0; i < x->head->nfmt; i++)
			p->ncont += x->fmt[i].level == 'c';
		if (!p->ncont)
			return NULL;
		if (!(p->cont = malloc((size_t)p->ncont * sizeof(*p->cont)))) {
			p->ncont = 0;
			return NULL;
		}
		for (uint32_t i = 0, k = 0; i < x->head->nfmt; i++)
			if (x->fmt[i].level == 'c')
				p->cont[k++] = i;
		qsort_r(p->cont, p->ncont, sizeof(*p->cont), by_cont, (void *)x);
	}
	if (!p->ncont)
		return NULL;
	/* the first with @file, then those after it */
	for (hi = p->ncont; lo < hi;) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (x->fmt[p->cont[mid]].file < file)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (first = lo; lo < p->ncont && x->fmt[p->cont[lo]].file == file; lo++)
		;
	*n = lo - first;
	return *n ? p->cont + first : NULL;
}

void kd_fmatch_prep_free(struct kd_fmatch_prep *p)
{
	if (!p)
		return;
	free(p->cont);
	free(p->ubucket);
	free(p->ulist);
	free(p->umask);
	free(p->scratch);
	free(p->lead);
	free(p->out);
	free(p->same);
	free(p->nblit);
	free(p->tail);
	free(p);
}
