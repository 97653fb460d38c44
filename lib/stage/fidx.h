/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fidx.h - format indexes: the kernel's message formats with their call
 * sites (file, line, function, module), compiled for the recovery of
 * call sites on stock kernels (recover.h).  Written once by `kdmesg-po
 * index` from a kernel source tree, a printk index, a dynamic-debug
 * control file or a kprint site table; loaded by kdmesg with one mmap(2)
 * and a bounds check of every offset, so that a corrupt or cut file is a
 * clear error and never a wild read.  The file layout is in
 * fidx-internal.h; KD_FIDX_VERSION changes with it.
 */
#ifndef KDMESG_FIDX_H
#define KDMESG_FIDX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * 6: %pR and %pr are read as a resource in brackets (KD_OP_RES); indexes
 * of version 5, which read them as free text, are still read.
 */
#define KD_FIDX_VERSION		6
#define KD_FIDX_VERSION_OLDEST	5
/* The suffix of installed indexes: DATADIR/kdmesg/formats/RELEASE.kdfi */
#define KD_FIDX_SUFFIX		".kdfi"

/* How the kernel builds a record's text around the format. */
enum kd_fidx_family {
	KD_FIDX_ANY = 0,	/* not known: any of the others but KD_FIDX_WRAP */
	KD_FIDX_PLAIN,		/* printk(), pr_*(): the format alone (pr_fmt() included) */
	KD_FIDX_DEV,		/* dev_*(): "driver device: " before it */
	KD_FIDX_NETDEV,		/* netdev_*(): "driver device ifname: " or "ifname: " */
	KD_FIDX_ACPI,		/* ACPI_INFO() and the like: "ACPI: ", "ACPI Error: ", ... */
	KD_FIDX_DEVPROBE,	/* dev_err_probe(): "driver device: error -EINVAL: " */
	/*
	 * A subsystem wrapper's prefix: after the text's first ": "
	 * ("EXT4-fs (vda): ", "BTRFS info (device vdb): ", "XFS (vdc): ",
	 * "Bluetooth: "), after one more word there ("ath: phy0: ",
	 * "brcmfmac: <function>: ", "iwlwifi 0000:00:14.3: <function> ") or
	 * after DRM's "[drm:<function>] " (with "*ERROR* "), alone or after a
	 * device prefix.  Not among KD_FIDX_ANY's: a catalogue's msgid would
	 * match after any first ": ".
	 */
	KD_FIDX_WRAP,
};

/* One format as a source gives it to the builder. */
struct kd_fidx_site {
	const char *fmt;	/* without KERN_* and the trailing newline */
	size_t fmt_len;
	const char *file;	/* NULL or "" when not known, likewise below */
	unsigned int line;
	const char *func;
	const char *module;
	char level;		/* '0'..'7', 'c' (pr_cont), 0 */
	enum kd_fidx_family family;
};

struct kd_fidx_builder;

/** kd_fidx_builder_new() - an empty builder.  Returns 0 or -ENOMEM. */
int kd_fidx_builder_new(struct kd_fidx_builder **out);

/**
 * kd_fidx_builder_add() - add one site (copied).  A site given twice is
 * kept once.  Returns 0, 1 when the format is not one the kernel would
 * print (a positional or %n conversion, a bad format: left out),
 * -ENOMEM, or -E2BIG past 16 million sites or a string section of 4 GiB.
 */
int kd_fidx_builder_add(struct kd_fidx_builder *b, const struct kd_fidx_site *s);

/** kd_fidx_builder_count() - the distinct sites added so far. */
size_t kd_fidx_builder_count(const struct kd_fidx_builder *b);

/**
 * kd_fidx_builder_image() - the index file's bytes for @release ("" or
 * NULL: unknown) in *@image (malloc'd, the caller frees it), *@len of
 * them.  Returns 0, -ENOMEM or -E2BIG.
 */
int kd_fidx_builder_image(struct kd_fidx_builder *b, const char *release,
			  void **image, size_t *len);

/** kd_fidx_builder_free() - release @b (NULL is fine). */
void kd_fidx_builder_free(struct kd_fidx_builder *b);

struct kd_fidx;

/**
 * kd_fidx_open() - map the index file @path and check it.  Returns 0, a
 * negative errno from open/mmap, or -EBADMSG when the file is not a
 * valid index of this version; then *@why (when not NULL) says what is
 * wrong in words ("truncated", "not a kdmesg format index", ...).
 */
int kd_fidx_open(struct kd_fidx **out, const char *path, const char **why);

/**
 * kd_fidx_from_image() - check and use the @len bytes at @image (as
 * kd_fidx_builder_image() wrote them; malloc'd, owned by the index from
 * now on, also on failure).  Returns as kd_fidx_open().
 */
int kd_fidx_from_image(struct kd_fidx **out, void *image, size_t len, const char **why);

/** kd_fidx_release() - the kernel release the index came from, "" unknown. */
const char *kd_fidx_release(const struct kd_fidx *x);

/** kd_fidx_count() - the number of sites (ids 0 .. count-1). */
uint32_t kd_fidx_count(const struct kd_fidx *x);

/** kd_fidx_size() - the bytes of the file. */
size_t kd_fidx_size(const struct kd_fidx *x);

/* A site of a loaded index; strings point into it, "" when not known. */
struct kd_fidx_entry {
	const char *fmt;
	size_t fmt_len;
	bool fmt_nul;		/* fmt[fmt_len] is a NUL of the index: fmt is a C string */
	const char *file, *func, *module;	/* C strings of the index */
	unsigned int line;
	char level;
	enum kd_fidx_family family;
	unsigned int lit;	/* literal bytes of the format */
};

/** kd_fidx_get() - site @id (below kd_fidx_count()) into @e. */
void kd_fidx_get(const struct kd_fidx *x, uint32_t id, struct kd_fidx_entry *e);

/** kd_fidx_free() - unmap or release @x (NULL is fine). */
void kd_fidx_free(struct kd_fidx *x);

#endif /* KDMESG_FIDX_H */
