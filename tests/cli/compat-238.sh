#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# compat-238.sh - kdmesg against the installed util-linux dmesg on the same
# syslog-format fixtures (-F), for the options whose output does not depend
# on the boot time.  Debian 12 installs dmesg 2.38.1 (which has no -K); the
# golden files follow 2.42, so the cases where 2.38.1 and 2.42 differ are
# listed below with the reason and checked to still differ only there.
# Prints TAP; skips when no dmesg is installed.
set -u

: "${KDMESG:?KDMESG must point at the built kdmesg}"
DMESG=${DMESG:-/usr/bin/dmesg}
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
fixtures=$srcdir/tests/fixtures

if [ ! -x "$DMESG" ] || ! "$DMESG" -F /dev/null -V >/dev/null 2>&1; then
	echo "1..0 # SKIP no usable $DMESG"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
export TZ=GMT LC_ALL=C LANG=C LANGUAGE=
unset DMESG_TEST_BOOTIME KDMESG_TEST_CALLER_WIDTH
mkdir -p "$tmp/config/terminal-colors.d"
export XDG_CONFIG_HOME="$tmp/config" HOME="$tmp"

n=0
failed=0

# same FILE ARGS...: identical standard output and exit status.
same() {
	file=$1
	shift
	(cd "$fixtures" && "$DMESG" -F "$file" "$@") >"$tmp/d" 2>/dev/null
	ds=$?
	(cd "$fixtures" && "$KDMESG" -F "$file" "$@") >"$tmp/k" 2>/dev/null
	ks=$?
	n=$((n + 1))
	if [ "$ds" = "$ks" ] && cmp -s "$tmp/d" "$tmp/k"; then
		echo "ok $n - -F $file $* as dmesg $("$DMESG" -V | sed 's/.* //')"
	else
		failed=$((failed + 1))
		echo "not ok $n - -F $file $* as dmesg (status $ds vs $ks)"
		diff -u "$tmp/d" "$tmp/k" | head -n 20 | sed 's/^/# /'
	fi
}

# What 2.38.1 cannot do, and so is left out here (the golden files cover
# it): level ranges ("err+", "+err", new in 2.39); names for facilities 12
# to 23 (res0..local7: 2.38.1 neither decodes them with -x nor includes
# them in -u); caller ids in syslog-format input (syslog-caller.txt:
# 2.38.1 prints "[  T412]" as part of the message); -t on lines whose
# "[...]" is not a valid stamp (2.38.1 then skips up to the ']', 2.42
# reads the stamp the same way with or without -t).
old_facilities=kern,user,mail,daemon,auth,syslog,lpr,news,uucp,cron,authpriv,ftp
f=syslog.txt
same "$f"
same "$f" -x -f "$old_facilities"
same "$f" -r
same "$f" -t
same "$f" -d
same "$f" -d -t
same "$f" -T -d -t
same "$f" -l err,crit -f "$old_facilities"
same "$f" --level=warn,notice -x -f "$old_facilities"
same "$f" -f daemon,user
same "$f" -k
same "$f" -k -x
same "$f" --noescape
same "$f" -r --noescape
same "$f" -L=always
same "$f" -L=always -f "$old_facilities" -x
same "$f" -L=always -d
same syslog-malformed.txt
same syslog-malformed.txt -r

# dmesg -r writes a -F file page by page (4096 bytes) and its UTF-8
# decoding restarts at each page: a character cut by a page boundary is
# escaped even in a UTF-8 locale.  kdmesg must cut at the same place.
if locale -a 2>/dev/null | grep -qi '^c\.utf-\{0,1\}8$'; then
	awk 'BEGIN { for (i = 0; i < 67; i++)
			printf "<6>[    1.000000] %s\n", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" }' \
		>"$tmp/straddle.txt"
	pad=$((4095 - $(wc -c <"$tmp/straddle.txt") - 18))
	{
		printf '<6>[    1.000000] '
		awk -v n="$pad" 'BEGIN { while (n-- > 0) printf "y" }'
		printf '\342\202\254 after\n<6>[    2.000000] Gr\303\274\303\237e\n'
	} >>"$tmp/straddle.txt"
	export LC_ALL=C.UTF-8
	# Valid UTF-8 is kept, invalid and non-printable bytes escaped.
	same syslog.txt
	same syslog.txt -r
	same syslog.txt -L=always
	fixtures=$tmp
	same straddle.txt -r
	same straddle.txt
	# Proof that the locale took: outside -r the cut character is whole.
	n=$((n + 1))
	if grep -q "$(printf 'y\342\202\254 after')" "$tmp/k"; then
		echo "ok $n - a UTF-8 locale keeps the character whole without -r"
	else
		failed=$((failed + 1))
		echo "not ok $n - a UTF-8 locale keeps the character whole without -r"
	fi
	export LC_ALL=C
fi

echo "1..$n"
[ "$failed" = 0 ]
