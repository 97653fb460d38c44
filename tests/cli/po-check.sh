#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# po-check.sh - the German catalogue is complete and correct:
#
#  - msgfmt -c --check-format accepts po/de.po (header, plural forms,
#    format specifiers identical and in order);
#  - every source file with translatable strings is listed in
#    po/POTFILES.in;
#  - against a template freshly extracted from today's sources (not the
#    committed kdmesg.pot, which may be stale), no message is untranslated
#    or fuzzy: adding or changing a UI string without translating it fails
#    this test.
set -u

: "${top_srcdir:?top_srcdir must be set}"
po=$top_srcdir/po

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/tap.sh"

for tool in msgfmt xgettext msgmerge; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		# gettext is a build dependency (autopoint), so its absence is a
		# broken set-up, not a reason to skip.
		echo "not ok 1 - $tool is installed (Debian package gettext)"
		echo "1..1"
		exit 1
	fi
done

msgfmt -c --check-format -o /dev/null "$po/de.po" 2>"$tmp/msgfmt.err"
ok $? "msgfmt -c --check-format accepts po/de.po"
sed 's/^/# /' "$tmp/msgfmt.err"

# Source files that mark strings: _("..."), N_("..."), ngettext(...).
grep -v '^#' "$po/POTFILES.in" | sed '/^[[:space:]]*$/d' >"$tmp/potfiles"
missing=""
for f in $(cd "$top_srcdir" && grep -lE '(^|[^A-Za-z0-9_])(N?_|n?gettext)\(' src/*.c lib/*.c lib/*/*.c 2>/dev/null); do
	grep -qx "$f" "$tmp/potfiles" || missing="$missing $f"
done
[ -z "$missing" ]
ok $? "po/POTFILES.in lists every file with translatable strings${missing:+ (missing:$missing)}"

# Extract with the options the po/ Makefile uses (po/Makevars).
opts=$(sed -n 's/^XGETTEXT_OPTIONS[[:space:]]*=[[:space:]]*//p' "$po/Makevars")
# shellcheck disable=SC2086
(cd "$top_srcdir" && xgettext $opts --from-code=UTF-8 -o "$tmp/kdmesg.pot" \
	--files-from="$tmp/potfiles") 2>"$tmp/xgettext.err"
ok $? "xgettext extracts a template from the sources"
sed 's/^/# /' "$tmp/xgettext.err"

total=$(grep -c '^msgid ' "$tmp/kdmesg.pot" 2>/dev/null)
total=$((${total:-1} - 1))	# minus the header entry
[ "$total" -gt 0 ]
ok $? "the template holds messages ($total)"

msgmerge -q -o "$tmp/de.po" "$po/de.po" "$tmp/kdmesg.pot" 2>"$tmp/msgmerge.err"
ok $? "po/de.po merges with the current template"
sed 's/^/# /' "$tmp/msgmerge.err"

LC_ALL=C msgfmt --statistics -o /dev/null "$tmp/de.po" >"$tmp/stats" 2>&1
stats=$(cat "$tmp/stats")
echo "# $stats"
case $stats in
*fuzzy* | *untranslated*) false ;;
"$total translated message"*) true ;;
*) false ;;
esac
ok $? "every current message is translated, none fuzzy ($stats)"

if [ "$failed" -ne 0 ]; then
	# Name the culprits so the fix is obvious.
	if command -v msgattrib >/dev/null 2>&1; then
		# Skip the header entry (up to the first empty line).
		msgattrib --untranslated --no-obsolete "$tmp/de.po" 2>/dev/null |
			sed -n '1,/^$/d; s/^msgid /# untranslated: /p'
		msgattrib --only-fuzzy --no-obsolete "$tmp/de.po" 2>/dev/null |
			sed -n '1,/^$/d; s/^msgid /# fuzzy: /p'
	fi
fi

tap_done
