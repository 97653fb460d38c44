// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fidx.c - load a format index: map it and check every offset once, so
 * that the matcher can follow them without checks.  See fidx.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stage/fidx.h"
#include "stage/fidx-internal.h"
#include "stage/fmatch-internal.h"
#include "nls.h"

static int bad(const char **why, const char *what)
{
	if (why)
		*why = what;
	return -EBADMSG;
}

/* Whether [off, off + n * size) lies in the @len bytes and is aligned. */
static bool section_ok(uint64_t off, uint64_t n, size_t size, size_t len)
{
	return off % 8 == 0 && off <= len && n <= (len - off) / size;
}

static int check(struct kd_fidx *x, const char **why)
{
	const struct kd_fidx_head *h = x->mem;
	const char *base = x->mem;

	if (x->len < sizeof(*h) || memcmp(h->magic, KD_FIDX_MAGIC, 8) != 0)
		return x->len < 8 || memcmp(h->magic, KD_FIDX_MAGIC, 8) != 0 ?
		       bad(why, N_("not a kdmesg format index")) : bad(why, N_("truncated"));
	if (h->byte_order != KD_FIDX_BYTE_ORDER)
		return bad(why, N_("written on a machine of another byte order"));
	if (h->version < KD_FIDX_VERSION_OLDEST || h->version > KD_FIDX_VERSION ||
	    h->filter_bits != KD_FIDX_FILTER_BITS)
		return bad(why, N_("another version of the format index (rebuild it with this kdmesg-po)"));
	if (h->size != x->len)
		return bad(why, h->size > x->len ? "truncated" : "trailing bytes after the index");
	if (!section_ok(h->fmt_off, h->nfmt, sizeof(struct kd_fidx_fmt), x->len) ||
	    !section_ok(h->bucket_off, (uint64_t)h->nbuckets + 1, sizeof(uint32_t), x->len) ||
	    !section_ok(h->chain_off, h->nchain, sizeof(uint32_t), x->len) ||
	    !section_ok(h->slot_off, h->unanchored, sizeof(struct kd_fidx_slot), x->len) ||
	    !section_ok(h->filter_off, KD_FIDX_FILTER_BITS / 64, sizeof(uint64_t), x->len) ||
	    !section_ok(h->op_off, h->nops, sizeof(struct kd_fidx_op), x->len) ||
	    h->str_off > x->len || h->str_len > x->len - h->str_off || h->str_len == 0)
		return bad(why, N_("corrupt: a section lies outside the file"));
	if (h->nbuckets == 0 || (h->nbuckets & (h->nbuckets - 1)) ||
	    h->unanchored > h->nolit || h->nolit > h->nchain || h->release >= h->str_len)
		return bad(why, N_("corrupt: bad counts in the header"));
	x->head = h;
	x->fmt = (const void *)(base + h->fmt_off);
	x->bucket = (const void *)(base + h->bucket_off);
	x->chain = (const void *)(base + h->chain_off);
	x->slot = (const void *)(base + h->slot_off);
	x->filter = (const void *)(base + h->filter_off);
	x->op = (const void *)(base + h->op_off);
	x->str = base + h->str_off;
	if (x->str[h->str_len - 1] != '\0')
		return bad(why, N_("corrupt: the strings are not terminated"));
	if (x->bucket[0] != 0 || x->bucket[h->nbuckets] != h->unanchored)
		return bad(why, N_("corrupt: bad bucket table"));
	for (uint32_t b = 0; b < h->nbuckets; b++)
		if (x->bucket[b] > x->bucket[b + 1])
			return bad(why, N_("corrupt: bad bucket table"));
	for (uint32_t i = 0; i < h->nchain; i++)
		if (x->chain[i] >= h->nfmt)
			return bad(why, N_("corrupt: a format id out of range"));
	/* A run never leaves its bucket. */
	for (uint32_t b = 0; b < h->nbuckets; b++)
		for (uint32_t c = x->bucket[b]; c < x->bucket[b + 1]; c++)
			if (x->slot[c].run == 0 || x->slot[c].run > x->bucket[b + 1] - c)
				return bad(why, N_("corrupt: bad bucket table"));
	for (uint32_t i = 0; i < h->nfmt; i++) {
		const struct kd_fidx_fmt *f = &x->fmt[i];

		if (f->fmt >= h->str_len || f->fmt_len > h->str_len - f->fmt ||
		    f->file >= h->str_len || f->func >= h->str_len || f->module >= h->str_len ||
		    f->op > h->nops || f->nops > h->nops - f->op || f->family > KD_FIDX_WRAP)
			return bad(why, N_("corrupt: a format points outside the file"));
	}
	for (uint32_t i = 0; i < h->nops; i++) {
		const struct kd_fidx_op *op = &x->op[i];

		if (op->kind >= KD_OP__COUNT ||
		    (op->kind == KD_OP_LIT && (op->arg >= h->str_len ||
					       op->len > h->str_len - op->arg)))
			return bad(why, N_("corrupt: a match program points outside the file"));
	}
	return kd_fmatch_prep_new(x, &x->prep);
}

int kd_fidx_from_image(struct kd_fidx **out, void *image, size_t len, const char **why)
{
	struct kd_fidx *x = calloc(1, sizeof(*x));
	int rc;

	if (!x) {
		free(image);
		return -ENOMEM;
	}
	x->mem = image;
	x->len = len;
	if ((rc = check(x, why)) < 0) {
		kd_fidx_free(x);
		return rc;
	}
	*out = x;
	return 0;
}

int kd_fidx_open(struct kd_fidx **out, const char *path, const char **why)
{
	struct kd_fidx *x;
	struct stat st;
	void *map;
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		rc = -errno;
		close(fd);
		return rc;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return S_ISDIR(st.st_mode) ? -EISDIR : bad(why, N_("not a regular file"));
	}
	if (st.st_size == 0) {
		close(fd);
		return bad(why, N_("empty file"));
	}
	if ((uint64_t)st.st_size > SIZE_MAX / 2) {
		close(fd);
		return -EFBIG;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	rc = map == MAP_FAILED ? -errno : 0;
	close(fd);
	if (rc < 0)
		return rc;
	if (!(x = calloc(1, sizeof(*x)))) {
		munmap(map, (size_t)st.st_size);
		return -ENOMEM;
	}
	x->mem = map;
	x->len = (size_t)st.st_size;
	x->mapped = 1;
	if ((rc = check(x, why)) < 0) {
		kd_fidx_free(x);
		return rc;
	}
	*out = x;
	return 0;
}

const char *kd_fidx_release(const struct kd_fidx *x)
{
	return x->str + x->head->release;
}

uint32_t kd_fidx_count(const struct kd_fidx *x)
{
	return x->head->nfmt;
}

size_t kd_fidx_size(const struct kd_fidx *x)
{
	return x->len;
}

void kd_fidx_get(const struct kd_fidx *x, uint32_t id, struct kd_fidx_entry *e)
{
	const struct kd_fidx_fmt *f = &x->fmt[id];

	e->fmt = x->str + f->fmt;
	e->fmt_len = f->fmt_len;
	/* check() bounds fmt + fmt_len by the string section's length; one past is not read. */
	e->fmt_nul = f->fmt + f->fmt_len < x->head->str_len && e->fmt[e->fmt_len] == '\0';
	e->file = x->str + f->file;
	e->func = x->str + f->func;
	e->module = x->str + f->module;
	e->line = f->line;
	e->level = (char)f->level;
	e->family = f->family;
	e->lit = f->lit;
}

void kd_fidx_free(struct kd_fidx *x)
{
	if (!x)
		return;
	kd_fmatch_prep_free(x->prep);
	if (x->mapped)
		munmap(x->mem, x->len);
	else
		free(x->mem);
	free(x);
}
