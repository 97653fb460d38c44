// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-recover.c - the fields the recovery stage adds to a record
 * (recover.c's put()): FORMAT, ARG0..ARGn with two-digit keys past ARG9,
 * CODE_FILE, CODE_LINE (a number), CODE_FUNC, MODULE, RECOVER_AMBIGUOUS
 * (a count), each marked recovered; a record with a FORMAT left alone,
 * except that one with CODE_FILE and CODE_LINE but no CODE_FUNC (a kernel
 * without CONFIG_KPRINT_FUNC_NAMES) is given the function the index names
 * at that line, when its sites there agree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/record.h"
#include "stage/fidx.h"
#include "stage/recover.h"
#include "fidx-mem.h"
#include "tap.h"

#define SITE(f, fi, fn, mod, ln) { .fmt = f, .fmt_len = sizeof(f) - 1, .family = KD_FIDX_PLAIN, \
				   .file = fi, .func = fn, .module = mod, .line = ln, .level = '6' }

static const struct kd_fidx_site sites[] = {
	SITE("regs: a=%d b=%d c=%d d=%d e=%d f=%d g=%d h=%d i=%d j=%d k=%d l=%d done",
	     "arch/x86/regs.c", "show_regs", "regs", 4294967295u),
	SITE("timeout waiting for reset of %s", "a.c", "a_wait", "moda", 10),
	SITE("timeout waiting for reset of %s", "b.c", "b_wait", "modb", 20),
	SITE("defined by a macro %d", "m.c", "one", "modm", 5),
	SITE("defined by a macro %s", "m.c", "two", "modm", 5),
	SITE("second format of a_wait's line %d", "a.c", "a_wait", "moda", 10),
};

/* A record as a kernel without function names sends it: FILE and LINE, no FUNC. */
static void apply_kprint(struct kd_recover *r, struct kd_record *rec, const char *file,
			 const char *line, const char *func)
{
	kd_record_reset(rec);
	rec->facility = 0;
	if (kd_record_set_text(rec, "text", 4) < 0 ||
	    kd_record_dict_add(rec, "FORMAT", 6, "text", 4) < 0 ||
	    kd_record_dict_add(rec, "CODE_FILE", 9, file, strlen(file)) < 0 ||
	    kd_record_dict_add(rec, "CODE_LINE", 9, line, strlen(line)) < 0 ||
	    (func && kd_record_dict_add(rec, "CODE_FUNC", 9, func, strlen(func)) < 0) ||
	    kd_recover_apply(r, rec) < 0)
		abort();
}

/* The value of @key in @rec when it is marked recovered, else NULL. */
static const char *recovered(const struct kd_record *rec, const char *key)
{
	const struct kd_dict_entry *e = kd_record_dict_get(rec, key);

	return e && e->origin == KD_ORIGIN_RECOVERED ? e->value : NULL;
}

static void apply(struct kd_recover *r, struct kd_record *rec, const char *text)
{
	kd_record_reset(rec);
	rec->facility = 0;
	if (kd_record_set_text(rec, text, strlen(text)) < 0 || kd_recover_apply(r, rec) < 0)
		abort();
}

int main(void)
{
	struct kd_recover *r;
	struct kd_record rec;
	bool ok = true;
	const char *v;

	kd_record_init(&rec);
	if (kd_recover_new(&r) < 0 ||
	    kd_recover_add(r, test_fidx_build(sites, sizeof(sites) / sizeof(sites[0]))) < 0)
		abort();

	apply(r, &rec, "regs: a=0 b=1 c=2 d=3 e=4 f=5 g=6 h=7 i=8 j=9 k=10 l=-11 done");
	tap_is_str(recovered(&rec, "FORMAT"), sites[0].fmt, "FORMAT, marked recovered");
	for (int k = 0; k < 12; k++) {
		char key[8], want[8];

		snprintf(key, sizeof(key), "ARG%d", k);
		snprintf(want, sizeof(want), "%d", k < 11 ? k : -11);
		v = recovered(&rec, key);
		if (!v || strcmp(v, want) != 0) {
			tap_diag("%s: \"%s\", want \"%s\"", key, v ? v : "(none)", want);
			ok = false;
		}
	}
	tap_ok(ok, "ARG0..ARG11: each conversion's text under its key, marked recovered");
	tap_ok(!kd_record_dict_get(&rec, "ARG12"), "no key past the last conversion");
	tap_is_str(recovered(&rec, "CODE_FILE"), "arch/x86/regs.c", "CODE_FILE");
	tap_is_str(recovered(&rec, "CODE_LINE"), "4294967295", "CODE_LINE: the largest line number");
	tap_is_str(recovered(&rec, "CODE_FUNC"), "show_regs", "CODE_FUNC");
	tap_is_str(recovered(&rec, "MODULE"), "regs", "MODULE");
	tap_ok(!kd_record_dict_get(&rec, "RECOVER_AMBIGUOUS"), "one site: not flagged");

	apply(r, &rec, "timeout waiting for reset of sda");
	tap_is_str(recovered(&rec, "RECOVER_AMBIGUOUS"), "2", "two sites: RECOVER_AMBIGUOUS=2");
	tap_is_str(recovered(&rec, "ARG0"), "sda", "two sites: the argument");
	tap_ok(!kd_record_dict_get(&rec, "CODE_FILE") && !kd_record_dict_get(&rec, "CODE_LINE"),
	       "two sites that disagree: no file, no line");

	kd_record_reset(&rec);
	rec.facility = 0;
	if (kd_record_set_text(&rec, "timeout waiting for reset of sda", 32) < 0 ||
	    kd_record_dict_add(&rec, "FORMAT", 6, "x %s", 4) < 0 || kd_recover_apply(r, &rec) < 0)
		abort();
	tap_ok(rec.dict_len == 1, "a record with a FORMAT: nothing added");

	tap_is_int((long long)kd_recover_stats(r)->recovered, 2, "two records recovered");

	apply_kprint(r, &rec, "a.c", "10", NULL);
	tap_is_str(recovered(&rec, "CODE_FUNC"), "a_wait",
		   "no CODE_FUNC: the function of the index's sites at a.c:10, marked recovered");
	tap_ok(rec.dict_len == 4, "no CODE_FUNC: nothing else added");
	apply_kprint(r, &rec, "arch/x86/regs.c", "4294967295", NULL);
	tap_is_str(recovered(&rec, "CODE_FUNC"), "show_regs", "the largest line number");
	apply_kprint(r, &rec, "m.c", "5", NULL);
	tap_ok(!kd_record_dict_get(&rec, "CODE_FUNC"), "two functions at one line: none named");
	apply_kprint(r, &rec, "a.c", "11", NULL);
	tap_ok(!kd_record_dict_get(&rec, "CODE_FUNC"), "a line with no site: none named");
	apply_kprint(r, &rec, "b.c", "10", NULL);
	tap_ok(!kd_record_dict_get(&rec, "CODE_FUNC"), "another file's line: none named");
	apply_kprint(r, &rec, "a.c", "10x", NULL);
	tap_ok(!kd_record_dict_get(&rec, "CODE_FUNC"), "a line that is no number: none named");
	apply_kprint(r, &rec, "a.c", "4294967306", NULL);
	tap_ok(!kd_record_dict_get(&rec, "CODE_FUNC"), "a line past 32 bits: none named");
	apply_kprint(r, &rec, "a.c", "10", "kernel_said");
	tap_ok(rec.dict_len == 4 && kd_record_dict_get(&rec, "CODE_FUNC")->origin == KD_ORIGIN_KERNEL,
	       "the kernel's CODE_FUNC: left as it is");
	tap_is_int((long long)kd_recover_stats(r)->func_named, 2, "two records named their function");
	tap_is_int((long long)kd_recover_stats(r)->records, 2, "kprint records are not counted as plain");
	kd_recover_free(r);
	kd_record_free(&rec);
	return tap_done();
}
