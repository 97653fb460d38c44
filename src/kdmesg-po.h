/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kdmesg-po.h - what the commands of kdmesg-po share: reading files and
 * scanning kernel source trees (kdmesg-po.c), writing format indexes
 * (kdmesg-po-index.c).
 */
#ifndef KDMESG_PO_H
#define KDMESG_PO_H

#include <stddef.h>

#include "po/csource.h"
#include "stage/ksites.h"

/** kdpo_read_file() - the whole file ("-": standard input), NUL-terminated; NULL with errno. */
char *kdpo_read_file(const char *path, size_t *len);

/**
 * kdpo_read_dump() - each record of the kmsg dump at @path ("-": standard
 * input) to @fn with its site (kd_ksites_dump()); exits on errors, warns
 * when no record has a FORMAT.
 */
void kdpo_read_dump(const char *path, kd_ksites_record_fn fn, void *data);

/* When set, each message found in C source goes here instead of the .pot. */
extern int (*kdpo_source_hook)(const struct kd_csource_msg *m);

/* When set, files under ROOT/arch/ other than ROOT/arch/<kdpo_arch>/ are skipped. */
extern const char *kdpo_arch;

/*
 * When set, the kernel's build directory: files of the tree it built no
 * object of are skipped (kdmesg-po index --objects).
 */
extern const char *kdpo_objects;

/**
 * kdpo_scan_tree() - scan the @n source trees or files at @paths, names
 * relative to @top (NULL: the first path), with the wrapper macros of
 * @top/include.
 */
void kdpo_scan_tree(int n, char **paths, const char *top);

/** kdpo_cmd_index() - `kdmesg-po index`; returns the exit status. */
int kdpo_cmd_index(int argc, char **argv);

#endif /* KDMESG_PO_H */
