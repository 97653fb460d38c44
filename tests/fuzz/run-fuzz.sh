#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# run-fuzz.sh DIR - build the reader and renderer fuzz targets with clang's libFuzzer
# and AddressSanitizer + UndefinedBehaviorSanitizer in DIR, seed them with
# tests/fixtures, and run each for a bounded time (FUZZ_SECONDS, default
# 20).  Exits non-zero when a target does not build or finds a crash; the
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
libsrc="record.c kmsg-parse.c syslog-parse.c source.c source-kmsg.c source-syslog.c source-file.c klogctl.c priority.c kfmt.c mo.c catalog.c charset.c translate.c"
flags="-g -O1 -std=gnu11 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I$out -I$top/lib"

status=0
for t in ${FUZZ_TARGETS:-kmsg-parse syslog-parse source-file translate}; do
	bin="$out/fuzz-$t"
	srcs=""
	for f in $libsrc; do srcs="$srcs $top/lib/$f"; done
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
	else
		cp "$top"/tests/fixtures/*.dump "$top"/tests/fixtures/*.txt "$corpus/" 2>/dev/null || true
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
