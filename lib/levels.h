/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * levels.h - syslog level and facility names as dmesg spells them: used by
 * -x ("kern  :info  : "), -l/-f/-n parsing, --help and -J with -x.
 */
#ifndef KDMESG_LEVELS_H
#define KDMESG_LEVELS_H

#include <stddef.h>

/* Levels 0..7 (emerg..debug). */
#define KD_LEVEL_COUNT		8
/*
 * Facilities 0..23: the twelve named ones, dmesg's "res0".."res3" for the
 * codes syslog.h leaves unnamed, and local0..local7.
 */
#define KD_FACILITY_COUNT	24

/** kd_level_name() - "emerg".."debug", or NULL outside 0..7. */
const char *kd_level_name(int level);

/** kd_facility_name() - "kern".."local7", or NULL outside 0..23. */
const char *kd_facility_name(int facility);

/**
 * kd_level_parse() - a level from the @len bytes at @name: a name
 * (case-insensitive, exact length) or a decimal number 0..7.
 * Returns the level, -EINVAL for an unknown name or out-of-range number,
 * or -ERANGE when the number overflows.
 */
int kd_level_parse(const char *name, size_t len);

/**
 * kd_facility_parse() - as kd_level_parse(), for facilities 0..23.
 */
int kd_facility_parse(const char *name, size_t len);

#endif /* KDMESG_LEVELS_H */
