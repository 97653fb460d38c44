/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ksites.h - read the lists of message call sites a kernel publishes in
 * debugfs, into format-index sites (fidx.h): a file of the printk index
 * (/sys/kernel/debug/printk/index/vmlinux and one per module), the
 * dynamic-debug control file (/sys/kernel/debug/dynamic_debug/control,
 * every pr_debug()/dev_dbg() site, also on kernels without
 * CONFIG_PRINTK_INDEX) and the kprint site table
 * (/sys/kernel/debug/kprint/sites, CONFIG_KPRINT).  Lines that do not
 * parse are skipped and counted; escapes are undone.  Each reader's
 * @text must have a NUL byte after its @len bytes.
 */
#ifndef KDMESG_KSITES_H
#define KDMESG_KSITES_H

#include <stddef.h>

#include "record/record.h"
#include "stage/fidx.h"

struct kd_source;

/* Called for each site; returns 0 or a negative errno that stops the read. */
typedef int (*kd_ksites_fn)(void *data, const struct kd_fidx_site *s);

/**
 * kd_ksites_printk_index() - the @len bytes of one printk index file of
 * @module (the file's name; "vmlinux" gives no module): lines
 * `<level[,c]> file:line function "format"`.  A format that starts with
 * dev_printk()'s "%s %s: " is a dev_*() site without it.  @text is
 * changed.  Returns the lines skipped, or @fn's error.
 */
long kd_ksites_printk_index(char *text, size_t len, const char *module,
			    kd_ksites_fn fn, void *data);

/**
 * kd_ksites_dyndbg() - the @len bytes of a dynamic-debug control file:
 * lines `file:line [module]function flags "format"`.  Sites of any
 * family (pr_debug, dev_dbg and netdev_dbg look alike there).  @text is
 * changed.  Returns the lines skipped (not counting comments), or @fn's
 * error.
 */
long kd_ksites_dyndbg(char *text, size_t len, kd_ksites_fn fn, void *data);

/* The largest descriptor index a table line may give. */
#define KD_KSITES_INDEX_MAX	(1UL << 24)

/* One line of a kprint site table. */
struct kd_ksite_line {
	const char *object;	/* "vmlinux" or a module's name */
	long index;		/* the descriptor's index in @object, -1: not given */
	const char *line;	/* the line number as written after the last ':' ("" if none) */
	/* fmt_len 0: the site has no format; module NULL for "-"; no trailing newline. */
	struct kd_fidx_site site;
};

/* Called for each table line; returns 0 or a negative errno that stops the read. */
typedef int (*kd_ksites_line_fn)(void *data, const struct kd_ksite_line *l);

/**
 * kd_ksites_table_lines() - the @len bytes of a kprint site table: lines
 * `object[:index] level file:line function module format` (\xhh escapes
 * undone; "-" for no module; the format may be empty), '#' lines
 * ignored (a saved table's header).  @text is changed.  Returns the
 * lines skipped as malformed (not counting comments), or @fn's error.
 */
long kd_ksites_table_lines(char *text, size_t len, kd_ksites_line_fn fn, void *data);

/**
 * kd_ksites_table() - kd_ksites_table_lines() as format-index sites,
 * for the lines that have a format (those without are counted as
 * skipped).  Returns as kd_ksites_dyndbg().
 */
long kd_ksites_table(char *text, size_t len, kd_ksites_fn fn, void *data);

/*
 * Called for each record of a dump: @s is the site its FORMAT tells, or
 * NULL when it has none.  Returns 0 or a negative errno that stops the read.
 */
typedef int (*kd_ksites_record_fn)(void *data, const struct kd_record *rec,
				   const struct kd_fidx_site *s);

/* A stage a record passes before it is looked at (struct kd_stage's @apply). */
typedef int (*kd_ksites_stage_fn)(void *data, struct kd_record *rec);

/**
 * kd_ksites_dump() - the records of a dump of a CONFIG_KPRINT kernel,
 * read from @src to its end, each to @fn with its site: FORMAT with its
 * CODE_FILE, CODE_LINE (digits only, else 0), CODE_FUNC, MODULE and the
 * record's level, of any family (KD_FIDX_ANY).  @stage (NULL: none)
 * sees each record first: the expansion of compact records (expand.h).
 * *@total counts the records, *@with those with a FORMAT.  Returns 0,
 * the read's negative errno, @stage's or @fn's.
 */
int kd_ksites_dump(struct kd_source *src, kd_ksites_stage_fn stage, void *stage_data,
		   kd_ksites_record_fn fn, void *data,
		   unsigned long *total, unsigned long *with);

#endif /* KDMESG_KSITES_H */
