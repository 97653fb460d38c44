// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-kfmt.c - the kernel format parser (C conversions, %p extensions,
 * '*' arguments, positional forms, every error), the comparison of a
 * translation with its original (each reason) and the renderer.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "shared/kfmt.h"
#include "tap.h"

static struct kd_kfmt fa, fb;

static int parse(const char *s, struct kd_kfmt *f)
{
	return kd_kfmt_parse(s, strlen(s), f);
}

static void check_parse_ok(void)
{
	tap_is_int(parse("plain text", &fa), 0, "plain text parses");
	tap_ok(fa.nconv == 0 && fa.nargs == 0, "no conversions in plain text");
	tap_is_int(parse("100%% sure %%d", &fa), 0, "%% parses");
	tap_is_int(fa.nconv, 0, "%% is no conversion");

	parse("%-5d %s %08lx %5.3lu %c", &fa);
	tap_is_int(fa.nconv, 5, "five conversions");
	tap_ok(fa.arg[0].kind == 'i' && fa.arg[1].kind == 's' && fa.arg[2].kind == 'u' &&
	       fa.arg[2].len == 'l' && fa.arg[3].len == 'l' && fa.arg[4].kind == 'c',
	       "types and lengths of %%d %%s %%lx %%lu %%c");
	tap_ok(fa.conv[2].start == 8 && fa.conv[2].end == 13, "span of %%08lx");

	parse("%*ph and %.*s", &fa);
	tap_ok(fa.nconv == 2 && fa.nargs == 4, "%%*ph %%.*s: 2 conversions, 4 arguments");
	tap_ok(fa.arg[0].kind == '*' && fa.arg[1].kind == 'p' && fa.arg[2].kind == '*' &&
	       fa.arg[3].kind == 's' && fa.conv[0].pos == 1 && fa.conv[1].pos == 3,
	       "a '*' takes its own argument before the value");
	tap_ok(fa.arg[1].pext_len == 1, "%%*ph has the extension h");

	parse("%pI4:%pMR %pS) %p.", &fa);
	tap_ok(fa.arg[0].pext_len == 2 && fa.arg[1].pext_len == 2 &&
	       fa.arg[2].pext_len == 1 && fa.arg[3].pext_len == 0,
	       "every letter and digit after %%p is its extension");
	tap_ok(!fa.has_pv && !fa.has_n, "no %%pV, no %%n");
	parse("%pV %n", &fa);
	tap_ok(fa.has_pv && fa.has_n, "%%pV and %%n noticed");
	tap_is_int(kd_kfmt_first_pv("%pV %n", &fa), 0, "first %%pV: conversion 0");
	parse("%*d %pS %% %pVx %pV", &fa);
	tap_is_int(kd_kfmt_first_pv("%*d %pS %% %pVx %pV", &fa), 2,
		   "first %%pV: ARG index, a '*' and %%%% not counted, letters after V its own");
	parse("%s %p", &fa);
	tap_is_int(kd_kfmt_first_pv("%s %p", &fa), -1, "no %%pV: -1");

	tap_is_int(parse("%2$s %1$d", &fa), 0, "positional parses");
	tap_ok(fa.positional && fa.nargs == 2 && fa.conv[0].pos == 1 && fa.conv[1].pos == 0,
	       "positions of %%2$s %%1$d");
	tap_is_int(parse("%3$*2$d %1$s", &fa), 0, "%%3$*2$d parses");
	tap_ok(fa.arg[1].kind == '*' && fa.arg[2].kind == 'i' && fa.nconv == 2,
	       "%%3$*2$d: width at 2, value at 3");
	tap_is_int(parse("%1$s %1$s", &fa), 0, "one position twice, same type");
	parse("%Lu %llu %zu %Zu %hhd", &fa);
	tap_ok(fa.arg[0].len == 'q' && fa.arg[1].len == 'q' && fa.arg[2].len == 'z' &&
	       fa.arg[3].len == 'z' && fa.arg[4].len == 'H',
	       "%%Lu reads as %%llu, %%Zu as %%zu, %%hhd");
}

static void check_parse_errors(void)
{
	char many[64 * 2 + 3];

	tap_is_int(parse("end %", &fa), -EINVAL, "a '%%' at the end");
	tap_is_int(parse("%y", &fa), -EINVAL, "unknown conversion");
	tap_is_int(parse("%l", &fa), -EINVAL, "length without conversion");
	tap_is_int(parse("%1$d %s", &fa), -EINVAL, "positional and sequential mixed");
	tap_is_int(parse("%s %1$d", &fa), -EINVAL, "sequential and positional mixed");
	tap_is_int(parse("%1$*d", &fa), -EINVAL, "positional with a sequential '*'");
	tap_is_int(parse("%0$d", &fa), -ERANGE, "position 0");
	tap_is_int(parse("%65$d", &fa), -ERANGE, "position 65");
	tap_is_int(parse("%99999999999$d", &fa), -ERANGE, "huge position");
	tap_is_int(parse("%1$d %1$s", &fa), -EINVAL, "one position, two types");
	memset(many, 0, sizeof(many));
	for (int i = 0; i < 64; i++)
		memcpy(many + 2 * i, "%d", 2);
	tap_is_int(parse(many, &fa), 0, "64 conversions");
	strcat(many, "%d");
	tap_is_int(parse(many, &fa), -EINVAL, "65 conversions");
	tap_is_int(kd_kfmt_parse("%d", 1, &fa), -EINVAL, "length bounds the format");
}

static enum kd_kfmt_reason cmp(const char *o, const char *t, unsigned char *map)
{
	unsigned char m[KD_KFMT_MAX_CONV];

	if (parse(o, &fa) < 0 || parse(t, &fb) < 0)
		return (enum kd_kfmt_reason)-1;
	return kd_kfmt_compare(o, &fa, t, &fb, map ? map : m);
}

static void check_compare(void)
{
	unsigned char map[KD_KFMT_MAX_CONV];

	tap_is_int(cmp("%s: %d", "%s : %d", map), KD_KFMT_TRUSTED, "same order");
	tap_ok(map[0] == 0 && map[1] == 1, "same order: identity map");
	tap_is_int(cmp("%s: %d", "%2$d: %1$s", map), KD_KFMT_TRUSTED, "reordered");
	tap_ok(map[0] == 1 && map[1] == 0, "reordered: map 1 0");
	tap_is_int(cmp("%*ph %s", "%3$s %2$*1$ph", map), KD_KFMT_TRUSTED,
		   "reordered around a '*' width");
	tap_ok(map[0] == 1 && map[1] == 0, "the '*' is not an ARGn");
	tap_is_int(cmp("%i %x", "%d %u", NULL), KD_KFMT_TRUSTED, "%%i=%%d, %%x=%%u");
	tap_is_int(cmp("%s %s", "%1$s %1$s %2$s", map), KD_KFMT_TRUSTED, "an argument twice");
	tap_ok(map[0] == 0 && map[1] == 0 && map[2] == 1, "an argument twice: map 0 0 1");

	tap_is_int(cmp("%s: %d", "%d: %s", NULL), KD_KFMT_CONVERSION, "types swapped");
	tap_is_int(cmp("%lu", "%u", NULL), KD_KFMT_CONVERSION, "length differs");
	tap_is_int(cmp("%*ph", "%1$ph %2$ph", NULL), KD_KFMT_CONVERSION,
		   "a '*' position printed as a value");
	tap_is_int(cmp("%s: %d", "%s", NULL), KD_KFMT_COUNT, "one argument less");
	tap_is_int(cmp("%s", "%s %s", NULL), KD_KFMT_COUNT, "one argument more");
	tap_is_int(cmp("%pI4", "%pI6", NULL), KD_KFMT_PEXT, "%%pI4 vs %%pI6");
	tap_is_int(cmp("%pM", "%pMR", NULL), KD_KFMT_PEXT, "%%pM vs %%pMR");
	tap_is_int(cmp("%pM", "%p", NULL), KD_KFMT_PEXT, "%%pM vs %%p");
	tap_is_int(cmp("%s %d", "%2$d", NULL), KD_KFMT_SKIPPED, "position 1 skipped");
	tap_is_int(cmp("%s %d", "%1$s %2$d %3$d", NULL), KD_KFMT_POSITION, "position 3 of 2");
	tap_is_int(cmp("%d", "%d%n", NULL), KD_KFMT_PERCENT_N, "%%n in the translation");
	tap_is_int(cmp("%d%n", "%d%n", NULL), KD_KFMT_PERCENT_N, "%%n in the original");
	tap_is_int(cmp("%pV", "%pV", NULL), KD_KFMT_PV, "%%pV original");
	tap_is_int(cmp("x", "y", NULL), KD_KFMT_TRUSTED, "no conversions at all");
	tap_ok(strcmp(kd_kfmt_reason_name(KD_KFMT_SKIPPED), "skipped-argument") == 0 &&
	       strcmp(kd_kfmt_reason_name(KD_KFMT_NREASONS), "?") == 0, "reason names");
}

static void check_render(void)
{
	const struct kd_karg args[] = { { "eth0", 4 }, { "  42", 4 }, { "a\0b", 3 } };
	static const char f1[] = "dev %s: %4d%% done, %s";
	static const char f2[] = "%3$s|%2$d|%1$s";
	unsigned char map[KD_KFMT_MAX_CONV];
	char out[64];
	ssize_t n;

	parse(f1, &fa);
	n = kd_kfmt_render(f1, strlen(f1), &fa, NULL, args, 3, out, sizeof(out));
	tap_is_mem(out, n < 0 ? 0 : (size_t)n, "dev eth0:   42% done, a\0b",
		   sizeof("dev eth0:   42% done, a\0b") - 1,
		   "render: ARGn in place, padding theirs, %% once, NUL kept");
	parse(f2, &fb);
	tap_is_int(kd_kfmt_compare(f1, &fa, f2, &fb, map), KD_KFMT_TRUSTED, "f2 fits f1");
	n = kd_kfmt_render(f2, strlen(f2), &fb, map, args, 3, out, sizeof(out));
	tap_is_mem(out, n < 0 ? 0 : (size_t)n, "a\0b|  42|eth0", 13, "render reordered");
	n = kd_kfmt_render(f1, strlen(f1), &fa, NULL, args, 3, out, 10);
	tap_is_int(n, -E2BIG, "render: too small for an argument");
	n = kd_kfmt_render(f1, strlen(f1), &fa, NULL, args, 3, out, 2);
	tap_is_int(n, -E2BIG, "render: too small for the literal");
	n = kd_kfmt_render(f1, strlen(f1), &fa, NULL, args, 2, out, sizeof(out));
	tap_is_int(n, -ERANGE, "render: too few arguments");
}

static void check_match_tail(void)
{
	const struct kd_karg args[] = { { "eth0", 4 }, { "42", 2 } };
	static const char f[] = "link %s: %s%% up";
	const char *t1 = "e1000e 0000:00:19.0 link eth0: 42% up";
	size_t start = 99;

	parse(f, &fa);
	tap_is_int((long long)fa.lit_len, 11, "lit_len counts %% once");
	tap_ok(kd_kfmt_match_tail(f, strlen(f), &fa, args, 2, t1, strlen(t1), &start) &&
	       start == 20, "match_tail: the rendering ends the text after a prefix");
	tap_ok(kd_kfmt_match_tail(f, strlen(f), &fa, args, 2, t1 + 20, strlen(t1) - 20,
				  &start) && start == 0, "match_tail: no prefix");
	tap_ok(!kd_kfmt_match_tail(f, strlen(f), &fa, args, 2, "link eth0: 42% upx", 18, &start),
	       "match_tail: a byte after it");
	tap_ok(!kd_kfmt_match_tail(f, strlen(f), &fa, args, 2, "link eth0: 43% up", 17, &start),
	       "match_tail: an argument differs");
	tap_ok(!kd_kfmt_match_tail(f, strlen(f), &fa, args, 2, "eth0: 42% up", 12, &start),
	       "match_tail: the text is shorter");
	tap_ok(!kd_kfmt_match_tail(f, strlen(f), &fa, args, 1, t1, strlen(t1), &start),
	       "match_tail: too few arguments");
}

int main(void)
{
	check_parse_ok();
	check_parse_errors();
	check_compare();
	check_render();
	check_match_tail();
	return tap_done();
}
