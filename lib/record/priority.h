/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * priority.h - everything kdmesg knows about a record's syslog priority:
 * how a "<N>" number splits into facility and level, the names dmesg
 * spells them with (-x, -l/-f/-n, --help, -J), and the facility dmesg
 * itself would have kept (it treats facility >= 24 as unknown).  Readers,
 * filters and writers ask here instead of masking bits themselves.
 */
#ifndef KDMESG_PRIORITY_H
#define KDMESG_PRIORITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record/record.h"

/* Levels 0..7 (emerg..debug). */
#define KD_LEVEL_COUNT		8
/*
 * Facilities 0..23: the twelve named ones, dmesg's "res0".."res3" for the
 * codes syslog.h leaves unnamed, and local0..local7.
 */
#define KD_FACILITY_COUNT	24

/**
 * kd_priority_set() - store the priority number @pri in @rec as syslog(3)'s
 * LOG_FAC()/LOG_PRI() split it (facility 0..127, level 0..7) and mark it
 * present.  Inline: both readers call it once per record.
 */
static inline void kd_priority_set(struct kd_record *rec, uint64_t pri)
{
	rec->facility = (int)((pri & 0x3f8) >> 3);
	rec->level = (int)(pri & 7);
	rec->flags |= KD_REC_HAS_PRI;
}

/**
 * kd_priority_dmesg_facility() - the facility dmesg would have parsed
 * from the record's "<N>": LOG_FAC() keeps 7 bits, and a value above 24
 * becomes -1 (unknown).
 */
static inline int kd_priority_dmesg_facility(const struct kd_record *rec)
{
	int fac;

	if (rec->facility < 0)
		return -1;
	fac = rec->facility & 0x7f;
	return fac > 24 ? -1 : fac;
}

/**
 * kd_priority_valid() - whether dmesg prints the facility and level (-x
 * prefix, -J "pri"): level 0..7 and facility 0..23.
 */
static inline bool kd_priority_valid(const struct kd_record *rec)
{
	int fac = kd_priority_dmesg_facility(rec);

	return rec->level >= 0 && rec->level < KD_LEVEL_COUNT && fac >= 0 &&
	       fac < KD_FACILITY_COUNT;
}

/**
 * kd_priority_raw() - dmesg -r's "<N>": LOG_RAW_FAC_PRI() of the facility
 * and level dmesg would have kept (-1 for each that is unknown).
 */
static inline int kd_priority_raw(const struct kd_record *rec)
{
	int fac = kd_priority_dmesg_facility(rec), lev = -1;

	if (rec->level >= 0)
		lev = rec->level & 7;
	return (fac * 8) | lev;
}

/** kd_priority_level_name() - "emerg".."debug", or NULL outside 0..7. */
const char *kd_priority_level_name(int level);

/** kd_priority_facility_name() - "kern".."local7", or NULL outside 0..23. */
const char *kd_priority_facility_name(int facility);

/**
 * kd_priority_level_parse() - a level from the @len bytes at @name: a
 * name (case-insensitive, exact length) or a decimal number 0..7.
 * Returns the level, -EINVAL for an unknown name or out-of-range number,
 * or -ERANGE when the number overflows.
 */
int kd_priority_level_parse(const char *name, size_t len);

/**
 * kd_priority_facility_parse() - as kd_priority_level_parse(), for
 * facilities 0..23.
 */
int kd_priority_facility_parse(const char *name, size_t len);

#endif /* KDMESG_PRIORITY_H */
