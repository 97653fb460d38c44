#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# run-fuzz.sh DIR - build each libFuzzer target of tests/fuzz/ with clang's
# libFuzzer and AddressSanitizer + UndefinedBehaviorSanitizer in DIR, seed
# it with its corpus in tests/fuzz/corpus/TARGET (boundary values; copied,
# so a run leaves the source tree alone) and run it for FUZZ_SECONDS
# (default 20) - CI's short run.  FUZZ_TARGETS picks targets.  For an hour
# of one target see tests/fuzz/README.md.  Exits non-zero when a target
# does not build or finds a crash; the crashing input is left in
# DIR/<target>/ for reproduction.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=${1:?usage: run-fuzz.sh DIR}
secs=${FUZZ_SECONDS:-20}
CLANG=${CLANG:-clang}

if ! command -v "$CLANG" >/dev/null 2>&1; then
	echo "run-fuzz: $CLANG not found" >&2
	exit 1
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)

# The library files the readers need; config.h only has to exist.
: > "$out/config.h"
# Paths under lib/ (its folders follow the pipeline, lib/README.md); the
# /dev/kmsg record parser, the file reader and the recovery's index and
# matcher by pattern, whatever files they are split into.
libsrc="record/record.c $(cd "$top/lib" && echo source/kmsg-*.c) source/syslog-parse.c source/source.c \
	source/source-kmsg.c source/source-syslog.c $(cd "$top/lib" && echo source/source-file*.c) \
	source/klogctl.c record/priority.c shared/kfmt.c \
	stage/mo.c stage/catalog.c stage/charset.c shared/escape.c record/group.c stage/translate.c \
	$(cd "$top/lib" && echo stage/fidx*.c stage/fmatch*.c) stage/recover.c stage/msgids.c \
	stage/ksites.c stage/sites.c stage/expand.c po/cstring.c record/field.c"
flags="-g -O1 -std=gnu11 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I$out -I$top/lib"

# The writer target also needs every writer (not lib/sink/terminal.c: curses).
writersrc="record/record.c $(cd "$top/lib" && echo source/kmsg-*.c) source/syslog-parse.c record/priority.c shared/escape.c sink/colors.c sink/terminal-colors-d.c \
	sink/json.c sink/output.c sink/format.c sink/format-time.c sink/format-columns.c sink/output-text.c sink/output-json.c \
	sink/output-jsonl.c sink/output-export.c sink/output-verbose.c record/field.c shared/modinfo.c sink/timefmt.c"

status=0
for t in ${FUZZ_TARGETS:-kmsg-parse syslog-parse source-file translate translate-record translate-catalog writer sites}; do
	bin="$out/fuzz-$t"
	srcs=""
	list=$libsrc
	[ "$t" = writer ] && list=$writersrc
	for f in $list; do
		src=$top/lib/$f
		if [ ! -f "$src" ]; then
			echo "run-fuzz: no lib file $f" >&2
			exit 1
		fi
		srcs="$srcs $src"
	done
	echo "run-fuzz: building fuzz-$t" >&2
	# shellcheck disable=SC2086
	if ! "$CLANG" $flags -o "$bin" "$here/fuzz-$t.c" $srcs; then
		echo "run-fuzz: fuzz-$t does not build" >&2
		status=1
		continue
	fi
	# The seed corpus of the repository (tests/fuzz/corpus/, README.md
	# there), copied: what a run adds stays out of the source tree.
	corpus="$out/$t-corpus"
	mkdir -p "$corpus" "$out/$t"
	cp "$here/corpus/$t"/* "$corpus/"
	if [ "$t" = translate-record ]; then
		# the test catalogue, compiled
		mkdir -p "$out/cat/xx/LC_MESSAGES"
		if ! msgfmt -o "$out/cat/xx/LC_MESSAGES/linux-kmsg.mo" \
			"$top/tests/fixtures/kmsg-test-xx.po"; then
			echo "run-fuzz: msgfmt cannot compile the test catalogue" >&2
			status=1
			continue
		fi
		export KDMESG_FUZZ_CATALOG="$out/cat"
	fi
	# Inputs of a few KiB reach every path of the file reader (its
	# window is 1 KiB in the target); the others read whole records.
	maxlen=16384
	[ "$t" = source-file ] && maxlen=4096
	echo "run-fuzz: running fuzz-$t for ${secs}s" >&2
	if ! (cd "$out/$t" && "$bin" -max_total_time="$secs" -max_len=$maxlen \
		-rss_limit_mb=1024 -timeout=10 -print_final_stats=1 \
		"$corpus" >"$out/$t.log" 2>&1); then
		echo "run-fuzz: fuzz-$t FAILED, see $out/$t.log" >&2
		tail -40 "$out/$t.log" >&2
		status=1
	else
		grep -E '^(stat::number_of_executed_units|Done)' "$out/$t.log" >&2 || true
		echo "run-fuzz: fuzz-$t ok" >&2
	fi
done
exit $status
