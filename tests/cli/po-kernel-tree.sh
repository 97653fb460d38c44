#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# po-kernel-tree.sh - every template kdmesg-po extract writes passes
# msgfmt -c (issue 19): a small tree whose formats hold a "\xff" escape,
# ESC, a C1 control and a UTF-8 NEL (always run; the msgid must keep its
# bytes, shown by translating a record through the compiled catalogue),
# then the whole Linux 6.12 tree that the kernel harness unpacks
# (kernel-patch/check-kernel.sh: $KDMESG_KERNEL_CACHE, default
# ~/.cache/kdmesg-kernel, /linux-6.12-unpacked; or KDMESG_KERNEL_TREE),
# skipped - not passed - where it is absent.  Prints TAP.
set -u

: "${KDMESG:?KDMESG must point at the built kdmesg}"
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
KDMESG_PO=${KDMESG_PO:-$(dirname "$KDMESG")/kdmesg-po}
tree=${KDMESG_KERNEL_TREE:-${KDMESG_KERNEL_CACHE:-$HOME/.cache/kdmesg-kernel}/linux-6.12-unpacked}

. "$srcdir/tests/cli/tap.sh"

if ! command -v msgfmt >/dev/null 2>&1; then
	echo "1..0 # SKIP msgfmt is not installed (Debian package gettext)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
export TZ=GMT LC_ALL=C LANG=C LANGUAGE=

# msgfmt_c POT: msgfmt -c accepts it (its header warnings aside).
msgfmt_c() {
	msgfmt -c -o /dev/null "$1" 2>"$tmp/msgfmt.err"
	rc=$?
	grep -v 'header field' "$tmp/msgfmt.err" | head -n 10 | sed 's/^/# /'
	return $rc
}

mkdir -p "$tmp/ksrc/drivers/x"
cat >"$tmp/ksrc/drivers/x/x.c" <<'EOF'
#include <linux/printk.h>
void x_probe(void)
{
	pr_info("bad byte \xff here %d\n", 1);
	pr_info("esc \033[31m red\n");
	pr_info("nel \xc2\x85 and c1 \x9b\n");
	pr_info("caf\xc3\xa9 is UTF-8\n");
}
EOF
"$KDMESG_PO" extract "$tmp/ksrc" >"$tmp/small.pot" 2>"$tmp/err"
[ $? = 0 ] && msgfmt_c "$tmp/small.pot"
ok $? "a tree with \"\\xff\", ESC and C1 in formats: msgfmt -c accepts the template"
grep -qxF 'msgid "bad byte \377 here %d"' "$tmp/small.pot" &&
	grep -qxF 'msgid "esc \033[31m red"' "$tmp/small.pot" &&
	grep -qxF 'msgid "nel \302\205 and c1 \233"' "$tmp/small.pot" &&
	grep -qxF "msgid \"caf$(printf '\303\251') is UTF-8\"" "$tmp/small.pot"
ok $? "bytes outside UTF-8 and controls as octal escapes, valid UTF-8 as it is"

# The msgid keeps the kernel's bytes: a record with that format is found.
mkdir -p "$tmp/cat/xx/LC_MESSAGES"
sed -e '1,/^$/s/"Language: \\n"/"Language: xx\\n"/' \
	-e '/^msgid "bad byte/{n;s/^msgstr ""/msgstr "schlecht \\377 hier %d"/;}' \
	"$tmp/small.pot" >"$tmp/xx.po"
msgfmt -c -o "$tmp/cat/xx/LC_MESSAGES/linux-kmsg.mo" "$tmp/xx.po" 2>/dev/null
printf '6,1,1000,-;bad byte \377 here 1\n FORMAT=bad byte \\xff here %%d\n ARG0=1\n' >"$tmp/r.kmsg"
LANGUAGE=xx LC_ALL=C.UTF-8 "$KDMESG" -K "$tmp/r.kmsg" --translate=always \
	--catalog-dir "$tmp/cat" -t >"$tmp/out" 2>"$tmp/err"
[ "$(cat "$tmp/out")" = 'schlecht \xff hier 1' ]
ok $? "the compiled entry matches the kernel's format byte for byte"
[ -s "$tmp/err" ] && sed 's/^/# /' "$tmp/err"

if [ ! -f "$tree/Makefile" ] || [ ! -d "$tree/drivers" ]; then
	ok 0 "# SKIP no Linux 6.12 tree at $tree (make check-kernel unpacks it)"
	tap_done
	exit
fi
"$KDMESG_PO" extract "$tree" >"$tmp/linux.pot" 2>"$tmp/err"
rc=$?
entries=$(grep -c '^msgid ' "$tmp/linux.pot")
[ $rc = 0 ] && [ "$entries" -gt 100000 ]
ok $? "kdmesg-po extract of the whole 6.12 tree ($entries entries)"
sed 's/^/# /' "$tmp/err"
msgfmt_c "$tmp/linux.pot"
ok $? "msgfmt -c accepts the template of the whole 6.12 tree"
python3 -c '
import sys
s = open(sys.argv[1], "rb").read().decode("utf-8")
bad = [c for c in s if (ord(c) < 0x20 and c not in "\n") or 0x7f <= ord(c) <= 0x9f]
sys.exit(1 if bad else 0)' "$tmp/linux.pot"
ok $? "the 6.12 template is valid UTF-8 without control characters"

tap_done
