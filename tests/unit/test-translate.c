// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-translate.c - .mo reading (valid and damaged files), the language
 * list and catalogue search, the catalogues' msgids as formats of the
 * recovery, the charset conversion, prefix detection,
 * and the translation of whole records: every reason a translation is
 * not trusted.
 */
#include <errno.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stage/catalog.h"
#include "stage/charset.h"
#include "stage/mo.h"
#include "stage/fmatch.h"
#include "stage/msgids.h"
#include "stage/translate.h"
#include "tap.h"

/* A .mo image of @n (key, value) pairs, keys as written ("ctx\004id"). */
static size_t build_mo(const char *const (*pairs)[2], uint32_t n, char *buf, size_t cap)
{
	uint32_t hdr[7] = { 0x950412de, 0, n, 28, 28 + 8 * n, 0, 0 };
	size_t at = 28 + 16 * (size_t)n;

	memset(buf, 0, cap);
	memcpy(buf, hdr, sizeof(hdr));
	for (uint32_t t = 0; t < 2; t++) {
		for (uint32_t i = 0; i < n; i++) {
			uint32_t len = (uint32_t)strlen(pairs[i][t]), off = (uint32_t)at;

			memcpy(buf + 28 + 8 * (t * n + i), &len, 4);
			memcpy(buf + 28 + 8 * (t * n + i) + 4, &off, 4);
			memcpy(buf + at, pairs[i][t], len + 1);
			at += len + 1;
		}
	}
	return at;
}

static const char *const de_pairs[][2] = {
	{ "", "Content-Type: text/plain; charset=UTF-8\n" },
	{ "link up %d Mbps", "Verbindung steht mit %d Mbit/s" },
	{ "hello %s", "Hallo %s" },
	{ "kptest\004hello %s", "Hallo aus kptest, %s" },
	{ "%s: %d errors", "%2$d Fehler in %1$s" },
	{ "size %lu", "Größe %lu" },
	{ "bad type %d", "falscher Typ %s" },
	{ "bad count %d %d", "falsche Anzahl %d" },
	{ "bad ext %pI4", "falsche Erweiterung %pI6" },
	{ "skip %s %d", "ausgelassen %2$d" },
	{ "percent n %d", "Prozent n %d%n" },
	{ "position %s", "Position %2$s" },
	{ "pv %pV", "pv %pV" },
	{ "cont %d", "Fortsetzung %d" },
	{ "cut %s", "abgeschnitten %s" },
	{ "big %s", "%1$s%1$s%1$s%1$s%1$s%1$s%1$s%1$s%1$s%1$s%1$s%1$s%1$s%1$s%1$s%1$s%1$s%1$s" },
	{ "zero position %d", "Null %0$d" },
	{ "%d%% of %s at %d%%", "%2$s: %1$d%% bei %3$d %%" },
	{ "untranslated", "" },
	{ "bell %s", "Glocke\a %s" },
};
#define N_DE (sizeof(de_pairs) / sizeof(de_pairs[0]))

static char mobuf[8192];

static void check_mo(void)
{
	size_t n = build_mo(de_pairs, N_DE, mobuf, sizeof(mobuf)), len = 0;
	struct kd_mo *mo = NULL;
	const char *s;
	unsigned int idx = 99;
	char bad[8192];

	tap_is_int(kd_mo_open_mem(mobuf, n, &mo), 0, "mo: a valid image loads");
	if (!mo)
		return;
	tap_is_str(kd_mo_charset(mo), "UTF-8", "mo: charset from the header");
	s = kd_mo_lookup(mo, NULL, "hello %s", 8, &len, &idx);
	tap_is_str(s, "Hallo %s", "mo: lookup without context");
	tap_ok(len == 8 && idx == 2, "mo: length and index");
	tap_is_str(kd_mo_lookup(mo, "kptest", "hello %s", 8, NULL, NULL),
		   "Hallo aus kptest, %s", "mo: lookup with context");
	tap_ok(!kd_mo_lookup(mo, "other", "hello %s", 8, NULL, NULL),
	       "mo: another context does not match");
	tap_ok(!kd_mo_lookup(mo, NULL, "hello", 5, NULL, NULL), "mo: prefix of a key is no key");
	tap_ok(!kd_mo_lookup(mo, NULL, "", 0, NULL, NULL), "mo: the header is no message");
	tap_ok(!kd_mo_lookup(mo, NULL, "untranslated", 12, NULL, NULL), "mo: empty msgstr");
	tap_ok(!kd_mo_msgid(mo, 0, &len), "mo: the header has no msgid");
	s = kd_mo_msgid(mo, 2, &len);
	tap_ok(s && len == 8 && memcmp(s, "hello %s", 8) == 0, "mo: msgid of an entry");
	s = kd_mo_msgid(mo, 3, &len);
	tap_ok(s && len == 8 && memcmp(s, "hello %s", 8) == 0, "mo: msgid without its msgctxt");
	tap_ok(!kd_mo_msgid(mo, 18, &len), "mo: no msgid for an empty msgstr");
	tap_ok(!kd_mo_msgid(mo, N_DE, &len), "mo: no msgid past the last entry");
	kd_mo_free(mo);

	memcpy(bad, mobuf, n);
	bad[0] = 0;
	tap_is_int(kd_mo_open_mem(bad, n, &mo), -EINVAL, "mo: bad magic");
	tap_is_int(kd_mo_open_mem(mobuf, 20, &mo), -EINVAL, "mo: shorter than a header");
	tap_is_int(kd_mo_open_mem(mobuf, n - 1, &mo), -EINVAL, "mo: last string cut");
	memcpy(bad, mobuf, n);
	memset(bad + 28 + 4, 0xff, 4);	/* offset of string 0 */
	tap_is_int(kd_mo_open_mem(bad, n, &mo), -EINVAL, "mo: offset outside the file");
	memcpy(bad, mobuf, n);
	memset(bad + 8, 0x7f, 4);	/* entry count */
	tap_is_int(kd_mo_open_mem(bad, n, &mo), -EINVAL, "mo: huge count");
	tap_is_int(kd_mo_open("/nonexistent/x.mo", &mo), -ENOENT, "mo: missing file");
}

static char tmpdir[] = "/tmp/test-translate-XXXXXX";

static int write_file(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");
	int ok = f && fwrite(data, 1, n, f) == n;

	if (f)
		ok &= fclose(f) == 0;
	return ok ? 0 : -1;
}

static void bad_mo(void *data, const char *path, int err)
{
	(void)path;
	(void)err;
	(*(int *)data)++;
}

static void check_catalog(struct kd_catalog **out)
{
	static const char *const fr_pairs[][2] = {
		{ "hello %s", "Bonjour %s" },
		{ "only french", "seulement en français" },
	};
	char path[256], fr[512];
	size_t n = build_mo(de_pairs, N_DE, mobuf, sizeof(mobuf)), fn;
	struct kd_catalog *cat;
	int bad = 0;

	setenv("LC_ALL", "C.UTF-8", 1);
	setenv("LANGUAGE", "de", 1);
	tap_is_str(kd_catalog_languages(), "de", "LANGUAGE=de LC_ALL=C.UTF-8: de");
	setenv("LC_ALL", "C", 1);
	tap_is_str(kd_catalog_languages(), "", "LC_ALL=C: LANGUAGE ignored");
	unsetenv("LC_ALL");
	setenv("LC_MESSAGES", "POSIX", 1);
	tap_is_str(kd_catalog_languages(), "", "LC_MESSAGES=POSIX: none");
	setenv("LC_MESSAGES", "fr_FR.UTF-8", 1);
	unsetenv("LANGUAGE");
	tap_is_str(kd_catalog_languages(), "fr_FR.UTF-8", "LC_MESSAGES without LANGUAGE");
	unsetenv("LC_MESSAGES");
	setenv("LANG", "de_AT.UTF-8", 1);
	tap_is_str(kd_catalog_languages(), "de_AT.UTF-8", "LANG last");
	unsetenv("LANG");
	tap_is_str(kd_catalog_languages(), "", "nothing set: none");

	if (!mkdtemp(tmpdir)) {
		tap_ok(false, "mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/d1", tmpdir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/d2", tmpdir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/d2/de", tmpdir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/d2/de/LC_MESSAGES", tmpdir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/d2/de/LC_MESSAGES/linux-kmsg.mo", tmpdir);
	write_file(path, mobuf, n);
	snprintf(path, sizeof(path), "%s/d1/fr", tmpdir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/d1/fr/LC_MESSAGES", tmpdir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/d1/fr/LC_MESSAGES/linux-kmsg.mo", tmpdir);
	fn = build_mo(fr_pairs, 2, fr, sizeof(fr));
	write_file(path, fr, fn);
	snprintf(path, sizeof(path), "%s/d1/xx", tmpdir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/d1/xx/LC_MESSAGES", tmpdir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/d1/xx/LC_MESSAGES/linux-kmsg.mo", tmpdir);
	write_file(path, "garbage, not a catalogue", 24);

	kd_catalog_new(&cat);
	snprintf(path, sizeof(path), "::%s/d1::%s/d2", tmpdir, tmpdir);
	tap_is_int(kd_catalog_add_dirs(cat, path), 0, "two directories");
	tap_is_int(kd_catalog_load(cat, "xx:fr_CH.UTF-8@euro:C:de_DE.UTF-8", bad_mo, &bad), 2,
		   "fr_CH.UTF-8@euro finds fr, de_DE.UTF-8 finds de in the second directory");
	tap_is_int(bad, 1, "a damaged .mo is reported and skipped");
	tap_is_str(kd_catalog_lookup(cat, NULL, "hello %s", 8, NULL, NULL), "Bonjour %s",
		   "first language first");
	tap_is_str(kd_catalog_lookup(cat, NULL, "link up %d Mbps", 15, NULL, NULL),
		   "Verbindung steht mit %d Mbit/s", "the next language for what the first lacks");
	tap_is_str(kd_catalog_lookup(cat, "kptest", "hello %s", 8, NULL, NULL), "Bonjour %s",
		   "fr without context before de with context");
	tap_ok(!kd_catalog_lookup(cat, NULL, "nowhere", 7, NULL, NULL), "a miss");
	kd_catalog_free(cat);

	kd_catalog_new(&cat);
	snprintf(path, sizeof(path), "%s/d2", tmpdir);
	kd_catalog_add_dirs(cat, path);
	tap_is_int(kd_catalog_load(cat, "de", NULL, NULL), 1, "de alone");
	tap_is_int(kd_catalog_count(cat), 1, "one catalogue");
	*out = cat;
}

/* The catalogue's msgids as formats of the recovery (msgids.h). */
static void check_msgids(const struct kd_catalog *cat)
{
	static const char text[] = "hello world";
	const struct kd_fidx *idx[1];
	struct kd_fmatch_result m;
	struct kd_msgids_stats st;
	struct kd_fidx_entry e;
	struct kd_fidx *x = NULL;
	size_t len = 0;

	tap_ok(!kd_catalog_msgid(cat, 0, &len), "catalog: the header has no msgid");
	tap_ok(kd_catalog_msgid(cat, 1, &len) && len == 15, "catalog: msgid of entry 1");
	tap_is_int(kd_msgids_index(cat, &x, &st), 0, "msgids: an index of the de catalogue");
	/* 20 entries: the header and an empty msgstr are none; "kptest" EOT "hello %s" is "hello %s". */
	tap_ok(st.msgids == 18 && st.formats == 17 && st.skipped == 0,
	       "msgids: 18 msgids, 17 formats (%lu, %lu, %lu)", st.msgids, st.formats, st.skipped);
	if (!x)
		return;
	idx[0] = x;
	tap_is_int(kd_fmatch_text(idx, 1, text, sizeof(text) - 1, &m), KD_FMATCH_FULL,
		   "msgids: \"hello world\" matches");
	kd_fidx_get(x, m.id, &e);
	tap_is_mem(e.fmt, e.fmt_len, "hello %s", 8, "msgids: by \"hello %s\"");
	tap_ok(m.nargs == 1 && m.arg[0].off == 6 && m.arg[0].len == 5, "msgids: its argument");
	tap_ok(!*e.file && !*e.func && !*e.module && !e.line && !m.same_file && !m.same_module,
	       "msgids: no call site, none claimed");
	kd_fidx_free(x);
}

static void check_charset(void)
{
	static const char in[] = "Gr\xc3\xb6\xc3\x9f" "e \xe2\x80\x9ex\xe2\x80\x9c \xe4\xb8\xad ?\xff%d";
	struct kd_charset *cs = NULL;
	char *out = NULL;
	size_t n = 0;

	tap_is_int(kd_charset_new(&cs, "UTF-8"), 0, "UTF-8 target");
	tap_ok(cs == NULL, "UTF-8 needs no converter");
	tap_is_int(kd_charset_new(&cs, "NO-SUCH-CHARSET-X"), -EINVAL, "unknown charset");
	tap_is_int(kd_charset_new(&cs, "ANSI_X3.4-1968"), 0, "ASCII target");
	kd_charset_convert(cs, in, sizeof(in) - 1, &out, &n);
	tap_is_mem(out, n, "Grosse ,,x\" \\xe4\\xb8\\xad ?\xff%d",
		   strlen("Grosse ,,x\" \\xe4\\xb8\\xad ?\xff%d"),
		   "ASCII: transliterated, else escaped; invalid bytes and '?' kept");
	free(out);
	kd_charset_free(cs);
	kd_charset_new(&cs, "ISO-8859-1");
	kd_charset_convert(cs, in, 8, &out, &n);
	tap_is_mem(out, n, "Gr\xf6\xdf" "e ", 6, "Latin-1 holds o-umlaut and sharp s");
	free(out);
	kd_charset_free(cs);
}

static void check_prefix(void)
{
	static struct kd_kfmt f;
	const struct kd_karg a[] = { { "100", 3 }, { "x", 1 } };
	char work[256], big[1100];
	size_t pre = 0;

#define PFX(text, fmt, n) \
	(kd_kfmt_parse(fmt, strlen(fmt), &f), \
	 kd_translate_prefix(text, strlen(text), fmt, strlen(fmt), &f, a, n, work, \
			     sizeof(work), &pre))
	tap_is_int(PFX("e1000e 0000:00:19.0 eth0: link up 100", "link up %d", 1),
		   KD_KFMT_TRUSTED, "dev_*() prefix found");
	tap_is_int((long long)pre, 26, "prefix length");
	tap_is_int(PFX("link up 100", "link up %d", 1), KD_KFMT_TRUSTED, "no prefix");
	tap_is_int((long long)pre, 0, "empty prefix");
	tap_is_int(PFX("link up 100", "link up %d", 0), KD_KFMT_CONTINUATION,
		   "conversions, no ARGn: continuation");
	tap_is_int(PFX("ACPI: done. more. 100 again", "ACPI: done.", 0), KD_KFMT_CONTINUATION,
		   "rendering inside the text: continuation");
	tap_is_int(PFX("link up 99", "link up %d", 1), KD_KFMT_MISMATCH, "text differs");
	tap_is_int(PFX("a 100 x", "a %d %s %s", 2), KD_KFMT_CUT, "fewer ARGn than conversions");
	tap_is_int(PFX("a 100 x", "a %d", 2), KD_KFMT_COUNT, "more ARGn than conversions");
	memset(big, 'y', sizeof(big));
	big[1023] = '\0';
	tap_is_int(PFX(big, "%s", 1), KD_KFMT_CUT, "text at the kernel's limit");
	tap_is_int(PFX("x", "%pV", 1), KD_KFMT_PV, "%%pV record");
#undef PFX
}

static struct kd_record rec;

static int tr(struct kd_translate *t, const char *text, const char *fmt,
	      const char *module, const char *const *args, const char **out, size_t *n)
{
	kd_record_reset(&rec);
	kd_record_set_text(&rec, text, strlen(text));
	kd_record_dict_add(&rec, "SUBSYSTEM", 9, "net", 3);
	if (fmt)
		kd_record_dict_add(&rec, "FORMAT", 6, fmt, strlen(fmt));
	if (module)
		kd_record_dict_add(&rec, "MODULE", 6, module, strlen(module));
	for (int i = 0; args && args[i]; i++) {
		char k[16];

		snprintf(k, sizeof(k), "ARG%d", i);
		kd_record_dict_add(&rec, k, strlen(k), args[i], strlen(args[i]));
	}
	return kd_translate_record(t, &rec, out, n);
}

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/*
 * A group stored as one record (man/kprint.7): line 1 translated with
 * its LINE1_ keys, line 2 (no keys) and line 3 (its ARG0 may have been
 * cut: the record is at the kernel's limit and it is the last line) as
 * they are.  Adds 2 records, 1 translated, 1 cut to the statistics.
 */
static void check_group(struct kd_translate *t)
{
	static char text[1100], arg[1100], want[1100];
	const char *out = NULL;
	size_t n = 0;
	int len;

	memset(arg, 'z', 1000);
	len = snprintf(text, sizeof(text), "eth0: link up 100 Mbps\nplain\ncut %s", arg);
	kd_record_reset(&rec);
	kd_record_set_text(&rec, text, (size_t)len);
	kd_record_dict_add(&rec, "GROUP", 5, "3", 1);
	kd_record_dict_add(&rec, "LINE1_FORMAT", 12, "link up %d Mbps", 15);
	kd_record_dict_add(&rec, "LINE1_ARG0", 10, "100", 3);
	kd_record_dict_add(&rec, "LINE3_FORMAT", 12, "cut %s", 6);
	kd_record_dict_add(&rec, "LINE3_ARG0", 10, arg, strlen(arg));
	tap_is_int(kd_translate_record(t, &rec, &out, &n), 0, "group: translated");
	len = snprintf(want, sizeof(want), "eth0: Verbindung steht mit 100 Mbit/s\nplain\ncut %s", arg);
	tap_is_mem(out, n, want, (size_t)len,
		   "group: line 1 by its LINE1_ keys, prefix kept; the others as they are");
	/* The same group without any line that can be translated. */
	kd_record_reset(&rec);
	kd_record_set_text(&rec, "a\nb", 3);
	kd_record_dict_add(&rec, "GROUP", 5, "2", 1);
	tap_is_int(kd_translate_record(t, &rec, &out, &n), KD_TRANSLATE_NONE,
		   "group: no line to translate");
}

/* A record continued by pr_cont() of @nparts parts (PARTS), with @keys. */
static int parts(struct kd_translate *t, const char *text, const char *nparts,
		 const char *const *keys, const char **out, size_t *n)
{
	kd_record_reset(&rec);
	kd_record_set_text(&rec, text, strlen(text));
	kd_record_dict_add(&rec, "MODULE", 6, "kptest", 6);
	for (int i = 0; keys[i]; i += 2)
		kd_record_dict_add(&rec, keys[i], strlen(keys[i]), keys[i + 1],
				   strlen(keys[i + 1]));
	kd_record_dict_add(&rec, "FORMAT_PART", 11, "1", 1);
	if (nparts)
		kd_record_dict_add(&rec, "PARTS", 5, nparts, strlen(nparts));
	return kd_translate_record(t, &rec, out, n);
}

/*
 * Records continued by pr_cont() whose parts the kernel kept (PARTS=<n>,
 * man/kprint.7): each part translated alone, the record's MODULE as
 * context of later parts too.  Adds 6 records: 1 translated, 2
 * continuation, 1 mismatch, 1 cut, 1 missing.
 */
static void check_parts(struct kd_translate *t)
{
	static char big[1100];
	const char *out = NULL;
	size_t n = 0;

	tap_is_int(parts(t, "eth0: link up 100 Mbpshello world", "2",
			 ARGS("FORMAT", "link up %d Mbps", "ARG0", "100",
			      "PART2_FORMAT", "hello %s", "PART2_ARG0", "world"), &out, &n),
		   0, "parts: translated");
	tap_is_mem(out, n, "eth0: Verbindung steht mit 100 Mbit/sHallo aus kptest, world", 60,
		   "parts: each part alone, prefix kept, MODULE as context of part 2");
	tap_is_int(parts(t, "link up 1 Mbpshello world", "999",
			 ARGS("FORMAT", "link up %d Mbps", "ARG0", "1",
			      "PART2_FORMAT", "hello %s", "PART2_ARG0", "world"), &out, &n),
		   KD_KFMT_CONTINUATION, "parts: PARTS out of range is FORMAT_PART=1 alone");
	tap_is_int(parts(t, "link up 1 Mbpshello world", "3",
			 ARGS("FORMAT", "link up %d Mbps", "ARG0", "1",
			      "PART2_FORMAT", "hello %s", "PART2_ARG0", "world"), &out, &n),
		   KD_KFMT_CONTINUATION, "parts: a part without PART<k>_FORMAT");
	tap_is_int(parts(t, "link up 1 Mbpshello moon", "2",
			 ARGS("FORMAT", "link up %d Mbps", "ARG0", "1",
			      "PART2_FORMAT", "hello %s", "PART2_ARG0", "world"), &out, &n),
		   KD_KFMT_MISMATCH, "parts: a part that does not render its piece");
	memset(big, 'z', 1030);
	memcpy(big, "link up 1 Mbps", 14);
	tap_is_int(parts(t, big, "2",
			 ARGS("FORMAT", "link up %d Mbps", "ARG0", "1",
			      "PART2_FORMAT", "%s", "PART2_ARG0", big + 14), &out, &n),
		   KD_KFMT_CUT, "parts: text at the kernel's limit");
	tap_is_int(parts(t, "nope 1nope 2", "2",
			 ARGS("FORMAT", "nope %d", "ARG0", "1",
			      "PART2_FORMAT", "nope %d", "PART2_ARG0", "2"), &out, &n),
		   KD_TRANSLATE_NONE, "parts: no part in the catalogues");
}

/* A wrapper's record: FORMAT, PV_FORMAT and ARGn from @keys (key, value pairs). */
static int pvrec(struct kd_translate *t, const char *text, const char *const *keys,
		 const char **out, size_t *n)
{
	kd_record_reset(&rec);
	kd_record_set_text(&rec, text, strlen(text));
	for (int i = 0; keys[i]; i += 2)
		kd_record_dict_add(&rec, keys[i], strlen(keys[i]), keys[i + 1],
				   strlen(keys[i + 1]));
	return kd_translate_record(t, &rec, out, n);
}

/*
 * Records of a wrapper that kept the format its %pV carried (PV_FORMAT,
 * man/kprint.7): the caller's message is translated, the wrapper's text
 * around it kept.
 */
static void check_pv(struct kd_catalog *cat)
{
	struct kd_translate *t = NULL;
	const char *out = NULL;
	size_t n = 0;

	if (!cat || kd_translate_new(&t, cat, "UTF-8") < 0) {
		tap_ok(false, "kd_translate_new");
		return;
	}
	tap_is_int(pvrec(t, "EXT4-fs (vda): hello world",
			 ARGS("FORMAT", "EXT4-fs (%s): %pV", "PV_FORMAT", "hello %s",
			      "ARG0", "vda", "ARG1", "world"), &out, &n),
		   0, "pv: the caller's message translated");
	tap_is_mem(out, n, "EXT4-fs (vda): Hallo world", 26, "pv: the wrapper's prefix kept");
	tap_is_int(pvrec(t, "[x] sda: 3 errors (7)",
			 ARGS("FORMAT", "[%s] %pV (%d)", "PV_FORMAT", "%s: %d errors",
			      "ARG0", "x", "ARG1", "sda", "ARG2", "3", "ARG3", "7"), &out, &n),
		   0, "pv: text after the %%pV");
	tap_is_mem(out, n, "[x] 3 Fehler in sda (7)", 23,
		   "pv: the caller's arguments reordered, the wrapper's after it kept");
	tap_is_int(pvrec(t, "sd 0:0:0:0: [sda] hello you",
			 ARGS("FORMAT", "[%s] %pV", "PV_FORMAT", "hello %s", "MODULE", "kptest",
			      "ARG0", "sda", "ARG1", "you"), &out, &n),
		   0, "pv: after a device prefix, MODULE as context");
	tap_is_mem(out, n, "sd 0:0:0:0: [sda] Hallo aus kptest, you", 39,
		   "pv: device prefix and the wrapper's text kept");
	tap_is_int(pvrec(t, "[x] sda: 3 errors (8)",
			 ARGS("FORMAT", "[%s] %pV (%d)", "PV_FORMAT", "%s: %d errors",
			      "ARG0", "x", "ARG1", "sda", "ARG2", "3", "ARG3", "7"), &out, &n),
		   KD_KFMT_MISMATCH, "pv: the text after the caller's message differs");
	tap_is_int(pvrec(t, "EXT4-fs (vda): hello world",
			 ARGS("FORMAT", "EXT4-fs (%s): %pV", "PV_FORMAT", "hello %s",
			      "ARG0", "vda", "ARG1", "world", "ARG2", "more"), &out, &n),
		   KD_KFMT_COUNT, "pv: more ARGn than both formats have");
	tap_is_int(pvrec(t, "EXT4-fs (vda): hello world",
			 ARGS("FORMAT", "EXT4-fs (%s): %pV", "PV_FORMAT", "hello %s",
			      "ARG0", "vda"), &out, &n),
		   KD_KFMT_CUT, "pv: fewer ARGn");
	tap_is_int(pvrec(t, "EXT4-fs (vda): hello world",
			 ARGS("FORMAT", "EXT4-fs (%s): %s", "PV_FORMAT", "hello %s",
			      "ARG0", "vda", "ARG1", "world"), &out, &n),
		   KD_KFMT_MISMATCH, "pv: PV_FORMAT but no %%pV in FORMAT");
	tap_is_int(pvrec(t, "EXT4-fs (vda): nope 1",
			 ARGS("FORMAT", "EXT4-fs (%s): %pV", "PV_FORMAT", "nope %d",
			      "ARG0", "vda", "ARG1", "1"), &out, &n),
		   KD_TRANSLATE_NONE, "pv: the caller's format is in no catalogue");
	tap_is_int(pvrec(t, "pv world", ARGS("FORMAT", "pv %pV", "ARG0", "world"), &out, &n),
		   KD_KFMT_PV, "pv: without PV_FORMAT, as before");
	tap_is_int(pvrec(t, "pv hello world",
			 ARGS("FORMAT", "pv %pV", "PV_FORMAT", "hello %s", "ARG0", "world"),
			 &out, &n),
		   0, "pv: with it, the caller's format, not the wrapper's, is looked up");
	tap_is_mem(out, n, "pv Hallo world", 14, "pv: the wrapper's own entry unused");
	kd_translate_free(t);
}

static void check_records(struct kd_catalog *cat)
{
	struct kd_translate *t = NULL;
	const struct kd_translate_stats *st;
	const char *out = NULL;
	size_t n = 0;

	if (!cat || kd_translate_new(&t, cat, "UTF-8") < 0) {
		tap_ok(false, "kd_translate_new");
		return;
	}
	tap_is_int(tr(t, "eth0: link up 100 Mbps", "link up %d Mbps", "e1000e", ARGS("100"),
		      &out, &n), 0, "record translated");
	tap_is_mem(out, n, "eth0: Verbindung steht mit 100 Mbit/s", 37, "prefix kept, ARG0 in place");
	tr(t, "hello world", "hello %s", "kptest", ARGS("world"), &out, &n);
	tap_is_mem(out, n, "Hallo aus kptest, world", 23, "MODULE as msgctxt");
	tr(t, "hello world", "hello %s", "other", ARGS("world"), &out, &n);
	tap_is_mem(out, n, "Hallo world", 11, "another MODULE: entry without context");
	tr(t, "sda: 3 errors", "%s: %d errors", NULL, ARGS("sda", "3"), &out, &n);
	tap_is_mem(out, n, "3 Fehler in sda", 15, "arguments reordered");
	tap_is_int(tr(t, "plain", NULL, NULL, NULL, &out, &n), KD_TRANSLATE_NONE, "no FORMAT");
	tap_is_int(tr(t, "nope 1", "nope %d", NULL, ARGS("1"), &out, &n), KD_TRANSLATE_NONE,
		   "FORMAT not in the catalogue");
	tap_is_int(tr(t, "bad type 1", "bad type %d", NULL, ARGS("1"), &out, &n),
		   KD_KFMT_CONVERSION, "bad: conversion type");
	tap_is_int(tr(t, "bad count 1 2", "bad count %d %d", NULL, ARGS("1", "2"), &out, &n),
		   KD_KFMT_COUNT, "bad: argument count");
	tap_is_int(tr(t, "bad ext 1.2.3.4", "bad ext %pI4", NULL, ARGS("1.2.3.4"), &out, &n),
		   KD_KFMT_PEXT, "bad: %%p extension");
	tap_is_int(tr(t, "skip a 1", "skip %s %d", NULL, ARGS("a", "1"), &out, &n),
		   KD_KFMT_SKIPPED, "bad: skipped argument");
	tap_is_int(tr(t, "percent n 1", "percent n %d", NULL, ARGS("1"), &out, &n),
		   KD_KFMT_PERCENT_N, "bad: %%n");
	tap_is_int(tr(t, "position a", "position %s", NULL, ARGS("a"), &out, &n),
		   KD_KFMT_POSITION, "bad: position out of range");
	tap_is_int(tr(t, "zero position 1", "zero position %d", NULL, ARGS("1"), &out, &n),
		   KD_KFMT_POSITION, "bad: position 0");
	tap_is_int(tr(t, "pv x", "pv %pV", NULL, ARGS("x"), &out, &n), KD_KFMT_PV, "bad: %%pV");
	tap_is_int(tr(t, "cont 1 2 3", "cont %d", NULL, NULL, &out, &n), KD_KFMT_CONTINUATION,
		   "continuation record");
	tap_is_int(tr(t, "cut ", "cut %s", NULL, NULL, &out, &n), KD_KFMT_CONTINUATION,
		   "no ARGn at all counts as continuation");
	tap_is_int(tr(t, "link up 10 Mbps", "link up %d Mbps", NULL, ARGS("100"), &out, &n),
		   KD_KFMT_MISMATCH, "text does not match FORMAT and ARGn");
	/* The parts of a format kept from its first record, used again. */
	tap_is_int(tr(t, "eth0: link up 100 Gbps", "link up %d Mbps", NULL, ARGS("100"), &out, &n),
		   KD_KFMT_MISMATCH, "text differs after the last conversion");
	tap_is_int(tr(t, "eth0: link on 100 Mbps", "link up %d Mbps", NULL, ARGS("100"), &out, &n),
		   KD_KFMT_MISMATCH, "text differs before the first conversion");
	tr(t, "wlan0: link up 54 Mbps", "link up %d Mbps", NULL, ARGS("54"), &out, &n);
	tap_is_mem(out, n, "wlan0: Verbindung steht mit 54 Mbit/s", 37,
		   "the same entry again: other prefix, other ARG0");
	tr(t, "load: 50% of cpu0 at 70%", "%d%% of %s at %d%%", NULL, ARGS("50", "cpu0", "70"),
	   &out, &n);
	tap_is_mem(out, n, "load: cpu0: 50% bei 70 %", 24, "%% in both formats, reordered");
	tap_is_int(tr(t, "50% off cpu0 at 70%", "%d%% of %s at %d%%", NULL,
		      ARGS("50", "cpu0", "70"), &out, &n),
		   KD_KFMT_MISMATCH, "text differs between two conversions");
	{
		static char big[2200], arg[1100];

		memcpy(big, "cut ", 4);
		memset(big + 4, 'z', 1019);
		memset(arg, 'z', 1019);
		tap_is_int(tr(t, big, "cut %s", NULL, ARGS(arg), &out, &n), KD_KFMT_CUT,
			   "ARG0 cut at the record limit");
		tap_is_int(tr(t, "big ww", "big %s", NULL, ARGS("ww"), &out, &n), 0,
			   "a short argument repeated 18 times");
		memset(arg, 'w', 1000);
		arg[1000] = '\0';
		snprintf(big, sizeof(big), "big %s", arg);
		tap_is_int(tr(t, big, "big %s", NULL, ARGS(arg), &out, &n), KD_KFMT_TOO_LONG,
			   "18 times 1000 bytes: past the bound");
	}
	check_group(t);
	check_parts(t);
	st = kd_translate_stats(t);
	tap_ok(st->translated == 7 + 1 + 1 && st->untrusted[KD_KFMT_CUT] == 1 + 1 + 1 &&
	       st->missing == 1 + 1 && st->untrusted[KD_KFMT_CONVERSION] == 1 &&
	       st->untrusted[KD_KFMT_POSITION] == 2 && st->untrusted[KD_KFMT_CONTINUATION] == 2 + 2 &&
	       st->untrusted[KD_KFMT_TOO_LONG] == 1 && st->records == 24 + 2 + 6 &&
	       st->untrusted[KD_KFMT_MISMATCH] == 4 + 1,
	       "statistics: %llu translated, %llu missing, %llu records",
	       (unsigned long long)st->translated, (unsigned long long)st->missing,
	       (unsigned long long)st->records);
	kd_translate_free(t);

	/* An ASCII terminal: the catalogue's UTF-8 transliterated. */
	kd_translate_new(&t, cat, "ANSI_X3.4-1968");
	tr(t, "size 5", "size %lu", NULL, ARGS("5"), &out, &n);
	tap_is_mem(out, n, "Grosse 5", 8, "ASCII terminal: transliterated");
	kd_translate_free(t);
}

/*
 * The stage's promise to the text writer (text_plain): a translation of
 * a plain text whose parts the escaping copies unchanged in this locale
 * is plain; one with a byte the writer escapes, of a text not known to
 * be plain, or in a locale where the translation's letters are not
 * printable, is not.
 */
static bool stage_plain(struct kd_translate *t, const char *text, bool plain,
			const char *fmt, const char *arg, const char *want)
{
	const char *out;
	size_t n;

	tr(t, text, fmt, NULL, ARGS(arg), &out, &n);
	rec.text_plain = plain;
	if (kd_translate_apply(t, &rec) != 1 || rec.text_origin != KD_ORIGIN_TRANSLATED ||
	    rec.text_len != strlen(want) || memcmp(rec.text, want, rec.text_len) != 0)
		return !plain;	/* never plain when not translated: fails the "plain" checks */
	return rec.text_plain;
}

static void check_stage_plain(struct kd_catalog *cat)
{
	struct kd_translate *t = NULL;

	if (!setlocale(LC_ALL, "C.UTF-8")) {
		tap_skip(5, "no C.UTF-8 locale");
		return;
	}
	kd_translate_new(&t, cat, "UTF-8");
	tap_ok(stage_plain(t, "eth0: link up 100 Mbps", true, "link up %d Mbps", "100",
			   "eth0: Verbindung steht mit 100 Mbit/s"),
	       "plain text, ASCII translation: plain");
	tap_ok(!stage_plain(t, "eth0: link up 100 Mbps", false, "link up %d Mbps", "100",
			    "eth0: Verbindung steht mit 100 Mbit/s"),
	       "text not known to be plain: the translation is not either");
	tap_ok(stage_plain(t, "size 5", true, "size %lu", "5", "Größe 5"),
	       "UTF-8 letters in a UTF-8 locale: plain");
	tap_ok(!stage_plain(t, "bell x", true, "bell %s", "x", "Glocke\a x"),
	       "a control byte the writer escapes: not plain");
	kd_translate_free(t);
	setlocale(LC_ALL, "C");
	kd_translate_new(&t, cat, "UTF-8");
	tap_ok(!stage_plain(t, "size 5", true, "size %lu", "5", "Größe 5"),
	       "UTF-8 letters in the C locale (escaped there): not plain");
	kd_translate_free(t);
}

int main(void)
{
	struct kd_catalog *cat = NULL;
	char cmd[300];

	kd_record_init(&rec);
	check_mo();
	check_catalog(&cat);
	check_msgids(cat);
	check_charset();
	check_prefix();
	check_records(cat);
	check_pv(cat);
	check_stage_plain(cat);
	kd_catalog_free(cat);
	kd_record_free(&rec);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		tap_diag("could not remove %s", tmpdir);
	return tap_done();
}
