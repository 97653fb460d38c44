// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fmatch.c - match a message text against format indexes: the
 * candidates of a text, the arguments of the winner.  See fmatch.h;
 * candidates are read by fmatch-read.c, the decision among those that
 * match is fmatch-decide.c's.
 */
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "shared/drmprefix.h"
#include "stage/fidx-internal.h"
#include "stage/fmatch.h"
#include "stage/fmatch-internal.h"

#define TESTED_MAX	512	/* candidates looked at per record and index */
#define WORDS_MAX	KD_FMATCH_WORDS_MAX
#define KEYSET		1024	/* keys of a text looked up, > 3 * WORDS_MAX */
/* Texts up to this long are copied for the reader (struct run's @padded). */
#define TEXT_COPY_MAX	8192
/* A text this long may have been cut by the record limit (992 to 1024 bytes). */
#define CUT_LEN		960

/* The first ": " of the @n bytes at @t, or NULL: memmem() set up for two bytes costs more. */
static const char *colon_blank(const char *t, size_t n)
{
	const char *p = t, *e = t + n;

	while (n >= 2 && (p = memchr(p, ':', (size_t)(e - 1 - p))) != NULL) {
		if (p[1] == ' ')
			return p;
		p++;
	}
	return NULL;
}

/*
 * ACPICA's prefixes (include/acpi/platform/aclinux.h's ACPI_MSG_*): the
 * length of the one the @n bytes at @t start with, or NONE.
 */
static size_t acpi_start(const char *t, size_t n)
{
	static const struct { const char *s; size_t n; } pre[] = {
		{ "ACPI: ", 6 }, { "ACPI Error: ", 12 }, { "ACPI Warning: ", 14 },
		{ "ACPI BIOS Error (bug): ", 23 }, { "ACPI BIOS Warning (bug): ", 25 },
	};

	if (n < 6 || memcmp(t, "ACPI", 4) != 0)
		return NONE;
	for (size_t i = 0; i < sizeof(pre) / sizeof(pre[0]); i++)
		if (n >= pre[i].n && memcmp(t, pre[i].s, pre[i].n) == 0)
			return pre[i].n;
	return NONE;
}

/*
 * After the word at @at (bytes up to a blank) and its blank, or NONE:
 * a wrapper's word of its own between its prefix and the caller's format.
 */
static size_t after_word(const char *t, size_t n, size_t at)
{
	const char *b = at < n ? memchr(t + at, ' ', n - at) : NULL;

	return b && b > t + at ? (size_t)(b - t) + 1 : NONE;
}

/*
 * sdev_prefix_printk() (sd_printk(), sr_printk(), scmd_printk()): the
 * disk's name in brackets, without a blank, after dev_printk()'s prefix
 * at @at ("sd 0:0:0:0: [sda] "); the start after it, or NONE.
 */
static size_t disk_name_end(const char *t, size_t n, size_t at)
{
	const char *e;

	if (at + 3 >= n || t[at] != '[')
		return NONE;
	e = memchr(t + at + 1, ']', n - at - 1);
	if (!e || e == t + at + 1 || (size_t)(e - t) + 1 >= n || e[1] != ' ' ||
	    memchr(t + at + 1, ' ', (size_t)(e - (t + at + 1))))
		return NONE;
	return (size_t)(e - t) + 2;
}

static void find_prefix_starts(const char *t, size_t n, struct starts *s)
{
	const char *c = colon_blank(t, n);
	size_t pre, spaces, core, core_spaces, hint = 0;

	s->dev = s->net3 = s->net1 = s->nulldev = s->nullnet = s->scsi = NONE;
	s->acpi = acpi_start(t, n);
	s->probe = s->first = s->word = NONE;
	s->drm = kd_drm_prefix_end(t, n, 0);
	s->drm_err = NONE;
	s->hint = t;
	/* In a local: through @s, each step was a store (bytes may alias it). */
	while (hint < n && t[hint] != ' ' && t[hint] != ':')
		hint++;
	s->hint_len = hint;
	if (!c)
		return;
	pre = (size_t)(c - t);
	s->first = pre + 2;
	s->word = after_word(t, n, s->first);
	if (pre == 15 && memcmp(t, "(NULL device *)", 15) == 0) {
		s->nulldev = pre + 2;
		return;
	}
	if (pre == 17 && memcmp(t, "(NULL net_device)", 17) == 0) {
		s->nullnet = pre + 2;
		return;
	}
	spaces = kd_fmatch_blanks(t, pre);
	if (spaces == 1) {
		s->dev = pre + 2;
		if (s->drm == NONE)
			s->drm = kd_drm_prefix_end(t, n, s->dev);
		s->scsi = disk_name_end(t, n, s->dev);
		/* dev_err_probe(): "error -EINVAL: " or "error -22: " after it */
		if (n - s->dev > 9 && memcmp(t + s->dev, "error -", 7) == 0) {
			const char *e = colon_blank(t + s->dev + 7, n - s->dev - 7);

			if (e && !memchr(t + s->dev + 7, ' ', (size_t)(e - (t + s->dev + 7))))
				s->probe = (size_t)(e - t) + 2;
		}
	}
	/* netdev_reg_state(): " (unregistering)" and the like after the name */
	core = pre;
	if (pre && t[pre - 1] == ')') {
		const char *o = memrchr(t, '(', pre);

		if (o && o > t && o[-1] == ' ')
			core = (size_t)(o - t) - 1;
	}
	core_spaces = core == pre ? spaces : kd_fmatch_blanks(t, core);
	if (core_spaces == 2)
		s->net3 = pre + 2;
	else if (core_spaces == 0 && core)
		s->net1 = pre + 2;
}

/* Where each family may start the format in the @n bytes at @t. */
static void find_starts(const char *t, size_t n, struct starts *s)
{
	find_prefix_starts(t, n, s);
	s->drm_err = kd_drm_error_end(t, n, s->drm);
}

/* Run site @id of @x from each start its family allows; the start that matched, or NONE. */
static size_t test(struct run *r, const struct kd_fidx *x, uint32_t id, const struct starts *st)
{
	const struct kd_fidx_fmt *f = &x->fmt[id];
	size_t at[6];
	unsigned int n = 0;

	switch (f->family) {
	case KD_FIDX_PLAIN:
		at[n++] = 0;
		break;
	case KD_FIDX_DEV:
		at[n++] = st->dev != NONE ? st->dev : st->nulldev;
		at[n++] = st->scsi;
		break;
	case KD_FIDX_NETDEV:
		at[n++] = st->net3;
		at[n++] = st->net1;
		at[n++] = st->nullnet;
		break;
	case KD_FIDX_ACPI:
		at[n++] = st->acpi;
		break;
	case KD_FIDX_DEVPROBE:
		at[n++] = st->probe;
		break;
	case KD_FIDX_WRAP:
		at[n++] = st->first;
		at[n++] = st->drm;
		at[n++] = st->drm_err;
		/* last: a reading in which the format reads the word too comes first */
		at[n++] = st->word;
		break;
	default:
		at[n++] = 0;
		at[n++] = st->dev;
		at[n++] = st->net3;
		at[n++] = st->net1;
		at[n++] = st->acpi;
		at[n++] = st->probe;
	}
	if (r->partial && f->lit < STRONG_LIT)
		return NONE;
	/* A format that ends in free text reads any rest: whole, not partial. */
	if (r->partial && f->nops && x->op[f->op + f->nops - 1].kind == KD_OP_STR)
		return NONE;
	/* Each literal piece is in a text the format printed whole: its bigrams too. */
	if (!r->cut && !kd_fmatch_bigrams_in(r, f))
		return NONE;
	r->ops = x->op + f->op;
	r->nops = f->nops;
	r->str = x->str;
	r->flit = f->lit;
	if (!r->cut && !kd_fmatch_feasible(r))
		return NONE;
	for (unsigned int k = 0; k < n; k++) {
		if (at[k] == NONE || at[k] > r->n || (k && at[k] == at[0] && f->family == KD_FIDX_ANY))
			continue;
		if (f->lit > r->n - at[k])
			continue;
		r->budget = BUDGET;
		r->nsol = 0;
		kd_fmatch_solve(r, 0, at[k], 0);
		if (r->nsol)
			return at[k];
	}
	return NONE;
}

/*
 * Whether a format found by its anchor key at @pos of the text may start
 * where its family lets it: when only literal text comes before the key
 * in the format, it starts at @pos minus the key's offset.
 */
/* Whether the text has the format's first literal bytes at @at. */
static inline bool head_at(const struct run *r, const struct kd_fidx_slot *sl, size_t at)
{
	return at != NONE && at <= r->n && r->n - at >= sl->head_len &&
	       kd_fmatch_eq(r->t + at, sl->head, sl->head_len);
}

/* Whether a start its family allows has the format's first literal bytes. */
static bool headed(const struct run *r, const struct kd_fidx_slot *sl, const struct starts *st)
{
	if (!sl->head_len)
		return true;
	switch (sl->family) {
	case KD_FIDX_PLAIN:
		return head_at(r, sl, 0);
	case KD_FIDX_DEV:
		return head_at(r, sl, st->dev != NONE ? st->dev : st->nulldev) ||
		       head_at(r, sl, st->scsi);
	case KD_FIDX_NETDEV:
		return head_at(r, sl, st->net3) || head_at(r, sl, st->net1) ||
		       head_at(r, sl, st->nullnet);
	case KD_FIDX_ACPI:
		return head_at(r, sl, st->acpi);
	case KD_FIDX_DEVPROBE:
		return head_at(r, sl, st->probe);
	case KD_FIDX_WRAP:
		return head_at(r, sl, st->first) || head_at(r, sl, st->drm) ||
		       head_at(r, sl, st->drm_err) || head_at(r, sl, st->word);
	default:
		return head_at(r, sl, 0) || head_at(r, sl, st->dev) || head_at(r, sl, st->net3) ||
		       head_at(r, sl, st->net1) || head_at(r, sl, st->acpi) ||
		       head_at(r, sl, st->probe);
	}
}

/* headed() for a format without a slot: its first op. */
static bool fmt_headed(const struct run *r, const struct kd_fidx *x, const struct kd_fidx_fmt *f,
		       const struct starts *st)
{
	struct kd_fidx_slot sl = { .family = f->family };
	const struct kd_fidx_op *o0 = &x->op[f->op];

	if (!f->nops || o0->kind != KD_OP_LIT)
		return true;
	sl.head_len = o0->len < 4 ? (uint8_t)o0->len : 4;
	memcpy(sl.head, x->str + o0->arg, sl.head_len);
	return headed(r, &sl, st);
}

static bool placed(const struct kd_fidx_slot *sl, const struct starts *st, size_t pos)
{
	size_t at;

	if (sl->anchor_off == KD_FIDX_NO_OFF)
		return true;
	if (pos < sl->anchor_off)
		return false;
	at = pos - sl->anchor_off;
	switch (sl->family) {
	case KD_FIDX_PLAIN:
		return at == 0;
	case KD_FIDX_DEV:
		return at == st->dev || at == st->nulldev || at == st->scsi;
	case KD_FIDX_NETDEV:
		return at == st->net3 || at == st->net1 || at == st->nullnet;
	case KD_FIDX_ACPI:
		return at == st->acpi;
	case KD_FIDX_DEVPROBE:
		return at == st->probe;
	case KD_FIDX_WRAP:
		return at == st->first || at == st->drm || at == st->drm_err || at == st->word;
	default:
		return at == 0 || at == st->dev || at == st->net3 || at == st->net1 ||
		       at == st->acpi || at == st->probe;
	}
}

/*
 * Keep the reading test() just found in r->pool: its end, conversions
 * and spans.  Not for a cut text, whose reading may stop before its
 * last conversion.  Returns its offset, or UINT32_MAX.
 */
static uint32_t keep_reading(struct run *r)
{
	uint32_t at = r->npool, need = 2 + 2 * r->solconv;

	if (r->cut || need > KD_FMATCH_POOL - r->npool)
		return UINT32_MAX;
	r->pool[at] = (uint32_t)r->end;
	r->pool[at + 1] = r->solconv;
	memcpy(r->pool + at + 2, r->sol, sizeof(uint32_t) * 2 * r->solconv);
	r->npool += need;
	return at;
}

/* kd_fmatch_is_word() of each byte, looked up: the words of every text are split. */
static const bool word_byte[256] = {
	['0' ... '9'] = true, ['A' ... 'Z'] = true, ['_'] = true, ['a' ... 'z'] = true,
};

/*
 * Collect the full (or partial) matches of index @x among the text's
 * words, as runs of sites: the first MATCHES_MAX sites are kept (*@kept
 * of them), *@nsites counts all.  Returns the runs in @out.
 */
static unsigned int collect(struct run *r, const struct kd_fidx *x, const struct starts *st,
			    struct found *out, unsigned int *kept, unsigned int *nsites)
{
	const struct kd_fidx_head *h = x->head;
	unsigned int ntested = 0, nout = 0, nkept = 0;
	const unsigned int nw = r->nw;
	const uint32_t *ws = r->ws, *we = r->we;
	uint32_t nun;
	static uint32_t seen_key[KEYSET], seen_gen[KEYSET], gen;
	/* Read once: test() writes to *r, so the compiler would read them again per slot. */
	const bool cut = r->cut, partial = r->partial;
	const uint64_t tbytes = r->bytes;
	const uint32_t last4 = r->last4;
	const struct kd_fmatch_tail *tail = x->prep->tail;

	*nsites = 0;
	r->npool = 0;
	/* A new generation empties the set of keys looked up. */
	if (++gen == 0) {
		memset(seen_gen, 0, sizeof(seen_gen));
		gen = 1;
	}
	/*
	 * Each run of one to KD_FMATCH_KEY_WORDS words may be a format's
	 * anchor; each key once (a format is filed under one key).
	 */
	for (unsigned int j = 0; j < nw; j++) {
		uint32_t hash = kd_fmatch_hash(NULL, 0);

		for (unsigned int l = 0; l < KD_FMATCH_KEY_WORDS && j + l < nw; l++) {
			/* FNV-1a runs on: the key of l + 1 words continues that of l. */
			const char *from = r->t + (l ? we[j + l - 1] : ws[j]), *to = r->t + we[j + l];

			if (!kd_fmatch_keyword(r->t + ws[j + l]))
				break;
			for (; from < to; from++)
				hash = (hash ^ (unsigned char)*from) * 16777619u;
			uint32_t b = hash & (h->nbuckets - 1), slot = hash & (KEYSET - 1);
			size_t pos = ws[j];

			uint32_t bit = kd_fidx_filter_bit(hash);

			/* Most words anchor nothing: a small bit table says so. */
			if (!(x->filter[bit / 64] & (1ull << (bit % 64))))
				continue;
			while (seen_gen[slot] == gen && seen_key[slot] != hash)
				slot = (slot + 1) & (KEYSET - 1);
			if (seen_gen[slot] == gen)
				continue;
			seen_gen[slot] = gen;
			seen_key[slot] = hash;
			for (uint32_t c = x->bucket[b], end = x->bucket[b + 1]; c < end; c += x->slot[c].run) {
				const struct kd_fidx_slot *sl = &x->slot[c];
				size_t at;

				if (sl->anchor != hash)
					continue;
				if (ntested++ == TESTED_MAX)
					goto unanchored;
				/* A cut text may lack the literal bytes after the cut. */
				if ((!cut && ((sl->bytes & ~tbytes) ||
					      /* what kd_fmatch_feasible() tests first */
					      (!partial && (last4 & tail[c].mask) != tail[c].bytes) ||
					      !kd_fmatch_slot_bigrams_in(r, sl))) ||
				    !placed(sl, st, pos) ||
				    !headed(r, sl, st))
					continue;
				if ((at = test(r, x, x->chain[c], st)) == NONE)
					continue;
				/* Every site of the format matches where it does. */
				*nsites += sl->run;
				if (nkept < MATCHES_MAX) {
					uint32_t more = MATCHES_MAX - nkept < sl->run ?
							MATCHES_MAX - nkept : sl->run;

					out[nout++] = (struct found){ x->chain[c], (uint32_t)at, c, more,
								     keep_reading(r) };
					nkept += more;
				}
			}
		}
	}
unanchored:
	/*
	 * Formats without a word only when no format with words reads the
	 * text: words that a format has as literal text explain it better
	 * than punctuation alone.  Most literal bytes first, those whose
	 * literal bytes all occur in the text.
	 */
	if (nout) {
		*kept = nkept;
		return nout;
	}
	/* A partial reading stops at the first with few literal bytes. */
	nun = (r->partial ? x->prep->strong : h->nolit) - h->unanchored;
	if (!r->cut) {
		kd_fmatch_bigram_bits(r);
		kd_fmatch_mark_unanchored(r, x);
	}
	for (uint32_t q = 0; q < nun; q++) {
		uint32_t c = h->unanchored + q, lead, sol;
		size_t at;

		/* Only those that have their rarest bigram in the text, in chain order. */
		if (!r->cut) {
			uint64_t w = x->prep->scratch[q / 64] >> (q % 64);

			if (!w) {
				q |= 63;
				continue;
			}
			q += (uint32_t)__builtin_ctzll(w);
			c = h->unanchored + q;
		}
		/* Sites of one format: the first one's test answers for the others. */
		sol = UINT32_MAX;
		if ((lead = x->prep->lead[q]) < q)
			at = x->prep->out[lead] == UINT32_MAX ? NONE : x->prep->out[lead];
		else if (!r->cut && ((x->fmt[x->chain[c]].bytes & ~r->bytes) ||
				     !kd_fmatch_all_bigrams_in(r, x, q)))
			at = NONE;
		else if (!fmt_headed(r, x, &x->fmt[x->chain[c]], st))
			at = NONE;
		else if ((at = test(r, x, x->chain[c], st)) != NONE && nout < MATCHES_MAX)
			sol = keep_reading(r);
		x->prep->out[q] = at == NONE ? UINT32_MAX : (uint32_t)at;
		if (at == NONE)
			continue;
		++*nsites;
		if (nout < MATCHES_MAX)
			out[nout++] = (struct found){ x->chain[c], (uint32_t)at, c, 1, sol };
	}
	*kept = nout;
	return nout;
}

/* More sites matched than were kept: they are competitors nobody checked. */
static void overflow(struct kd_fmatch_result *res, unsigned int more)
{
	res->nsites += more;
	res->same_file = res->same_line = res->same_func = res->same_module = false;
}

/*
 * Whether the conversion @op that ends a partial reading at @end of the
 * text is closed: a number followed by a byte no digit of it could be
 * ("kptest:cont_nosite a=%d" read from "a=1 b=2": pr_cont(" b=2") cannot
 * have made it longer).
 */
static bool closed(const struct run *r, const struct kd_fidx_op *op, uint32_t end)
{
	unsigned char c = end < r->n ? (unsigned char)r->t[end] : 0;

	/* a letter or '.' may be a digit of another base or of a fraction */
	return kd_fidx_op_number(op->kind) && end < r->n && !kd_fmatch_is_word((char)c) && c != '.';
}

/* The arguments of the winner, when it reads the text in one way only. */
static void arguments(struct run *r, const struct kd_fidx *x, struct kd_fmatch_result *res)
{
	const struct kd_fidx_fmt *f = &x->fmt[res->id];

	res->nargs = -1;
	r->ops = x->op + f->op;
	r->nops = f->nops;
	r->str = x->str;
	r->flit = f->lit;
	r->budget = BUDGET * 4;
	r->nsol = 0;
	r->want = 2;
	kd_fmatch_solve(r, 0, res->start, 0);
	r->want = 1;
	res->end = r->nsol ? r->end : r->n;
	/*
	 * A partial match reads the start of the text: its arguments are
	 * proven when that start reads in one way too and the format ends
	 * in literal text ("%s: [mem %#018Lx-%#018Lx] ") or in a number
	 * the text closes: a conversion at its end may have been continued
	 * ("CPU %d" and pr_cont("4")).
	 */
	if (r->nsol != 1 || r->budget < 0 || (f->flags & (KD_FIDX_F_PV | KD_FIDX_F_NOARGS)) ||
	    (r->partial && (!f->nops || (x->op[f->op + f->nops - 1].kind != KD_OP_LIT &&
					 !closed(r, &x->op[f->op + f->nops - 1], res->end)))))
		return;
	res->nargs = f->nconv;
	for (unsigned int k = 0; k < f->nconv; k++) {
		res->arg[k].off = r->sol[2 * k];
		res->arg[k].len = r->sol[2 * k + 1] - r->sol[2 * k];
	}
}

/* A whole-text winner with less than a quarter of the text literal: check the partial ones. */
static bool weak(const struct kd_fidx *x, const struct kd_fmatch_result *res, size_t len)
{
	(void)x;
	return 4u * res->score < len;
}

/* Whether format @a of @x starts with format @b of @y ("    # %s: %s", "    # %s: "). */
static bool starts_with(const struct kd_fidx *x, uint32_t a, const struct kd_fidx *y, uint32_t b)
{
	const struct kd_fidx_fmt *fa = &x->fmt[a], *fb = &y->fmt[b];

	return fb->fmt_len <= fa->fmt_len &&
	       memcmp(x->str + fa->fmt, y->str + fb->fmt, fb->fmt_len) == 0;
}

/* what makes a free-text-first format's literal text no chance find, see refused() */
#define PIECES_ANCHORED	4
#define PIECE_LONG	10
#define PIECE_PRECISION	16	/* a "%.16s" holds a reading like a piece */

/*
 * The pieces of literal text of format @id of @x with more than blanks
 * (1 in "%s version %s", 5 in hid_connect()'s "%s: %s HID v%x.%02x %s
 * [%s] on %s"), and the strings of a precision of 16 or less, which hold
 * a reading as tightly (scsi_scan's "%s %.8s %.16s %.4s PQ: %d ANSI:
 * %d%s": 5), and in @longest the most non-blank bytes of one piece.
 */
static unsigned int lit_pieces(const struct kd_fidx *x, uint32_t id, unsigned int *longest)
{
	const struct kd_fidx_fmt *f = &x->fmt[id];
	unsigned int n = 0;

	*longest = 0;
	for (unsigned int i = 0; i < f->nops; i++) {
		const struct kd_fidx_op *op = &x->op[f->op + i];
		unsigned int nb;

		if (op->kind == KD_OP_STR && op->arg && op->arg - 1 <= PIECE_PRECISION)
			n++;
		if (op->kind != KD_OP_LIT)
			continue;
		nb = op->len - (unsigned int)kd_fmatch_blanks(x->str + op->arg, op->len);
		n += nb > 0;
		if (nb > *longest)
			*longest = nb;
	}
	return n;
}

/* Whether the literal text of format @id of @x is more than a chance find. */
static bool anchored(const struct kd_fidx *x, uint32_t id)
{
	unsigned int longest, n = lit_pieces(x, id, &longest);

	return n >= PIECES_ANCHORED || longest >= PIECE_LONG;
}

/*
 * Whether format @res->id of @w is its module's pr_fmt() prefix and one
 * string, "e1000: %s" of module e1000 (a driver's banner), and every
 * matching site is of that module: the text is that module's string.
 */
static bool module_string(const struct kd_fidx *w, const struct kd_fmatch_result *res)
{
	const struct kd_fidx_fmt *wf = &w->fmt[res->id];
	const struct kd_fidx_op *o = w->op + wf->op;
	const char *mod = w->str + wf->module;
	size_t ml = strlen(mod);

	return res->same_module && ml && wf->nops == 2 && o[0].kind == KD_OP_LIT &&
	       o[1].kind == KD_OP_STR && o[0].len == ml + 2 &&
	       memcmp(w->str + o[0].arg, mod, ml) == 0 &&
	       memcmp(w->str + o[0].arg + ml, ": ", 2) == 0;
}

/*
 * A weak whole-text winner that is not claimed: its few literal bytes
 * fit almost any text and the competitors disagree or they are very
 * few, or it is a %pV wrapper, whose own text is only around another
 * format's; or its literal text is a piece in the middle of a text it reads
 * mostly as free text from the start ("%s version %s" for "Linux
 * version 6.12..."): that piece may be anybody's.  Literal text in
 * PIECES_ANCHORED pieces or more, all found in order, or a piece of
 * PIECE_LONG bytes other than blanks, is not a piece a text has by chance
 * ("input: USB HID v1.11 Keyboard [QEMU ...] on usb-...", "..., 242 bytes
 * nvram, hpet irqs").
 */
static bool refused(const struct kd_fidx *w, const struct kd_fmatch_result *res, size_t len)
{
	const struct kd_fidx_fmt *wf = &w->fmt[res->id];

	/*
	 * Fewer than 4 literal bytes with more than twice as many bytes of
	 * free text around them ("%s:%d: %s" for "pnp 00:02: [dma 2]") read
	 * nearly anything.  The literal bytes other than blanks (too few in
	 * "    # %s: ") are counted only for a weak winner: most are not.  A
	 * module's prefix and one string is that module's text, however short.
	 */
	return (wf->lit < 4 && res->free > 2u * wf->lit) ||
	       (weak(w, res, len) &&
		(res->nformats > 1 ||
		 ((wf->lit < STRONG_LIT || kd_fmatch_nonblank_lit(w, res->id) < STRONG_LIT / 2) &&
		  !module_string(w, res)) ||
		 (wf->flags & KD_FIDX_F_PV) ||
		 (wf->nops && w->op[wf->op].kind == KD_OP_STR && !anchored(w, res->id))));
}

/*
 * Whether the text after the partial reading @p (which reads its start in
 * one way) is read whole by a pr_cont() fragment of @p's file and
 * function (when known): the start and its continuation then explain
 * more literal bytes than any one format ("Console: switching " and
 * vt.c's "to %s %s %dx%d").  Leaves r->partial set, as rival() wants
 * it.
 */
static bool continued(struct run *r, const struct kd_fidx *x, const struct kd_fmatch_result *p)
{
	const struct kd_fidx_fmt *f = &x->fmt[p->id];
	const uint32_t *ids;
	uint32_t n;
	size_t end;
	bool found = false;

	if (!*(x->str + f->file) || !(ids = kd_fmatch_cont_sites(x, f->file, &n)))
		return false;
	r->ops = x->op + f->op;
	r->nops = f->nops;
	r->str = x->str;
	r->flit = f->lit;
	r->budget = BUDGET;
	r->nsol = 0;
	r->want = 2;
	kd_fmatch_solve(r, 0, p->start, 0);
	if (r->nsol != 1 || r->budget < 0 || r->end >= r->n)
		goto out;
	end = r->end;
	r->partial = false;
	for (uint32_t k = 0; k < n && !found; k++) {
		const struct kd_fidx_fmt *c = &x->fmt[ids[k]];

		if (*(x->str + f->func) && c->func != f->func)
			continue;
		r->ops = x->op + c->op;
		r->nops = c->nops;
		r->flit = c->lit;
		r->budget = BUDGET;
		r->nsol = 0;
		r->want = 1;
		/* not one without literal text but blanks: "%d " continues anything */
		if (c->lit && kd_fmatch_nonblank_lit(x, ids[k]))
			kd_fmatch_solve(r, 0, end, 0);
		found = r->nsol > 0;
	}
out:
	r->partial = true;
	r->want = 1;
	return found;
}

/*
 * A whole-text winner @res of index @i whose format starts with literal
 * text and then free text (%s) may have a rival: the start of a
 * pr_cont() line with more than half again its literal bytes, which
 * reads the winner's free text as literal (vt.c's "Console: %s %s
 * %dx%d" and "Console: switching ", continued by "to %s %s %dx%d\n").
 * The rival, the more specific reading, wins as a partial match,
 * flagged with both counted, and no call site is claimed (the two
 * disagree on it), unless a fragment of its function reads the rest
 * (continued()): then it wins alone.  Only such winners are checked:
 * the search costs a second pass over the index.  Returns whether the
 * rival won; r->sol then holds its reading (the caller has taken the
 * winner's arguments before).
 */
static bool rival(struct run *r, const struct kd_fidx *x, unsigned int i,
		  const struct starts *st, struct found *m, struct kd_fmatch_result *res)
{
	const struct kd_fidx_fmt *w = &x->fmt[res->id];
	const struct kd_fidx_op *o = x->op + w->op;
	struct kd_fmatch_result p;
	unsigned int total, k, nrun;

	if (!res->free || (w->flags & KD_FIDX_F_PV) || w->nops < 2 ||
	    o[0].kind != KD_OP_LIT || o[1].kind != KD_OP_STR)
		return false;
	r->partial = true;
	r->cut = false;
	nrun = collect(r, x, st, m, &k, &total);
	if (!nrun) {
		r->partial = false;
		return false;
	}
	memset(&p, 0, sizeof(p));
	p.nargs = -1;
	kd_fmatch_decide(r, x, m, nrun, st, &p);
	if (!p.nsites || p.id == res->id || (x->fmt[p.id].flags & KD_FIDX_F_PV) ||
	    2u * x->fmt[p.id].lit <= 3u * w->lit || refused(x, &p, p.read)) {
		r->partial = false;
		return false;
	}
	/*
	 * r->partial stays set: arguments() reads the rival as a partial
	 * match.  Unless a fragment of its function reads the rest, the two
	 * readings are counted and no call site is claimed.  If one does,
	 * the winner's format is no competitor of the rival, not even
	 * reading the start alone ("Console: %s %s %dx%d" up to "160x5"):
	 * the rival is decided again without it.
	 */
	if (!continued(r, x, &p)) {
		p.nsites += res->nsites;
		p.nformats += res->nformats;
		p.same_file = p.same_line = p.same_func = p.same_module = false;
	} else if (p.nformats > 1) {
		struct kd_fmatch_result q;
		unsigned int kept = 0;

		for (unsigned int j = 0; j < nrun; j++)
			if (x->fmt[m[j].id].fmt != w->fmt)
				m[kept++] = m[j];
		memset(&q, 0, sizeof(q));
		q.nargs = -1;
		if (kept < nrun && kept) {
			kd_fmatch_decide(r, x, m, kept, st, &q);
			if (q.nsites && q.id == p.id)
				p = q;
		}
	}
	p.index = i;
	p.status = KD_FMATCH_PARTIAL;
	*res = p;
	return true;
}

/* The bits of the 64 marks at @m that are @g. */
static uint64_t marks_to_bits(const uint8_t *m, uint8_t g)
{
	uint64_t bits = 0;

#ifdef __SSE2__
	const __m128i gv = _mm_set1_epi8((char)g);

	for (unsigned int k = 0; k < 4; k++) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(m + 16 * k));

		bits |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, gv)) << (16 * k);
	}
#else
	for (unsigned int k = 0; k < 64; k++)
		bits |= (uint64_t)(m[k] == g) << k;
#endif
	return bits;
}

void kd_fmatch_bigram_bits(struct run *r)
{
	if (r->bg_ready)
		return;
	for (unsigned int w = 0; w < KD_FMATCH_BG_BITS / 64; w++)
		r->bg[w] = marks_to_bits(r->bgmark + 64 * w, r->gen);
	r->bg_ready = true;
}

/* The byte and bigram sets of the text of @r, and its bytes other than blanks. */
static void text_sets(struct run *r)
{
	const unsigned char *t = (const unsigned char *)r->t;
	/* Locals: the marks are bytes, which may alias any field of *r. */
	const size_t n = r->n;
	uint8_t *bgmark = r->bgmark, *bmark = r->bmark, g;
	uint32_t *ws = r->ws, *we = r->we;
	unsigned int nw;

	/* A new mark per text; every 255 texts the marks are cleared. */
	if (++r->gen == 0) {
		memset(r->bgmark, 0, sizeof(r->bgmark));
		memset(r->bmark, 0, sizeof(r->bmark));
		r->gen = 1;
	}
	g = r->gen;
	r->bg_ready = false;
	nw = 0;
	if (n) {
		unsigned char prev = t[0];
		bool in = word_byte[prev];

		bmark[prev & 63] = g;
		if (in)
			ws[0] = 0;
		/* One pass: each byte, the bigram it ends, where words start and end. */
		for (size_t k = 1; k < n; k++) {
			unsigned char c = t[k];
			bool w = word_byte[c];

			bgmark[kd_fmatch_bigram(prev, c)] = g;
			bmark[c & 63] = g;
			prev = c;
			if (w != in) {
				if (nw < WORDS_MAX) {
					if (w)
						ws[nw] = (uint32_t)k;
					else
						we[nw++] = (uint32_t)k;
				}
				in = w;
			}
		}
		if (in && nw < WORDS_MAX)
			we[nw++] = (uint32_t)n;
	}
	r->nw = nw;
	r->bytes = marks_to_bits(bmark, g);
	/* Zeros before a short text: no literal byte is NUL, none matches there. */
	r->last4 = 0;
	if (r->n >= 4) {
		memcpy(&r->last4, t + r->n - 4, 4);
	} else {
		unsigned char b[4] = { 0 };

		memcpy(b + 4 - r->n, t, r->n);
		memcpy(&r->last4, b, 4);
	}
	r->nonblank = r->n - kd_fmatch_blanks(r->t, r->n);
}

enum kd_fmatch_status kd_fmatch_text(const struct kd_fidx *const *idx, unsigned int n,
				     const char *text, size_t len,
				     struct kd_fmatch_result *res)
{
	static struct run r;	/* large; the matcher is not reentrant */
	/* A copy of the text with padding after it, for the reader's searches. */
	static char padded[TEXT_COPY_MAX + KD_FMATCH_PAD];
	struct found m[MATCHES_MAX];
	struct starts st;

	memset(res, 0, sizeof(*res));
	res->nargs = -1;
	if (len >= UINT32_MAX)
		return res->status = KD_FMATCH_NONE;
	r.t = text;
	r.padded = len <= TEXT_COPY_MAX;
	if (r.padded) {
		memcpy(padded, text, len);
		memset(padded + len, 0, KD_FMATCH_PAD);
		r.t = padded;
	}
	r.n = len;
	r.want = 1;
	text_sets(&r);
	find_starts(text, len, &st);
	/*
	 * Whole texts first.  A %pV wrapper, or a format whose literal bytes
	 * are few for the text, that alone reads the whole text loses to a
	 * format with more than twice its literal bytes that reads the start:
	 * pr_cont() added to that format's text.
	 */
	for (int pass = 0; pass < 2; pass++) {
		r.partial = pass == 1;
		r.cut = r.partial && len >= CUT_LEN;
		for (unsigned int i = 0; i < n; i++) {
			struct kd_fmatch_result p;
			unsigned int total, k, nrun = collect(&r, idx[i], &st, m, &k, &total);

			if (!nrun)
				continue;
			kd_fmatch_decide(&r, idx[i], m, nrun, &st, pass ? &p : res);
			if (total > k)
				overflow(pass ? &p : res, total - k);
			if (!pass && ((idx[i]->fmt[res->id].flags & KD_FIDX_F_PV) ||
				      weak(idx[i], res, r.nonblank) || refused(idx[i], res, r.nonblank))) {
				res->index = i;
				break;	/* look for a partial match first */
			}
			/*
			 * The whole-text match stays unless the partial one has
			 * more than twice its literal bytes, or more than a %pV
			 * wrapper's ("kptest:%s %pV" and the pr_cont() start
			 * "kptest:cont_many").
			 */
			if (pass && res->status == KD_FMATCH_FULL &&
			    (!refused(idx[res->index], res, r.nonblank) ||
			     starts_with(idx[res->index], res->id, idx[i], p.id)) &&
			    (idx[i]->fmt[p.id].flags & KD_FIDX_F_PV ||
			     idx[i]->fmt[p.id].lit <=
			     (idx[res->index]->fmt[res->id].flags & KD_FIDX_F_PV ? 1u : 2u) *
			     idx[res->index]->fmt[res->id].lit))
				break;
			/* A partial winner must be no guess either ("%s: %s: %sable"). */
			if (pass && refused(idx[i], &p, p.read))
				break;
			if (pass)
				*res = p;
			res->index = i;
			res->status = pass ? KD_FMATCH_PARTIAL : KD_FMATCH_FULL;
			arguments(&r, idx[i], res);
			if (!pass && rival(&r, idx[i], i, &st, m, res))
				arguments(&r, idx[i], res);
			r.partial = r.cut = false;
			return res->status;
		}
		if (!pass && res->nsites)
			res->status = KD_FMATCH_FULL;	/* a wrapper, kept for the comparison */
	}
	r.partial = r.cut = false;
	if (res->status == KD_FMATCH_FULL) {
		/* A guess, not a reading: nothing is claimed. */
		if (refused(idx[res->index], res, r.nonblank)) {
			memset(res, 0, sizeof(*res));
			res->nargs = -1;
			return res->status = KD_FMATCH_NONE;
		}
		arguments(&r, idx[res->index], res);
		return res->status;
	}
	for (unsigned int i = 0; i < n; i++) {
		const struct kd_fidx *x = idx[i];

		for (uint32_t c = x->head->nolit; c < x->head->nchain; c++)
			if (test(&r, x, x->chain[c], &st) != NONE) {
				res->index = i;
				res->id = x->chain[c];
				return res->status = KD_FMATCH_NOLIT;
			}
	}
	return res->status = KD_FMATCH_NONE;
}
