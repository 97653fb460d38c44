/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * csource.h - find the kernel messages in C source: calls of printk(),
 * the pr_*(), dev_*(), netdev_*(), netif_*() and kprint_*() families
 * (with their _once/_ratelimited variants) whose format is a constant:
 * adjacent literals joined, KERN_* levels resolved and removed,
 * KBUILD_MODNAME, the file's simple string macros and those of the
 * learned headers (#define CUT_HERE "...") expanded, the file's
 * pr_fmt()/dev_fmt() applied, one trailing newline removed: the FORMAT a
 * CONFIG_KPRINT kernel reports (kprint(7)).  Calls through wrapper macros
 * (pci_err(), ata_dev_printk(), a driver's own dprintk()...) are found by
 * expanding the macros that the file, or headers learned beforehand,
 * define.  A lexical scan, not a compiler: formats built by other macros
 * are counted as skipped.
 */
#ifndef KDMESG_CSOURCE_H
#define KDMESG_CSOURCE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * What ACPICA prints after the caller's format of ACPI_ERROR() and its
 * siblings (not ACPI_INFO()): its version, module and line.  Extracted
 * formats end in it, as the kernel series' FORMAT does; kdmesg-po knows
 * ACPICA's formats in a printk index by it.
 */
#define KD_ACPI_SUFFIX		" (%8.8X/%s-%u)"

struct kd_csource_msg {
	const char *file;	/* as given to kd_csource_scan() */
	unsigned int line;	/* of the call */
	const char *func;	/* enclosing function, "" outside one */
	const char *module;	/* KBUILD_MODNAME */
	char level;		/* '0'..'7', or 0 for the default level */
	/*
	 * How the kernel prints it: 'p' the format alone (printk(),
	 * pr_*()), 'd' after dev_printk()'s "driver device: ", 'n' after
	 * netdev_printk()'s prefix (netdev_*(), netif_*()), 'a' after
	 * ACPICA's ("ACPI: ", "ACPI Error: ", ..., ACPI_INFO() and its
	 * siblings; @fmt then holds what ACPICA prints around the caller's),
	 * 'e' after dev_err_probe()'s "driver device: error <err>: ", 'w'
	 * after a subsystem wrapper's prefix (ext4_msg()'s "EXT4-fs (vda): ",
	 * btrfs's, XFS's, f2fs's, Bluetooth's, DRM's "[drm:<function>] ").
	 */
	char family;
	const char *fmt;	/* @fmt_len bytes */
	size_t fmt_len;
};

struct kd_csource_stats {
	unsigned long calls;	/* message calls seen */
	unsigned long found;	/* with a constant format, reported */
	unsigned long skipped;	/* format not a constant we can resolve */
};

struct kd_csource_macros;

/** kd_csource_macros_new() - an empty set of wrapper macros.  Returns 0 or -ENOMEM. */
int kd_csource_macros_new(struct kd_csource_macros **m);

/**
 * kd_csource_macros_learn() - add the wrapper macros that the @len bytes
 * of C source @text (a header) define: function-like macros whose
 * expansion calls a message function or an already known wrapper, and
 * string macros (a name two headers define differently is not used).  A
 * later definition of a name replaces the earlier one.  Returns 0,
 * -ENOMEM, or -E2BIG past 65536 macros.
 */
int kd_csource_macros_learn(struct kd_csource_macros *m, const char *text, size_t len);

/** kd_csource_macros_free() - release @m (NULL is fine). */
void kd_csource_macros_free(struct kd_csource_macros *m);

/**
 * kd_csource_scan() - report each message call of the @len bytes of C
 * source @text to @fn (which returns 0, or a negative errno that stops
 * the scan and is returned).  @file (the name for references) and
 * @module are passed through; KBUILD_BASENAME is @file's base name.
 * With @path (where the file is on disk) a header that the file includes
 * by a relative name (#include "x.h", "../x.h"; see
 * kd_csource_join_include()) is scanned where it is included, with the
 * file's pr_fmt() and module.  Wrapper macros of
 * @macros (may be NULL) and of the file's own #define lines are expanded
 * where used (the file's own first).  Adds to @st when not NULL.  Returns
 * 0, -ENOMEM or @fn's error.
 */
int kd_csource_scan(const char *text, size_t len, const char *file, const char *path,
		    const char *module, const struct kd_csource_macros *macros,
		    int (*fn)(void *data, const struct kd_csource_msg *m),
		    void *data, struct kd_csource_stats *st);

/**
 * kd_csource_join_include() - the path of the header @name (@n bytes) of
 * an #include "..." line in a file of directory @dir (@dl bytes, its '/'
 * included): @dir and @name, each leading "../" taking a directory off,
 * in @out (@cap bytes).  False when it leaves @dir's tree, has ".."
 * elsewhere, or does not fit.
 */
bool kd_csource_join_include(char *out, size_t cap, const char *dir, size_t dl,
			     const char *name, size_t n);

/**
 * kd_csource_modname() - KBUILD_MODNAME of object @obj ("foo" for
 * foo.c) from the @len bytes of its directory's Makefile or Kbuild: the
 * composite object "bar" of a "bar-y += foo.o" (or -objs, -$(CONFIG_X))
 * line, else @obj; '-' becomes '_' as Kbuild does.  Written to @out
 * (@cap bytes).
 */
void kd_csource_modname(const char *makefile, size_t len, const char *obj,
			char *out, size_t cap);

#endif /* KDMESG_CSOURCE_H */
