// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fidx-lines.c - the function at a source file and line, from a format
 * index: its sites sorted by a hash of (file, line), made the first time
 * a record needs it (only logs of kernels without function names pay for
 * it), a hash match settled by comparing the site's own file and line.
 * See fidx-lines.h.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shared/hash.h"
#include "stage/fidx-lines.h"

struct slot {
	uint32_t hash;
	uint32_t id;
};

struct kd_fidx_lines {
	const struct kd_fidx *x;
	size_t n;
	struct slot slot[];
};

static uint32_t hash_at(const char *file, unsigned int line)
{
	return kd_hash_bytes(file, strlen(file)) ^ (line * 0x9e3779b1u);
}

static int by_hash(const void *a, const void *b)
{
	const struct slot *s = a, *t = b;

	return s->hash < t->hash ? -1 : s->hash > t->hash;
}

int kd_fidx_lines_new(const struct kd_fidx *x, struct kd_fidx_lines **out)
{
	uint32_t count = kd_fidx_count(x);
	struct kd_fidx_lines *t;
	struct kd_fidx_entry e;

	t = malloc(sizeof(*t) + (size_t)count * sizeof(t->slot[0]));
	if (!t)
		return -ENOMEM;
	t->x = x;
	t->n = 0;
	for (uint32_t id = 0; id < count; id++) {
		kd_fidx_get(x, id, &e);
		/* only sites that can answer: a file, a line and a function */
		if (!*e.file || !e.line || !*e.func)
			continue;
		t->slot[t->n].hash = hash_at(e.file, e.line);
		t->slot[t->n++].id = id;
	}
	qsort(t->slot, t->n, sizeof(t->slot[0]), by_hash);
	*out = t;
	return 0;
}

const char *kd_fidx_lines_func(const struct kd_fidx_lines *t, const char *file,
			       unsigned int line)
{
	uint32_t h = hash_at(file, line);
	const char *func = NULL;
	struct kd_fidx_entry e;
	size_t lo = 0, hi = t->n;

	while (lo < hi) {	/* the first slot with this hash */
		size_t mid = lo + (hi - lo) / 2;

		if (t->slot[mid].hash < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < t->n && t->slot[lo].hash == h; lo++) {
		kd_fidx_get(t->x, t->slot[lo].id, &e);
		if (e.line != line || strcmp(e.file, file) != 0)
			continue;
		if (func && strcmp(func, e.func) != 0)
			return NULL;
		func = e.func;
	}
	return func;
}

void kd_fidx_lines_free(struct kd_fidx_lines *t)
{
	free(t);
}
