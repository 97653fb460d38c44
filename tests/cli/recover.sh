#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# recover.sh - call sites of plain (stock-kernel) records recovered from a
# format index: `kdmesg-po index` on a small source tree
# (tests/fixtures/ksrc-recover: pr_fmt, dev_*, netdev_*, a wrapper macro,
# ACPICA, btrfs and DRM subsystem wrappers,
# two architectures), then kdmesg on a stock dump
# (tests/fixtures/kmsg-stock-recover.dump) in every output mode, each
# showing the recovered fields as recovered; --stats by recovered site;
# the filters on recovered fields; translation reordering a recovered
# record's arguments; the index chosen by --formats, KDMESG_FORMATS, the
# installed directory by the dump's release, and the live debugfs
# sources (printk index, dynamic debug) before it; the msgids of the
# loaded catalogues as the last source (tests/fixtures/kmsg-recover-msgids-xx.po:
# no index needed, ambiguity flagged, no call site, the index's pick
# kept, bad msgids skipped); the function of a kprint record without one
# named by its file and line (tests/fixtures/kmsg-kprint-nofunc.dump);
# --recover=never; a corrupt or cut index as a one-line error.  `--update` rewrites the
# golden files.  Prints TAP.
set -u

: "${KDMESG:?KDMESG must point at the built kdmesg}"
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$(dirname "$KDMESG")/..}
PO=$builddir/src/kdmesg-po
F=$srcdir/tests/fixtures
E=$srcdir/tests/expected/recover
D=$F/kmsg-stock-recover.dump
update=${1:-}
. "$srcdir/tests/cli/tap.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/formats" "$tmp/empty" "$tmp/cat/xx/LC_MESSAGES" "$tmp/ids/xx/LC_MESSAGES" \
	"$tmp/badids/xx/LC_MESSAGES"

skip() {
	n=$((n + 1))
	echo "ok $n # SKIP $1"
}

# compare NAME: $tmp/NAME.out and .err against the golden files.
compare() {
	if [ "$update" = --update ]; then
		mkdir -p "$E"
		cp "$tmp/$1.out" "$E/$1.out"
		cp "$tmp/$1.err" "$E/$1.err"
	fi
	cmp -s "$tmp/$1.out" "$E/$1.out" && cmp -s "$tmp/$1.err" "$E/$1.err"
	ok $? "$1: as $E/$1.out and .err"
	cmp -s "$tmp/$1.out" "$E/$1.out" ||
		diff -u "$E/$1.out" "$tmp/$1.out" | sed 's/^/# /' | head -30
	cmp -s "$tmp/$1.err" "$E/$1.err" ||
		diff -u "$E/$1.err" "$tmp/$1.err" | sed 's/^/# /' | head -10
}

# golden NAME ENV... -- ARGS...: stdout, stderr and status of kdmesg.
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
	env -u LANGUAGE -u LC_ALL -u LC_MESSAGES -u LANG TZ=GMT KDMESG_MODULES_DIR=/nonexistent \
		KDMESG_FORMATS_DIR="$tmp/empty" KDMESG_DEBUGFS="$tmp/empty" $envs \
		"$KDMESG" "$@" >"$tmp/$name.out" 2>"$tmp/$name.raw"
	echo "$?" >>"$tmp/$name.raw"
	sed -e "s|$tmp|TMP|g" -e '/no module facts/d' -e '/--module matches module names as given/d' "$tmp/$name.raw" >"$tmp/$name.err"
	compare "$name"
}

# The index: x86 only (the alpha copy of "Command line: %s" left out).
"$PO" index --arch x86 -o "$tmp/demo.kdfi" "$F/ksrc-recover" >"$tmp/index.out" 2>"$tmp/index.raw"
echo "$?" >>"$tmp/index.raw"
# The size changes with the file layout, not with what the test checks.
sed -e "s|$tmp|TMP|g" -e 's/, [0-9]* bytes$/, N bytes/' "$tmp/index.raw" >"$tmp/index.err"
compare index
"$PO" index --arch all -o "$tmp/all.kdfi" "$F/ksrc-recover" 2>/dev/null
ok $? "kdmesg-po index --arch all"
(cd "$tmp" && "$PO" index "$F/ksrc-recover" >/dev/null 2>&1 && [ -s 6.12.0-demo.kdfi ])
ok $? "kdmesg-po index names the file after the tree's release"
X="--formats $tmp/demo.kdfi"

# --objects: only the files the build directory has objects of (other.c
# has none), and the headers of include/.
mkdir -p "$tmp/objs/kernel" "$tmp/objs/drivers/net/demo" "$tmp/objs/arch/x86/kernel"
: >"$tmp/objs/kernel/conv.o"
: >"$tmp/objs/drivers/net/demo/demo_main.o"
: >"$tmp/objs/arch/x86/kernel/setup.o"
"$PO" index --arch x86 --objects "$tmp/objs" -o "$tmp/objs.kdfi" "$F/ksrc-recover" 2>/dev/null
# count FILE INDEX: records recovered to FILE with INDEX
count() {
	env -u LC_ALL KDMESG_MODULES_DIR=/nonexistent KDMESG_FORMATS_DIR="$tmp/empty" \
		KDMESG_DEBUGFS="$tmp/empty" "$KDMESG" -K "$D" --formats "$2" --code-file "$1" \
		2>/dev/null | wc -l
}
o_all=$(count other.c "$tmp/demo.kdfi")
o_obj=$(count other.c "$tmp/objs.kdfi")
d_all=$(count demo_main.c "$tmp/demo.kdfi")
d_obj=$(count demo_main.c "$tmp/objs.kdfi")
[ "$o_all" -gt 0 ] && [ "$o_obj" -eq 0 ] && [ "$d_obj" -ge "$d_all" ] && [ "$d_all" -gt 0 ]
ok $? "kdmesg-po index --objects: other.c (no object) left out ($o_all -> $o_obj records), demo_main.c kept and sole site of more ($d_all -> $d_obj)"

# The other sources: a printk index directory and a dynamic-debug control
# file (a copy of what debugfs holds), told apart by what they hold.
"$PO" index --release 6.12.0-demo -o "$tmp/dbg.kdfi" "$F/recover-debugfs/printk/index" \
	"$F/recover-debugfs/dynamic_debug/control" >/dev/null 2>"$tmp/dbg-index.raw"
echo "$?" >>"$tmp/dbg-index.raw"
sed -e "s|$tmp|TMP|g" -e 's/, [0-9]* bytes$/, N bytes/' "$tmp/dbg-index.raw" >"$tmp/dbg-index.err"
: >"$tmp/dbg-index.out"
compare dbg-index
golden dbg-sources -- -K "$D" --formats "$tmp/dbg.kdfi" -o jsonl --level err,debug,info -v
"$PO" index -o "$tmp/x.kdfi" "$F/empty.txt" >/dev/null 2>"$tmp/noformats.raw"
echo "$?" >>"$tmp/noformats.raw"
sed "s|$F|F|g" "$tmp/noformats.raw" >"$tmp/noformats.err"
: >"$tmp/noformats.out"
compare noformats

# Every output mode marks what was recovered.
golden jsonl -- -K "$D" $X -o jsonl -v
golden json -- -K "$D" $X -o json
golden verbose DMESG_TEST_BOOTIME=1700000000.000000 -- -K "$D" $X -o verbose
golden export DMESG_TEST_BOOTIME=1700000000.000000 -- -K "$D" $X -o export
golden location -- -K "$D" $X --location
golden stats -- -K "$D" $X --stats
golden stats-json -- -K "$D" $X --stats -J
# Without the index: --stats masks numbers, as on every stock kernel.
golden stats-none -- -K "$D" --stats

# Filters select recovered records.
golden code-file -- -K "$D" $X --code-file demo_main.c -o jsonl
golden function -- -K "$D" $X --function 'other_*' --location
golden module -- -K "$D" $X --module demo-net --location
golden format -- -K "$D" $X --format 'timeout waiting for %s'
golden field -- -K "$D" $X ARG0=reset
golden code-file-none -- -K "$D" --code-file demo_main.c

# Translation reorders a recovered record's arguments (%2$s %1$d).
if command -v msgfmt >/dev/null 2>&1; then
	msgfmt -o "$tmp/cat/xx/LC_MESSAGES/linux-kmsg.mo" "$F/kmsg-recover-xx.po"
	golden translate LANGUAGE=xx LC_ALL=C.UTF-8 -- -K "$D" $X --translate=always \
		--catalog-dir "$tmp/cat" --level info -v
	# The third source: the catalogue's msgids, with no index at all.
	msgfmt -o "$tmp/ids/xx/LC_MESSAGES/linux-kmsg.mo" "$F/kmsg-recover-msgids-xx.po"
	M="--translate=always --catalog-dir $tmp/ids"
	golden msgids-text LANGUAGE=xx LC_ALL=C.UTF-8 -- -K "$D" $M -v
	golden msgids-verbose LANGUAGE=xx LC_ALL=C.UTF-8 DMESG_TEST_BOOTIME=1700000000.000000 -- \
		-K "$D" $M -o verbose --level err,warn,info,debug
	golden msgids-jsonl LANGUAGE=xx LC_ALL=C.UTF-8 -- -K "$D" $M -o jsonl --level err,warn
	golden msgids-format LANGUAGE=xx LC_ALL=C.UTF-8 -- -K "$D" $M --format 'Link is Up %d Mbps %s Duplex'
	golden msgids-stats LANGUAGE=xx LC_ALL=C.UTF-8 -- -K "$D" $M --stats --top 3
	# With the index: what it explains keeps its format and call site; the
	# catalogue explains only the rest.
	golden msgids-index LANGUAGE=xx LC_ALL=C.UTF-8 DMESG_TEST_BOOTIME=1700000000.000000 -- \
		-K "$D" $X $M -o verbose --level err,warn,info -v
	# No translation, no catalogue: into a pipe (auto), in the C locale,
	# with --recover=never.
	golden msgids-pipe LANGUAGE=xx LC_ALL=C.UTF-8 -- -K "$D" --translate=auto --catalog-dir "$tmp/ids" --level err -v
	golden msgids-c LANGUAGE=xx LC_ALL=C -- -K "$D" $M -o jsonl --level err -v
	golden msgids-never LANGUAGE=xx LC_ALL=C.UTF-8 -- -K "$D" $M --recover=never --level err -v
	# msgids that are no kernel format are skipped: %n, positions, a bad
	# conversion, one longer than any record; "%s" has no literal text.
	{
		printf 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
		printf 'msgid "wrote %%n bytes"\nmsgstr "x"\n\n'
		printf 'msgid "%%2$s then %%1$s"\nmsgstr "x"\n\n'
		printf 'msgid "bad %%"\nmsgstr "x"\n\n'
		printf 'msgid "%%s"\nmsgstr "[%%s]"\n\n'
		printf 'msgid "%s %%d"\nmsgstr "x"\n\n' "$(head -c 5000 /dev/zero | tr '\0' a)"
		printf 'msgid "this message is in no index"\nmsgstr "ok"\n'
	} >"$tmp/bad.po"
	msgfmt -o "$tmp/badids/xx/LC_MESSAGES/linux-kmsg.mo" "$tmp/bad.po"
	golden msgids-bad LANGUAGE=xx LC_ALL=C.UTF-8 -- -K "$D" --translate=always \
		--catalog-dir "$tmp/badids" --level info -v
else
	skip "msgfmt (gettext) is not installed"
fi

# Which index: --recover=never, KDMESG_FORMATS, the installed one of the
# dump's release (6.12.0-demo -> 6.12.0 -> 6.12), none.
# A kernel without function names (CONFIG_KPRINT_FUNC_NAMES=n, its default
# without CONFIG_KALLSYMS) sends CODE_FILE and CODE_LINE only: the index
# names the function at that line, marked recovered; --function then
# selects the record; never without the index or with --recover=never.
N=$F/kmsg-kprint-nofunc.dump
golden nofunc DMESG_TEST_BOOTIME=1700000000.000000 -- -K "$N" $X -o export -v
golden nofunc-function -- -K "$N" $X --function 'conv_*' --location -v
golden nofunc-never -- -K "$N" $X --function 'conv_*' --location --recover=never
golden nofunc-none -- -K "$N" --function 'conv_*' --location

golden never -- -K "$D" $X --recover=never -o jsonl
golden env KDMESG_FORMATS="$tmp/demo.kdfi" -- -K "$D" -o jsonl --level err
cp "$tmp/demo.kdfi" "$tmp/formats/6.12.kdfi"
golden installed KDMESG_FORMATS_DIR="$tmp/formats" -- -K "$D" -o jsonl --level err -v
golden none -- -K "$D" -o jsonl --level err -v
golden always-none -- -K "$D" -o jsonl --level err --recover=always
golden plain-text -- -K "$D" $X --level err -v

# A bad index is a one-line error, exit status 1.
head -c 200 "$tmp/demo.kdfi" >"$tmp/cut.kdfi"
golden cut -- -K "$D" --formats "$tmp/cut.kdfi" -o jsonl
printf 'not an index at all\n' >"$tmp/junk.kdfi"
golden junk -- -K "$D" --formats "$tmp/junk.kdfi" -o jsonl
golden missing -- -K "$D" --formats "$tmp/nonexistent.kdfi" -o jsonl
golden bad-mode -- -K "$D" --recover=sometimes

# The live log: the running kernel's printk index and dynamic-debug sites
# come first (their lines differ from the tree's), through the shim.
shim=$builddir/tests/shim/kmsg-shim.so
if [ -f "$shim" ]; then
	golden live LD_PRELOAD="$shim" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		KDMESG_SHIM_KMSG="$D" KDMESG_DEBUGFS="$F/recover-debugfs" -- $X -o jsonl --level err,debug,info
else
	skip "the kmsg shim is not built"
fi

tap_done
