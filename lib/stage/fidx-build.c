// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fidx-build.c - write a format index (fidx.h): intern the strings, keep
 * each site once, compile each format into its match program and choose
 * its anchor word: the word of its literal text that the fewest formats
 * share, so that the matcher meets few candidates per word of a record.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stage/fidx.h"
#include "stage/fidx-internal.h"
#include "stage/fmatch.h"
#include "stage/fmatch-internal.h"
#include "shared/kfmt.h"

#define SITES_MAX	(16u << 20)

struct bsite {
	uint32_t fmt, fmt_len, file, func, module, line;
	char level;
	uint8_t family;
};

struct kd_fidx_builder {
	char *str;		/* interned strings, each NUL-terminated */
	size_t str_len, str_cap;
	uint32_t *strtab;	/* open addressing: offset + 1, 0 empty */
	size_t strtab_cap, nstr;
	struct bsite *site;
	size_t nsite, site_cap;
	uint32_t *sitetab;	/* open addressing: index + 1 */
	size_t sitetab_cap;
};

static uint32_t hash_bytes(const char *s, size_t n)
{
	return kd_fmatch_hash(s, n);
}

int kd_fidx_builder_new(struct kd_fidx_builder **out)
{
	struct kd_fidx_builder *b = calloc(1, sizeof(*b));

	if (!b)
		return -ENOMEM;
	b->str_cap = 4096;
	b->str = malloc(b->str_cap);
	b->strtab_cap = 1024;
	b->strtab = calloc(b->strtab_cap, sizeof(*b->strtab));
	b->sitetab_cap = 1024;
	b->sitetab = calloc(b->sitetab_cap, sizeof(*b->sitetab));
	if (!b->str || !b->strtab || !b->sitetab) {
		kd_fidx_builder_free(b);
		return -ENOMEM;
	}
	b->str[0] = '\0';	/* offset 0 is "" */
	b->str_len = 1;
	*out = b;
	return 0;
}

void kd_fidx_builder_free(struct kd_fidx_builder *b)
{
	if (!b)
		return;
	free(b->str);
	free(b->strtab);
	free(b->site);
	free(b->sitetab);
	free(b);
}

size_t kd_fidx_builder_count(const struct kd_fidx_builder *b)
{
	return b->nsite;
}

static int strtab_grow(struct kd_fidx_builder *b)
{
	size_t cap = b->strtab_cap * 2;
	uint32_t *t = calloc(cap, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < b->strtab_cap; i++) {
		uint32_t v = b->strtab[i];
		size_t h;

		if (!v)
			continue;
		h = hash_bytes(b->str + v - 1, strlen(b->str + v - 1)) & (cap - 1);
		while (t[h])
			h = (h + 1) & (cap - 1);
		t[h] = v;
	}
	free(b->strtab);
	b->strtab = t;
	b->strtab_cap = cap;
	return 0;
}

/* The offset of @s (@n bytes, no NUL among them) in the string section. */
static int intern(struct kd_fidx_builder *b, const char *s, size_t n, uint32_t *off)
{
	size_t h;

	if (!n) {
		*off = 0;
		return 0;
	}
	if (b->nstr * 2 >= b->strtab_cap && strtab_grow(b) < 0)
		return -ENOMEM;
	h = hash_bytes(s, n) & (b->strtab_cap - 1);
	while (b->strtab[h]) {
		const char *t = b->str + b->strtab[h] - 1;

		if (strncmp(t, s, n) == 0 && t[n] == '\0') {
			*off = b->strtab[h] - 1;
			return 0;
		}
		h = (h + 1) & (b->strtab_cap - 1);
	}
	if (b->str_len + n + 1 > UINT32_MAX - 1)
		return -E2BIG;
	if (b->str_len + n + 1 > b->str_cap) {
		size_t cap = b->str_cap;
		char *t;

		while (cap < b->str_len + n + 1)
			cap *= 2;
		if (!(t = realloc(b->str, cap)))
			return -ENOMEM;
		b->str = t;
		b->str_cap = cap;
	}
	memcpy(b->str + b->str_len, s, n);
	b->str[b->str_len + n] = '\0';
	*off = (uint32_t)b->str_len;
	b->strtab[h] = *off + 1;
	b->str_len += n + 1;
	b->nstr++;
	return 0;
}

static int intern_str(struct kd_fidx_builder *b, const char *s, uint32_t *off)
{
	return intern(b, s ? s : "", s ? strlen(s) : 0, off);
}

static uint32_t site_hash(const struct bsite *s)
{
	uint32_t v[6] = { s->fmt, s->file, s->func, s->module, s->line,
			  (uint32_t)s->family << 8 | (uint8_t)s->level };

	return hash_bytes((const char *)v, sizeof(v));
}

static bool site_same(const struct bsite *a, const struct bsite *b)
{
	return a->fmt == b->fmt && a->file == b->file && a->func == b->func &&
	       a->module == b->module && a->line == b->line && a->family == b->family &&
	       a->level == b->level;
}

static int sitetab_grow(struct kd_fidx_builder *b)
{
	size_t cap = b->sitetab_cap * 2;
	uint32_t *t = calloc(cap, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < b->nsite; i++) {
		size_t h = site_hash(&b->site[i]) & (cap - 1);

		while (t[h])
			h = (h + 1) & (cap - 1);
		t[h] = (uint32_t)i + 1;
	}
	free(b->sitetab);
	b->sitetab = t;
	b->sitetab_cap = cap;
	return 0;
}

int kd_fidx_builder_add(struct kd_fidx_builder *b, const struct kd_fidx_site *s)
{
	static struct kd_kfmt parsed;	/* large: not on the stack */
	struct bsite n = { .line = s->line, .level = s->level, .family = (uint8_t)s->family };
	size_t h;
	int rc;

	if (!s->fmt_len || memchr(s->fmt, '\0', s->fmt_len) ||
	    kd_kfmt_parse(s->fmt, s->fmt_len, &parsed) < 0 || parsed.positional ||
	    parsed.has_n || s->fmt_len > 65535)
		return 1;
	if (b->nsite >= SITES_MAX)
		return -E2BIG;
	if ((rc = intern(b, s->fmt, s->fmt_len, &n.fmt)) < 0 ||
	    (rc = intern_str(b, s->file, &n.file)) < 0 ||
	    (rc = intern_str(b, s->func, &n.func)) < 0 ||
	    (rc = intern_str(b, s->module, &n.module)) < 0)
		return rc;
	n.fmt_len = (uint32_t)s->fmt_len;
	if (b->nsite * 2 >= b->sitetab_cap && sitetab_grow(b) < 0)
		return -ENOMEM;
	h = site_hash(&n) & (b->sitetab_cap - 1);
	while (b->sitetab[h]) {
		if (site_same(&b->site[b->sitetab[h] - 1], &n))
			return 0;
		h = (h + 1) & (b->sitetab_cap - 1);
	}
	if (b->nsite == b->site_cap) {
		size_t cap = b->site_cap ? b->site_cap * 2 : 1024;
		struct bsite *t = realloc(b->site, cap * sizeof(*t));

		if (!t)
			return -ENOMEM;
		b->site = t;
		b->site_cap = cap;
	}
	b->site[b->nsite] = n;
	b->sitetab[h] = (uint32_t)++b->nsite;
	return 0;
}

/* --- compiling formats -------------------------------------------------- */

struct ops {
	struct kd_fidx_op *op;
	size_t n, cap;
};

static int op_push(struct ops *o, const struct kd_fidx_op *op)
{
	if (o->n == o->cap) {
		size_t cap = o->cap ? o->cap * 2 : 4096;
		struct kd_fidx_op *t = realloc(o->op, cap * sizeof(*t));

		if (!t)
			return -ENOMEM;
		o->op = t;
		o->cap = cap;
	}
	o->op[o->n++] = *op;
	return 0;
}

/* The op for the conversion @c (@n bytes from its '%'). */
static struct kd_fidx_op conv_op(const char *c, size_t n)
{
	struct kd_fidx_op op = { .kind = KD_OP_STR };
	size_t i = 1, prec = SIZE_MAX;

	for (; i < n && strchr("-+ #0'", c[i]); i++)
		op.flags |= c[i] == '-' ? KD_OPF_LEFT : c[i] == '+' ? KD_OPF_PLUS :
			    c[i] == ' ' ? KD_OPF_SPACE : c[i] == '#' ? KD_OPF_ALT : 0;
	if (i < n && (c[i] == '*' || (c[i] >= '1' && c[i] <= '9')))
		op.flags |= KD_OPF_WIDTH;
	/* A written width: the field is that wide at least (op.len). */
	for (; i < n && c[i] >= '0' && c[i] <= '9'; i++)
		if (op.len <= 9999)
			op.len = (uint16_t)(op.len * 10 + (c[i] - '0'));
	if (i < n && c[i] == '.' && i + 1 < n && c[i + 1] != '*') {
		prec = 0;
		for (i++; i < n && c[i] >= '0' && c[i] <= '9'; i++)
			if (prec <= 9999)
				prec = prec * 10 + (size_t)(c[i] - '0');
	}
	while (i < n && (c[i] == '*' || (c[i] >= '0' && c[i] <= '9') || c[i] == '.'))
		i++;
	while (i < n && strchr("hlLqzZtj", c[i]))
		i++;
	if (i >= n)
		return op;
	switch (c[i]) {
	case 'd': case 'i':
		op.kind = KD_OP_INT;
		break;
	case 'u':
		op.kind = KD_OP_UINT;
		break;
	case 'x':
		op.kind = KD_OP_HEX;
		break;
	case 'X':
		op.kind = KD_OP_HEXU;
		break;
	case 'o':
		op.kind = KD_OP_OCT;
		break;
	case 'c':
		op.kind = KD_OP_CHAR;
		break;
	case 'p': {
		const char *e = c + i + 1;
		size_t el = n - i - 1;

		if (!el || (e[0] == 'x' && el == 1) || (e[0] == 'K' && el == 1))
			op.kind = KD_OP_PTR;
		else if (e[0] == 'a')
			op.kind = KD_OP_ADDR;
		else if ((e[0] == 'I' || e[0] == 'i') && el >= 2 && e[1] == '4')
			op.kind = KD_OP_IP4;
		else if ((e[0] == 'I' || e[0] == 'i') && el >= 2 && (e[1] == '6' || e[1] == 'S'))
			op.kind = KD_OP_IP6;
		else if (e[0] == 'M' || e[0] == 'm')
			op.kind = KD_OP_MAC;
		else if (e[0] == 'U')
			op.kind = KD_OP_UUID;
		else if (e[0] == 'e')
			op.kind = KD_OP_ERR;
		else if (e[0] == 'S' || e[0] == 's' || e[0] == 'B')
			op.kind = KD_OP_SYM;
		else if (e[0] == 'R' || e[0] == 'r')
			op.kind = KD_OP_RES;
		else if (e[0] == 'h') {
			op.kind = KD_OP_HEXDUMP;
			op.arg = el >= 2 && e[1] == 'C' ? ':' : el >= 2 && e[1] == 'D' ? '-' :
				 el >= 2 && e[1] == 'N' ? 0 : ' ';
		}
		/* %pV, %pE, %pd...: free text */
		break;
	}
	case 's':
		/*
		 * vsnprintf() prints at most the precision's bytes of the
		 * string, padded to the width: exactly the width when the
		 * precision is no wider ("%-4.4s" of a table signature).
		 */
		if (op.len && prec <= op.len)
			op.flags |= KD_OPF_EXACT;
		/* without a width: at most that many ("%.8s" of a SCSI vendor) */
		else if (!op.len && prec <= 9999)
			op.arg = (uint32_t)prec + 1;
		break;
	default:	/* floats the kernel has not */
		break;
	}
	return op;
}

/*
 * Compile @f's format into ops at the end of @o, interning the literal
 * pieces that held "%%" (the others point into the format itself).
 */
static int compile(struct kd_fidx_builder *b, struct ops *o, const struct bsite *s,
		   const struct kd_kfmt *f, struct kd_fidx_fmt *out)
{
	size_t at = 0;
	unsigned int lit = 0;
	int rc;

	out->op = (uint32_t)o->n;
	for (unsigned int k = 0; k <= f->nconv; k++) {
		size_t end = k < f->nconv ? f->conv[k].start : s->fmt_len;
		const char *fmt = b->str + s->fmt;

		/* The literal piece [at, end), "%%" read as "%": maybe several ops. */
		while (at < end) {
			const char *pct = memchr(fmt + at, '%', end - at);
			size_t stop = pct ? (size_t)(pct - fmt) + 1 : end;
			struct kd_fidx_op op = { .kind = KD_OP_LIT, .len = (uint16_t)(stop - at),
						 .arg = s->fmt + (uint32_t)at };

			if ((rc = op_push(o, &op)) < 0)
				return rc;
			lit += op.len;
			for (size_t j = 0; j < op.len; j++)
				out->bytes |= 1ull << ((unsigned char)fmt[at + j] & 63);
			at = pct ? stop + 1 : end;	/* skip the second '%' */
		}
		if (k < f->nconv) {
			struct kd_fidx_op op = conv_op(fmt + f->conv[k].start,
						       f->conv[k].end - f->conv[k].start);

			if ((rc = op_push(o, &op)) < 0)
				return rc;
			at = f->conv[k].end;
		}
	}
	/* Adjacent literal ops (from "%%") are joined by the matcher's loop as they are. */
	if (o->n - out->op > 65535)
		return -E2BIG;
	out->nops = (uint16_t)(o->n - out->op);
	out->lit = lit > 65535 ? 65535 : (uint16_t)lit;
	out->nconv = (uint8_t)(f->nconv > 255 ? 255 : f->nconv);
	out->flags = (f->has_pv ? KD_FIDX_F_PV : 0) |
		     (f->nconv > KD_FMATCH_MAX_ARGS ? KD_FIDX_F_NOARGS : 0);
	return 0;
}

/* --- anchor words ------------------------------------------------------- */

/* Word hash -> number of formats with the word; open addressing, key + 1 stored. */
struct dftab {
	uint32_t *key, *count;
	size_t cap, n;
};

static uint32_t *df_slot(struct dftab *t, uint32_t h)
{
	size_t i = (h * 2654435761u) & (t->cap - 1);

	while (t->key[i] && t->key[i] != h + 1)
		i = (i + 1) & (t->cap - 1);
	if (!t->key[i]) {
		t->key[i] = h + 1;
		t->n++;
	}
	return &t->count[i];
}

/*
 * Call @fn for each anchor key of a format: a run of one to
 * KD_FMATCH_KEY_WORDS consecutive words of one literal piece, from the
 * start of its first word to the end of its last, each word bounded on
 * both sides (by a non-word byte, or the start/end of the format) so that
 * a record's text holds it as whole words.  A word next to a conversion
 * is not bounded there: the conversion may print word bytes.
 */
struct word_cb {
	/* @pos: where the key starts in the printed text, or KD_FIDX_NO_OFF; @w: the key */
	void (*fn)(void *data, uint32_t h, size_t len, unsigned int pos, const char *w);
	void *data;
};

static bool contiguous(const char *s, const char *e, const char *next);

static void each_word(const char *str, const struct kd_fidx_op *ops, unsigned int nops,
		      const struct word_cb *cb)
{
	size_t before = 0;	/* literal bytes before op i; SIZE_MAX after a conversion */
	unsigned int words = 0;	/* in the ops before */

	for (unsigned int i = 0; i < nops; i++) {
		const struct kd_fidx_op *op = &ops[i];
		const char *p, *e, *ws[256], *we[256];
		unsigned int nw = 0;
		bool open_left, open_right;

		if (op->kind != KD_OP_LIT) {
			before = SIZE_MAX;
			continue;
		}
		p = str + op->arg;
		e = p + op->len;
		open_left = i > 0 && ops[i - 1].kind != KD_OP_LIT;
		open_right = i + 1 < nops && ops[i + 1].kind != KD_OP_LIT;
		while (p < e && nw < 256) {
			const char *w = p;

			if (!kd_fmatch_is_word(*p)) {
				p++;
				continue;
			}
			while (p < e && kd_fmatch_is_word(*p))
				p++;
			if ((w == str + op->arg && open_left) || (p == e && open_right))
				continue;
			ws[nw] = w;
			we[nw++] = p;
		}
		/*
		 * The format's last word, when something else anchors it: a
		 * pr_cont() may append word bytes to it ("cont_printk a" + "b2").
		 */
		if (nw && i + 1 == nops && we[nw - 1] == e && (nw > 1 || words))
			nw--;
		words += nw;
		/* Only runs of words bounded one after the other (none skipped between). */
		for (unsigned int j = 0; j < nw; j++) {
			for (unsigned int l = 0; l < KD_FMATCH_KEY_WORDS && j + l < nw; l++) {
				if ((l && !contiguous(ws[j + l - 1], we[j + l - 1], ws[j + l])) ||
				    !kd_fmatch_keyword(ws[j + l]))
					break;
				size_t at = before == SIZE_MAX ? SIZE_MAX :
					    before + (size_t)(ws[j] - (str + op->arg));

				cb->fn(cb->data, kd_fmatch_hash(ws[j], (size_t)(we[j + l] - ws[j])),
				       (size_t)(we[j + l] - ws[j]),
				       at < KD_FIDX_NO_OFF ? (unsigned int)at : KD_FIDX_NO_OFF, ws[j]);
			}
		}
		if (before != SIZE_MAX)
			before += op->len;
	}
}

/* No word bytes between the end of one word and the start of the next. */
static bool contiguous(const char *s, const char *e, const char *next)
{
	(void)s;
	for (const char *q = e; q < next; q++)
		if (kd_fmatch_is_word(*q))
			return false;
	return true;
}

struct seen {
	uint32_t h[1024];
	unsigned int n;
	struct dftab *df;
	bool full;	/* the table must grow */
};

/* Count each key of one format once. */
static void count_word(void *data, uint32_t h, size_t len, unsigned int pos, const char *w)
{
	struct seen *sn = data;
	uint32_t *c;

	(void)len;
	(void)pos;
	(void)w;
	for (unsigned int k = 0; k < sn->n; k++)
		if (sn->h[k] == h)
			return;
	if (sn->n < 1024)
		sn->h[sn->n++] = h;
	c = df_slot(sn->df, h);
	if (*c < UINT32_MAX)
		(*c)++;
	if (sn->df->n * 2 >= sn->df->cap)
		sn->full = true;
}

static int df_grow(struct dftab *df)
{
	struct dftab n2 = { .cap = df->cap * 2 };

	n2.key = calloc(n2.cap, sizeof(*n2.key));
	n2.count = calloc(n2.cap, sizeof(*n2.count));
	if (!n2.key || !n2.count) {
		free(n2.key);
		free(n2.count);
		return -ENOMEM;
	}
	for (size_t q = 0; q < df->cap; q++)
		if (df->key[q])
			*df_slot(&n2, df->key[q] - 1) = df->count[q];
	free(df->key);
	free(df->count);
	*df = n2;
	return 0;
}

struct pick {
	struct dftab *df;
	uint32_t best, best_df;
	size_t best_len;
	unsigned int best_pos;
	const char *best_w;
	bool any;
};

/* The rarest key; of equals the longest, then one at a known place. */
static void pick_word(void *data, uint32_t h, size_t len, unsigned int pos, const char *w)
{
	struct pick *p = data;
	uint32_t df = *df_slot(p->df, h);

	if (!p->any || df < p->best_df || (df == p->best_df && len > p->best_len) ||
	    (df == p->best_df && len == p->best_len && pos < p->best_pos)) {
		p->any = true;
		p->best = h;
		p->best_df = df;
		p->best_len = len;
		p->best_pos = pos;
		p->best_w = w;
	}
}

/* --- the image ---------------------------------------------------------- */

/* Whether every literal byte of a format is a blank. */
static bool blank_only(const char *str, const struct kd_fidx_op *ops, unsigned int nops)
{
	for (unsigned int i = 0; i < nops; i++)
		for (unsigned int k = 0; ops[i].kind == KD_OP_LIT && k < ops[i].len; k++)
			if (str[ops[i].arg + k] != ' ' && str[ops[i].arg + k] != '\t')
				return false;
	return true;
}

static const struct kd_fidx_fmt *unanch_fmt;	/* for by_fmt() and by_lit() */

static int by_fmt(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const struct kd_fidx_fmt *p = &unanch_fmt[x], *q = &unanch_fmt[y];

	if (p->fmt != q->fmt)
		return p->fmt < q->fmt ? -1 : 1;
	if (p->family != q->family)
		return p->family < q->family ? -1 : 1;
	return x < y ? -1 : x > y;
}

static int by_lit(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (unanch_fmt[x].lit != unanch_fmt[y].lit)
		return unanch_fmt[x].lit > unanch_fmt[y].lit ? -1 : 1;
	return x < y ? -1 : x > y;
}

static size_t align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

int kd_fidx_builder_image(struct kd_fidx_builder *b, const char *release,
			  void **image, size_t *len)
{
	static struct kd_kfmt parsed;
	struct kd_fidx_head head = { .version = KD_FIDX_VERSION, .byte_order = KD_FIDX_BYTE_ORDER,
				     .filter_bits = KD_FIDX_FILTER_BITS };
	struct kd_fidx_fmt *fmt = calloc(b->nsite ? b->nsite : 1, sizeof(*fmt));
	struct ops o = { 0 };
	struct dftab df = { 0 };
	uint32_t *bucket = NULL, *chain = NULL, nanch = 0, nunanch = 0, nb = 1;
	uint8_t *cls = NULL;	/* per format: 0 anchored, 1 unanchored, 2 no literal */
	uint32_t *key = NULL;	/* per format: string offset and length of its anchor key */
	uint16_t (*four)[KD_FIDX_SLOT_BIGRAMS] = NULL;	/* per format: bigrams for its slot */
	char *img = NULL;
	size_t off;
	int rc = -ENOMEM;

	memcpy(head.magic, KD_FIDX_MAGIC, 8);
	if (!fmt || !(cls = calloc(b->nsite ? b->nsite : 1, 1)) ||
	    !(key = calloc(b->nsite ? 2 * b->nsite : 1, sizeof(*key))) ||
	    !(four = calloc(b->nsite ? b->nsite : 1, sizeof(*four))))
		goto out;
	if ((rc = intern_str(b, release, &head.release)) < 0)
		goto out;
	for (size_t i = 0; i < b->nsite; i++) {
		const struct bsite *s = &b->site[i];

		kd_kfmt_parse(b->str + s->fmt, s->fmt_len, &parsed);	/* checked when added */
		fmt[i] = (struct kd_fidx_fmt){
			.fmt = s->fmt, .fmt_len = s->fmt_len, .file = s->file,
			.func = s->func, .module = s->module, .line = s->line,
			.family = s->family, .level = (uint8_t)s->level,
		};
		if ((rc = compile(b, &o, s, &parsed, &fmt[i])) < 0)
			goto out;
	}
	/* Document frequency of each word (a format counts a word once). */
	df.cap = 4096;
	while (df.cap < b->nsite * 8)
		df.cap *= 2;
	df.key = calloc(df.cap, sizeof(*df.key));
	df.count = calloc(df.cap, sizeof(*df.count));
	rc = -ENOMEM;
	if (!df.key || !df.count)
		goto out;
	for (size_t i = 0; i < b->nsite; i++) {
		static struct seen sn;
		struct word_cb cb = { count_word, &sn };

		sn.n = 0;
		sn.df = &df;
		sn.full = false;
		each_word(b->str, o.op + fmt[i].op, fmt[i].nops, &cb);
		/* Keep the table under half full for the next format's keys. */
		while (df.n * 2 + 2048 >= df.cap)
			if (df_grow(&df) < 0)
				goto out;
	}
	for (size_t i = 0; i < b->nsite; i++) {
		struct pick pk = { .df = &df };
		struct word_cb cb = { pick_word, &pk };

		each_word(b->str, o.op + fmt[i].op, fmt[i].nops, &cb);
		fmt[i].anchor_off = KD_FIDX_NO_OFF;
		if (pk.any) {
			fmt[i].anchor = pk.best;
			fmt[i].anchor_off = (uint16_t)pk.best_pos;
			key[2 * i] = (uint32_t)(pk.best_w - b->str);
			key[2 * i + 1] = (uint32_t)pk.best_len;
			nanch++;
		} else {
			/* Blanks alone ("%5s  %5s") read any text: no literal text. */
			cls[i] = fmt[i].lit && !blank_only(b->str, o.op + fmt[i].op, fmt[i].nops) ? 1 : 2;
			nunanch += cls[i] == 1;
		}
	}
	/* A text found by the anchor key has its bigrams: others tell more. */
	if ((rc = kd_fmatch_pick_bigrams(fmt, b->nsite, o.op, b->str, key, four)) < 0)
		goto out;
	rc = -ENOMEM;
	while (nb < (size_t)nanch * 2 && nb < (1u << 30))
		nb *= 2;
	bucket = calloc((size_t)nb + 1, sizeof(*bucket));
	chain = malloc((b->nsite ? b->nsite : 1) * sizeof(*chain));
	if (!bucket || !chain)
		goto out;
	for (size_t i = 0; i < b->nsite; i++)
		if (cls[i] == 0)
			bucket[(fmt[i].anchor & (nb - 1)) + 1]++;
	for (uint32_t k = 0; k < nb; k++)
		bucket[k + 1] += bucket[k];
	{
		uint32_t *fill = malloc((size_t)nb * sizeof(*fill)), un = nanch, nl = nanch + nunanch;

		if (!fill)
			goto out;
		memcpy(fill, bucket, (size_t)nb * sizeof(*fill));
		for (size_t i = 0; i < b->nsite; i++) {
			if (cls[i] == 0)
				chain[fill[fmt[i].anchor & (nb - 1)]++] = (uint32_t)i;
			else if (cls[i] == 1)
				chain[un++] = (uint32_t)i;
			else
				chain[nl++] = (uint32_t)i;
		}
		free(fill);
	}
	/*
	 * In a bucket, the sites of one format next to each other: the
	 * matcher reads the format once for all of them.
	 */
	unanch_fmt = fmt;
	for (uint32_t k = 0; k < nb; k++)
		if (bucket[k + 1] - bucket[k] > 1)
			qsort(chain + bucket[k], bucket[k + 1] - bucket[k], sizeof(*chain), by_fmt);
	/* Unanchored: most literal bytes first, so the matcher may stop early. */
	qsort(chain + nanch, nunanch, sizeof(*chain), by_lit);
	head.nfmt = (uint32_t)b->nsite;
	head.nbuckets = nb;
	head.nchain = (uint32_t)b->nsite;
	head.unanchored = nanch;
	head.nolit = nanch + nunanch;
	head.nops = (uint32_t)o.n;
	head.str_len = (uint32_t)b->str_len;
	off = align8(sizeof(head));
	head.fmt_off = off;
	off = align8(off + b->nsite * sizeof(*fmt));
	head.bucket_off = off;
	off = align8(off + ((size_t)nb + 1) * sizeof(*bucket));
	head.chain_off = off;
	off = align8(off + b->nsite * sizeof(*chain));
	head.slot_off = off;
	off = align8(off + (size_t)nanch * sizeof(struct kd_fidx_slot));
	head.filter_off = off;
	off = align8(off + KD_FIDX_FILTER_BITS / 8);
	head.op_off = off;
	off = align8(off + o.n * sizeof(*o.op));
	head.str_off = off;
	off += b->str_len;
	head.size = off;
	if (!(img = calloc(1, off)))
		goto out;
	memcpy(img, &head, sizeof(head));
	memcpy(img + head.fmt_off, fmt, b->nsite * sizeof(*fmt));
	memcpy(img + head.bucket_off, bucket, ((size_t)nb + 1) * sizeof(*bucket));
	memcpy(img + head.chain_off, chain, b->nsite * sizeof(*chain));
	/* Runs of one format and family in a bucket, counted from their end. */
	for (uint32_t bk = 0; bk < nb; bk++) {
		struct kd_fidx_slot *slot = (struct kd_fidx_slot *)(img + head.slot_off);

		for (uint32_t c = bucket[bk + 1]; c-- > bucket[bk];) {
			const struct kd_fidx_fmt *p = &fmt[chain[c]], *q;

			const struct kd_fidx_op *o0 = p->nops ? &o.op[p->op] : NULL;

			slot[c] = (struct kd_fidx_slot){
				.anchor = p->anchor, .run = 1, .bytes = p->bytes,
				.anchor_off = p->anchor_off, .family = p->family,
			};
			memcpy(slot[c].bigram, four[chain[c]], sizeof(slot[c].bigram));
			if (o0 && o0->kind == KD_OP_LIT) {
				slot[c].head_len = o0->len < 4 ? (uint8_t)o0->len : 4;
				memcpy(slot[c].head, b->str + o0->arg, slot[c].head_len);
			}
			if (c + 1 < bucket[bk + 1]) {
				q = &fmt[chain[c + 1]];
				if (p->fmt == q->fmt && p->family == q->family && p->anchor == q->anchor)
					slot[c].run = slot[c + 1].run + 1;
			}
		}
	}
	for (uint32_t k = 0; k < nanch; k++) {
		uint32_t bit = kd_fidx_filter_bit(fmt[chain[k]].anchor);

		((uint64_t *)(img + head.filter_off))[bit / 64] |= 1ull << (bit % 64);
	}
	if (o.n)
		memcpy(img + head.op_off, o.op, o.n * sizeof(*o.op));
	memcpy(img + head.str_off, b->str, b->str_len);
	*image = img;
	*len = off;
	rc = 0;
out:
	free(fmt);
	free(cls);
	free(key);
	free(four);
	free(o.op);
	free(df.key);
	free(df.count);
	free(bucket);
	free(chain);
	return rc;
}
