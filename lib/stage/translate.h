/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * translate.h - translate the text of CONFIG_KPRINT records: look the
 * record's FORMAT up in the kernel-message catalogues (msgctxt = MODULE),
 * keep the prefix the kernel put before the formatted text (the device
 * of dev_*() and netdev_*() messages), and render the translated format
 * with the record's ARGn.  Where the translation cannot be trusted the
 * caller shows the original text; the reason is counted.
 */
#ifndef KDMESG_TRANSLATE_H
#define KDMESG_TRANSLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record/field.h"
#include "stage/catalog.h"
#include "shared/kfmt.h"
#include "record/record.h"

/* The kernel cuts a message text at this many bytes (kprint(7)). */
#define KD_TRANSLATE_TEXT_LIMIT	1023
/* A translated text longer than this is not used (KD_KFMT_TOO_LONG). */
#define KD_TRANSLATE_MAX	(2 * KD_RECORD_MAX)

/* What kd_translate_record() decided, beyond the reasons of kfmt.h. */
#define KD_TRANSLATE_NONE	(-1)	/* no FORMAT, or no catalogue entry */

struct kd_translate_stats {
	uint64_t records;	/* records with a FORMAT */
	uint64_t translated;
	uint64_t missing;	/* with a FORMAT the catalogues do not have */
	uint64_t untrusted[KD_KFMT_NREASONS];	/* [0] unused */
};

struct kd_translate;

/**
 * kd_translate_new() - a translator over @cat (which it does not own and
 * which must outlive it), writing translations in charset @tocode
 * (nl_langinfo(CODESET); NULL or UTF-8: no conversion).  Returns 0,
 * -EINVAL for an unknown charset, or -ENOMEM.
 */
int kd_translate_new(struct kd_translate **t, const struct kd_catalog *cat,
		     const char *tocode);

/**
 * kd_translate_record() - translate @rec's text.  Returns
 * KD_KFMT_TRUSTED (0) with the translated text, the record's own prefix
 * included, in *@text and *@len (valid until the next call; not
 * NUL-terminated); KD_TRANSLATE_NONE when there is nothing to translate;
 * or the kd_kfmt_reason why a translation exists but is not used.
 * Counts the outcome in the statistics.
 */
int kd_translate_record(struct kd_translate *t, const struct kd_record *rec,
			const char **text, size_t *len);

/**
 * kd_translate_prefix() - where the rendering of @fmt (@fmt_len bytes)
 * with @args starts in @text: *@prefix_len bytes of @text come before it.
 * @work is scratch space of @cap bytes.  Returns KD_KFMT_TRUSTED, or
 * KD_KFMT_CONTINUATION (conversions but no arguments, or the rendering
 * inside the text but not at its end), KD_KFMT_CUT (the text at the
 * kernel's limit, or fewer arguments than conversions), KD_KFMT_COUNT
 * (more arguments), KD_KFMT_MISMATCH (not found), KD_KFMT_TOO_LONG,
 * KD_KFMT_PV / KD_KFMT_PERCENT_N / KD_KFMT_CONVERSION (for the format).
 */
enum kd_kfmt_reason kd_translate_prefix(const char *text, size_t text_len,
					const char *fmt, size_t fmt_len,
					const struct kd_kfmt *f,
					const struct kd_karg *args, unsigned int nargs,
					char *work, size_t cap, size_t *prefix_len);

/*
 * The dictionary key under which the stage leaves a translation when it
 * must keep the record's text (JSON and export output), with origin
 * KD_ORIGIN_TRANSLATED.  Writers show it as "msg_translated" (-J, -o
 * json), "message_translated" (-o jsonl), KDMESG_MESSAGE_TRANSLATED
 * (-o export).
 */
#define KD_TRANSLATE_KEY	KD_KEY_TRANSLATED

/**
 * kd_translate_set_keep_text() - @keep: the stage adds the translation as
 * the KD_TRANSLATE_KEY entry and keeps the text; otherwise (the default)
 * it replaces the text, marked KD_ORIGIN_TRANSLATED.
 */
void kd_translate_set_keep_text(struct kd_translate *t, bool keep);

/**
 * kd_translate_apply() - the pipeline stage (struct kd_stage's @apply,
 * @data the translator; it needs KD_NEED_DICT): translate each record as
 * kd_translate_record() does and put the result in the record.  Returns
 * 1 (every record passes), or -ENOMEM.
 */
int kd_translate_apply(void *data, struct kd_record *rec);

/** kd_translate_stats() - the counts so far. */
const struct kd_translate_stats *kd_translate_stats(const struct kd_translate *t);

/** kd_translate_free() - release @t (NULL is fine). */
void kd_translate_free(struct kd_translate *t);

#endif /* KDMESG_TRANSLATE_H */
