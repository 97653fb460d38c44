#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# json-valid.sh - every JSON output of kdmesg parses, on every fixture:
# -J (dmesg's schema), -o json (with the dictionary) and each line of
# -o jsonl, read by `python3 -m json.tool` and by `jq`, two independent
# parsers.  The writers assemble JSON by hand into a buffer (for speed,
# bench/run-outputs.sh), so this guards what the goldens only show for
# a few inputs: crafted bytes, malformed and truncated records, NULs,
# invalid UTF-8, huge numbers.
set -u

: "${KDMESG:?KDMESG must point at the built kdmesg}"
top=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top/tests/cli/tap.sh"

if ! command -v python3 >/dev/null 2>&1 || ! command -v jq >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 and jq are needed (apt-get install python3 jq)"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# check NAME MODE SOURCE-OPTION FILE: one check per parser of kdmesg's
# output in MODE ("-J", "-o json", "-o jsonl") of FILE.
check() {
	name=$1 mode=$2 src=$3 file=$4
	# shellcheck disable=SC2086
	DMESG_TEST_BOOTIME=1700000000.000000 KDMESG_TEST_CALLER_WIDTH=6 \
		"$KDMESG" "$src" "$file" $mode >"$tmp/out" 2>/dev/null
	if [ "$mode" = "-o jsonl" ]; then
		python3 -c 'import json, sys
for line in sys.stdin:
    json.loads(line)' <"$tmp/out" 2>"$tmp/err"
	elif [ -s "$tmp/out" ]; then
		python3 -m json.tool <"$tmp/out" >/dev/null 2>"$tmp/err"
	else
		true	# nothing printed: no record (dmesg -J prints nothing either)
	fi
	ok $? "$name $mode: python3 parses it"
	[ -s "$tmp/err" ] && sed 's/^/# /' "$tmp/err"
	jq -e . <"$tmp/out" >/dev/null 2>"$tmp/err"
	rc=$?
	# jq -e fails on empty input; an empty output is checked above.
	[ -s "$tmp/out" ] || rc=0
	ok $rc "$name $mode: jq parses it"
	[ -s "$tmp/err" ] && sed 's/^/# /' "$tmp/err"
}

for f in "$top"/tests/fixtures/kmsg-*.dump; do
	name=$(basename "$f")
	for mode in "-J" "-o json" "-o jsonl"; do
		check "$name" "$mode" -K "$f"
	done
done
for f in "$top"/tests/fixtures/syslog*.txt; do
	name=$(basename "$f")
	for mode in "-J" "-o json" "-o jsonl"; do
		check "$name" "$mode" -F "$f"
	done
done
# Bytes no fixture was written for: every byte value, in text and dictionary.
python3 - "$tmp/bytes.kmsg" <<'PY'
import sys
with open(sys.argv[1], "wb") as f:
    for i in range(256):
        b = bytes([i])
        f.write(b"6,%d,%d,-;byte %02x: \xc3" % (i, i * 1000, i) + b.replace(b"\n", b"\\x0a") +
                b" \xf4\x90\x80\x80 \xed\xa0\x80 \"q\" \\\n SUBSYSTEM=x" + b.replace(b"\n", b"") +
                b"\n DEVICE=\x7f\x01\n\0")
PY
for mode in "-J" "-o json" "-o jsonl"; do
	check "every byte" "$mode" -K "$tmp/bytes.kmsg"
done
tap_done
