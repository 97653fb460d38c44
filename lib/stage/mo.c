// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mo.c - read a gettext .mo file (layout in the GNU gettext manual, "The
 * Format of GNU MO Files") and look messages up in it.  The file's own
 * hash table is not used: we build an open-addressing table over the
 * validated strings, so a damaged table can only cost a miss, never a
 * read outside the file.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shared/hash.h"
#include "stage/mo.h"

#define MO_MAGIC	0x950412deU
#define MO_SWAPPED	0xde120495U
#define MO_MAX_SIZE	(64u << 20)

struct mo_entry {
	const char *key;	/* "msgid" or "msgctxt\004msgid" */
	size_t key_len;
	const char *val;	/* first form of the msgstr, NUL-terminated */
	size_t val_len;
};

struct kd_mo {
	char *data;
	size_t size;
	unsigned int n;
	struct mo_entry *ent;
	unsigned int *slot;	/* hash slots: entry index + 1, 0 empty */
	size_t nslots;		/* a power of two */
	char charset[32];
	bool has_ctx;		/* any entry with a msgctxt */
};

static uint32_t get32(const unsigned char *p, int swap)
{
	uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
		     (uint32_t)p[3] << 24;

	return swap ? __builtin_bswap32(v) : v;
}

/*
 * A hash of @n bytes by the length and both ends (shared/hash.h): formats
 * are often a hundred bytes or more; formats that agree in length and
 * both ends are rare and only cost a comparison.
 */
static uint32_t hash_bytes(const char *s, size_t n)
{
	return kd_hash_ends(s, n);
}

/* The slot hash of an entry: msgid and context hashed apart, so a lookup
 * with and then without context hashes the msgid once. */
static uint32_t hash_key(uint32_t id_hash, const char *ctx, size_t ctx_len)
{
	return ctx ? id_hash ^ (hash_bytes(ctx, ctx_len) * 0x85ebca6bu + 1) : id_hash;
}

/* String @i of the table at @tab: checked to lie in the file, NUL-terminated. */
static int table_string(const struct kd_mo *mo, uint32_t tab, uint32_t i, int swap,
			const char **s, size_t *len)
{
	const unsigned char *d = (const unsigned char *)mo->data;
	uint64_t at = (uint64_t)tab + (uint64_t)i * 8, l, off;

	if (at + 8 > mo->size)
		return -EINVAL;
	l = get32(d + at, swap);
	off = get32(d + at + 4, swap);
	if (off + l >= mo->size || mo->data[off + l] != '\0')
		return -EINVAL;
	*s = mo->data + off;
	*len = (size_t)l;
	return 0;
}

static void find_charset(struct kd_mo *mo, const char *hdr)
{
	const char *c = strstr(hdr, "charset=");
	size_t n = 0;

	if (!c)
		return;
	c += 8;
	while (c[n] && c[n] != '\n' && c[n] != ';' && c[n] != ' ' &&
	       n < sizeof(mo->charset) - 1)
		n++;
	memcpy(mo->charset, c, n);
	mo->charset[n] = '\0';
}

static int build(struct kd_mo *mo)
{
	const unsigned char *d = (const unsigned char *)mo->data;
	uint32_t magic, n, otab, ttab;
	int swap;

	if (mo->size < 28)
		return -EINVAL;
	magic = get32(d, 0);
	if (magic != MO_MAGIC && magic != MO_SWAPPED)
		return -EINVAL;
	swap = magic == MO_SWAPPED;
	if (get32(d + 4, swap) >> 16 > 1)	/* major revision 0 or 1 */
		return -EINVAL;
	n = get32(d + 8, swap);
	otab = get32(d + 12, swap);
	ttab = get32(d + 16, swap);
	if (n > mo->size / 16)
		return -EINVAL;
	mo->ent = calloc(n ? n : 1, sizeof(*mo->ent));
	for (mo->nslots = 16; mo->nslots < (size_t)n * 2; mo->nslots *= 2)
		;
	mo->slot = calloc(mo->nslots, sizeof(*mo->slot));
	if (!mo->ent || !mo->slot)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		struct mo_entry *e = &mo->ent[i];
		size_t h;

		if (table_string(mo, otab, i, swap, &e->key, &e->key_len) < 0 ||
		    table_string(mo, ttab, i, swap, &e->val, &e->val_len) < 0)
			return -EINVAL;
		e->key_len = strlen(e->key);	/* msgid only, not its plural */
		e->val_len = strlen(e->val);	/* first form */
		if (e->key_len == 0) {
			find_charset(mo, e->val);
			continue;
		}
		if (e->val_len == 0)
			continue;	/* an empty msgstr translates nothing */
		{
			const char *eot = memchr(e->key, '\004', e->key_len);

			if (eot) {
				mo->has_ctx = true;
				h = hash_key(hash_bytes(eot + 1, e->key_len - (size_t)(eot - e->key) - 1),
					     e->key, (size_t)(eot - e->key));
			} else {
				h = hash_key(hash_bytes(e->key, e->key_len), NULL, 0);
			}
			h &= mo->nslots - 1;
		}
		while (mo->slot[h])
			h = (h + 1) & (mo->nslots - 1);
		mo->slot[h] = i + 1;
	}
	mo->n = n;
	return 0;
}

int kd_mo_open_mem(const void *data, size_t len, struct kd_mo **out)
{
	struct kd_mo *mo;
	int rc;

	if (len > MO_MAX_SIZE)
		return -EFBIG;
	mo = calloc(1, sizeof(*mo));
	if (!mo)
		return -ENOMEM;
	mo->data = malloc(len + 1);
	if (!mo->data) {
		free(mo);
		return -ENOMEM;
	}
	memcpy(mo->data, data, len);
	mo->data[len] = '\0';
	mo->size = len;
	rc = build(mo);
	if (rc < 0) {
		kd_mo_free(mo);
		return rc;
	}
	*out = mo;
	return 0;
}

int kd_mo_open(const char *path, struct kd_mo **out)
{
	struct stat st;
	char *buf;
	size_t got = 0;
	int fd, rc;

	/* A FIFO planted under the name must not block the open. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		rc = -errno;
	else if (!S_ISREG(st.st_mode))
		rc = S_ISDIR(st.st_mode) ? -EISDIR : -ENODEV;
	else
		rc = 0;
	if (rc < 0) {
		close(fd);
		return rc;
	}
	if (st.st_size > (off_t)MO_MAX_SIZE) {
		close(fd);
		return -EFBIG;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	while (got < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	rc = kd_mo_open_mem(buf, got, out);
	free(buf);
	return rc;
}

void kd_mo_free(struct kd_mo *mo)
{
	if (!mo)
		return;
	free(mo->data);
	free(mo->ent);
	free(mo->slot);
	free(mo);
}

const char *kd_mo_lookup(const struct kd_mo *mo, const char *ctx,
			 const char *msgid, size_t id_len, size_t *len,
			 unsigned int *index)
{
	return kd_mo_lookup_hashed(mo, ctx, msgid, id_len, kd_mo_hash(msgid, id_len), len,
				   index);
}

uint32_t kd_mo_hash(const char *msgid, size_t id_len)
{
	return hash_bytes(msgid, id_len);
}

const char *kd_mo_lookup_hashed(const struct kd_mo *mo, const char *ctx,
				const char *msgid, size_t id_len, uint32_t id_hash,
				size_t *len, unsigned int *index)
{
	size_t ctx_len, h;

	if (id_len == 0 || (ctx && !mo->has_ctx))
		return NULL;	/* "" is the header, not a message */
	ctx_len = ctx ? strlen(ctx) : 0;
	for (h = hash_key(id_hash, ctx, ctx_len) & (mo->nslots - 1); mo->slot[h];
	     h = (h + 1) & (mo->nslots - 1)) {
		const struct mo_entry *e = &mo->ent[mo->slot[h] - 1];

		if (ctx) {
			if (e->key_len != ctx_len + 1 + id_len ||
			    memcmp(e->key, ctx, ctx_len) != 0 || e->key[ctx_len] != '\004' ||
			    memcmp(e->key + ctx_len + 1, msgid, id_len) != 0)
				continue;
		} else if (e->key_len != id_len || memcmp(e->key, msgid, id_len) != 0) {
			continue;
		}
		if (len)
			*len = e->val_len;
		if (index)
			*index = mo->slot[h] - 1;
		return e->val;
	}
	return NULL;
}

const char *kd_mo_msgid(const struct kd_mo *mo, unsigned int i, size_t *len)
{
	const struct mo_entry *e;
	const char *eot;

	if (i >= mo->n)
		return NULL;
	e = &mo->ent[i];
	if (!e->key_len || !e->val_len)
		return NULL;
	eot = memchr(e->key, '\004', e->key_len);
	if (!eot) {
		*len = e->key_len;
		return e->key;
	}
	*len = e->key_len - (size_t)(eot - e->key) - 1;
	return *len ? eot + 1 : NULL;
}

unsigned int kd_mo_count(const struct kd_mo *mo)
{
	return mo->n;
}

const char *kd_mo_charset(const struct kd_mo *mo)
{
	return mo->charset;
}
