// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sites-saved.c - the saved site tables and the boots map.  See
 * sites-saved.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stage/sites-saved.h"

/* The line at *@p in [*@p, @end) without its newline; advances *@p. */
static const char *line_at(const char **p, const char *end, size_t *n)
{
	const char *s = *p, *nl;

	if (s >= end)
		return NULL;
	nl = memchr(s, '\n', (size_t)(end - s));
	*n = (size_t)((nl ? nl : end) - s);
	*p = nl ? nl + 1 : end;
	return s;
}

static void copy_field(char *dst, size_t cap, const char *s, size_t n)
{
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

int kd_sites_header_read(const char *text, size_t len, struct kd_sites_header *h)
{
	static const char magic[] = "# kdmesg-sites 1";
	const char *p = text, *end = text + len, *l;
	size_t n;

	memset(h, 0, sizeof(*h));
	if (!(l = line_at(&p, end, &n)) || n != sizeof(magic) - 1 || memcmp(l, magic, n))
		return -EBADMSG;
	while ((l = line_at(&p, end, &n)) && n && l[0] == '#') {
		if (n > 11 && !memcmp(l, "# build-id ", 11))
			copy_field(h->build_id, sizeof(h->build_id), l + 11, n - 11);
		else if (n > 10 && !memcmp(l, "# release ", 10))
			copy_field(h->release, sizeof(h->release), l + 10, n - 10);
		else if (n > 10 && !memcmp(l, "# version ", 10))
			copy_field(h->version, sizeof(h->version), l + 10, n - 10);
	}
	return 0;
}

/* The object a table line names: up to ':' or ' '. */
static size_t object_len(const char *l, size_t n)
{
	size_t i = 0;

	while (i < n && l[i] != ':' && l[i] != ' ')
		i++;
	return i;
}

struct name {
	const char *s;
	size_t n;
};

static int name_cmp(const void *a, const void *b)
{
	const struct name *x = a, *y = b;
	int c = memcmp(x->s, y->s, x->n < y->n ? x->n : y->n);

	return c ? c : (x->n > y->n) - (x->n < y->n);
}

struct buf {
	char *p;
	size_t len, cap;
};

static int put(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *t;

		while (cap < b->len + n + 1)
			cap *= 2;
		if (!(t = realloc(b->p, cap)))
			return -ENOMEM;
		b->p = t;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
	return 0;
}

static int put_header(struct buf *b, const char *key, const char *value)
{
	return put(b, "# ", 2) || put(b, key, strlen(key)) || put(b, " ", 1) ||
	       put(b, value, strlen(value)) || put(b, "\n", 1) ? -ENOMEM : 0;
}

int kd_sites_compose(const struct kd_sites_header *h, const char *listing, size_t len,
		     const char *old, size_t old_len, char **out, size_t *out_len,
		     size_t *merged)
{
	struct buf b = { .p = NULL };
	struct name *names = NULL, key;
	size_t nnames = 0, cap = 0, n;
	const char *p = listing, *end = listing + len, *l;
	int rc = -ENOMEM;

	*merged = 0;
	if (put(&b, "# kdmesg-sites 1\n", 17) || put_header(&b, "build-id", h->build_id) ||
	    put_header(&b, "release", h->release) || put_header(&b, "version", h->version))
		goto out;
	while ((l = line_at(&p, end, &n))) {
		if (!n || l[0] == '#')
			continue;
		if (put(&b, l, n) || put(&b, "\n", 1))
			goto out;
		key = (struct name){ l, object_len(l, n) };
		if (!nnames || name_cmp(&names[nnames - 1], &key)) {
			if (nnames == cap) {
				struct name *t = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof(*t));

				if (!t)
					goto out;
				names = t;
			}
			names[nnames++] = key;
		}
	}
	qsort(names, nnames, sizeof(*names), name_cmp);
	p = old;
	end = old ? old + old_len : NULL;
	while (old && (l = line_at(&p, end, &n))) {
		if (!n || l[0] == '#' || memchr(l, '\0', n))
			continue;
		key = (struct name){ l, object_len(l, n) };
		if (bsearch(&key, names, nnames, sizeof(*names), name_cmp))
			continue;
		if (put(&b, l, n) || put(&b, "\n", 1))
			goto out;
		++*merged;
	}
	*out = b.p;
	*out_len = b.len;
	b.p = NULL;
	rc = 0;
out:
	free(b.p);
	free(names);
	return rc;
}

bool kd_sites_boot_id(const char *raw, char out[33])
{
	size_t n = 0;

	for (; *raw && *raw != '\n' && *raw != ' '; raw++) {
		char c = *raw;

		if (c == '-')
			continue;
		if (c >= 'A' && c <= 'F')
			c = (char)(c - 'A' + 'a');
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')) || n == 32)
			return false;
		out[n++] = c;
	}
	out[n] = '\0';
	return n == 32;
}

int kd_sites_boots_find(const char *text, size_t len, const char *boot_id, char *build_id)
{
	const char *p = text, *end = text + len, *l;
	size_t n, bl = strlen(boot_id);
	int rc = -ENOENT;

	while ((l = line_at(&p, end, &n))) {
		char id[KD_BUILDID_HEX_MAX + 1];

		if (n <= bl + 1 || memcmp(l, boot_id, bl) || l[bl] != ' ' ||
		    n - bl - 1 > KD_BUILDID_HEX_MAX)
			continue;
		copy_field(id, sizeof(id), l + bl + 1, n - bl - 1);
		if (kd_buildid_valid(id)) {
			memcpy(build_id, id, strlen(id) + 1);
			rc = 0;
		}
	}
	return rc;
}

int kd_sites_boots_update(const char *old, size_t old_len, const char *boot_id,
			  const char *build_id, char **out, size_t *out_len)
{
	struct buf b = { .p = NULL };
	const char *p = old, *end = old ? old + old_len : NULL, *l;
	size_t n, lines = 0, skip, bl = strlen(boot_id);

	/* Count the lines kept, to keep only the newest. */
	while (old && (l = line_at(&p, end, &n)))
		if (n && !(n > bl && !memcmp(l, boot_id, bl) && l[bl] == ' '))
			lines++;
	skip = lines >= KD_SITES_BOOTS_MAX ? lines - KD_SITES_BOOTS_MAX + 1 : 0;
	p = old;
	while (old && (l = line_at(&p, end, &n))) {
		if (!n || (n > bl && !memcmp(l, boot_id, bl) && l[bl] == ' '))
			continue;
		if (skip) {
			skip--;
			continue;
		}
		if (put(&b, l, n) || put(&b, "\n", 1))
			goto fail;
	}
	if (put(&b, boot_id, bl) || put(&b, " ", 1) || put(&b, build_id, strlen(build_id)) ||
	    put(&b, "\n", 1))
		goto fail;
	*out = b.p;
	*out_len = b.len;
	return 0;
fail:
	free(b.p);
	return -ENOMEM;
}

/* mkdir -p @dir (0755). */
static int make_dirs(const char *dir)
{
	char path[4096];
	size_t n = strlen(dir);

	if (n >= sizeof(path))
		return -ENAMETOOLONG;
	memcpy(path, dir, n + 1);
	for (char *s = path + 1; ; s++) {
		if (*s == '/' || !*s) {
			char c = *s;

			*s = '\0';
			if (mkdir(path, 0755) < 0 && errno != EEXIST)
				return -errno;
			*s = c;
			if (!c)
				break;
		}
	}
	return 0;
}

int kd_sites_write(const char *dir, const char *name, const char *buf, size_t len)
{
	char tmp[4200], dst[4200];
	int fd, rc = 0;
	size_t done = 0;

	if ((size_t)snprintf(dst, sizeof(dst), "%s/%s", dir, name) >= sizeof(dst) ||
	    (size_t)snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dir, name) >= sizeof(tmp))
		return -ENAMETOOLONG;
	if ((rc = make_dirs(dir)) < 0)
		return rc;
	if ((fd = mkstemp(tmp)) < 0)
		return -errno;
	while (done < len) {
		ssize_t w = write(fd, buf + done, len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			rc = w < 0 ? -errno : -EIO;
			break;
		}
		done += (size_t)w;
	}
	/* Readable by all: the tables hold no secret the kernel log does not show. */
	if (!rc && fchmod(fd, 0644) < 0)
		rc = -errno;
	if (!rc && fsync(fd) < 0)
		rc = -errno;
	if (close(fd) < 0 && !rc)
		rc = -errno;
	if (!rc && rename(tmp, dst) < 0)
		rc = -errno;
	if (rc)
		unlink(tmp);
	return rc;
}
