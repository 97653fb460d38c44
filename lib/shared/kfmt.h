/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kfmt.h - kernel printk format strings: parse them as the kernel's
 * vsprintf() reads them (C conversions, %p with its extension letters,
 * '*' widths) plus the positional forms %2$s and %3$*2$d that a
 * translation may use, compare a translation with its original, and
 * render a format with the argument texts a CONFIG_KPRINT record carries
 * (ARG0, ARG1, ..., see kprint(7)).
 *
 * Formats and argument texts are untrusted: nothing here calls printf on
 * them, every loop is bounded by the input, every write by the caller's
 * buffer.
 */
#ifndef KDMESG_KFMT_H
#define KDMESG_KFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* At most this many conversions (not counting %%) in one format. */
#define KD_KFMT_MAX_CONV	64
/* C argument positions 1..KD_KFMT_MAX_POS (a '*' takes one too). */
#define KD_KFMT_MAX_POS		64

/*
 * Why a translation is not used and the original text is shown instead.
 * KD_KFMT_TRUSTED (0) means it is used.  kd_kfmt_reason_name() gives the
 * stable names (--stats, the -v summary).
 */
enum kd_kfmt_reason {
	KD_KFMT_TRUSTED = 0,
	KD_KFMT_CONVERSION,	/* a conversion of another type, or a bad format */
	KD_KFMT_COUNT,		/* another number of arguments */
	KD_KFMT_PEXT,		/* a differing %p extension */
	KD_KFMT_SKIPPED,	/* a positional translation skips an argument */
	KD_KFMT_PERCENT_N,	/* %n in the original or the translation */
	KD_KFMT_POSITION,	/* a position out of range (%0$d, %9$s of 2) */
	KD_KFMT_CONTINUATION,	/* a record assembled from pr_cont() fragments */
	KD_KFMT_PV,		/* %pV: the arguments are those of another format */
	KD_KFMT_CUT,		/* the record limit cut the text or the ARGn */
	KD_KFMT_MISMATCH,	/* FORMAT with the ARGn is not the record text */
	KD_KFMT_TOO_LONG,	/* the rendering would exceed the output bound */
	KD_KFMT_NREASONS
};

/* One conversion of a format, in the order written. */
struct kd_kfmt_conv {
	unsigned int start, end;	/* its bytes in the format: [start, end) */
	unsigned char pos;		/* C argument position of the value, from 0 */
};

/* What a C argument position takes; kind 0 means unused. */
struct kd_kfmt_arg {
	char kind;		/* 'i' signed, 'u' unsigned, 'c', 's', 'p', 'f', 'n', '*' */
	char len;		/* length modifier: 0, 'H' (hh), 'h', 'l', 'q' (ll), 'z', 't', 'j', 'L' */
	unsigned char pext_len;	/* %p: extension letters at format + pext_off */
	unsigned int pext_off;
};

/* A parsed format.  Large (a few KiB): keep it off hot stacks. */
struct kd_kfmt {
	unsigned int nconv;	/* conversions, %% not counted */
	unsigned int nargs;	/* highest C argument position used, plus 1 */
	bool positional;	/* written with %N$ */
	bool has_n;		/* a %n */
	bool has_pv;		/* a %pV */
	size_t lit_len;		/* bytes the literal parts render to (%% as one) */
	struct kd_kfmt_conv conv[KD_KFMT_MAX_CONV];
	struct kd_kfmt_arg arg[KD_KFMT_MAX_POS];
};

/* One argument text (an ARGn value): @len bytes, not NUL-terminated. */
struct kd_karg {
	const char *s;
	size_t len;
};

/**
 * kd_kfmt_parse() - parse @len bytes of @fmt into @f.
 *
 * Returns 0, or -EINVAL for what neither the kernel nor printf(3) would
 * read as a format: an unknown conversion, a '%' at the end, positional
 * and sequential conversions mixed, a position of 0 or above
 * KD_KFMT_MAX_POS, one position used with two types, more than
 * KD_KFMT_MAX_CONV conversions.  The kernel's rule for %p holds: every
 * letter and digit right after the 'p' belongs to the conversion.
 */
int kd_kfmt_parse(const char *fmt, size_t len, struct kd_kfmt *f);

/**
 * kd_kfmt_compare() - may @tr (parsed from @trfmt) stand for @orig
 * (parsed from @ofmt)?  Checks every C argument position: the same type
 * and length, the same %p extension letters, none skipped by a positional
 * translation, none out of range, and no %n or %pV in either.  On
 * KD_KFMT_TRUSTED, @map[k] (for k < @tr->nconv) is the index of the
 * original's conversion, and so of the ARGn, that translation conversion
 * k prints.  Returns the first reason found.
 */
enum kd_kfmt_reason kd_kfmt_compare(const char *ofmt, const struct kd_kfmt *orig,
				    const char *trfmt, const struct kd_kfmt *tr,
				    unsigned char *map);

/**
 * kd_kfmt_render() - write @fmt (parsed into @f) with conversion k
 * replaced by @args[@map ? @map[k] : k] and %% by %, into @out (@cap
 * bytes, not NUL-terminated).  Widths and flags are not applied: ARGn
 * already carry their padding.  Returns the length, or -E2BIG when it
 * does not fit or -ERANGE when an argument index is not below @nargs.
 */
ssize_t kd_kfmt_render(const char *fmt, size_t fmt_len, const struct kd_kfmt *f,
		       const unsigned char *map, const struct kd_karg *args,
		       unsigned int nargs, char *out, size_t cap);

/**
 * kd_kfmt_literals() - the literal parts of @fmt (parsed into @f), "%%"
 * written as "%", one after the other into @out (@f->lit_len bytes): part
 * k, before conversion k (the last one after all), ends at @ends[k] for
 * k <= @f->nconv.  For writers that render one format many times.
 */
void kd_kfmt_literals(const char *fmt, size_t fmt_len, const struct kd_kfmt *f,
		      char *out, unsigned int *ends);

/**
 * kd_kfmt_match_tail() - whether @fmt rendered with @args (as
 * kd_kfmt_render() without a map) is the end of the @text_len bytes of
 * @text; then *@start is where it begins.  Compares in place.
 */
bool kd_kfmt_match_tail(const char *fmt, size_t fmt_len, const struct kd_kfmt *f,
			const struct kd_karg *args, unsigned int nargs,
			const char *text, size_t text_len, size_t *start);

/**
 * kd_kfmt_first_pv() - the index of the first %pV conversion of @fmt
 * (parsed into @f), which is also the index of its ARGn, or -1.
 */
int kd_kfmt_first_pv(const char *fmt, const struct kd_kfmt *f);

/** kd_kfmt_reason_name() - "conversion", "count", ... for @r; "?" if unknown. */
const char *kd_kfmt_reason_name(enum kd_kfmt_reason r);

#endif /* KDMESG_KFMT_H */
