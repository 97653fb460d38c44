// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-fidx.c - format index files: what is written reads back (sites,
 * strings, release, duplicates kept once, bad formats refused), from
 * memory and through mmap; and every kind of damage (cut anywhere, bad
 * magic, version, byte order, offsets pointing outside) is refused with
 * -EBADMSG and a reason, never read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stage/fidx.h"
#include "stage/fidx-internal.h"
#include "tap.h"

static void *image;
static size_t image_len;

static void make_image(void)
{
	static const struct kd_fidx_site s[] = {
		{ .fmt = "Memory: %luK/%luK available", .file = "mm/mm_init.c", .line = 2642,
		  .func = "mem_init_print_info", .module = "mm_init", .level = '6',
		  .family = KD_FIDX_PLAIN },
		{ .fmt = "no codecs found!", .file = "sound/hda.c", .line = 9, .func = "probe",
		  .module = "snd_hda_intel", .level = '4', .family = KD_FIDX_DEV },
		{ .fmt = "100%% done", .family = KD_FIDX_ANY },
		{ .fmt = "%s", .file = "init/main.c", .family = KD_FIDX_PLAIN },
	};
	struct kd_fidx_builder *b;
	struct kd_fidx_site bad = { .fmt = "%2$s %1$s", .fmt_len = 9 };

	if (kd_fidx_builder_new(&b) < 0)
		abort();
	for (size_t i = 0; i < 4; i++) {
		struct kd_fidx_site t = s[i];

		t.fmt_len = strlen(t.fmt);
		tap_is_int(kd_fidx_builder_add(b, &t), 0, "a site is added");
	}
	{
		struct kd_fidx_site t = s[0];

		t.fmt_len = strlen(t.fmt);
		tap_is_int(kd_fidx_builder_add(b, &t), 0, "the same site again is accepted");
	}
	tap_is_int(kd_fidx_builder_add(b, &bad), 1, "a positional format is no kernel format");
	bad.fmt = "a %n b";
	bad.fmt_len = 6;
	tap_is_int(kd_fidx_builder_add(b, &bad), 1, "a %n format is refused");
	tap_is_int((long long)kd_fidx_builder_count(b), 4, "the same site is kept once");
	tap_is_int(kd_fidx_builder_image(b, "6.12.0-test", &image, &image_len), 0, "written");
	kd_fidx_builder_free(b);
}

static void *copy(size_t len)
{
	void *c = malloc(len ? len : 1);

	if (!c)
		abort();
	memcpy(c, image, len < image_len ? len : image_len);
	return c;
}

static void check_round_trip(struct kd_fidx *x, const char *how)
{
	struct kd_fidx_entry e;

	tap_is_str(kd_fidx_release(x), "6.12.0-test", how);
	tap_is_int(kd_fidx_count(x), 4, "four sites");
	kd_fidx_get(x, 0, &e);
	tap_ok(e.fmt_len == 27 && memcmp(e.fmt, "Memory: %luK/%luK available", 27) == 0 &&
	       strcmp(e.file, "mm/mm_init.c") == 0 && e.line == 2642 &&
	       strcmp(e.func, "mem_init_print_info") == 0 && strcmp(e.module, "mm_init") == 0 &&
	       e.level == '6' && e.family == KD_FIDX_PLAIN && e.lit == 21,
	       "site 0 reads back whole (literal bytes counted)");
	kd_fidx_get(x, 1, &e);
	tap_ok(e.family == KD_FIDX_DEV && strcmp(e.module, "snd_hda_intel") == 0 && e.lit == 16,
	       "site 1: a dev_*() site");
	kd_fidx_get(x, 2, &e);
	tap_ok(strcmp(e.file, "") == 0 && strcmp(e.func, "") == 0 && e.line == 0 &&
	       e.family == KD_FIDX_ANY && e.lit == 9, "unknown fields read as empty; %% is one byte");
	kd_fidx_get(x, 3, &e);
	tap_is_int(e.lit, 0, "%s has no literal bytes");
}

static void expect_bad(void *img, size_t len, const char *want, const char *name)
{
	struct kd_fidx *x = NULL;
	const char *why = NULL;
	int rc = kd_fidx_from_image(&x, img, len, &why);

	if (!tap_ok(rc == -EBADMSG && why && (!want || strstr(why, want)), "%s", name))
		tap_diag("rc %d, why \"%s\"", rc, why ? why : "(none)");
	if (rc == 0)
		kd_fidx_free(x);
}

static void check_damage(void)
{
	struct kd_fidx_head *h;
	struct kd_fidx_fmt *f;
	struct kd_fidx_op *op;
	unsigned char *c;
	unsigned int refused = 0;

	expect_bad(copy(0), 0, "not a kdmesg format index", "an empty image");
	expect_bad(copy(4), 4, "not a kdmesg format index", "four bytes");
	expect_bad(copy(20), 20, "truncated", "the header cut");
	expect_bad(copy(image_len - 1), image_len - 1, "truncated", "the last byte cut");
	/*
	 * Cut at every length of the header and the first KiB, then every
	 * 997 bytes and around each section's start: each is refused, none
	 * is read out of bounds (ASan).  (Every length: quadratic in the
	 * 1 MiB filter.)
	 */
	{
		const struct kd_fidx_head *hd = image;
		uint64_t edges[] = { hd->fmt_off, hd->bucket_off, hd->chain_off, hd->slot_off,
				     hd->filter_off, hd->op_off, hd->str_off, image_len };
		unsigned int tried = 0;

		for (size_t n = 0; n < image_len; n += n < 1024 ? 1 : 997) {
			struct kd_fidx *x;

			tried++;
			if (kd_fidx_from_image(&x, copy(n), n, NULL) == -EBADMSG)
				refused++;
			else
				kd_fidx_free(x);
		}
		for (size_t e = 0; e < sizeof(edges) / sizeof(edges[0]); e++)
			for (uint64_t n = edges[e] ? edges[e] - 1 : 0; n <= edges[e] + 1 && n < image_len; n++) {
				struct kd_fidx *x;

				tried++;
				if (kd_fidx_from_image(&x, copy(n), n, NULL) == -EBADMSG)
					refused++;
				else
					kd_fidx_free(x);
			}
		tap_is_int(refused, tried, "every shorter image is refused");
	}
	c = copy(image_len + 8);
	expect_bad(c, image_len + 8, "trailing", "bytes after the index");
	c = copy(image_len);
	c[0] = 'X';
	expect_bad(c, image_len, "not a kdmesg format index", "a bad magic");
	h = copy(image_len);
	h->version = KD_FIDX_VERSION + 1;
	expect_bad(h, image_len, "version", "another version");
	h = copy(image_len);
	h->version = KD_FIDX_VERSION_OLDEST - 1;
	expect_bad(h, image_len, "version", "a version older than the oldest read");
	{
		struct kd_fidx *x = NULL;

		h = copy(image_len);
		h->version = KD_FIDX_VERSION_OLDEST;
		tap_ok(kd_fidx_from_image(&x, h, image_len, NULL) == 0,
		       "the oldest version still read (5: %%pR as free text)");
		kd_fidx_free(x);
	}
	h = copy(image_len);
	h->byte_order = 0x04030201;
	expect_bad(h, image_len, "byte order", "another byte order");
	h = copy(image_len);
	h->fmt_off = image_len - 8;
	expect_bad(h, image_len, "corrupt", "the formats outside the file");
	h = copy(image_len);
	f = (struct kd_fidx_fmt *)((char *)h + h->fmt_off);
	f[1].fmt = h->str_len - 2;
	f[1].fmt_len = 100;
	expect_bad(h, image_len, "corrupt: a format points outside", "a format string outside");
	h = copy(image_len);
	f = (struct kd_fidx_fmt *)((char *)h + h->fmt_off);
	f[0].nops = 60000;
	expect_bad(h, image_len, "corrupt", "a program past the ops");
	h = copy(image_len);
	op = (struct kd_fidx_op *)((char *)h + h->op_off);
	op[0].arg = h->str_len;
	expect_bad(h, image_len, "match program", "a literal outside the strings");
	h = copy(image_len);
	((uint32_t *)((char *)h + h->chain_off))[0] = 99;
	expect_bad(h, image_len, "format id", "a chain entry past the formats");
	h = copy(image_len);
	((char *)h + h->str_off)[h->str_len - 1] = 'x';
	expect_bad(h, image_len, "not terminated", "unterminated strings");
	h = copy(image_len);
	h->nbuckets = 3;
	expect_bad(h, image_len, "corrupt", "a bucket count not a power of two");
}

static void check_file(void)
{
	char path[] = "/tmp/test-fidx-XXXXXX";
	int fd = mkstemp(path);
	struct kd_fidx *x = NULL;
	const char *why = NULL;

	if (fd < 0 || write(fd, image, image_len) != (ssize_t)image_len)
		abort();
	tap_is_int(kd_fidx_open(&x, path, &why), 0, "an index file maps");
	if (x) {
		check_round_trip(x, "the release reads back through mmap");
		tap_is_int((long long)kd_fidx_size(x), (long long)image_len, "its size");
		kd_fidx_free(x);
	}
	if (ftruncate(fd, (off_t)image_len / 2) != 0)
		abort();
	why = NULL;
	tap_is_int(kd_fidx_open(&x, path, &why), -EBADMSG, "a cut file is refused");
	tap_ok(why && strcmp(why, "truncated") == 0, "a cut file: \"truncated\"");
	if (ftruncate(fd, 0) != 0)
		abort();
	tap_is_int(kd_fidx_open(&x, path, &why), -EBADMSG, "an empty file is refused");
	close(fd);
	unlink(path);
	tap_is_int(kd_fidx_open(&x, path, NULL), -ENOENT, "a missing file: ENOENT");
	tap_is_int(kd_fidx_open(&x, "/tmp", NULL), -EISDIR, "a directory: EISDIR");
}

int main(void)
{
	struct kd_fidx *x = NULL;

	make_image();
	tap_is_int(kd_fidx_from_image(&x, copy(image_len), image_len, NULL), 0, "the image reads");
	if (x) {
		check_round_trip(x, "the release reads back from memory");
		kd_fidx_free(x);
	}
	check_damage();
	check_file();
	free(image);
	return tap_done();
}
