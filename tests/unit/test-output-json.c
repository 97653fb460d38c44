// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-output-json.c - golden bytes of dmesg -J (util-linux 2.42 layout):
 * key order, the padded "time", "caller", -x's "fac"/"pri" names, string
 * escapes, records without priority, no output without records, the
 * dictionary members -o json adds after "msg" (never with -J) and their
 * names (never a second member of a name), the module facts object, and
 * invalid UTF-8 as \ufffd.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shared/modinfo.h"
#include "sink/output.h"
#include "record/record.h"
#include "tap.h"
#include "writer-run.h"

static struct kd_record mk(int fac, int lev, int64_t usec, const char *caller,
			   const char *text, size_t len)
{
	struct kd_record r;

	kd_record_init(&r);
	r.facility = fac;
	r.level = lev;
	r.ts_usec = usec;
	if (caller)
		snprintf(r.caller, sizeof(r.caller), "%s", caller);
	if (kd_record_set_text(&r, text, len) != 0)
		tap_diag("kd_record_set_text failed");
	return r;
}

/* libkmod's facts as kdmesg hands them to the writer, for module "e1000". */
static const struct kd_modinfo_facts *facts_of(void *data, const char *module)
{
	static const struct kd_modinfo_facts e1000 = {
		.state = "live", .version = "7.3", .path = "/lib/e1000.ko",
		.summary = "live, version 7.3, /lib/e1000.ko",
	};

	(void)data;
	return strcmp(module, "e1000") == 0 ? &e1000 : NULL;
}

static void run_facts(bool decode, bool dict, bool facts, struct kd_record *recs,
		      size_t n, const char *want, const char *name)
{
	struct kd_output_opts o;
	struct kd_writer *w = NULL;
	struct kd_prev prev;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *out = open_memstream(&buf, &len);
	int rc;

	memset(&o, 0, sizeof(o));
	o.mode = KD_OUTPUT_JSON;
	o.decode = decode;
	o.json_dict = dict;
	if (facts)
		o.module_facts = facts_of;
	/* -J ignores these, as dmesg does. */
	o.ntime = 1;
	o.time[0] = KD_TIME_CTIME;
	o.force_prefix = true;
	kd_prev_init(&prev);
	rc = kd_writer_new(&w, &o, out);
	for (i = 0; rc == 0 && i < n; i++)
		rc = writer_show(w, &prev, &recs[i]);
	if (rc == 0)
		rc = kd_writer_finish(w);
	kd_writer_free(w);
	fclose(out);
	if (rc != 0)
		tap_diag("writer returned %d", rc);
	tap_is_mem(buf, len, want, strlen(want), name);
	free(buf);
}

static void run(bool decode, bool dict, struct kd_record *recs, size_t n,
		const char *want, const char *name)
{
	run_facts(decode, dict, false, recs, n, want, name);
}

/*
 * A dictionary key never adds a second member of a name: keys named like
 * the record's own members, or starting with "dict.", get "dict." in
 * front.  The module's facts are one "module_info" object (-o json only).
 */
static void test_member_names(void)
{
	static const char *const keys[] = {
		"msg", "pri", "time", "caller", "fac", "dict.msg", "msg_translated",
		"module_info", "MSG", "MODULE",
	};
	struct kd_record r = mk(0, 6, 1000000, NULL, "real", 4);
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		kd_record_dict_add(&r, keys[i], strlen(keys[i]),
				   i == 9 ? "e1000" : "x", i == 9 ? 5 : 1);
	run_facts(false, true, true, &r, 1,
		  "{\n"
		  "   \"dmesg\": [\n"
		  "      {\n"
		  "         \"pri\": 6,\n"
		  "         \"time\":     1.000000,\n"
		  "         \"msg\": \"real\",\n"
		  "         \"dict.msg\": \"x\",\n"
		  "         \"dict.pri\": \"x\",\n"
		  "         \"dict.time\": \"x\",\n"
		  "         \"dict.caller\": \"x\",\n"
		  "         \"dict.fac\": \"x\",\n"
		  "         \"dict.dict.msg\": \"x\",\n"
		  "         \"dict.msg_translated\": \"x\",\n"
		  "         \"dict.module_info\": \"x\",\n"
		  "         \"MSG\": \"x\",\n"
		  "         \"MODULE\": \"e1000\",\n"
		  "         \"module_info\": {\n"
		  "            \"state\": \"live\",\n"
		  "            \"version\": \"7.3\",\n"
		  "            \"path\": \"/lib/e1000.ko\"\n"
		  "         }\n"
		  "      }\n"
		  "   ]\n"
		  "}\n",
		  "-o json: keys named like members, or dict.*, are renamed; module_info object");
	run_facts(false, false, true, &r, 1,
		  "{\n"
		  "   \"dmesg\": [\n"
		  "      {\n"
		  "         \"pri\": 6,\n"
		  "         \"time\":     1.000000,\n"
		  "         \"msg\": \"real\"\n"
		  "      }\n"
		  "   ]\n"
		  "}\n",
		  "-J: neither dictionary nor module facts");
	kd_record_free(&r);

	r = mk(0, 6, 1000000, NULL, "real", 4);
	kd_record_dict_add(&r, "CODE_FILE", 9, "k.c", 3);
	kd_record_dict_add(&r, "CODE_FILE", 9, "guess.c", 7);
	r.dict[1].origin = KD_ORIGIN_RECOVERED;
	run_facts(false, true, false, &r, 1,
		  "{\n"
		  "   \"dmesg\": [\n"
		  "      {\n"
		  "         \"pri\": 6,\n"
		  "         \"time\":     1.000000,\n"
		  "         \"msg\": \"real\",\n"
		  "         \"CODE_FILE\": \"k.c\",\n"
		  "         \"CODE_FILE[recovered]\": \"guess.c\"\n"
		  "      }\n"
		  "   ]\n"
		  "}\n",
		  "-o json: a recovered value is KEY[recovered], apart from the kernel's");
	kd_record_free(&r);
}

/*
 * With follow set, each -J object must reach the stream before the next
 * record arrives; open_memstream() only publishes its size on a flush.
 */
static void test_follow(void)
{
	static const char want[] =
		"{\n"
		"   \"dmesg\": [\n"
		"      {\n"
		"         \"pri\": 6,\n"
		"         \"time\":     1.000000,\n"
		"         \"msg\": \"live\"\n"
		"      }";
	struct kd_record r = mk(0, 6, 1000000, NULL, "live", 4);
	int follow;

	for (follow = 0; follow < 2; follow++) {
		struct kd_output_opts o;
		struct kd_writer *w = NULL;
		struct kd_prev prev;
		char *buf = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&buf, &len);

		memset(&o, 0, sizeof(o));
		o.mode = KD_OUTPUT_JSON;
		o.follow = follow;
		kd_prev_init(&prev);
		kd_writer_new(&w, &o, out);
		writer_show(w, &prev, &r);
		if (follow)
			tap_is_mem(buf, len, want, sizeof(want) - 1,
				   "follow: each object is flushed, up to its closing brace");
		else
			tap_is_int((long long)len, 0, "without follow the object stays buffered");
		kd_writer_finish(w);
		kd_writer_free(w);
		fclose(out);
		free(buf);
	}
	kd_record_free(&r);
}

int main(void)
{
	struct kd_record r[4];
	size_t i;

	r[0] = mk(0, 6, 0, "T1", "Linux version", 13);
	r[1] = mk(3, 6, 10441520, NULL, "systemd[1]: \"quoted\" \\ tab\t", 28);
	r[2] = mk(-1, -1, KD_NO_TIME, "C12", "no prio\n", 8);
	r[3] = mk(0, 4, 1234567890, NULL, "", 0);
	run(false, false, r, 4,
	    "{\n"
	    "   \"dmesg\": [\n"
	    "      {\n"
	    "         \"pri\": 6,\n"
	    "         \"time\":     0.000000,\n"
	    "         \"caller\": \"T1\",\n"
	    "         \"msg\": \"Linux version\"\n"
	    "      },{\n"
	    "         \"pri\": 30,\n"
	    "         \"time\":    10.441520,\n"
	    "         \"msg\": \"systemd[1]: \\\"quoted\\\" \\\\ tab\\t\"\n"
	    "      },{\n"
	    "         \"time\":     0.000000,\n"
	    "         \"caller\": \"C12\",\n"
	    "         \"msg\": \"no prio\\n\"\n"
	    "      }\n"
	    "   ]\n"
	    "}\n",
	    "-J: dmesg's keys, order and layout; empty text skipped");

	run(true, false, r, 2,
	    "{\n"
	    "   \"dmesg\": [\n"
	    "      {\n"
	    "         \"fac\": \"kern\",\n"
	    "         \"pri\": \"info\",\n"
	    "         \"time\":     0.000000,\n"
	    "         \"caller\": \"T1\",\n"
	    "         \"msg\": \"Linux version\"\n"
	    "      },{\n"
	    "         \"fac\": \"daemon\",\n"
	    "         \"pri\": \"info\",\n"
	    "         \"time\":    10.441520,\n"
	    "         \"msg\": \"systemd[1]: \\\"quoted\\\" \\\\ tab\\t\"\n"
	    "      }\n"
	    "   ]\n"
	    "}\n",
	    "-J -x: fac and pri as names");

	run(false, false, r + 3, 1, "", "-J without records prints nothing");

	for (i = 0; i < 4; i++)
		kd_record_free(&r[i]);

	r[0] = mk(0, 3, 1500000, NULL, "usb 1-1: \033bad\x01 \xc3\xa9\x7f\0tail", 20);
	kd_record_dict_add(&r[0], "SUBSYSTEM", 9, "usb", 3);
	kd_record_dict_add(&r[0], "DEVICE", 6, "c189:1", 6);
	kd_record_dict_add(&r[0], "TAG", 3, "a", 1);
	kd_record_dict_add(&r[0], "TAG", 3, "b\"", 2);
	r[1] = mk(0, 6, 2000000, NULL, "\0starts with NUL", 16);
	run(false, true, r, 2,
	    "{\n"
	    "   \"dmesg\": [\n"
	    "      {\n"
	    "         \"pri\": 3,\n"
	    "         \"time\":     1.500000,\n"
	    "         \"msg\": \"usb 1-1: \\u001bbad\\u0001 \xc3\xa9\\u007f\",\n"
	    "         \"SUBSYSTEM\": \"usb\",\n"
	    "         \"DEVICE\": \"c189:1\",\n"
	    "         \"TAG\": [\n"
	    "             \"a\", \"b\\\"\"\n"
	    "         ]\n"
	    "      },{\n"
	    "         \"pri\": 6,\n"
	    "         \"time\":     2.000000,\n"
	    "         \"msg\": null\n"
	    "      }\n"
	    "   ]\n"
	    "}\n",
	    "-o json: control bytes \\u00XX, UTF-8 as is, NUL ends msg, dictionary after msg");
	run(false, false, r, 1,
	    "{\n"
	    "   \"dmesg\": [\n"
	    "      {\n"
	    "         \"pri\": 3,\n"
	    "         \"time\":     1.500000,\n"
	    "         \"msg\": \"usb 1-1: \\u001bbad\\u0001 \xc3\xa9\\u007f\"\n"
	    "      }\n"
	    "   ]\n"
	    "}\n",
	    "-J: dmesg's members only, no dictionary");
	kd_record_free(&r[0]);
	kd_record_free(&r[1]);

	/* Bytes outside valid UTF-8: dmesg copies them (invalid JSON). */
	r[0] = mk(0, 6, 0, NULL, "a\xff b\x85 c\xc3 d\xed\xa0\x80 e\xc2\x85\xf0\x9f\x98\x80", 21);
	kd_record_dict_add(&r[0], "K\xfe", 2, "v\xc0\xaf", 3);
	run(false, true, r, 1,
	    "{\n"
	    "   \"dmesg\": [\n"
	    "      {\n"
	    "         \"pri\": 6,\n"
	    "         \"time\":     0.000000,\n"
	    "         \"msg\": \"a\\ufffd b\\ufffd c\\ufffd d\\ufffd\\ufffd\\ufffd e\\u0085\xf0\x9f\x98\x80\",\n"
	    "         \"K\\ufffd\": \"v\\ufffd\\ufffd\"\n"
	    "      }\n"
	    "   ]\n"
	    "}\n",
	    "invalid UTF-8 and lone C1 bytes become \\ufffd, valid sequences stay, C1 controls as \\u0085");
	kd_record_free(&r[0]);

	test_follow();
	test_member_names();
	return tap_done();
}
