// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-fastpath.c - the speed-ups of the -F reader and the text writer
 * against the general code they short-cut (test-fastpath-kmsg.c does the
 * same for -K), on generated input that mixes what takes the fast path
 * (printable ASCII) with what must not (control bytes, DEL, bytes >=
 * 0x80, multi-line text, odd headers, over-long records, a last record
 * without its newline), read from a file (256 KiB reads) and through a pipe whose
 * 1 MiB window boundaries fall inside records:
 *
 *  - -F: the one-pass split and parse (kd_syslog_parse_simple()) and the
 *    plain-text check give the records kd_syslog_record_end() +
 *    kd_syslog_parse() give, text_plain is set exactly when the text is
 *    printable ASCII, and text_nl and text_pre hold;
 *  - the writer's default path prints "[%5ld.%06ld] " + "[%*s] " + the
 *    escaped text as printf and kd_escape_write() would, with and without
 *    text_plain, within one second and across seconds;
 *  - the writer's whole-line copies (text_pre, text_nl) print the bytes
 *    it prints for the same records without those promises.
 */
#include <errno.h>
#include <inttypes.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shared/escape.h"
#include "fastpath-util.h"
#include "sink/output.h"
#include "source/source.h"
#include "source/syslog-parse.h"
#include "tap.h"
#include "writer-run.h"

static void gen_syslog(struct buf *b, unsigned int n, bool final_nl)
{
	char hdr[64];

	for (unsigned int i = 0; i < n; i++) {
		switch (rnd(20)) {
		case 0:		/* no priority */
			snprintf(hdr, sizeof(hdr), "[%5u.%06u] ", i / 7, rnd(1000000));
			break;
		case 1:		/* a caller id, as CONFIG_PRINTK_CALLER writes */
			snprintf(hdr, sizeof(hdr), "<%u>[%5u.%06u] [  T%u] ", rnd(192),
				 i / 7, rnd(1000000), rnd(100000));
			break;
		case 2:		/* an odd stamp */
			snprintf(hdr, sizeof(hdr), "<%u>[%u.%u] ", rnd(8), rnd(100000000), rnd(1000));
			break;
		default:
			snprintf(hdr, sizeof(hdr), "<%u>[%5u.%06u] ", rnd(192),
				 i / 7 + (i > n / 2 ? 123456 : 0), rnd(1000000));
			break;
		}
		puts_(b, hdr);
		gen_text(b, true);
		if (i + 1 < n || final_nl)
			puts_(b, "\n");
	}
}

/* What the general syslog code makes of @b: split, then parse. */
static void syslog_reference(struct recs *rs, const struct buf *b)
{
	const char *p = b->p, *end = b->p + b->len, *e;
	unsigned int cut;

	memset(rs, 0, sizeof(*rs));
	while (p < end) {
		struct kd_record *r = recs_add(rs);

		e = kd_syslog_record_end(p, end);
		kd_syslog_parse(p, e ? e : end, !e, r, &cut);
		if (!e)
			break;
		p = e + 1;
	}
}

static void test_syslog(void)
{
	for (int final_nl = 0; final_nl <= 1; final_nl++) {
		struct buf b = { 0 };
		struct recs want, got;
		const char *path;
		char what[64];
		size_t nplain, nplain_pipe;

		gen_syslog(&b, 30000, final_nl);
		syslog_reference(&want, &b);
		path = write_temp(&b);

		snprintf(what, sizeof(what), "-F file, %s final newline",
			 final_nl ? "with" : "without");
		read_source(&got, KD_SOURCE_SYSLOG_FILE, path, 0);
		compare(&got, &want, what, &nplain);
		tap_ok(nplain > want.n / 2, "%s: the fast path is taken (%zu of %zu)",
		       what, nplain, want.n);
		tap_ok(got.lent == 0, "%s: no text lent unless asked", what);
		recs_free(&got);

		snprintf(what, sizeof(what), "-F file, lent, %s final newline",
			 final_nl ? "with" : "without");
		read_source(&got, KD_SOURCE_SYSLOG_FILE, path, KD_SOURCE_LEND_TEXT);
		compare(&got, &want, what, &nplain_pipe);
		tap_ok(got.lent == want.n, "%s: every text lent (%zu of %zu)",
		       what, got.lent, want.n);
		tap_ok(got.promise_bad == 0 && got.pre > want.n / 2,
		       "%s: text_nl and text_pre hold (%zu with the stamp)",
		       what, got.pre);
		recs_free(&got);

		snprintf(what, sizeof(what), "-F pipe, %s final newline",
			 final_nl ? "with" : "without");
		read_pipe(&got, KD_SOURCE_SYSLOG_FILE, &b, 0);
		compare(&got, &want, what, &nplain_pipe);
		tap_ok(nplain_pipe == nplain, "%s: same records flagged plain as from the file", what);
		recs_free(&got);

		snprintf(what, sizeof(what), "-F pipe, lent, %s final newline",
			 final_nl ? "with" : "without");
		read_pipe(&got, KD_SOURCE_SYSLOG_FILE, &b, KD_SOURCE_LEND_TEXT);
		compare(&got, &want, what, &nplain_pipe);
		tap_ok(nplain_pipe == nplain && got.lent == want.n,
		       "%s: same plain records as from the file, every text lent", what);
		tap_ok(got.promise_bad == 0 && got.pre > want.n / 2,
		       "%s: text_nl and text_pre hold", what);
		recs_free(&got);
		recs_free(&want);
		unlink(path);
		free(b.p);
	}
}

/*
 * The bytes the sixteen-byte loop does not reach: the first byte of the
 * input, and the last ones (the scan stops one byte before the end).
 */
static void test_syslog_edges(void)
{
	static const struct {
		const char *data;
		size_t len;
	} cases[] = {
#define C(s) { s, sizeof(s) - 1 }
		C("<6>[    1.000000] abc\x7f"),
		C("<6>[    1.000000] ab\x7f\n"),
		C("<6>[    1.000000] ab\x7f\nc"),
		C("<6>[    1.000000] a\n<6>[    2.000000] b\x7f" "c"),
		C("<6>[    1.000000] a\n<6>[    2.000000] bc\x1b"),
		C("\x7f<6>[ 1.0] x\n<5>[    2.000000] ok\n"),
		C("\xc3\xa9<6>[    1.000000] x"),
		C("<6>[    1.000000] 0123456789abcdefghij\t\n<6>[    2.000000] tail\x01"),
		C("<6>[    1.000000] 0123456789abcdefghijklmnopqrstuvwxyz\xff"),
		C("<6>[    1.000000] 0123456789abcdefghijklmnopqrstuvwxyz\n"),
		C("<6>[    1.000000] 0123456789abcdefghijklmnopqrstuvwxyz"),
#undef C
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct buf b = { 0 };
		struct recs want, got;
		const char *path;
		char what[64];
		size_t nplain;

		put(&b, cases[i].data, cases[i].len);
		syslog_reference(&want, &b);
		path = write_temp(&b);
		snprintf(what, sizeof(what), "-F edge case %zu", i);
		read_source(&got, KD_SOURCE_SYSLOG_FILE, path, KD_SOURCE_LEND_TEXT);
		compare(&got, &want, what, &nplain);
		/* The cases whose last text is plain must say so. */
		if (i >= 9)
			tap_ok(nplain == 1, "%s: plain text flagged", what);
		recs_free(&got);
		recs_free(&want);
		unlink(path);
		free(b.p);
	}
}

/* ---- the text writer -------------------------------------------------- */

static char *write_records(const struct kd_output_opts *o, struct kd_record *recs,
			   size_t n, size_t *len)
{
	struct kd_writer *w;
	struct kd_prev prev;
	char *out = NULL;
	FILE *f = open_memstream(&out, len);

	if (!f || kd_writer_new(&w, o, f) < 0)
		abort();
	kd_prev_init(&prev);
	for (size_t i = 0; i < n; i++)
		writer_show(w, &prev, &recs[i]);
	kd_writer_finish(w);
	kd_writer_free(w);
	fclose(f);
	return out;
}

static void test_writer(void)
{
	static const int64_t stamps[] = {
		0, 1, 999999, 1000000, 1000001, 1999999, 2000000, 2000000,
		-1, 2000001, KD_NO_TIME, 2000002, 59999999, 60000000,
		99999999999, 100000000000, 100000123456, 123456789012345678,
		-1000001, 123456789012345679, 7,
	};
	static const char *texts[] = {
		"plain text", "a", "caf\xc3\xa9", "ctl\x01", "tab\there",
		"two\nlines", "del\x7f", "bad \xff utf", "x\\x41y",
		"exactly sixteen!", "",
	};
	static const int widths[] = { 6, 11, 16, 17 };
	const size_t ns = sizeof(stamps) / sizeof(stamps[0]);
	struct kd_record recs[sizeof(stamps) / sizeof(stamps[0])];

	for (size_t wi = 0; wi < sizeof(widths) / sizeof(widths[0]); wi++) {
		for (int flag = 0; flag <= 1; flag++) {
			struct kd_output_opts o = { .mode = KD_OUTPUT_TEXT,
						    .caller_width = widths[wi],
						    .batch = flag };
			struct buf want = { 0 };
			size_t len;
			char *got;

			for (size_t i = 0; i < ns; i++) {
				const char *t = texts[i % (sizeof(texts) / sizeof(texts[0]))];
				static const char *callers[] = { "", "T1", "C12", "T1234567890" };
				const char *id = callers[i % 4];
				int64_t u = stamps[i] == KD_NO_TIME ? 0 : stamps[i], sec, us;
				char pre[128], *esc = NULL;
				size_t esclen = 0;
				int n;
				FILE *f;

				kd_record_init(&recs[i]);
				kd_record_set_text(&recs[i], t, strlen(t));
				recs[i].ts_usec = stamps[i];
				strcpy(recs[i].caller, id);
				/* The flag as a reader would set it: only where true. */
				recs[i].text_plain = flag && all_plain(t, strlen(t));

				if (!*t) {
					puts_(&want, "\n");
					continue;
				}
				/*
				 * dmesg's seconds and microseconds: the
				 * microseconds 0..999999, a negative stamp
				 * -1 us is "-1.999999" (-F reads it so).
				 */
				sec = u / 1000000;
				us = u % 1000000;
				if (us < 0) {
					sec--;
					us += 1000000;
				}
				n = snprintf(pre, sizeof(pre), "[%5" PRId64 ".%06" PRId64 "] ",
					     sec, us);
				if (*id) {
					char cid[64];

					snprintf(cid, sizeof(cid), "[%*s] ", widths[wi], id);
					cid[22] = '\0';		/* dmesg's buffer */
					strcat(pre, cid);
					n = (int)strlen(pre);
				}
				puts_(&want, pre);
				f = open_memstream(&esc, &esclen);
				kd_escape_write(f, t, strlen(t), n, false);
				fclose(f);
				put(&want, esc, esclen);
				free(esc);
				puts_(&want, "\n");
			}
			got = write_records(&o, recs, ns, &len);
			if (!tap_is_mem(got, len, want.p, want.len, "default text output"))
				tap_diag("caller width %d, text_plain %s", widths[wi],
					 flag ? "set" : "clear");
			free(got);
			free(want.p);
			for (size_t i = 0; i < ns; i++)
				kd_record_free(&recs[i]);
		}
	}
}

struct line_input {
	struct buf in;			/* the lines, as a -F file holds them */
	struct kd_record *recs;
	size_t n;
};

/*
 * Records whose text lies in one input buffer, as a reader lends it:
 * mostly plain text with a newline after it (text_nl), some with the
 * stamp before it written as dmesg writes it (text_pre), some with a
 * caller id, some needing escapes, some empty, some owning their text.
 */
static void line_input_make(struct line_input *z, size_t n)
{
	static const char *odd[] = { "\x01", "caf\xc3\xa9", "two\nlines", "\xff", "\t" };
	size_t *off = calloc(n, sizeof(*off)), *pre = calloc(n, sizeof(*pre));
	size_t *len = calloc(n, sizeof(*len));
	unsigned int *kind = calloc(n, sizeof(*kind));

	memset(z, 0, sizeof(*z));
	z->n = n;
	z->recs = calloc(n, sizeof(*z->recs));
	if (!off || !pre || !len || !kind || !z->recs)
		abort();
	for (size_t i = 0; i < n; i++) {
		int64_t u = (int64_t)i * 1234567 + rnd(1000000);
		char hdr[64];
		size_t start;

		kind[i] = rnd(20);
		snprintf(hdr, sizeof(hdr), "<6>[%5" PRId64 ".%06" PRId64 "] ",
			 u / 1000000, u % 1000000);
		z->recs[i].ts_usec = u;
		puts_(&z->in, hdr);
		pre[i] = strlen(hdr) - 3;
		off[i] = z->in.len;
		start = z->in.len;
		if (kind[i] == 0)
			;				/* empty */
		else if (kind[i] == 1)
			puts_(&z->in, odd[rnd(sizeof(odd) / sizeof(odd[0]))]);
		else
			for (unsigned int k = rnd(150); k > 0; k--)
				put(&z->in, &"abcdefghij :.[]"[rnd(15)], 1);
		len[i] = z->in.len - start;
		puts_(&z->in, "\n");
	}
	/* Pointers into the input only now: it no longer moves. */
	for (size_t i = 0; i < n; i++) {
		struct kd_record *r = &z->recs[i];
		const char *t = z->in.p + off[i];
		int64_t u = r->ts_usec;

		kd_record_init(r);
		r->ts_usec = u;
		if (kind[i] == 2)
			strcpy(r->caller, "T12");
		if (kind[i] == 3) {
			kd_record_set_text(r, t, len[i]);
			r->text_plain = all_plain(t, len[i]);
			continue;
		}
		kd_record_ref_text(r, t, len[i]);
		r->text_plain = all_plain(t, len[i]);
		r->text_nl = kind[i] != 4;
		if (!r->caller[0] && r->text_nl && rnd(4))
			r->text_pre = (unsigned char)pre[i];
	}
	free(off);
	free(pre);
	free(len);
	free(kind);
}

static void line_input_free(struct line_input *z)
{
	for (size_t i = 0; i < z->n; i++)
		kd_record_free(&z->recs[i]);
	free(z->recs);
	free(z->in.p);
}

/*
 * The writer's whole-line copies (text_pre: the input's stamp, text and
 * newline at once; text_nl: text and newline at once) print what it
 * prints for the same records without those promises (owned copies),
 * record by record and batched, across many 64 KiB buffer flushes.
 */
static void test_whole_lines(void)
{
	struct line_input z;
	struct kd_record *copies;

	line_input_make(&z, 5000);
	copies = calloc(z.n, sizeof(*copies));
	if (!copies)
		abort();
	for (size_t i = 0; i < z.n; i++) {
		kd_record_init(&copies[i]);
		kd_record_copy(&copies[i], &z.recs[i]);
	}
	for (int batch = 0; batch <= 1; batch++) {
		struct kd_output_opts o = { .mode = KD_OUTPUT_TEXT, .caller_width = 6,
					    .batch = batch };
		size_t wlen, glen;
		char *want = write_records(&o, copies, z.n, &wlen);
		char *got = write_records(&o, z.recs, z.n, &glen);

		tap_is_mem(got, glen, want, wlen, batch ?
			   "lines copied whole, batched: the same bytes" :
			   "lines copied whole, record by record: the same bytes");
		free(want);
		free(got);
	}
	for (size_t i = 0; i < z.n; i++)
		kd_record_free(&copies[i]);
	free(copies);
	line_input_free(&z);
}

/* kd_record_reset() clears field by field: as good as a new record. */
static void test_record_reset(void)
{
	struct kd_record r, fresh;

	kd_record_init(&r);
	kd_record_init(&fresh);
	kd_record_set_text(&r, "text", 4);
	kd_record_dict_add(&r, "K", 1, "v", 1);
	r.seq = 7;
	r.facility = 3;
	r.level = 2;
	r.ts_usec = 99;
	r.flags = KD_REC_CONT | KD_REC_HAS_PRI;
	strcpy(r.caller, "T123456");
	r.text_plain = true;
	kd_record_reset(&r);
	tap_ok(r.seq == fresh.seq && r.facility == fresh.facility &&
	       r.level == fresh.level && r.ts_usec == fresh.ts_usec &&
	       r.flags == fresh.flags && strcmp(r.caller, fresh.caller) == 0 &&
	       r.text_len == 0 && r.text[0] == '\0' && !r.text_plain &&
	       r.dict_len == 0 && !kd_record_dict_get(&r, "K"),
	       "a reset record reads like a new one");

	/* A lent text is not written to, and reset returns to the own buffer. */
	{
		static const char input[] = "lentXYZ";
		struct kd_record c;

		kd_record_init(&c);
		kd_record_ref_text(&r, input, 4);
		tap_ok(r.text == input && r.text_len == 4 && !r.text_plain,
		       "kd_record_ref_text() points into the input");
		tap_ok(kd_record_copy(&c, &r) == 0 && c.text == c.text_own &&
		       c.text_len == 4 && memcmp(c.text, "lent", 5) == 0,
		       "a copy of a lent record owns a NUL-terminated text");
		kd_record_reset(&r);
		tap_ok(r.text == r.text_own && r.text_len == 0 && r.text[0] == '\0' &&
		       memcmp(input, "lentXYZ", 8) == 0,
		       "reset after lending: own buffer again, input untouched");
		kd_record_ref_text(&r, input, 7);
		tap_ok(kd_record_set_text(&r, r.text + 1, 3) == 0 && r.text == r.text_own &&
		       memcmp(r.text, "ent", 4) == 0,
		       "kd_record_set_text() from a lent text copies it");
		kd_record_free(&c);
	}
	kd_record_free(&r);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	/* UTF-8 where there is one, so the writer's oracle meets mbrtowc(). */
	if (!setlocale(LC_ALL, "C.UTF-8"))
		setlocale(LC_ALL, "");
	test_syslog();
	test_syslog_edges();
	test_writer();
	test_whole_lines();
	test_record_reset();
	return tap_done();
}
