// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-writer.c - libFuzzer target for the whole writer: fuzzed records
 * through every output mode (text in every time format with -x, -r, -p,
 * --noescape, colours; -J; -o json, jsonl, export, verbose), under
 * AddressSanitizer and UndefinedBehaviorSanitizer, so that no record and
 * no option makes a writer overflow, read out of bounds or wrap a number.
 *
 * Input: a 24-byte header, then records.
 *   bytes 0..3   option bits (see below)
 *   bytes 4..11  the boot time in µs (any int64)
 *   bytes 12..19 a stamp (any int64) that replaces every other record's
 *   byte 20      caller-id width
 *   bytes 21..23 sequence-number, facility and level overrides
 * The rest is a -K dump (records separated by NUL bytes) when bit 0 is
 * clear, else a syslog(2) buffer, parsed as the readers parse it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "source/kmsg-parse.h"
#include "sink/output.h"
#include "sink/sink.h"
#include "record/record.h"
#include "source/syslog-parse.h"
#include "sink/timefmt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define HEADER		24
#define MAX_RECORDS	64

static int64_t get64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return (int64_t)v;
}

/* The options of one run from @bits, for @mode. */
static void make_opts(struct kd_output_opts *o, uint32_t bits,
		      enum kd_output_mode mode, const uint8_t *hdr)
{
	static const enum kd_time_format formats[] = {
		KD_TIME_RAW, KD_TIME_NONE, KD_TIME_CTIME, KD_TIME_DELTA,
		KD_TIME_RELTIME, KD_TIME_ISO, KD_TIME_RAW_DELTA,
		KD_TIME_CTIME_DELTA,
	};

	memset(o, 0, sizeof(*o));
	o->mode = mode;
	/* Bits 8..15: which time formats, in order, as repeated options. */
	for (unsigned int i = 0; i < 8; i++)
		if (bits & (1u << (8 + i)))
			kd_timefmt_add(o, formats[i]);
	kd_timefmt_resolve(o);
	o->decode = bits & (1u << 1);
	o->raw = bits & (1u << 2);
	o->noescape = bits & (1u << 3);
	o->force_prefix = bits & (1u << 4);
	o->color = mode == KD_OUTPUT_TEXT && (bits & (1u << 5));
	o->location = bits & (1u << 6);
	o->json_dict = bits & (1u << 7);
	o->source_syslog = bits & 1u;
	o->follow = bits & (1u << 16);
	o->batch = !o->follow;
	o->boot_usec = get64(hdr + 4);
	/* A width dmesg could get from pid_max, or any the tests pin. */
	o->caller_width = (int)(signed char)hdr[20];
}

/* Parse up to MAX_RECORDS records of @p[0..@n) into @recs. */
static size_t parse(const uint8_t *p, size_t n, bool syslog,
		    struct kd_record *recs)
{
	const char *b = (const char *)p, *end = b + n;
	size_t count = 0;
	unsigned int cut;

	while (b < end && count < MAX_RECORDS) {
		const char *e, *next;

		if (syslog) {
			b = kd_syslog_skip_nul(b, end);
			if (b == end)
				break;
			e = kd_syslog_record_end(b, end);
			next = e ? e + 1 : end;
			if (kd_syslog_parse(b, e ? e : end, !e, &recs[count], &cut) == 0)
				count++;
		} else {
			e = memchr(b, '\0', (size_t)(end - b));
			next = e ? e + 1 : end;
			if (kd_kmsg_parse_dump(b, (size_t)((e ? e : end) - b),
					       &recs[count], &cut) == 0)
				count++;
		}
		b = next;
	}
	return count;
}

/* Every other record gets the header's extremes: stamp, seq, priority. */
static void override(struct kd_record *recs, size_t n, const uint8_t *hdr)
{
	for (size_t i = 1; i < n; i += 2) {
		recs[i].ts_usec = get64(hdr + 12);
		if (hdr[21] & 1)
			recs[i].seq = hdr[21] & 2 ? UINT64_MAX : (uint64_t)get64(hdr + 4);
		/* What a record may hold: -1 (none) or 0..127, -1 or 0..7. */
		if (hdr[22] & 1)
			recs[i].facility = (hdr[22] >> 1) % 129 - 1;
		if (hdr[23] & 1)
			recs[i].level = (hdr[23] >> 1) % 9 - 1;
	}
}

static void run(const struct kd_output_opts *o, const struct kd_record *recs,
		size_t n, uint32_t bits, FILE *out)
{
	struct kd_writer *w = NULL;
	struct kd_prev prev;

	if (kd_writer_new(&w, o, out) < 0)
		return;
	/* As lib/pipeline.c drives its sink, with sink.h's rules for @prev. */
	kd_prev_init(&prev);
	for (size_t i = 0; i < n; i++) {
		/* Bit 17: every third record as one the filter rejected. */
		if ((bits & (1u << 17)) && i % 3 == 2) {
			kd_prev_rejected(&prev, &recs[i]);
			continue;
		}
		if (kd_writer_sink_write(w, &recs[i], &prev) < 0)
			break;
		kd_prev_shown(&prev, &recs[i]);
	}
	kd_writer_finish(w);
	kd_writer_free(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum kd_output_mode modes[] = {
		KD_OUTPUT_TEXT, KD_OUTPUT_JSON, KD_OUTPUT_JSONL,
		KD_OUTPUT_EXPORT, KD_OUTPUT_VERBOSE,
	};
	static struct kd_record recs[MAX_RECORDS];
	static FILE *out;
	static bool ready;
	struct kd_output_opts o;
	uint32_t bits;
	size_t n;

	if (!ready) {
		for (size_t i = 0; i < MAX_RECORDS; i++)
			kd_record_init(&recs[i]);
		out = fopen("/dev/null", "w");
		ready = true;
	}
	if (size < HEADER || !out)
		return 0;
	bits = (uint32_t)data[0] | (uint32_t)data[1] << 8 |
	       (uint32_t)data[2] << 16 | (uint32_t)data[3] << 24;
	n = parse(data + HEADER, size - HEADER, bits & 1u, recs);
	override(recs, n, data);
	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		make_opts(&o, bits, modes[m], data);
		run(&o, recs, n, bits, out);
	}
	return 0;
}
