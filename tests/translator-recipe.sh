#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# translator-recipe.sh - the README's steps for a new kernel-message
# language, run exactly as written (the lines between the
# "translator-recipe" markers) in a fresh copy of the tracked source
# files, configured and built as scripts/setup.sh builds (in build/), with
# a script as $EDITOR that "translates" every message as "[it] " and the
# English text (msgen).  Then: the catalogue is built in the standard
# layout, kdmesg run from the build tree finds it and translates, -v
# names where it looked when a language has none, and the new .po is
# distributed.  Slow (a whole build): `make check-translator-recipe`,
# not part of `make check`.  Prints TAP.
set -u

srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
. "$srcdir/tests/cli/tap.sh"

if ! git -C "$srcdir" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	echo "1..0 # SKIP not a git checkout: no tracked files to copy"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
clone=$tmp/clone

# A fresh clone of the working tree as it is (tracked files, with their
# uncommitted changes).
mkdir "$clone"
(cd "$srcdir" && git ls-files -z | xargs -0 cp --parents -t "$clone" 2>/dev/null)
[ -f "$clone/README.md" ] && [ -f "$clone/po-kmsg/linux-kmsg.pot" ]
ok $? "the tracked files are copied"

(cd "$clone" && ./autogen.sh && mkdir -p build && cd build &&
	../configure -q && make -s -j"$(nproc)") >"$tmp/build.log" 2>&1
ok $? "a fresh build, as scripts/setup.sh builds" || sed 's/^/# /' "$tmp/build.log" | tail -20

sed -n '/^<!-- translator-recipe -->$/,/^<!-- \/translator-recipe -->$/p' "$clone/README.md" |
	sed '/^<!--/d; /^```/d' >"$tmp/recipe.sh"
[ "$(wc -l <"$tmp/recipe.sh")" = 6 ]
ok $? "the README has the six lines of the recipe"
sed 's/^/#   /' "$tmp/recipe.sh"

cat >"$tmp/editor" <<'EDIT'
#!/bin/sh
# The translator: every msgstr is "[it] " and the msgid (msgen keeps formats).
msgen -o "$1.tmp" "$1" && sed 's/^msgstr "\(..*\)"$/msgstr "[it] \1"/' "$1.tmp" >"$1" && rm -f "$1.tmp"
EDIT
chmod +x "$tmp/editor"

# A root shell's environment: no locale variables but what the recipe sets.
(cd "$clone" && env -u LC_ALL -u LANG -u LANGUAGE -u LC_MESSAGES EDITOR="$tmp/editor" \
	sh -e "$tmp/recipe.sh") >"$tmp/out" 2>"$tmp/err"
ok $? "the recipe runs without an error" || sed 's/^/# /' "$tmp/err" | tail -20
[ -f "$clone/build/po-kmsg/it/LC_MESSAGES/linux-kmsg.mo" ]
ok $? "build/po-kmsg/it/LC_MESSAGES/linux-kmsg.mo is built"
grep -q '^\[ *[0-9.]*\] \[it\] ' "$tmp/out"
ok $? "kdmesg from the build tree shows the new translations"
grep -q "^kdmesg: translated [1-9][0-9]* of " "$tmp/err"
ok $? "-v counts them"
grep -qi "translationproject\|tp@lists" "$clone/po-kmsg/it.po"
[ $? != 0 ]
ok $? "msginit --no-translator named no Translation Project team"

(cd "$clone" && LANGUAGE=zz LC_ALL=C.UTF-8 build/src/kdmesg --translate=always -v \
	-K tests/fixtures/kmsg-kprint-qemu.dump) >/dev/null 2>"$tmp/none"
grep -q "^kdmesg: no kernel message catalogue for zz (looked for LL/LC_MESSAGES/linux-kmsg.mo in $clone/build/po-kmsg, .*)$" "$tmp/none"
ok $? "no catalogue: -v names the build tree and the locale directory" || sed 's/^/# /' "$tmp/none"

(cd "$clone/build" && make -s distdir distdir=dist-test) >/dev/null 2>&1 &&
	[ -f "$clone/build/dist-test/po-kmsg/it.po" ]
ok $? "the new language is distributed (make dist)"

tap_done
