#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# kdmesg-po.sh - kdmesg-po extract from a small source tree (joined
# literals, KERN_*, pr_fmt/dev_fmt, KBUILD_MODNAME of a composite object,
# #ifdef inside a format, continuations and non-constant formats left
# out), from a kprint site table, a printk index and a dump (--sort=count),
# each against a golden .pot that msgfmt -c accepts; kdmesg-po check on a
# catalogue with one of each problem (golden output, exit 1) and on the
# shipped catalogues (exit 0); no libkmod in what it links.
# `tests/cli/kdmesg-po.sh --update`
# rewrites the golden files.  Prints TAP.
set -u

: "${top_builddir:?top_builddir must be set}"
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
P=$top_builddir/src/kdmesg-po
F=$srcdir/tests/fixtures
E=$srcdir/tests/expected/kdmesg-po
update=${1:-}
. "$srcdir/tests/cli/tap.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# golden NAME STATUS-WANTED COMMAND...: stdout, stderr and status.
golden() {
	name=$1 want=$2
	shift 2
	# POT-Creation-Date: a fixed day (2009-02-13 23:31 UTC).
	(cd "$F" && LC_ALL=C SOURCE_DATE_EPOCH=1234567890 "$@") >"$tmp/$name.out" 2>"$tmp/$name.err"
	st=$?
	if [ "$update" = --update ]; then
		cp "$tmp/$name.out" "$E/$name.out"
		cp "$tmp/$name.err" "$E/$name.err"
	fi
	[ "$st" = "$want" ]
	ok $? "$name: exit status $st (want $want)"
	cmp -s "$tmp/$name.out" "$E/$name.out" && cmp -s "$tmp/$name.err" "$E/$name.err"
	ok $? "$name: output as $E/$name.out and .err"
	if [ "$st" != "$want" ] || ! cmp -s "$tmp/$name.out" "$E/$name.out"; then
		diff -u "$E/$name.out" "$tmp/$name.out" | sed 's/^/# /' | head -40
		sed 's/^/# stderr: /' "$tmp/$name.err"
	fi
}

golden extract-source 0 "$P" extract --root ksrc ksrc
golden extract-context 0 "$P" extract --context=module --root ksrc ksrc
golden extract-sites 0 "$P" extract --sites=kprint-sites.txt --printk-index=printk-index
golden extract-dump 0 "$P" extract --dump kmsg-kprint-small.dump --sort=count
golden extract-limit 0 "$P" extract --dump kmsg-kprint-small.dump --sort=count -n 1
golden extract-stock 0 "$P" extract --dump kmsg-nul.dump
golden extract-bugs-address 0 "$P" extract --dump kmsg-kprint-small.dump -n 1 --msgid-bugs-address 'kdmesg <bugs@kdmesg.invalid>'
# the parts of pr_cont() records (PART<k>_FORMAT) as fragments of the
# record's module; ", " has nothing to translate
golden extract-parts 0 "$P" extract --dump kmsg-translate.dump --sort=count
golden extract-none 2 "$P" extract
golden extract-bad-sort 2 "$P" extract --sort=size ksrc
golden extract-bad-context 2 "$P" extract --context=file ksrc
golden check 1 "$P" check kdmesg-po-check.po
golden check-missing 2 "$P" check no-such.po
golden no-command 2 "$P"

# The kernel's lists share their readers with kdmesg-po index and kdmesg's
# recovery (lib/stage/ksites.c): a line number is digits only, so a
# crafted "file:-1" or "file:12x" gives the file without a line.
printf 'vmlinux 3 a.c:-1 f - one\nvmlinux 3 b.c:12x f - two\nvmlinux 3 c.c:7 f - three\n' \
	>"$tmp/sites.txt"
printf '<3> a.c:-1 f "one\\n"\n<3> b.c:12x f "two"\n<3> c.c:7 f "three"\n' >"$tmp/index"
for src in "--sites=$tmp/sites.txt" "--printk-index=$tmp/index"; do
	refs=$(LC_ALL=C "$P" extract "$src" | sed -n 's/^#: //p' | tr '\n' ' ')
	[ "$refs" = "a.c b.c c.c:7 " ]
	ok $? "extract ${src%%=*}: crafted line numbers are no line ($refs)"
done

if command -v msgfmt >/dev/null 2>&1; then
	for g in extract-source extract-context extract-sites extract-dump extract-parts; do
		msgfmt -c -o /dev/null "$E/$g.out" 2>"$tmp/msgfmt.err"
		ok $? "msgfmt -c accepts $g.out"
	done
fi

# From the template to kdmesg: a catalogue made of extract-context.out
# translates the shared format for module bar (its msgctxt) and, through
# the entry without context, for foo (whose msgctxt entry is left empty)
# and any other module.
K=$top_builddir/src/kdmesg
if command -v msgfmt >/dev/null 2>&1 && [ -x "$K" ]; then
	awk '/^msgctxt/ { ctx = $2 } /^msgid/ { id = $0 }
	     /^msgstr ""$/ && id == "msgid \"tx timeout on queue %d\"" {
		if (ctx == "\"bar\"") $0 = "msgstr \"bar: Warteschlange %d hängt\""
		else if (ctx == "") $0 = "msgstr \"Zeitüberschreitung auf Warteschlange %d\""
	     }
	     /^$/ { ctx = ""; id = "" } { print }' "$E/extract-context.out" |
		sed 's/^"Language: \\n"$/"Language: xx\\n"/' >"$tmp/xx.po"
	mkdir -p "$tmp/cat/xx/LC_MESSAGES"
	msgfmt -c -o "$tmp/cat/xx/LC_MESSAGES/linux-kmsg.mo" "$tmp/xx.po" 2>"$tmp/msgfmt.err"
	ok $? "msgfmt -c compiles a catalogue made from the --context=module template"
	for m in bar foo baz -; do
		printf '4,1,1000,-;eth0: tx timeout on queue 3\n'
		[ "$m" = - ] || printf ' MODULE=%s\n' "$m"
		printf ' FORMAT=tx timeout on queue %%d\n ARG0=3\n'
	done >"$tmp/ctx.dump"
	env -u LANGUAGE LANGUAGE=xx LC_ALL=C.UTF-8 "$K" -K "$tmp/ctx.dump" -t \
		--translate=always --catalog-dir "$tmp/cat" >"$tmp/ctx.out" 2>&1
	printf '%s\n' 'eth0: bar: Warteschlange 3 hängt' \
		'eth0: Zeitüberschreitung auf Warteschlange 3' \
		'eth0: Zeitüberschreitung auf Warteschlange 3' \
		'eth0: Zeitüberschreitung auf Warteschlange 3' | cmp -s - "$tmp/ctx.out"
	ok $? "msgctxt MODULE first, then the entry without context (bar, foo, baz, none)"
	sed 's/^/# /' "$tmp/ctx.out"
fi

for po in "$srcdir"/po-kmsg/*.po; do
	[ -f "$po" ] || continue
	"$P" check "$po" >"$tmp/check.out" 2>&1
	st=$?
	[ "$st" = 0 ] && ! grep -q . "$tmp/check.out"
	ok $? "kdmesg-po check accepts $(basename "$po") without a word"
	sed 's/^/# /' "$tmp/check.out" | head -10
done

"$P" --help >"$tmp/help" 2>&1
ok $? "--help exits 0"
for o in root sites printk-index dump sort context limit output; do
	grep -q -- "--$o" "$tmp/help"
	ok $? "--help shows --$o"
	sed 's/\\-/-/g' "$srcdir/man/kdmesg-po.1" | grep -q -- "--$o"
	ok $? "man page documents --$o"
done

# kdmesg-po links only what it uses: no libkmod.  A link with --as-needed
# (Debian's gcc default) drops an unused library anyway; clang or
# LDFLAGS=-Wl,--no-as-needed keep it, and then this fails.
if command -v readelf >/dev/null 2>&1; then
	readelf -d "$P" >"$tmp/dynamic" 2>&1 && ! grep -q 'NEEDED.*libkmod' "$tmp/dynamic"
	ok $? "kdmesg-po does not need libkmod (readelf -d)"
else
	echo "ok $((n + 1)) # SKIP readelf (binutils) is not installed"
	n=$((n + 1))
fi
tap_done
