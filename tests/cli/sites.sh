#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# sites.sh - compact kprint records (SITE; printk.kprint_dict=site)
# expanded with the kernel's site table.  tests/kprint-compact.py derives,
# from full-mode dumps (kmsg-kprint-journald.dump: a real boot with
# device prefixes, pr_cont() parts, groups, cut arguments, %pV and 70
# conversions; kmsg-kprint-group.dump: groups cut by the record limit),
# the compact dump of the same boot and its site table; kdmesg on the
# compact dump with --sites must print what it prints on the full dump,
# byte for byte, in every output, filter, --stats and translation.  Then
# what is not proven stays compact and is counted (a table without the
# site, a span past the text, a stale table whose format does not render
# the text); --save-sites against a fake debugfs, notes and /proc (merge
# of unloaded modules' lines, the boots map, its errors); the saved table
# found by a dump's banner, by the live log (under the LD_PRELOAD shim)
# and by a journal record's boot.  Prints TAP.
set -u

: "${KDMESG:?KDMESG must point at the built kdmesg}"
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
F=$srcdir/tests/fixtures
. "$srcdir/tests/cli/tap.sh"

if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is not installed"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
export TZ=GMT LC_ALL=C.UTF-8 KDMESG_MODULES_DIR=/nonexistent DMESG_TEST_BOOTIME=1700000000.000000
export KDMESG_SITES_DIR="$tmp/nosaved" KDMESG_DEBUGFS="$tmp/nodebugfs"
export KDMESG_NOTES="$tmp/nonotes" KDMESG_PROC="$tmp/noproc"
unset LANGUAGE KDMESG_SITES

J=$F/kmsg-kprint-journald.dump
G=$F/kmsg-kprint-group.dump
python3 "$srcdir/tests/kprint-compact.py" "$J" "$tmp/j.dump" "$tmp/j.sites" 2>"$tmp/conv.err"
ok $? "kprint-compact.py derives the compact twin of $J"
python3 "$srcdir/tests/kprint-compact.py" "$G" "$tmp/g.dump" "$tmp/g.sites" 2>>"$tmp/conv.err"
ok $? "kprint-compact.py derives the compact twin of $G"
# Every block but the one the record limit cut (LINE3_ of the last group) is compact.
[ "$(grep -c '^ \(LINE[0-9]*_\|PART[0-9]*_\)\?SITE=' "$tmp/j.dump")" -gt 150 ] &&
	! grep -q '^ \(LINE[0-9]*_\)\?CODE_FILE=\|FORMAT=' "$tmp/j.dump" &&
	grep -q '^ PART3_SITE=' "$tmp/j.dump" && grep -q '^ LINE2_SITE=[^ ]* [0-9]' "$tmp/j.dump" &&
	[ "$(cat "$tmp/conv.err")" = "kprint-compact.py: 1 blocks left in full form" ]
ok $? "the compact dump has SITE with spans for records, lines and parts, no full keys"

# same NAME DUMP ARGS...: kdmesg on the compact twin with --sites prints
# what it prints on the full dump (stdout, stderr and status).
same() {
	name=$1 full=$2
	shift 2
	twin=$tmp/j
	[ "$full" = "$G" ] && twin=$tmp/g
	"$KDMESG" -K "$full" "$@" >"$tmp/full.out" 2>"$tmp/full.err"
	s1=$?
	"$KDMESG" -K "$twin.dump" --sites "$twin.sites" "$@" >"$tmp/compact.out" 2>"$tmp/compact.all"
	s2=$?
	# -v says how many records were expanded: the only difference.
	grep -v '^kdmesg: expanded [0-9]* of [0-9]* records with compact call sites' \
		"$tmp/compact.all" >"$tmp/compact.err"
	[ "$s1" = "$s2" ] && cmp -s "$tmp/full.out" "$tmp/compact.out" &&
		cmp -s "$tmp/full.err" "$tmp/compact.err" && [ -s "$tmp/full.out" ]
	ok $? "$name: the compact dump with --sites prints what the full dump prints"
	cmp -s "$tmp/full.out" "$tmp/compact.out" ||
		diff -u "$tmp/full.out" "$tmp/compact.out" | sed 's/^/# /' | head -20
	cmp -s "$tmp/full.err" "$tmp/compact.err" ||
		diff -u "$tmp/full.err" "$tmp/compact.err" | sed 's/^/# /' | head -5
}

for d in "$J" "$G"; do
	b=$(basename "$d" .dump)
	same "$b text" "$d"
	same "$b verbose" "$d" -o verbose
	same "$b json" "$d" -o json
	same "$b jsonl" "$d" -o jsonl
	same "$b export" "$d" -o export
	same "$b location" "$d" --location -x
	same "$b stats" "$d" --stats
	same "$b stats-json" "$d" --stats -J --top 5
done
same "code-file" "$J" --code-file e820.c -o jsonl
same "function" "$J" --function kp_caps --location
same "module" "$J" --module kprint_test -o verbose
same "format" "$J" --format '%s: [mem %#018Lx-%#018Lx] ' --location
same "part format" "$J" PART2_FORMAT=reserved --location
same "field ARGn" "$J" ARG0=BIOS-e820 ARG2=0x000000000009fbff -o jsonl
same "group function" "$G" --function group_lines -o verbose
same "group line field" "$G" LINE2_ARG0=01 -o jsonl

# Translation: the shipped German catalogue on the real boot, the group
# test catalogues on the groups.
if command -v msgfmt >/dev/null 2>&1; then
	mkdir -p "$tmp/cat/de/LC_MESSAGES" "$tmp/grp/de/LC_MESSAGES"
	msgfmt -o "$tmp/cat/de/LC_MESSAGES/linux-kmsg.mo" "$srcdir/po-kmsg/de.po" &&
		msgfmt -o "$tmp/grp/de/LC_MESSAGES/linux-kmsg.mo" "$F/kmsg-group-de.po"
	ok $? "msgfmt compiles the catalogues"
	LANGUAGE=de same "translate" "$J" --translate=always --catalog-dir "$tmp/cat" -v
	LANGUAGE=de same "translate json" "$J" --translate=always --catalog-dir "$tmp/cat" -o jsonl
	LANGUAGE=de same "translate group" "$G" --translate=always --catalog-dir "$tmp/grp" -v
	LANGUAGE=de "$KDMESG" -K "$G" --translate=always --catalog-dir "$tmp/grp" >"$tmp/de.out"
	"$KDMESG" -K "$G" >"$tmp/c.out"
	! cmp -s "$tmp/de.out" "$tmp/c.out"
	ok $? "translate group: the German text differs from the original (the check can fail)"
fi

# kdmesg-po reads a compact dump with KDMESG_SITES: the template of the full dump.
PO=$(dirname "$KDMESG")/kdmesg-po
SOURCE_DATE_EPOCH=0 "$PO" extract --dump="$J" >"$tmp/full.pot"
SOURCE_DATE_EPOCH=0 KDMESG_SITES=$tmp/j.sites "$PO" extract --dump="$tmp/j.dump" >"$tmp/compact.pot"
SOURCE_DATE_EPOCH=0 "$PO" extract --dump="$tmp/j.dump" >"$tmp/none.pot" 2>/dev/null
cmp -s "$tmp/full.pot" "$tmp/compact.pot" && ! cmp -s "$tmp/full.pot" "$tmp/none.pot"
ok $? "kdmesg-po extract --dump: a compact dump with KDMESG_SITES as the full dump"

# KDMESG_SITES stands for --sites.
"$KDMESG" -K "$tmp/j.dump" --sites "$tmp/j.sites" -o jsonl >"$tmp/opt.out" 2>&1
KDMESG_SITES=$tmp/j.sites "$KDMESG" -K "$tmp/j.dump" -o jsonl >"$tmp/env.out" 2>&1
cmp -s "$tmp/opt.out" "$tmp/env.out" && ! grep -q '"SITE"' "$tmp/env.out"
ok $? "KDMESG_SITES names the table as --sites does"
# -v: how many were expanded, from which table.
"$KDMESG" -K "$tmp/j.dump" --sites "$tmp/j.sites" -o json -v 2>&1 >/dev/null | grep -v 'module facts' >"$tmp/v.err"
echo "kdmesg: expanded 124 of 124 records with compact call sites (site table: $tmp/j.sites)" >"$tmp/v.exp"
cmp -s "$tmp/v.err" "$tmp/v.exp"
ok $? "-v: the count of expanded records and the table"

# --- what is not proven stays compact, counted once on stderr -------------
# leftover ARGS: kdmesg ARGS; stderr's line about compact records to $tmp/left.
leftover() {
	"$KDMESG" "$@" -o jsonl >"$tmp/left.out" 2>"$tmp/left.all"
	grep -v 'module facts' "$tmp/left.all" >"$tmp/left"
}
leftover -K "$tmp/j.dump"
[ "$(cat "$tmp/left")" = "kdmesg: 124 records carry compact call sites (SITE) and no site table of their kernel was found: their CODE_*, MODULE, FORMAT and ARGn fields are missing (see --sites and --save-sites)" ] &&
	[ "$(grep -c 'SITE":' "$tmp/left.out")" = 124 ] && ! grep -q 'CODE_FILE":' "$tmp/left.out"
ok $? "no table: records keep SITE, one line says why"
"$KDMESG" -K "$tmp/j.dump" >"$tmp/text.out" 2>"$tmp/text.err"
"$KDMESG" -K "$J" >"$tmp/text-full.out"
cmp -s "$tmp/text.out" "$tmp/text-full.out" && [ ! -s "$tmp/text.err" ]
ok $? "plain text output needs no table and says nothing"

# A table without the e820 table's site (7 records use it).
grep -v '^vmlinux:4 ' "$tmp/j.sites" >"$tmp/missing.sites"
leftover -K "$tmp/j.dump" --sites "$tmp/missing.sites"
[ "$(cat "$tmp/left")" = "kdmesg: 7 of 124 records with compact call sites kept them unexpanded: 0 without a site table, 7 not in the table, 0 inconsistent with it, 0 too large" ] &&
	[ "$(grep -c '"SITE":"vmlinux:4 ' "$tmp/left.out")" = 7 ] &&
	[ "$(grep -c 'CODE_FILE":' "$tmp/left.out")" = 117 ]
ok $? "a site the table lacks: those records stay compact, counted"

# A span past the text of the "Command line" record (89 bytes).
sed 's/^ SITE=vmlinux:2 14-89$/ SITE=vmlinux:2 14-90/' "$tmp/j.dump" >"$tmp/span.dump"
leftover -K "$tmp/span.dump" --sites "$tmp/j.sites"
[ "$(cat "$tmp/left")" = "kdmesg: 1 of 124 records with compact call sites kept them unexpanded: 0 without a site table, 0 not in the table, 1 inconsistent with it, 0 too large" ] &&
	grep -q '"message":"Command line: .*"SITE":"vmlinux:2 14-90"' "$tmp/left.out"
ok $? "a span past the text: the record stays compact, counted"

# A span that cuts an argument short: the literal after it does not follow.
sed 's/^ SITE=\(vmlinux:[0-9]*\) 0-9,16-34,35-53$/ SITE=\1 0-9,16-33,35-53/' "$tmp/j.dump" >"$tmp/span2.dump"
leftover -K "$tmp/span2.dump" --sites "$tmp/j.sites"
grep -q '7 of 124 .* 7 inconsistent' "$tmp/left"
ok $? "spans that do not render the text: inconsistent, counted"

# A stale table: another kernel's format at the same index.
sed 's/^\(vmlinux:2 .*\) Command line: %s$/\1 Kernel command line: %s/' "$tmp/j.sites" >"$tmp/stale.sites"
! cmp -s "$tmp/stale.sites" "$tmp/j.sites"
ok $? "the stale table differs"
leftover -K "$tmp/j.dump" --sites "$tmp/stale.sites"
grep -q '1 of 124 .* 1 inconsistent' "$tmp/left" &&
	grep -q '"message":"Command line: .*"SITE":"vmlinux:2 ' "$tmp/left.out"
ok $? "a stale table whose format does not render the text: unexpanded"

# Bad table lines are skipped, the rest used; an unreadable --sites is an error.
{ printf 'garbage\n\nvmlinux:x 6 a.c:1 f m fmt\nvmlinux:99999999999 6 a.c:1 f m x\n'; cat "$tmp/j.sites"; } >"$tmp/bad.sites"
leftover -K "$tmp/j.dump" --sites "$tmp/bad.sites"
[ ! -s "$tmp/left" ] && ! grep -q '"SITE"' "$tmp/left.out"
ok $? "malformed table lines are skipped"
"$KDMESG" -K "$tmp/j.dump" --sites "$tmp/none.sites" >"$tmp/err.out" 2>"$tmp/err.err"
s=$?
[ $s = 1 ] && [ ! -s "$tmp/err.out" ] &&
	[ "$(cat "$tmp/err.err")" = "kdmesg: cannot read the site table $tmp/none.sites: No such file or directory" ]
ok $? "--sites naming no file: one line, status 1"

# --- --save-sites ----------------------------------------------------------
id=0123456789abcdef0123456789abcdef01234567
mkdir -p "$tmp/dbg/kprint" "$tmp/proc/sys/kernel/random"
python3 -c 'import struct, sys
def note(name, typ, desc):
    n = name + b"\0"
    pad = lambda b: b + b"\0" * (-len(b) % 4)
    return struct.pack("=III", len(n), len(desc), typ) + pad(n) + pad(desc)
sys.stdout.buffer.write(note(b"Xen", 1, b"\1\2\3") + note(b"GNU", 3, bytes.fromhex(sys.argv[1])))' \
	"$id" >"$tmp/notes"
banner=$(sed -n 's/^5,1,0,-;\(Linux version .*\)$/\1/p' "$J")
printf '%s\n' "$banner" >"$tmp/proc/version"
echo 4e1c2a3b-0000-4000-8000-00000000abcd >"$tmp/proc/sys/kernel/random/boot_id"
save() {
	KDMESG_DEBUGFS="$tmp/dbg" KDMESG_NOTES="$tmp/notes" KDMESG_PROC="$tmp/proc" \
		KDMESG_SITES_DIR="$tmp/saved" "$KDMESG" --save-sites "$@" >"$tmp/save.out" 2>"$tmp/save.err"
}
save
[ $? = 1 ] && [ ! -e "$tmp/saved" ] &&
	[ "$(cat "$tmp/save.err")" = "kdmesg: $tmp/dbg/kprint/sites: no such file: the running kernel has no kprint site table (not a CONFIG_KPRINT kernel, or debugfs is not mounted)" ]
ok $? "--save-sites without a kernel table: one line, status 1, nothing written"
# The table as loaded now: without the kprint_test module's lines.
grep -v '^kprint_test:' "$tmp/j.sites" >"$tmp/dbg/kprint/sites"
cp "$tmp/j.sites" "$tmp/full.sites"
chmod 000 "$tmp/dbg/kprint/sites"
if ! cat "$tmp/dbg/kprint/sites" >/dev/null 2>&1; then
	save
	[ $? = 1 ] && grep -q 'cannot read .*: Permission denied' "$tmp/save.err"
	ok $? "--save-sites with debugfs unreadable: one line, status 1"
fi
chmod 644 "$tmp/dbg/kprint/sites"
# First a table with the module loaded, then one without: its lines are kept.
cp "$tmp/j.sites" "$tmp/dbg/kprint/sites"
save && [ ! -s "$tmp/save.out" ] && [ ! -s "$tmp/save.err" ]
ok $? "--save-sites saves silently"
grep -v '^kprint_test:' "$tmp/j.sites" >"$tmp/dbg/kprint/sites"
save -v
[ $? = 0 ] && [ "$(cat "$tmp/save.out")" = "kdmesg: saved $(grep -vc '^kprint_test:' "$tmp/j.sites") call sites of build $id (6.12.118) to $tmp/saved/$id.sites, $(grep -c '^kprint_test:' "$tmp/j.sites") lines kept from before" ]
ok $? "--save-sites -v: the count, the build, the lines merged"
{
	echo '# kdmesg-sites 1'
	echo "# build-id $id"
	echo '# release 6.12.118'
	echo "# version $banner"
	grep -v '^kprint_test:' "$tmp/j.sites"
	grep '^kprint_test:' "$tmp/j.sites"
} >"$tmp/saved.exp"
cmp -s "$tmp/saved/$id.sites" "$tmp/saved.exp" &&
	[ "$(cat "$tmp/saved/boots")" = "4e1c2a3b00004000800000000000abcd $id" ] &&
	[ "$(ls -A "$tmp/saved" | wc -l)" = 2 ]
ok $? "the saved table: header, the kernel's lines, the unloaded module's kept; the boots map"
cmp -s "$tmp/saved/$id.sites" "$tmp/saved.exp" || diff -u "$tmp/saved.exp" "$tmp/saved/$id.sites" | sed 's/^/# /' | head

# The live log: the saved table of the running build when debugfs is not readable.
# (The live kernel is never read here: the expansion is shown on a dump.)
# A dump whose banner is the saved version: found without --sites.
KDMESG_SITES_DIR="$tmp/saved" "$KDMESG" -K "$tmp/j.dump" -o jsonl >"$tmp/banner.out" 2>&1
"$KDMESG" -K "$J" -o jsonl >"$tmp/banner.exp" 2>&1
cmp -s "$tmp/banner.out" "$tmp/banner.exp"
ok $? "a dump: the saved table whose version line is the dump's banner"
sed 's/^5,1,0,-;Linux version 6.12.118 /5,1,0,-;Linux version 6.12.119 /' "$tmp/j.dump" >"$tmp/other.dump"
KDMESG_SITES_DIR="$tmp/saved" "$KDMESG" -K "$tmp/other.dump" -o jsonl >"$tmp/other.out" 2>&1
grep -q 'no site table of their kernel was found' "$tmp/other.out"
ok $? "a dump of another kernel: no saved table used"
KDMESG_SITES_DIR="$tmp/saved" "$KDMESG" -K - -o jsonl <"$tmp/j.dump" >"$tmp/stdin.out" 2>&1
grep -q 'no site table' "$tmp/stdin.out"
ok $? "a dump on standard input whose first record is not the banner: no table"

# Save again into a read-only place: one line, status 1.
mkdir -p "$tmp/ro" && chmod 555 "$tmp/ro"
if ! touch "$tmp/ro/x" 2>/dev/null; then
	KDMESG_DEBUGFS="$tmp/dbg" KDMESG_NOTES="$tmp/notes" KDMESG_PROC="$tmp/proc" \
		KDMESG_SITES_DIR="$tmp/ro/sites" "$KDMESG" --save-sites >/dev/null 2>"$tmp/ro.err"
	[ $? = 1 ] && grep -q "cannot write $tmp/ro/sites/$id.sites" "$tmp/ro.err"
	ok $? "--save-sites into a directory it cannot write: one line, status 1"
fi
printf 'xx' >"$tmp/badnotes"
KDMESG_DEBUGFS="$tmp/dbg" KDMESG_NOTES="$tmp/badnotes" KDMESG_PROC="$tmp/proc" \
	KDMESG_SITES_DIR="$tmp/saved2" "$KDMESG" --save-sites 2>"$tmp/bn.err"
[ $? = 1 ] && [ ! -e "$tmp/saved2" ] &&
	[ "$(cat "$tmp/bn.err")" = "kdmesg: $tmp/badnotes: no GNU build id note: the table cannot be saved under the kernel's build id" ]
ok $? "--save-sites without a build id: one line, status 1, nothing written"

# --- the live log, under the LD_PRELOAD shim (tests/shim/kmsg-shim.c) -------
shim=${top_builddir:-}/tests/shim/kmsg-shim.so
if [ -n "${top_builddir:-}" ] && [ -f "$shim" ]; then
	# live KMSG VAR=VALUE... -- ARGS: kdmesg reading /dev/kmsg, which holds KMSG.
	live() {
		cp "$1" "$tmp/kmsg"
		shift
		env LD_PRELOAD="$shim" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
			KDMESG_SHIM_KMSG="$tmp/kmsg" KDMESG_SHIM_SYSLOG="$tmp/nosyslog" \
			KDMESG_SHIM_LOG="$tmp/shimlog" "$@"
	}
	live "$J" "$KDMESG" -o jsonl >"$tmp/live-full.out" 2>&1
	mkdir -p "$tmp/livedbg/kprint"
	cp "$tmp/j.sites" "$tmp/livedbg/kprint/sites"
	live "$tmp/j.dump" env KDMESG_DEBUGFS="$tmp/livedbg" "$KDMESG" -o jsonl >"$tmp/live-dbg.out" 2>&1
	cmp -s "$tmp/live-full.out" "$tmp/live-dbg.out" && grep -q 'CODE_FILE":' "$tmp/live-dbg.out"
	ok $? "live: the kernel's debugfs table expands /dev/kmsg's compact records"
	# No debugfs: the table saved for the running kernel's build id.
	live "$tmp/j.dump" env KDMESG_NOTES="$tmp/notes" KDMESG_SITES_DIR="$tmp/saved" \
		"$KDMESG" -o jsonl >"$tmp/live-saved.out" 2>&1
	cmp -s "$tmp/live-full.out" "$tmp/live-saved.out"
	ok $? "live: without debugfs, the table saved under the running build id"
	# -w: a module loaded while kdmesg follows; its sites come in a table
	# read again (at most once a second) when a record names one.
	awk '!/^ / { n++ } n <= 20' "$tmp/j.dump" >"$tmp/first.dump"
	awk '!/^ / { n++ } n > 20' "$tmp/j.dump" >"$tmp/rest.dump"
	grep -v '^kprint_test:' "$tmp/j.sites" >"$tmp/livedbg/kprint/sites"
	! grep -q 'SITE=kprint_test:' "$tmp/first.dump" && grep -q 'SITE=kprint_test:' "$tmp/rest.dump"
	ok $? "-w: the module's records come later"
	(sleep 1.5; cp "$tmp/j.sites" "$tmp/livedbg/kprint/sites"; cat "$tmp/rest.dump" >>"$tmp/kmsg") &
	live "$tmp/first.dump" env KDMESG_DEBUGFS="$tmp/livedbg" KDMESG_SHIM_AT_END=exit \
		KDMESG_SHIM_WAIT_MS=4000 "$KDMESG" -w -o jsonl >"$tmp/live-w.out" 2>&1
	wait
	grep -v '^{' "$tmp/live-w.out" | sed 's/^/# /'
	[ "$(grep -c '^{' "$tmp/live-w.out")" = "$(grep -c '^[0-9]' "$tmp/j.dump")" ] &&
		! grep -q 'SITE":' "$tmp/live-w.out" && grep -q '"MODULE":"kprint_test"' "$tmp/live-w.out"
	ok $? "-w: sites of a module loaded later are found in debugfs read again"
	live "$tmp/j.dump" "$KDMESG" -o jsonl >"$tmp/live-none.out" 2>&1
	grep -q 'no site table of their kernel was found' "$tmp/live-none.out"
	ok $? "live: no table at all: compact records, one line says so"
fi

# --- the journal: a record's boot through the boots map ---------------------
remote=
for p in /lib/systemd/systemd-journal-remote /usr/lib/systemd/systemd-journal-remote; do
	[ -x "$p" ] && remote=$p && break
done
if [ -n "$remote" ] && ! "$KDMESG" --journal-file /nonexistent 2>&1 | grep -q 'without libsystemd'; then
	# Into the journal as journald stores them: _KERNEL_SITE.
	"$KDMESG" -K "$tmp/j.dump" -o export 2>/dev/null >"$tmp/j.export"
	"$KDMESG" -K "$J" -o export 2>/dev/null >"$tmp/full.export"
	grep -q '^_KERNEL_SITE=' "$tmp/j.export" && grep -q '^_KERNEL_LINE2_SITE=' "$tmp/j.export"
	ok $? "the compact export stream has _KERNEL_SITE and _KERNEL_LINE2_SITE"
	"$remote" -o "$tmp/j.journal" - <"$tmp/j.export" >/dev/null 2>&1 &&
		"$remote" -o "$tmp/full.journal" - <"$tmp/full.export" >/dev/null 2>&1
	ok $? "systemd-journal-remote stores both"
	boot=$(sed -n 's/^_BOOT_ID=//p' "$tmp/j.export" | head -1)
	KDMESG_SITES_DIR="$tmp/saved" "$KDMESG" --journal-file "$tmp/j.journal" -o jsonl \
		>"$tmp/jnomap.out" 2>&1
	grep -q 'no site table of their kernel was found' "$tmp/jnomap.out"
	ok $? "journal: a boot the boots map does not name has no table"
	echo "$boot $id" >>"$tmp/saved/boots"
	# The journal keeps a record's fields in its own order: compared as objects.
	for args in "-o jsonl" "--location -x" "--stats" "--function kp_caps -o jsonl"; do
		# shellcheck disable=SC2086
		"$KDMESG" --journal-file "$tmp/full.journal" $args >"$tmp/jfull.out" 2>&1
		# shellcheck disable=SC2086
		KDMESG_SITES_DIR="$tmp/saved" "$KDMESG" --journal-file "$tmp/j.journal" $args \
			>"$tmp/jmap.out" 2>&1
		python3 -c 'import json, sys
a, b = (open(f).read().splitlines() for f in sys.argv[1:3])
conv = lambda l: json.loads(l) if l.startswith("{") else l
sys.exit(not (a and [conv(l) for l in a] == [conv(l) for l in b]))' "$tmp/jfull.out" "$tmp/jmap.out"
		ok $? "journal $args: the boots map gives the saved table; as on the full journal"
	done
fi
tap_done
