#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# translate.sh - kdmesg --translate on a dump of CONFIG_KPRINT records
# with a test catalogue (language "xx", tests/fixtures/kmsg-test-xx.po):
# every output mode (text keeps the device prefix and takes the
# translation; JSON keeps msg and adds msg_translated), positional
# reordering, msgctxt = MODULE, each kind of translation that must not be
# used (the original shown, the reason counted in the -v summary), the
# lines of a kprint group translated one by one, an ASCII terminal (transliteration), the language and catalogue-path
# rules, --translate=auto into a pipe, and the shipped de and fr
# catalogues on messages of a real boot.  `--update` rewrites the golden
# files.  Prints TAP; skips without msgfmt.
set -u

: "${KDMESG:?KDMESG must point at the built kdmesg}"
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
F=$srcdir/tests/fixtures
E=$srcdir/tests/expected/translate
update=${1:-}
. "$srcdir/tests/cli/tap.sh"

if ! command -v msgfmt >/dev/null 2>&1; then
	echo "1..0 # SKIP msgfmt (gettext) is not installed"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/cat/xx/LC_MESSAGES" "$tmp/env/xx/LC_MESSAGES" "$tmp/bad/xx/LC_MESSAGES"
msgfmt -o "$tmp/cat/xx/LC_MESSAGES/linux-kmsg.mo" "$F/kmsg-test-xx.po"
ok $? "msgfmt compiles the test catalogue"
cp "$tmp/cat/xx/LC_MESSAGES/linux-kmsg.mo" "$tmp/env/xx/LC_MESSAGES/"
echo "not a catalogue" >"$tmp/bad/xx/LC_MESSAGES/linux-kmsg.mo"
for po in "$srcdir"/po-kmsg/*.po; do
	[ -f "$po" ] || continue
	l=$(basename "$po" .po)
	mkdir -p "$tmp/cat/$l/LC_MESSAGES"
	msgfmt -c -o "$tmp/cat/$l/LC_MESSAGES/linux-kmsg.mo" "$po"
	ok $? "msgfmt -c compiles po-kmsg/$l.po"
done

D=$F/kmsg-translate.dump
# golden NAME ENV... -- ARGS...: stdout and stderr of kdmesg.
golden() {
	name=$1
	shift
	envs=""
	while [ "$1" != -- ]; do
		envs="$envs $1"
		shift
	done
	shift
	# KDMESG_MODULES_DIR: libkmod reads no modules tree of the host.
	# shellcheck disable=SC2086
	env -u LANGUAGE -u LC_ALL -u LC_MESSAGES -u LANG -u LC_CTYPE TZ=GMT \
		KDMESG_MODULES_DIR=/nonexistent $envs \
		"$KDMESG" "$@" >"$tmp/$name.out" 2>"$tmp/$name.raw"
	echo "$?" >>"$tmp/$name.raw"
	# The build tree and the locale directory are where this build is.
	sed "s|$tmp|TMP|g; s|${top_builddir:-/nonexistent}/po-kmsg|BUILD/po-kmsg|g; s|, ${localedir:-/nonexistent})|, LOCALEDIR)|" \
		"$tmp/$name.raw" >"$tmp/$name.err"
	if [ "$update" = --update ]; then
		cp "$tmp/$name.out" "$E/$name.out"
		cp "$tmp/$name.err" "$E/$name.err"
	fi
	cmp -s "$tmp/$name.out" "$E/$name.out" && cmp -s "$tmp/$name.err" "$E/$name.err"
	ok $? "$name: as $E/$name.out and .err"
	cmp -s "$tmp/$name.out" "$E/$name.out" ||
		diff -u "$E/$name.out" "$tmp/$name.out" | sed 's/^/# /' | head -30
	cmp -s "$tmp/$name.err" "$E/$name.err" ||
		diff -u "$E/$name.err" "$tmp/$name.err" | sed 's/^/# /' | head -10
}

XX="LANGUAGE=xx LC_ALL=C.UTF-8"
golden text $XX -- -K "$D" --translate=always --catalog-dir "$tmp/cat" -v
golden text-notime $XX -- -K "$D" --translate --catalog-dir "$tmp/cat" -t -x
golden json $XX -- -K "$D" --translate=always --catalog-dir "$tmp/cat" -J
golden json-dict $XX -- -K "$D" --translate=always --catalog-dir "$tmp/cat" -o json
golden jsonl $XX -- -K "$D" --translate=always --catalog-dir "$tmp/cat" -o jsonl
golden export $XX DMESG_TEST_BOOTIME=1700000000.000000 -- -K "$D" --translate=always --catalog-dir "$tmp/cat" -o export
golden verbose $XX DMESG_TEST_BOOTIME=1700000000.000000 -- -K "$D" --translate=always --catalog-dir "$tmp/cat" -o verbose
golden ascii LC_CTYPE=C LC_MESSAGES=xx -- -K "$D" --translate=always --catalog-dir "$tmp/cat"
golden never $XX -- -K "$D" --no-translate --catalog-dir "$tmp/cat" -v
golden auto-pipe $XX -- -K "$D" --catalog-dir "$tmp/cat" -v
golden env-path $XX KDMESG_CATALOG_PATH=/nonexistent:$tmp/env -- -K "$D" --translate=always -v
golden c-locale LANGUAGE=xx LC_ALL=C -- -K "$D" --translate=always --catalog-dir "$tmp/cat" -v
golden no-catalogue LANGUAGE=zz LC_ALL=C.UTF-8 -- -K "$D" --translate=always --catalog-dir "$tmp/cat" -v
golden bad-catalogue $XX -- -K "$D" --translate=always --catalog-dir "$tmp/bad" --catalog-dir "$tmp/cat" -v
golden bad-mode $XX -- -K "$D" --translate=sometimes
golden grep-translated $XX -- -K "$D" --translate=always --catalog-dir "$tmp/cat" --level err,warn -v

# A kprint group stored as one record: each line with its own LINE<k>_
# keys (prefix kept, msgctxt from LINE<k>_MODULE, reordering); lines that
# cannot be translated stay as they are, counted by reason.
G=$F/kmsg-translate-group.dump
golden group-text $XX -- -K "$G" --translate=always --catalog-dir "$tmp/cat" -v
golden group-json $XX -- -K "$G" --translate=always --catalog-dir "$tmp/cat" -J
golden group-jsonl $XX -- -K "$G" --translate=always --catalog-dir "$tmp/cat" -o jsonl
golden group-export $XX DMESG_TEST_BOOTIME=1700000000.000000 -- -K "$G" --translate=always --catalog-dir "$tmp/cat" -o export
golden group-verbose $XX DMESG_TEST_BOOTIME=1700000000.000000 -- -K "$G" --translate=always --catalog-dir "$tmp/cat" -o verbose
# The group KUnit test's records in German and French (test catalogues:
# its messages are not in the Linux 6.12 source the shipped ones cover).
for l in de fr; do
	mkdir -p "$tmp/grp/$l/LC_MESSAGES"
	msgfmt -c -o "$tmp/grp/$l/LC_MESSAGES/linux-kmsg.mo" "$F/kmsg-group-$l.po" 2>/dev/null
	ok $? "msgfmt -c compiles tests/fixtures/kmsg-group-$l.po"
	golden "group-$l" "LANGUAGE=$l" LC_ALL=C.UTF-8 -- -K "$F/kmsg-kprint-group.dump" \
		--translate=always --catalog-dir "$tmp/grp" -v
	golden "group-$l-json" "LANGUAGE=$l" LC_ALL=C.UTF-8 -- -K "$F/kmsg-kprint-group.dump" \
		--translate=always --catalog-dir "$tmp/grp" -J
done

# --stats: the table, then what was translated (stdout only: the notes on
# stderr about module facts depend on the machine's modules).
env -u LANGUAGE LANGUAGE=xx LC_ALL=C.UTF-8 TZ=GMT "$KDMESG" -K "$D" --translate=always \
	--catalog-dir "$tmp/cat" --top 3 >"$tmp/stats.out" 2>/dev/null
[ "$update" = --update ] && cp "$tmp/stats.out" "$E/stats.out"
cmp -s "$tmp/stats.out" "$E/stats.out"
ok $? "stats: the --stats table ends with the translation counts"
cmp -s "$tmp/stats.out" "$E/stats.out" || diff -u "$E/stats.out" "$tmp/stats.out" | sed 's/^/# /'

# --stats -J: the translation counts as members of the JSON object.
env -u LANGUAGE LANGUAGE=xx LC_ALL=C.UTF-8 TZ=GMT "$KDMESG" -K "$D" --translate=always \
	--catalog-dir "$tmp/cat" --stats --top 1 -J >"$tmp/stats-json.out" 2>/dev/null
[ "$update" = --update ] && cp "$tmp/stats-json.out" "$E/stats-json.out"
cmp -s "$tmp/stats-json.out" "$E/stats-json.out"
ok $? "stats-json: --stats -J has a translation object with every reason"
cmp -s "$tmp/stats-json.out" "$E/stats-json.out" ||
	diff -u "$E/stats-json.out" "$tmp/stats-json.out" | sed 's/^/# /'
if command -v python3 >/dev/null 2>&1; then
	python3 -c 'import json, sys; t = json.load(sys.stdin)["translation"]
assert t["translated"] == 12 and t["records"] == 27 and t["not_used"]["mismatch"] == 2
assert t["not_used"]["continuation"] == 3 and t["not_used"]["cut"] == 2' \
		<"$tmp/stats-json.out"
	ok $? "stats-json: valid JSON with the counts of the text summary"
fi

# No translation must give the bytes of a run without the feature.
env -u LANGUAGE LC_ALL=C.UTF-8 TZ=GMT "$KDMESG" -K "$D" >"$tmp/plain.out" 2>&1
cmp -s "$tmp/plain.out" "$tmp/never.out" && cmp -s "$tmp/plain.out" "$tmp/auto-pipe.out"
ok $? "--no-translate and auto into a pipe print what kdmesg prints without catalogues"

# auto on a terminal translates (script(1) gives the pseudo-terminal).
if command -v script >/dev/null 2>&1 &&
	SHELL=/bin/sh script -qec true /dev/null </dev/null >/dev/null 2>&1; then
	printf '%s\n' "exec env LANGUAGE=xx LC_ALL=C.UTF-8 '$KDMESG' -K '$D' --color=never --catalog-dir '$tmp/cat'" >"$tmp/cmd"
	SHELL=/bin/sh script -qec "sh '$tmp/cmd'" /dev/null </dev/null >"$tmp/tty.out" 2>&1
	grep -q 'Netzwerkverbindung steht: 1000 Mbit/s' "$tmp/tty.out"
	ok $? "auto: a terminal gets the translation"
fi

B=$F/kmsg-boot-kprint.dump
if [ -f "$B" ]; then
	for l in de fr; do
		[ -f "$srcdir/po-kmsg/$l.po" ] || continue
		golden "boot-$l" "LANGUAGE=$l" LC_ALL=C.UTF-8 -- -K "$B" --translate=always \
			--catalog-dir "$tmp/cat" -v
	done
fi
# The build's own catalogues (po-kmsg/LINGUAS, built as
# po-kmsg/LL/LC_MESSAGES/linux-kmsg.mo): kdmesg run from the build tree
# finds them with no --catalog-dir, and --catalog-dir takes the directory.
if [ -n "${top_builddir:-}" ] && [ -f "$top_builddir/po-kmsg/de/LC_MESSAGES/linux-kmsg.mo" ]; then
	env -u LANGUAGE LANGUAGE=de LC_ALL=C.UTF-8 "$KDMESG" --translate=always -v \
		-K "$F/kmsg-kprint-qemu.dump" >"$tmp/build-de.out" 2>"$tmp/build-de.err"
	grep -q "NX-Schutz (Execute Disable): aktiv" "$tmp/build-de.out"
	ok $? "kdmesg from the build tree finds the German catalogue it built"
	env -u LANGUAGE LANGUAGE=fr LC_ALL=C.UTF-8 "$KDMESG" --translate=always \
		--catalog-dir "$top_builddir/po-kmsg" -K "$F/kmsg-kprint-qemu.dump" >"$tmp/build-fr.out"
	! cmp -s "$tmp/build-fr.out" "$tmp/build-de.out" &&
		! env -u LANGUAGE LC_ALL=C "$KDMESG" -K "$F/kmsg-kprint-qemu.dump" | cmp -s - "$tmp/build-fr.out"
	ok $? "--catalog-dir build/po-kmsg: the French catalogue, in the standard layout"
else
	ok 0 "# SKIP the build's po-kmsg/de/LC_MESSAGES/linux-kmsg.mo is not there"
fi

tap_done
