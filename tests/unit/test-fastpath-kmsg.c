// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-fastpath-kmsg.c - the speed-ups of the -K reader against the
 * general code they short-cut, on generated dumps (NUL- and
 * newline-separated) that mix what takes the fast path with what must
 * not (escapes, backslashes, odd and cut headers, dictionary lines with
 * and without '=', leading blanks), from a file and through a pipe:
 *
 *  - kd_kmsg_parse_simple() gives what splitting + kd_kmsg_parse() give,
 *    lent or copied, and text_nl holds;
 *  - header numbers of 1..22 digits are read as strtoull() reads them;
 *  - the 48-byte header reader (taken for 64 bytes or more) gives what
 *    the field-by-field parser gives, on 20,000 generated headers;
 *  - without the dictionary (KD_SOURCE_NO_DICT): the same records and
 *    the same counts of truncated and malformed records;
 *  - with only some keys (kd_source_keep_keys()): the same records, each
 *    with every entry of those keys, in order (the general path may keep
 *    more), and the same counts.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fastpath-util.h"
#include "source/kmsg-parse.h"
#include "source/source.h"
#include "tap.h"

static void gen_kmsg(struct buf *b, unsigned int n, bool nul)
{
	static const char *keys[] = { "SUBSYSTEM", "DEVICE", "DRIVER", "x" };
	char tmp[64];

	for (unsigned int i = 0; i < n; i++) {
		unsigned int k = rnd(40);

		if (k == 0)
			puts_(b, " ");			/* leading blank */
		snprintf(tmp, sizeof(tmp), "%u,", rnd(200));
		puts_(b, tmp);
		if (k == 1)
			gen_digits(b, 1 + rnd(21));	/* any length, overflow too */
		else
			gen_digits(b, 1 + rnd(8));
		puts_(b, ",");
		if (k == 2)
			gen_digits(b, 1 + rnd(21));
		else
			gen_digits(b, 1 + rnd(12));
		puts_(b, rnd(10) ? ",-" : ",c");
		if (rnd(3))
			puts_(b, rnd(2) ? ",caller=T1234" : ",caller=C3");
		if (k == 3)
			puts_(b, ",x\n");		/* newline in the header */
		puts_(b, ";");
		gen_text(b, false);
		puts_(b, "\n");
		for (unsigned int d = rnd(3) ? 0 : 1 + rnd(4); d > 0; d--) {
			puts_(b, " ");
			puts_(b, keys[rnd(4)]);
			puts_(b, rnd(20) ? "=" : "");
			snprintf(tmp, sizeof(tmp), rnd(15) ? "+pci:0000:%02x:%02x.%u" : "a\\x%02xb",
				 rnd(256), rnd(32), rnd(8));
			puts_(b, tmp);
			puts_(b, "\n");
		}
		if (nul)
			put(b, "", 1);
	}
}

/* The -K splitter's rule, as kd_file_record_end() in source-file-split.c applies it. */
static void kmsg_reference(struct recs *rs, const struct buf *b)
{
	const char *p = b->p, *end = b->p + b->len;

	memset(rs, 0, sizeof(*rs));
	for (;;) {
		const char *s, *e, *next = NULL;
		bool blank = true;
		unsigned int cut;

		while (p < end && (*p == '\0' || *p == '\n'))
			p++;
		if (p == end)
			break;
		for (s = p; ; s = e + 1) {
			for (e = s; e < end && *e != '\n' && *e != '\0'; e++)
				;
			if (e == end) {
				next = e;
				break;
			}
			if (*e == '\0') {
				next = e + 1;
				break;
			}
			if (e + 1 == end || e[1] != ' ') {
				next = ++e;
				break;
			}
		}
		for (s = p; s < e; s++)
			blank = blank && strchr(" \n\t\r", *s);
		if (!blank) {
			struct kd_record *r = recs_add(rs);

			if (kd_kmsg_parse(p, (size_t)(e - p), r, &cut) < 0) {
				kd_record_free(r);
				rs->n--;
				rs->stats.malformed++;
			}
		}
		p = next;
	}
}

static void test_kmsg(void)
{
	for (int nul = 0; nul <= 1; nul++) {
		struct buf b = { 0 };
		struct recs want, got;
		const char *path;
		char what[64];
		size_t nplain;

		gen_kmsg(&b, 30000, nul);
		kmsg_reference(&want, &b);
		path = write_temp(&b);

		snprintf(what, sizeof(what), "-K %s file", nul ? "NUL" : "newline");
		read_source(&got, KD_SOURCE_KMSG_FILE, path, 0);
		compare(&got, &want, what, &nplain);
		tap_ok(got.stats.malformed == want.stats.malformed && want.stats.malformed > 0,
		       "%s: %" PRIu64 " malformed records counted (want %" PRIu64 ")",
		       what, got.stats.malformed, want.stats.malformed);
		tap_ok(nplain > want.n / 2, "%s: the fast path is taken (%zu of %zu)",
		       what, nplain, want.n);
		tap_ok(got.lent == 0, "%s: no text lent unless asked", what);
		recs_free(&got);

		snprintf(what, sizeof(what), "-K %s file, lent", nul ? "NUL" : "newline");
		read_source(&got, KD_SOURCE_KMSG_FILE, path, KD_SOURCE_LEND_TEXT);
		compare(&got, &want, what, &nplain);
		/*
		 * Only kd_kmsg_parse_simple() lends (a subset of the plain
		 * records); escaped text is unescaped into a copy.
		 */
		tap_ok(got.lent <= nplain && got.lent > want.n / 2,
		       "%s: the plain records' text lent (%zu of %zu)", what, got.lent, want.n);
		tap_ok(got.promise_bad == 0 && got.pre == 0,
		       "%s: text_nl holds, no text_pre", what);

		/* Without the dictionary: the same records and counts else. */
		{
			struct recs nd;
			size_t differ = 0, kept = 0, had = 0;

			snprintf(what, sizeof(what), "-K %s file, no dictionary",
				 nul ? "NUL" : "newline");
			read_source(&nd, KD_SOURCE_KMSG_FILE, path,
				    KD_SOURCE_LEND_TEXT | KD_SOURCE_NO_DICT);
			for (size_t i = 0; i < nd.n && i < got.n; i++) {
				size_t dl = got.r[i].dict_len;

				kept += nd.r[i].dict_len > 0;
				had += dl > 0;
				got.r[i].dict_len = nd.r[i].dict_len = 0;
				differ += !kd_record_same(&nd.r[i], &got.r[i]);
				got.r[i].dict_len = dl;
			}
			tap_ok(nd.rc == 0 && nd.n == got.n && differ == 0 &&
			       kept < had / 2 &&
			       nd.stats.truncated == got.stats.truncated &&
			       nd.stats.malformed == got.stats.malformed &&
			       got.stats.truncated > 0,
			       "%s: same records but the dictionary (%zu of %zu kept by the general "
			       "path), %" PRIu64 " truncated as with it", what, kept, had,
			       nd.stats.truncated);
			recs_free(&nd);
		}
		recs_free(&got);

		snprintf(what, sizeof(what), "-K %s pipe", nul ? "NUL" : "newline");
		read_pipe(&got, KD_SOURCE_KMSG_FILE, &b, 0);
		compare(&got, &want, what, &nplain);
		tap_ok(got.stats.malformed == want.stats.malformed,
		       "%s: same malformed count", what);
		recs_free(&got);

		snprintf(what, sizeof(what), "-K %s pipe, lent", nul ? "NUL" : "newline");
		read_pipe(&got, KD_SOURCE_KMSG_FILE, &b, KD_SOURCE_LEND_TEXT);
		compare(&got, &want, what, &nplain);
		tap_ok(got.stats.malformed == want.stats.malformed &&
		       got.lent <= nplain && got.lent > want.n / 2,
		       "%s: same malformed count, plain texts lent", what);
		tap_ok(got.promise_bad == 0 && got.pre == 0,
		       "%s: text_nl holds, no text_pre", what);
		recs_free(&got);
		recs_free(&want);
		unlink(path);
		free(b.p);
	}
}

/*
 * Whether @kept holds every entry of @full whose key is one of @keys, in
 * order, and otherwise only entries of @full (the general path keeps all).
 */
static bool kept_keys_ok(const struct kd_record *kept, const struct kd_record *full,
			 const char *const *keys)
{
	size_t i, j = 0;

	for (i = 0; i < full->dict_len; i++) {
		const struct kd_dict_entry *e = &full->dict[i];
		bool wanted = false;

		for (const char *const *k = keys; *k; k++)
			wanted |= strcmp(*k, e->key) == 0;
		if (j < kept->dict_len && strcmp(kept->dict[j].key, e->key) == 0 &&
		    kept->dict[j].value_len == e->value_len &&
		    memcmp(kept->dict[j].value, e->value, e->value_len) == 0)
			j++;
		else if (wanted)
			return false;
	}
	return j == kept->dict_len;
}

static void test_kmsg_keys(void)
{
	static const char *const keys[] = { "DEVICE", "x", NULL };
	struct buf b = { 0 };
	struct recs full, kept;
	const char *path;
	size_t bad = 0, fewer = 0;

	gen_kmsg(&b, 30000, true);
	path = write_temp(&b);
	read_source(&full, KD_SOURCE_KMSG_FILE, path, KD_SOURCE_LEND_TEXT);
	read_keep_keys = keys;
	read_source(&kept, KD_SOURCE_KMSG_FILE, path, KD_SOURCE_LEND_TEXT);
	read_keep_keys = NULL;
	for (size_t i = 0; i < kept.n && i < full.n; i++) {
		size_t dl = full.r[i].dict_len, kl = kept.r[i].dict_len;

		bad += !kept_keys_ok(&kept.r[i], &full.r[i], keys);
		fewer += kl < dl;
		full.r[i].dict_len = kept.r[i].dict_len = 0;
		bad += !kd_record_same(&kept.r[i], &full.r[i]);
		full.r[i].dict_len = dl;
		kept.r[i].dict_len = kl;
	}
	tap_ok(kept.rc == 0 && kept.n == full.n && bad == 0 && fewer > full.n / 20 &&
	       kept.stats.truncated == full.stats.truncated &&
	       kept.stats.malformed == full.stats.malformed,
	       "-K with only DEVICE and x kept: same records, every entry of those keys "
	       "(%zu records with fewer entries), same counts", fewer);
	recs_free(&full);
	recs_free(&kept);
	unlink(path);
	free(b.p);
}

/* Header numbers of every length: as strtoull() reads them, or refused. */
static void test_kmsg_numbers(void)
{
	struct kd_record a, s;
	size_t bad = 0;

	kd_record_init(&a);
	kd_record_init(&s);
	for (unsigned int round = 0; round < 2000; round++) {
		struct buf b = { 0 };
		unsigned long long seq;
		const char *next;
		unsigned int cut, ndig = 1 + round % 22;
		int rc;

		puts_(&b, "6,");
		if (round % 50 == 0) {
			puts_(&b, "18446744073709551615");	/* UINT64_MAX */
			if (round % 100 == 0)
				b.p[b.len - 1] = '6';		/* just over */
		} else {
			gen_digits(&b, ndig);
		}
		puts_(&b, ",42,-;text\n");
		put(&b, "", 1);
		errno = 0;
		seq = strtoull(b.p + 2, NULL, 10);
		rc = kd_kmsg_parse(b.p, b.len - 1, &a, &cut);
		next = kd_kmsg_parse_simple(b.p, b.p + b.len, &s, &cut, ndig % 2); /* both modes */
		if (errno == ERANGE) {
			if (rc != -EINVAL || next)
				bad++;
		} else if (rc != 0 || a.seq != seq || !next || s.seq != seq ||
			   !kd_record_same(&a, &s) || !s.text_plain ||
			   next != b.p + b.len - 1) {
			if (bad++ == 0)
				tap_diag("header %s: rc %d seq %" PRIu64 "/%" PRIu64 " want %llu",
					 b.p, rc, a.seq, s.seq, seq);
		}
		free(b.p);
	}
	tap_ok(bad == 0, "sequence numbers of 1..22 digits read as strtoull() reads them");
	kd_record_free(&a);
	kd_record_free(&s);
}

/*
 * The header read from the first 48 bytes at once (kd_kmsg_header_parse()
 * in kmsg-header.c, taken when 64 bytes or more follow the header's start)
 * against the field-by-field parser (taken for shorter input): the same
 * header, once with a short text and once with a long one, must parse to
 * the same fields or fail alike.  Headers of every shape: numbers of 0 to
 * 20 digits, a letter in one, missing fields, flags, caller ids of any
 * length, unknown fields, newline or NUL bytes, no ';' at all.
 */
static void gen_header(struct buf *b)
{
	static const char *fields[] = {
		"-", "c", "+", "caller=T1234", "caller=C3", "caller=", "x=y", "",
		"caller=T123456789012345", "c\n", "cx", "\\x", "caller=T1\n2",
	};
	char tmp[8];

	for (int f = 0; f < 3; f++) {
		unsigned int k = rnd(30);

		if (k == 0)
			;				/* empty */
		else if (k == 1)
			gen_digits(b, 10 + rnd(11));	/* long, may overflow */
		else
			gen_digits(b, 1 + rnd(f == 0 ? 3 : 12));
		if (rnd(40) == 0) {
			snprintf(tmp, sizeof(tmp), "%c", "a \n"[rnd(3)]);
			puts_(b, tmp);
		}
		if (rnd(60) == 0)
			put(b, "", 1);
		if (f < 2)
			puts_(b, rnd(50) ? "," : ";");
	}
	for (unsigned int n = rnd(4); n > 0; n--) {
		puts_(b, ",");
		puts_(b, fields[rnd(sizeof(fields) / sizeof(fields[0]))]);
	}
	if (rnd(50))
		puts_(b, ";");
}

static void test_kmsg_header(void)
{
	struct kd_record a, l;
	size_t bad = 0, parsed = 0, tried = 0;

	kd_record_init(&a);
	kd_record_init(&l);
	for (unsigned int round = 0; round < 20000; round++) {
		struct buf h = { 0 }, sb = { 0 }, lb = { 0 };
		unsigned int cut;
		int rs, rl;

		gen_header(&h);
		/* Short: under 64 bytes in all, the field-by-field parser. */
		if (h.len > 60) {
			free(h.p);
			continue;
		}
		tried++;
		put(&sb, h.p, h.len);
		puts_(&sb, "t\n");
		put(&lb, h.p, h.len);
		puts_(&lb, "t0123456789012345678901234567890123456789012345678901234567890123456789\n");
		rs = kd_kmsg_parse(sb.p, sb.len, &a, &cut);
		rl = kd_kmsg_parse(lb.p, lb.len, &l, &cut);
		if (rs != rl || (rs == 0 &&
		    (a.seq != l.seq || a.facility != l.facility || a.level != l.level ||
		     a.ts_usec != l.ts_usec || a.flags != l.flags ||
		     strcmp(a.caller, l.caller) != 0))) {
			if (bad++ < 3)
				tap_diag("header differs (%d/%d): %.*s", rs, rl, (int)h.len, h.p);
		}
		parsed += rs == 0;
		free(h.p);
		free(sb.p);
		free(lb.p);
	}
	tap_ok(bad == 0 && parsed > tried / 2 && parsed < tried,
	       "-K headers read at once as field by field (%zu of %zu parse)",
	       parsed, tried);
	kd_record_free(&a);
	kd_record_free(&l);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	test_kmsg();
	test_kmsg_keys();
	test_kmsg_numbers();
	test_kmsg_header();
	return tap_done();
}
