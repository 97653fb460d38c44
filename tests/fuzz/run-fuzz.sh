#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# run-fuzz.sh DIR - build the reader and translation fuzz targets with clang's libFuzzer
# and AddressSanitizer + UndefinedBehaviorSanitizer in DIR, seed them with
# tests/fixtures and with boundary values (largest timestamps, sequence
# numbers and priorities, and one past them), and run each for a bounded
# time (FUZZ_SECONDS, default 20).  fuzz-writer drives every output mode
# over the fuzzed records; fuzz-translate-record translates whole records
# with the test catalogue (msgfmt compiles it).  Exits non-zero when a target does not build or finds a crash; the
# crashing input is left in DIR/<target>/ for reproduction.
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
# Paths under lib/ (its folders follow the pipeline, lib/README.md).
libsrc="record/record.c source/kmsg-parse.c source/syslog-parse.c source/source.c \
	source/source-kmsg.c source/source-syslog.c source/source-file.c source/klogctl.c record/priority.c shared/kfmt.c \
	stage/mo.c stage/catalog.c stage/charset.c shared/escape.c record/group.c stage/translate.c"
flags="-g -O1 -std=gnu11 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I$out -I$top/lib"

# The writer target also needs every writer (not lib/sink/terminal.c: curses).
writersrc="record/record.c source/kmsg-parse.c source/syslog-parse.c record/priority.c shared/escape.c sink/colors.c sink/terminal-colors-d.c \
	sink/json.c sink/output.c sink/format.c sink/output-text.c sink/output-json.c \
	sink/output-jsonl.c sink/output-export.c sink/output-verbose.c record/field.c shared/modinfo.c sink/timefmt.c"

# boundary_seeds DIR: records at the edges of every number a parser reads
# (INT64_MAX stamps, UINT64_MAX sequence numbers, INT_MAX priorities,
# 19-digit fractions, one past each).  They hold the crafted stamps of
# issue 9 as regression seeds: 70,000 mutations of the fixtures alone
# never reached that overflow.
boundary_seeds() {
	printf '6,18446744073709551615,9223372036854775807,-;largest\n\0006,18446744073709551614,9223372036854775806,c,caller=T123456789012345678;next\n SUBSYSTEM=x\n\000' >"$1/seed-kmsg-max"
	printf '2147483647,0,0,-;pri int max\n\0001023,1,1,-;facility 127\n\000191,2,9223372036854775808,-;ts past int64\n\0006,18446744073709551616,1,-;seq past u64\n\000' >"$1/seed-kmsg-pri"
	printf '<6>[9223372036853.9223372036854775807] x\n<6>[18446744073709.551615] y\n<6>[ -9223372036854.999999] z\n<6>[    1.9999999999] w\n<2147483647>[99999999999999999999.1] v\n<-1>[ 1.-9223372036854775808] u\n' >"$1/seed-syslog-max"
}

# writer_seeds DIR: headers of fuzz-writer.c (option bits, boot time,
# stamp, caller width, overrides) in front of kmsg and syslog inputs.
writer_seeds() {
	i=0
	for h in '\002\377\001\000\377\377\377\377\377\377\377\177\377\377\377\377\377\377\377\177\006\003\377\017' \
		 '\246\044\002\000\001\000\000\000\000\000\000\200\377\377\377\377\377\377\377\377\020\000\000\000'; do
		for f in "$1/seed-kmsg-max" "$1/seed-kmsg-pri" "$top/tests/fixtures/kmsg-nul.dump" "$top/tests/fixtures/kmsg-edge.dump"; do
			i=$((i + 1))
			{ printf "$h"; cat "$f"; } >"$1/seed-writer-$i"
		done
	done
	for h in '\377\377\002\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\200\377\001\001\021' \
		 '\043\101\000\000\000\040\353\160\106\141\004\000\377\377\377\377\377\377\377\177\000\000\000\000'; do
		for f in "$1/seed-syslog-max" "$top/tests/fixtures/syslog.txt" "$top/tests/fixtures/syslog-edge.txt" "$top/tests/fixtures/syslog-stamps.txt"; do
			i=$((i + 1))
			{ printf "$h"; cat "$f"; } >"$1/seed-writer-$i"
		done
	done
	rm -f "$1/seed-kmsg-max" "$1/seed-kmsg-pri" "$1/seed-syslog-max"
}

status=0
for t in ${FUZZ_TARGETS:-kmsg-parse syslog-parse source-file translate translate-record writer}; do
	bin="$out/fuzz-$t"
	srcs=""
	list=$libsrc
	[ "$t" = writer ] && list=$writersrc
	for f in $list; do srcs="$srcs $top/lib/$f"; done
	echo "run-fuzz: building fuzz-$t" >&2
	# shellcheck disable=SC2086
	if ! "$CLANG" $flags -o "$bin" "$here/fuzz-$t.c" $srcs; then
		echo "run-fuzz: fuzz-$t does not build" >&2
		status=1
		continue
	fi
	corpus="$out/$t-corpus"
	mkdir -p "$corpus" "$out/$t"
	if [ "$t" = translate ]; then
		# msgid NUL msgstr NUL text NUL ARG0 NUL ARG1
		printf 'link %%s: %%*ph %%d\0%%3$d: %%1$s %%2$*1$ph\0dev: link a: 01 02 7\0a\0001 02\0007' \
			>"$corpus/seed-reorder"
		printf '%%pI4 %%pV %%n %%%%\0%%1$pI4\0x\0001.2.3.4' >"$corpus/seed-pext"
	elif [ "$t" = translate-record ]; then
		# the test catalogue, and each record of the translation fixtures
		# as a seed of its own
		mkdir -p "$out/cat/xx/LC_MESSAGES"
		if ! msgfmt -o "$out/cat/xx/LC_MESSAGES/linux-kmsg.mo" \
			"$top/tests/fixtures/kmsg-test-xx.po"; then
			echo "run-fuzz: msgfmt cannot compile the test catalogue" >&2
			status=1
			continue
		fi
		export KDMESG_FUZZ_CATALOG="$out/cat"
		for f in "$top"/tests/fixtures/kmsg-translate*.dump; do
			awk -v dir="$corpus" -v base="$(basename "$f" .dump)" '
				!/^ / { n++ } { print > (dir "/" base "-" n) }' "$f"
		done
	elif [ "$t" = writer ]; then
		boundary_seeds "$corpus"
		writer_seeds "$corpus"
	else
		cp "$top"/tests/fixtures/*.dump "$top"/tests/fixtures/*.txt "$corpus/" 2>/dev/null || true
		boundary_seeds "$corpus"
	fi
	echo "run-fuzz: running fuzz-$t for ${secs}s" >&2
	if ! (cd "$out/$t" && "$bin" -max_total_time="$secs" -max_len=16384 \
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
