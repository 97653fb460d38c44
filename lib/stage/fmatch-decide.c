// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fmatch-decide.c - the decision among the sites that read a text
 * (fmatch.c collects them): which one wins, how many compete, what they
 * agree on.  A text can match hundreds of sites (one format printed from
 * many places, "%s: %s" and its kind), so what the rules need of each
 * site is read from the index once, into a small table the rules then
 * walk; sites of one format read the text alike and are read once.
 */
#include <string.h>

#include "stage/fmatch.h"
#include "stage/fmatch-internal.h"

/* Whether module name @mod is the @n bytes at @w ('_' and '-' alike). */
static bool module_is(const char *mod, const char *w, size_t n)
{
	size_t i = 0;

	for (; i < n && mod[i]; i++)
		if (mod[i] != w[i] && !((mod[i] == '_' || mod[i] == '-') && (w[i] == '_' || w[i] == '-')))
			return false;
	return i == n && !mod[i];
}

/* Literal bytes of the text (bit per byte) of one reading, capped. */
#define COVER_BYTES	256

struct reading {
	uint8_t cover[COVER_BYTES / 8 * 8];	/* the bytes a literal printed */
	unsigned int score;	/* literal bytes + bytes read by typed conversions */
	size_t read;		/* non-blank bytes the reading covers */
	size_t free;		/* bytes read by free-text conversions (%s) */
	bool solved;		/* a reading was found */
};

/* Set the bits [@a, @e) of @c (capped at COVER_BYTES * 8). */
static void cover_set(uint8_t *c, size_t a, size_t e)
{
	if (e > COVER_BYTES * 8)
		e = COVER_BYTES * 8;
	for (; a < e && a % 8; a++)
		c[a / 8] |= (uint8_t)(1u << (a % 8));
	if (a + 8 <= e) {
		memset(c + a / 8, 0xff, (e - a) / 8);
		a += (e - a) / 8 * 8;
	}
	for (; a < e; a++)
		c[a / 8] |= (uint8_t)(1u << (a % 8));
}

/* Clear the bits [@a, @e) of @c (capped likewise). */
static void cover_clear(uint8_t *c, size_t a, size_t e)
{
	if (e > COVER_BYTES * 8)
		e = COVER_BYTES * 8;
	for (; a < e && a % 8; a++)
		c[a / 8] &= (uint8_t)~(1u << (a % 8));
	if (a + 8 <= e) {
		memset(c + a / 8, 0, (e - a) / 8);
		a += (e - a) / 8 * 8;
	}
	for (; a < e; a++)
		c[a / 8] &= (uint8_t)~(1u << (a % 8));
}

/*
 * Read site @id from @start once and note its score: literal bytes plus
 * the bytes its typed conversions (numbers, addresses, symbols...) read,
 * which say more about the format than free text (%s) does.  The reading
 * stays in r->sol and r->end for cover(); returns its conversions.
 */
static unsigned int read_once(struct run *r, const struct kd_fidx *x, uint32_t id, size_t start,
			      uint32_t sol, struct reading *rd)
{
	const struct kd_fidx_fmt *f = &x->fmt[id];
	unsigned int conv = 0;
	bool lits;

	rd->score = 0;
	rd->read = rd->free = 0;
	r->ops = x->op + f->op;
	r->nops = f->nops;
	r->str = x->str;
	r->flit = f->lit;
	if (sol != UINT32_MAX) {
		/* test() read it so already (collect()): the same reading. */
		r->end = r->pool[sol];
		r->solconv = r->pool[sol + 1];
		memcpy(r->sol, r->pool + sol + 2, sizeof(uint32_t) * 2 * r->solconv);
		r->nsol = 1;
	} else {
		r->budget = BUDGET;
		r->nsol = 0;
		kd_fmatch_solve(r, 0, start, 0);
	}
	if (!(rd->solved = r->nsol != 0))
		return 0;
	rd->read = (r->end - start) - kd_fmatch_blanks(r->t + start, r->end - start);
	/*
	 * Blanks say little: "    # %s" is "%*s# %s" with 4.  The literal
	 * part of the score is the format's own, counted once per format
	 * (readings of the same formats recur from text to text); with 256
	 * ops or more the loop below stops at the 256th conversion, literal
	 * pieces after it uncounted, and counts them itself.
	 */
	lits = f->nops < 256;
	if (lits)
		rd->score = kd_fmatch_nonblank_lit(x, id);
	for (unsigned int i = 0; i < r->nops && conv < 256; i++) {
		const struct kd_fidx_op *op = &r->ops[i];
		uint32_t a, e;

		if (op->kind == KD_OP_LIT) {
			if (!lits)
				rd->score += op->len -
					     (unsigned int)kd_fmatch_blanks(r->str + op->arg, op->len);
			continue;
		}
		a = r->sol[2 * conv];
		e = r->sol[2 * conv + 1];
		conv++;
		if (op->kind != KD_OP_STR && op->kind != KD_OP_RES)
			rd->score += e - a;
		else
			rd->free += e - a;
	}
	return conv;
}

/*
 * Which bytes of the text the literals of a reading printed: [@start,
 * @end) but the spans @sol of its conversions, as ops @ops (@nops) read
 * them.  Only needed when formats compete (dominated()).
 */
static void cover(struct reading *rd, const struct kd_fidx_op *ops, unsigned int nops,
		  size_t start, size_t end, const uint32_t *sol)
{
	unsigned int conv = 0;

	memset(rd->cover, 0, sizeof(rd->cover));
	if (!rd->solved)
		return;
	cover_set(rd->cover, start, end);
	for (unsigned int i = 0; i < nops && conv < 256; i++)
		if (ops[i].kind != KD_OP_LIT) {
			cover_clear(rd->cover, sol[2 * conv], sol[2 * conv + 1]);
			conv++;
		}
}

/* Whether the literal bytes of @a are some of those of @b, and fewer. */
static bool dominated(const struct run *r, const struct reading *a, const struct reading *b,
		      size_t nb)
{
	bool fewer = false;

	for (size_t k = 0; k < nb; k++) {
		uint8_t more = b->cover[k] & ~a->cover[k];

		if (a->cover[k] & ~b->cover[k])
			return false;
		/* More blanks only (padding of "%*s") are not more text. */
		for (unsigned int bit = 0; more && bit < 8; bit++)
			if ((more & (1u << bit)) && 8 * k + bit < r->n && r->t[8 * k + bit] != ' ')
				fewer = true;
	}
	return fewer;
}

/*
 * Whether format @a is format @b cut after a piece of it and ended by a
 * conversion ("probe of %s" and "probe of %s failed"): the conversion
 * may have printed the rest, so @a stays a competitor of @b.
 */
static bool prefix_of(const struct kd_fidx *x, uint32_t a, uint32_t b)
{
	const struct kd_fidx_fmt *fa = &x->fmt[a], *fb = &x->fmt[b];
	const char *s = x->str + fa->fmt, *pct;

	if (!fa->nops || x->op[fa->op + fa->nops - 1].kind == KD_OP_LIT)
		return false;
	pct = memrchr(s, '%', fa->fmt_len);
	return pct && (size_t)(pct - s) <= fb->fmt_len &&
	       memcmp(s, x->str + fb->fmt, (size_t)(pct - s)) == 0;
}

/*
 * What the rules need of a run of matching sites that the rules treat
 * alike (one format, one start, one answer to the module tie-break),
 * read from the index once: the fields of its first site, and which of
 * them all its sites share.
 */
struct entry {
	uint32_t id, start;	/* the first site, where the run matched */
	uint32_t c, n;		/* its sites: chain[c] .. chain[c + n - 1] (n 1: id alone) */
	uint32_t sol;		/* struct found's, for @id */
	uint32_t fmt, file, func, module, line;
	uint16_t lit;
	uint8_t same;		/* KD_FMATCH_SAME_* that hold for all its sites */
	bool pv;	/* a %pV wrapper */
	bool mod;	/* of the module the text starts with */
	bool keep;	/* a competitor */
	unsigned int grp;
};

/* What sites chain[@c] .. chain[@c + @n - 1] of a run all share. */
static uint8_t run_same(const struct kd_fidx *x, uint32_t c, uint32_t n)
{
	uint8_t same = KD_FMATCH_SAME_ALL;

	for (uint32_t k = c; k + 1 < c + n; k++)
		same &= x->prep->same[k];
	return same;
}

/* An entry of the @n sites from chain index @c (or site @id alone) matched from @start. */
static void entry_set(struct entry *e, const struct kd_fidx *x, uint32_t id, uint32_t start,
		      uint32_t c, uint32_t n, uint32_t sol)
{
	const struct kd_fidx_fmt *f = &x->fmt[id];

	/* Field by field: a compound literal is a memset() first. */
	e->id = id;
	e->sol = sol;
	e->start = start;
	e->c = c;
	e->n = n;
	e->fmt = f->fmt;
	e->file = f->file;
	e->func = f->func;
	e->module = f->module;
	e->line = f->line;
	e->lit = f->lit;
	e->pv = (f->flags & KD_FIDX_F_PV) != 0;
	e->same = n > 1 ? run_same(x, c, n) : KD_FMATCH_SAME_ALL;
	e->mod = false;
	e->keep = false;
	e->grp = 0;
}

/*
 * The winner among the matches @m (@n runs) of @x, and what the
 * competitors agree on, into @res.  A %pV wrapper ("%s %s: %pV") only
 * carries another format: it competes only when nothing else matched.
 * A match with less than half the winner's literal bytes explains the
 * text with its arguments where the winner has literal text: not a
 * competitor; nor is one whose literal text is part of another's ("%s
 * version %s" beside "KTAP version 1", "%s <%s>" beside "%s </%s>"), nor
 * one whose score (literal bytes and bytes its typed conversions read)
 * is below three quarters of the winner's.  When the text starts with a
 * module's name (a dev_printk() driver, a pr_fmt() prefix), the
 * competitors of that module win over the others.
 *
 * The rules are per site; sites of a run that share the format, the
 * start and the answer to the module rule get the same answers, so they
 * are applied per run (an entry), in the order of the sites: what the
 * first site of an entry gets, its other sites get.
 */
void kd_fmatch_decide(struct run *r, const struct kd_fidx *x, const struct found *m, unsigned int n,
		      const struct starts *st, struct kd_fmatch_result *res)
{
	/* Large, and the matcher is not reentrant. */
	static struct reading rd[MATCHES_MAX];
	static struct entry ea[MATCHES_MAX], eb[MATCHES_MAX];
	static uint32_t sol0[2 * 256];
	struct entry *s = ea;
	uint32_t gfmt[MATCHES_MAX], gstart[MATCHES_MAX], fmts[MATCHES_MAX];
	unsigned int rep[MATCHES_MAX];
	bool gkeep[MATCHES_MAX], nonpv = false, anymod = false, mod = false, modrule = false;
	unsigned int maxlit_all = 0, maxlit_np = 0, maxlit, ne = 0;
	unsigned int top = 0, topg = 0, ngrp = 0, best, first, last;
	uint32_t mod_off = UINT32_MAX;
	size_t end0 = 0;

	/* The runs as entries; a run whose sites differ in format, site by site. */
	for (unsigned int k = 0; k < n; k++) {
		entry_set(&s[ne], x, m[k].id, m[k].start, m[k].c, m[k].n, m[k].sol);
		if (s[ne++].same & KD_FMATCH_SAME_FMT)
			continue;
		ne--;
		for (uint32_t j = 0; j < m[k].n; j++)
			entry_set(&s[ne++], x, x->chain[m[k].c + j], m[k].start, m[k].c + j, 1,
				  j ? UINT32_MAX : m[k].sol);
	}
	for (unsigned int k = 0; k < ne; k++) {
		if (s[k].lit > maxlit_all)
			maxlit_all = s[k].lit;
		if (!s[k].pv) {
			nonpv = true;
			if (s[k].lit > maxlit_np)
				maxlit_np = s[k].lit;
		}
	}
	maxlit = nonpv ? maxlit_np : maxlit_all;
	/*
	 * The module rule, per site: an entry whose sites are of several
	 * modules is split where the answer changes.
	 */
	/* No site of the index has a module named so: the rule drops nobody. */
	if (st->hint_len) {
		uint32_t hb = kd_fmatch_module_hash(st->hint, st->hint_len);

		modrule = (x->prep->modset[hb / 64] & (1ull << (hb % 64))) != 0;
	}
	if (modrule) {
		struct entry *o = eb;
		unsigned int no = 0;

		for (unsigned int k = 0; k < ne; k++) {
			struct entry *e = &s[k];

			e->keep = (!nonpv || !e->pv) && 2u * e->lit >= maxlit;
			if (e->keep && (e->n == 1 || (e->same & KD_FMATCH_SAME_MODULE))) {
				/* Sites of one module in a row: one comparison. */
				if (e->module != mod_off) {
					mod_off = e->module;
					mod = module_is(x->str + mod_off, st->hint, st->hint_len);
				}
				e->mod = mod;
				anymod |= mod;
			} else if (e->keep) {
				uint32_t from = 0;
				bool was = false;

				for (uint32_t j = 0; j <= e->n; j++) {
					bool now = was;

					if (j < e->n) {
						uint32_t mo = x->fmt[x->chain[e->c + j]].module;

						if (mo != mod_off) {
							mod_off = mo;
							mod = module_is(x->str + mod_off, st->hint,
									st->hint_len);
						}
						now = mod;
						anymod |= mod;
					}
					if (j && (j == e->n || now != was)) {
						entry_set(&o[no], x, x->chain[e->c + from], e->start,
							  e->c + from, j - from,
							  from ? UINT32_MAX : e->sol);
						o[no].keep = true;
						o[no++].mod = was;
						from = j;
					}
					was = now;
				}
				continue;
			}
			o[no++] = *e;
		}
		s = o;
		ne = no;
	} else {
		for (unsigned int k = 0; k < ne; k++)
			s[k].keep = (!nonpv || !s[k].pv) && 2u * s[k].lit >= maxlit;
	}
	if (anymod)
		for (unsigned int k = 0; k < ne; k++)
			s[k].keep &= s[k].mod;
	/*
	 * Sites of one format read the text alike: one reading per distinct
	 * format and start (a group), and the rules below between groups.
	 * The sites of a group mostly come in a row.
	 */
	last = ne;
	for (unsigned int k = 0; k < ne; k++) {
		unsigned int g = ngrp;

		if (!s[k].keep)
			continue;
		if (last != ne && s[last].fmt == s[k].fmt && s[last].start == s[k].start)
			g = s[last].grp;
		else
			for (unsigned int q = ngrp; q-- > 0;)
				if (gfmt[q] == s[k].fmt && gstart[q] == s[k].start) {
					g = q;
					break;
				}
		if (g == ngrp) {
			unsigned int nconv;

			gfmt[g] = s[k].fmt;
			gstart[g] = s[k].start;
			rep[ngrp++] = k;
			nconv = read_once(r, x, s[k].id, s[k].start, s[k].sol, &rd[g]);
			/*
			 * The bytes a reading's literals printed matter only
			 * between groups: the first group's reading is kept
			 * until a second one comes.
			 */
			if (g == 0) {
				end0 = r->end;
				memcpy(sol0, r->sol, sizeof(uint32_t) * 2 * nconv);
			} else {
				if (g == 1) {
					const struct kd_fidx_fmt *f0 = &x->fmt[s[rep[0]].id];

					cover(&rd[0], x->op + f0->op, f0->nops, gstart[0], end0, sol0);
				}
				cover(&rd[g], r->ops, r->nops, s[k].start, r->end, r->sol);
			}
			if (rd[g].score > top) {
				top = rd[g].score;
				topg = g;
			}
		}
		s[k].grp = g;
		last = k;
	}
	gkeep[0] = true;
	if (ngrp > 1) {
		size_t nb = r->n / 8 + 1;
		bool any = false;

		if (nb > sizeof(rd[0].cover))
			nb = sizeof(rd[0].cover);
		for (unsigned int g = 0; g < ngrp; g++) {
			gkeep[g] = 4u * rd[g].score >= 3u * top ||
				   prefix_of(x, s[rep[g]].id, s[rep[topg]].id);
			for (unsigned int h = 0; h < ngrp && gkeep[g]; h++)
				if (h != g && dominated(r, &rd[g], &rd[h], nb) &&
				    !prefix_of(x, s[rep[g]].id, s[rep[h]].id))
					gkeep[g] = false;
		}
		/*
		 * The top scorer dominated by a match the score rule dropped:
		 * the rules disagree, the top scorer stays (with its rivals).
		 */
		for (unsigned int g = 0; g < ngrp; g++)
			any |= gkeep[g];
		if (!any)
			gkeep[topg] = true;
	}
	res->nsites = res->nformats = 0;
	best = first = last = ne;
	for (unsigned int k = 0; k < ne; k++) {
		bool seen;

		if (!s[k].keep || !gkeep[s[k].grp]) {
			s[k].keep = false;
			continue;
		}
		res->nsites += s[k].n;
		/* Counted once per distinct format among those kept. */
		seen = last != ne && s[last].fmt == s[k].fmt;
		for (unsigned int j = 0; j < res->nformats && !seen; j++)
			seen = fmts[j] == s[k].fmt;
		if (!seen)
			fmts[res->nformats++] = s[k].fmt;
		if (first == ne)
			first = k;
		if (best == ne || rd[s[k].grp].score > rd[s[best].grp].score ||
		    (rd[s[k].grp].score == rd[s[best].grp].score && s[k].lit > s[best].lit))
			best = k;
		last = k;
	}
	res->id = s[best].id;
	res->start = s[best].start;
	res->score = rd[s[best].grp].score;
	res->read = rd[s[best].grp].read;
	res->free = rd[s[best].grp].free;
	res->same_file = *(x->str + s[first].file) != '\0';
	res->same_func = *(x->str + s[first].func) != '\0';
	res->same_module = *(x->str + s[first].module) != '\0';
	res->same_line = s[first].line != 0;
	for (unsigned int k = first; k < ne; k++) {
		if (!s[k].keep)
			continue;
		res->same_file &= s[first].file == s[k].file && (s[k].same & KD_FMATCH_SAME_FILE);
		res->same_func &= s[first].func == s[k].func && (s[k].same & KD_FMATCH_SAME_FUNC);
		res->same_module &= s[first].module == s[k].module &&
				    (s[k].same & KD_FMATCH_SAME_MODULE);
		res->same_line &= s[first].line == s[k].line && (s[k].same & KD_FMATCH_SAME_LINE);
	}
	res->same_line &= res->same_file;
}
