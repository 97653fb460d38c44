#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# journal-recover.sh - recovered call sites (issue 18) on records read from
# the systemd journal (issue 21).  Journals are built here by
# systemd-journal-remote from kdmesg's -o export of stock-kernel dumps (no
# FORMAT, no CODE_*), then:
#
# - the small demo (tests/fixtures/kmsg-stock-recover.dump, an index of
#   tests/fixtures/ksrc-recover): every output mode, --stats by recovered
#   site, the filters on recovered fields and translation give, on the
#   journal, recover.sh's golden files (tests/expected/recover/);
# - Debian's own kernel (tests/fixtures/kmsg-debian-6.12.dump, the index
#   of tests/fixtures/debian-6.12-formats.tar.xz): every record's recovered
#   fields and the -v summary are recover-debian.sh's golden ones, and
#   --code-file, --function, --stats and a translation read as on the dump;
# - a journal of records recovered before export (KDMESG_RECOVERED_<KEY>):
#   read without an index, the fields are still shown as recovered.
#
# Skips without libsystemd, systemd-journal-remote, xz or python3.
# Prints TAP.
set -u

: "${KDMESG:?KDMESG must point at the built kdmesg}"
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$(dirname "$KDMESG")/..}
KDMESG_PO=${KDMESG_PO:-$builddir/src/kdmesg-po}
F=$srcdir/tests/fixtures
E=$srcdir/tests/expected/recover
. "$srcdir/tests/cli/tap.sh"

remote=
for p in /lib/systemd/systemd-journal-remote /usr/lib/systemd/systemd-journal-remote; do
	[ -x "$p" ] && remote=$p && break
done
if [ -z "$remote" ]; then
	echo "1..0 # SKIP systemd-journal-remote is not installed"
	exit 0
fi
if "$KDMESG" --journal-file /nonexistent 2>&1 | grep -q 'without libsystemd'; then
	echo "1..0 # SKIP kdmesg was built without libsystemd"
	exit 0
fi
for t in xz python3; do
	if ! command -v $t >/dev/null 2>&1; then
		echo "1..0 # SKIP $t is not installed"
		exit 0
	fi
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/empty" "$tmp/cat/xx/LC_MESSAGES"
# No installed index and no debugfs: only --formats recovers.
export TZ=GMT KDMESG_MODULES_DIR=/nonexistent KDMESG_FORMATS_DIR="$tmp/empty" \
	KDMESG_DEBUGFS="$tmp/empty"
unset LANGUAGE LC_ALL LC_MESSAGES LANG DMESG_TEST_BOOTIME
B=1700000000.000000

# journal NAME DUMP ARGS...: NAME.journal from kdmesg -K DUMP ARGS -o export.
journal() {
	name=$1 dump=$2
	shift 2
	rm -f "$tmp/$name.journal"
	DMESG_TEST_BOOTIME=$B "$KDMESG" -K "$dump" "$@" -o export >"$tmp/$name.export" 2>/dev/null &&
		"$remote" -o "$tmp/$name.journal" - <"$tmp/$name.export" >/dev/null 2>&1
}

# same_json A B: the same JSON records, each compared as a whole object
# (the journal keeps a record's fields in its own order).
same_json() {
	python3 - "$1" "$2" <<'EOF'
import json, sys
a = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
b = [json.loads(l) for l in open(sys.argv[2], encoding="utf-8")]
sys.exit(not (a and a == b))
EOF
}

# --- the demo: recover.sh's golden files, from the journal ----------------
D=$F/kmsg-stock-recover.dump
"$KDMESG_PO" index --arch x86 -o "$tmp/demo.kdfi" "$F/ksrc-recover" >/dev/null 2>&1
journal stock "$D" --recover=never
ok $? "kdmesg -K kmsg-stock-recover.dump -o export | systemd-journal-remote"
! grep -q '^KDMESG_RECOVERED_' "$tmp/stock.export"
ok $? "... a stock journal: nothing recovered in it"
X="--formats $tmp/demo.kdfi"
J="--journal-file $tmp/stock.journal"

# golden NAME ENV... -- ARGS...: stdout, stderr and exit status of kdmesg
# on the journal are recover.sh's for the dump.
golden() {
	name=$1
	shift
	envs=""
	while [ "$1" != -- ]; do
		envs="$envs $1"
		shift
	done
	shift
	# shellcheck disable=SC2086
	env $envs "$KDMESG" "$@" >"$tmp/$name.out" 2>"$tmp/$name.raw"
	echo "$?" >>"$tmp/$name.raw"
	sed -e '/no module facts/d' -e '/--module matches module names as given/d' "$tmp/$name.raw" >"$tmp/$name.err"
	cmp -s "$tmp/$name.out" "$E/$name.out" && cmp -s "$tmp/$name.err" "$E/$name.err"
	ok $? "$name on the journal: as recover.sh's $name.out and .err"
	diff "$E/$name.out" "$tmp/$name.out" | head -6 | sed 's/^/# /'
	diff "$E/$name.err" "$tmp/$name.err" | head -4 | sed 's/^/# /'
}
# shellcheck disable=SC2086
golden jsonl -- $J $X -o jsonl -v
# shellcheck disable=SC2086
golden verbose DMESG_TEST_BOOTIME=$B -- $J $X -o verbose
# shellcheck disable=SC2086
golden export DMESG_TEST_BOOTIME=$B -- $J $X -o export
# shellcheck disable=SC2086
golden location -- $J $X --location
# shellcheck disable=SC2086
golden stats -- $J $X --stats
# shellcheck disable=SC2086
golden stats-json -- $J $X --stats -J
# shellcheck disable=SC2086
golden stats-none -- $J --stats
# shellcheck disable=SC2086
golden code-file -- $J $X --code-file demo_main.c -o jsonl
# shellcheck disable=SC2086
golden function -- $J $X --function 'other_*' --location
# shellcheck disable=SC2086
golden module -- $J $X --module demo-net --location
# shellcheck disable=SC2086
golden format -- $J $X --format 'timeout waiting for %s'
# shellcheck disable=SC2086
golden field -- $J $X ARG0=reset
# shellcheck disable=SC2086
golden code-file-none -- $J --code-file demo_main.c
# shellcheck disable=SC2086
golden never -- $J $X --recover=never -o jsonl
if command -v msgfmt >/dev/null 2>&1; then
	msgfmt -o "$tmp/cat/xx/LC_MESSAGES/linux-kmsg.mo" "$F/kmsg-recover-xx.po"
	# shellcheck disable=SC2086
	golden translate LANGUAGE=xx LC_ALL=C.UTF-8 -- $J $X --translate=always \
		--catalog-dir "$tmp/cat" --level info -v
else
	n=$((n + 1))
	echo "ok $n # SKIP msgfmt (gettext) is not installed"
fi
# -o json adds what the journal knows of the record's boot; the rest is
# the golden file's.
# shellcheck disable=SC2086
"$KDMESG" $J $X -o json >"$tmp/json.out" 2>/dev/null
python3 - "$tmp/json.out" "$E/json.out" <<'EOF'
import json, sys
got = json.load(open(sys.argv[1], encoding="utf-8"))
want = json.load(open(sys.argv[2], encoding="utf-8"))
for r in got["dmesg"]:
    assert r.pop("_BOOT_ID", None), r
    r.pop("__REALTIME_TIMESTAMP", None)
assert got == want
EOF
ok $? "-o json on the journal: the golden records plus _BOOT_ID"

# --- recovered before export: the journal carries the fields as recovered -
journal carried "$D" --formats "$tmp/demo.kdfi"
[ "$(grep -c '^KDMESG_RECOVERED_' "$tmp/carried.export")" -gt 50 ]
ok $? "-o export --formats writes KDMESG_RECOVERED_<KEY> fields"
C="--journal-file $tmp/carried.journal --recover=never"
# shellcheck disable=SC2086
"$KDMESG" $C -o jsonl >"$tmp/c.out" 2>/dev/null
same_json "$tmp/c.out" "$E/jsonl.out"
ok $? "read back without an index: FORMAT[recovered], CODE_FILE[recovered]... as recovered"
# shellcheck disable=SC2086
"$KDMESG" $C --code-file demo_main.c -o jsonl >"$tmp/c.out" 2>/dev/null
same_json "$tmp/c.out" "$E/code-file.out"
ok $? "... --code-file on the carried fields"
for t in location stats; do
	# shellcheck disable=SC2086
	"$KDMESG" $C --$t >"$tmp/c.out" 2>/dev/null
	cmp -s "$tmp/c.out" "$E/$t.out"
	ok $? "... --$t by the carried site: as $t.out"
done
# shellcheck disable=SC2086
"$KDMESG" $C --function 'other_*' --location >"$tmp/c.out" 2>/dev/null
cmp -s "$tmp/c.out" "$E/function.out"
ok $? "... --function on the carried fields"
# With an index too: the carried records are not recovered again.
# shellcheck disable=SC2086
"$KDMESG" --journal-file "$tmp/carried.journal" $X -o jsonl -v >"$tmp/c.out" 2>"$tmp/c.err"
same_json "$tmp/c.out" "$E/jsonl.out" && grep -q '^kdmesg: recovered 0 of 2 records' "$tmp/c.err"
ok $? "... with --formats as well: only the records without fields are tried"

# --- Debian's kernel: recover-debian.sh's golden fields, from the journal -
tar -C "$tmp" -xJf "$F/debian-6.12-formats.tar.xz"
"$KDMESG_PO" index -o "$tmp/debian.kdfi" --release 6.12.118+deb12-amd64 \
	"$tmp/debian-6.12-formats/printk-index" "$tmp/debian-6.12-formats/sites.txt" >/dev/null 2>&1
DEB=$F/kmsg-debian-6.12.dump
journal debian "$DEB" --recover=never
ok $? "kdmesg -K kmsg-debian-6.12.dump -o export | systemd-journal-remote"
"$KDMESG" --journal-file "$tmp/debian.journal" --formats "$tmp/debian.kdfi" -o jsonl -v \
	>"$tmp/deb.jsonl" 2>"$tmp/deb.err"
grep '^kdmesg: recover' "$tmp/deb.err" | cmp -s - "$E/debian.summary"
ok $? "the -v summary on the journal: recover-debian.sh's ($(head -n 1 "$E/debian.summary"))"
# each record's recovered fields, as recover-debian.sh prints them
python3 - "$tmp/deb.jsonl" >"$tmp/fields.txt" <<'EOF'
import json, sys
for line in open(sys.argv[1], encoding="utf-8"):
    o = json.loads(line)
    r = {k[:-11]: v for k, v in o.items() if k.endswith("[recovered]")}
    args, i = [], 0
    while "ARG%d" % i in r:
        args.append(r["ARG%d" % i]); i += 1
    print("%d\t%s\t%s:%s %s %s\t%s\t%s" % (
        o["seq"], json.dumps(r.get("FORMAT", "-")), r.get("CODE_FILE", "-"),
        r.get("CODE_LINE", "-"), r.get("CODE_FUNC", "-"), r.get("MODULE", "-"),
        "ambiguous=" + r["RECOVER_AMBIGUOUS"] if "RECOVER_AMBIGUOUS" in r else "",
        json.dumps(args)))
EOF
diff "$E/debian.txt" "$tmp/fields.txt" >"$tmp/diff"
ok $? "every record's recovered fields: tests/expected/recover/debian.txt ($(wc -l <"$tmp/fields.txt") records)"
head -n 6 "$tmp/diff" | sed 's/^/# /'

# No --formats: the installed index of the release the journal's first
# record names (its boot banner), as for a dump.
mkdir -p "$tmp/formats"
cp "$tmp/debian.kdfi" "$tmp/formats/6.12.118+deb12-amd64.kdfi"
KDMESG_FORMATS_DIR="$tmp/formats" "$KDMESG" --journal-file "$tmp/debian.journal" -o jsonl -v \
	>"$tmp/deb2.jsonl" 2>"$tmp/deb2.err"
grep '^kdmesg: recover' "$tmp/deb2.err" | cmp -s - "$E/debian.summary" && cmp -s "$tmp/deb.jsonl" "$tmp/deb2.jsonl"
ok $? "the installed index of the banner's release (6.12.118+deb12-amd64.kdfi): the same records"

# A translation of one of Debian's recovered formats, its arguments reordered.
if command -v msgfmt >/dev/null 2>&1; then
	cat >"$tmp/deb-xx.po" <<'EOF'
msgid ""
msgstr "Content-Type: text/plain; charset=UTF-8\n"

msgid "e1000: %s NIC Link is Up %d Mbps %s, Flow Control: %s"
msgstr "e1000: %4$s flow, %3$s at %2$d Mbps on %1$s"
EOF
	msgfmt -o "$tmp/cat/xx/LC_MESSAGES/linux-kmsg.mo" "$tmp/deb-xx.po"
	tr_args="--translate=always --catalog-dir $tmp/cat"
else
	tr_args=
fi
# on ARGS...: kdmesg on the journal reads as on the dump.
on() {
	# shellcheck disable=SC2086
	env LANGUAGE=xx LC_ALL=C.UTF-8 "$KDMESG" -K "$DEB" --formats "$tmp/debian.kdfi" "$@" \
		>"$tmp/d.out" 2>&1
	# shellcheck disable=SC2086
	env LANGUAGE=xx LC_ALL=C.UTF-8 "$KDMESG" --journal-file "$tmp/debian.journal" \
		--formats "$tmp/debian.kdfi" "$@" >"$tmp/j.out" 2>&1
	[ -s "$tmp/d.out" ] && cmp -s "$tmp/d.out" "$tmp/j.out"
}
on --code-file drivers/net/ethernet/intel/e1000 --location
ok $? "--code-file on Debian's recovered sites: as on the dump ($(wc -l <"$tmp/d.out") records)"
on --function e1000_probe --location
ok $? "--function on Debian's recovered sites: as on the dump ($(wc -l <"$tmp/d.out") records)"
on --stats
ok $? "--stats by Debian's recovered sites: as on the dump"
if [ -n "$tr_args" ]; then
	# shellcheck disable=SC2086
	on $tr_args --function e1000_watchdog
	rc=$?
	[ "$(cat "$tmp/j.out")" = "[    7.639832] e1000: RX flow, Full Duplex at 1000 Mbps on eth0" ] && [ $rc = 0 ]
	ok $? "a recovered record translated, its arguments reordered: as on the dump"
	sed 's/^/# /' "$tmp/j.out" | head -3
else
	n=$((n + 1))
	echo "ok $n # SKIP msgfmt (gettext) is not installed"
fi

tap_done
