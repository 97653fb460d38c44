#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# differential.sh - on this machine's live kernel log, kdmesg and the
# installed util-linux dmesg must print the same bytes for every option
# both support.  Prints TAP.
#
# The live log can change between two runs, so each comparison is
# sandwiched: dmesg, kdmesg, dmesg again.  When both dmesg runs agree the
# log did not change in between and kdmesg must match them exactly; when
# they differ the three runs are repeated (up to 5 times).  A log that
# never holds still for three runs is reported as a TAP skip, never as a
# pass, so the test cannot flake and can still fail.
#
# Debian 12 ships dmesg 2.38.1; kdmesg follows 2.42.  Where 2.38.1 has
# known bugs the comparison leaves them out, as documented at each case:
#   -J: 2.38.1 prints a wrong "pri" for records of non-kernel facilities
#       and can put the rest of the buffer into "msg"; those fields are
#       compared only where 2.38.1 is not affected (kernel facility;
#       kdmesg's msg equal to 2.38.1's or a prefix of it), and kdmesg's
#       extra dictionary keys are ignored.
#   -r: 2.38.1 prints "<facility | level>" (the facility number not
#       shifted, OR'ed into the level: "<7>" for user.info, 1 | 6) instead
#       of "<facility * 8 + level>" for records of non-kernel facilities
#       (the same bug); such lines must match with that prefix, all others
#       exactly.
#   --time-format iso: 2.38.1 adds only the whole seconds of the boot
#       time (its stamps carry the record's own microseconds), so kdmesg's
#       stamps must be later by one and the same fraction of a second
#       (give or take 2 µs: each program reads the clocks at its start).
#   -T: 2.38.1 adds the boot time's and the record's whole seconds only,
#       dropping the carry of their microseconds, so kdmesg's ctime may be
#       one second later; nothing else may differ.  -e is left out: the
#       same lost carry moves its minute breaks (golden files cover -e).
#   Level ranges (-l err+) do not exist in 2.38.1: golden tests cover them.
# Skips (TAP "# SKIP") only when the kernel log cannot be read.
set -u

: "${KDMESG:?KDMESG must point at the built kdmesg}"
DMESG=${DMESG:-/usr/bin/dmesg}

if [ ! -x "$DMESG" ]; then
	echo "1..0 # SKIP $DMESG is not installed"
	exit 0
fi
if ! "$DMESG" >/dev/null 2>&1; then
	echo "1..0 # SKIP the kernel log is not readable here (dmesg_restrict?)"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
export LC_ALL=C LANG=C LANGUAGE=
unset DMESG_TEST_BOOTIME KDMESG_TEST_CALLER_WIDTH
# No terminal-colors.d of the user's may change -L output on one side.
mkdir -p "$tmp/config/terminal-colors.d"
export XDG_CONFIG_HOME="$tmp/config" HOME="$tmp"

. "${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/cli/tap.sh"

# sandwich ARGS: leave a stable dmesg output in $tmp/d1 and kdmesg's in
# $tmp/k; returns 1 when the log never held still.
sandwich() {
	s_try=0
	while [ $s_try -lt 5 ]; do
		"$DMESG" "$@" >"$tmp/d1" 2>&1
		"$KDMESG" "$@" >"$tmp/k" 2>&1
		"$DMESG" "$@" >"$tmp/d2" 2>&1
		cmp -s "$tmp/d1" "$tmp/d2" && return 0
		s_try=$((s_try + 1))
	done
	return 1
}

# same ARGS...: kdmesg prints dmesg's bytes.
same() {
	name="kdmesg $* = dmesg $*"
	try=0
	while :; do
		if ! sandwich "$@"; then
			n=$((n + 1))
			echo "ok $n - $name # SKIP the kernel log kept changing"
			return
		fi
		cmp -s "$tmp/d1" "$tmp/k" && break
		# Whole-second stamps can straddle a second boundary once.
		try=$((try + 1))
		[ $try -lt 3 ] || break
	done
	if cmp -s "$tmp/d1" "$tmp/k"; then
		ok 0 "$name"
	else
		ok 1 "$name"
		diff -u "$tmp/d1" "$tmp/k" | head -n 20 | sed 's/^/# /'
	fi
}

same
same -x
same --decode --notime
same -t
same -d
same -d -t
same -l err,warn
same --level=info,notice
same -f kern
same -k -x
same -u
same --noescape
same -L=always
same --color=always -x

# raw ARGS...: as same, but 2.38.1's "<facility | level>" for non-kernel
# facilities (see the header) is accepted where kdmesg prints
# "<facility*8+level>".
raw() {
	name="kdmesg $* = dmesg $* (2.38.1 facility bug aside)"
	if ! sandwich "$@"; then
		n=$((n + 1))
		echo "ok $n - $name # SKIP the kernel log kept changing"
		return
	fi
	awk 'function bor(a, b,   r, bit) {	# a | b, for mawk
		r = 0
		for (bit = 1; a > 0 || b > 0; bit *= 2) {
			if (a % 2 || b % 2) r += bit
			a = int(a / 2); b = int(b / 2)
		}
		return r
	     }
	     NR == FNR { d[FNR] = $0; nd = FNR; next }
	     {
		nk = FNR
		if (d[FNR] == $0) next
		if (match($0, /^<[0-9]+>/) && match(d[FNR], /^<[0-9]+>/)) {
			kp = substr($0, 2, index($0, ">") - 2) + 0
			dp = substr(d[FNR], 2, index(d[FNR], ">") - 2) + 0
			if (kp >= 8 && dp == bor(int(kp / 8), kp % 8) &&
			    substr($0, index($0, ">")) == substr(d[FNR], index(d[FNR], ">")))
				next
		}
		print "# line " FNR ": " substr(d[FNR], 1, 100) " | " substr($0, 1, 100)
		bad = 1
	     }
	     END { if (nd != nk) { print "# line counts " nd " vs " nk; bad = 1 }; exit bad }' \
		"$tmp/d1" "$tmp/k"
	ok $? "$name"
}
raw -r
raw -r --noescape
raw -r -l info,notice
same -S
same -S -x
same -S -r
same -S -t
same -s 1048576 -S

# --time-format iso: equal up to a 2 µs disagreement on the boot time.
if command -v python3 >/dev/null 2>&1; then
	if sandwich --time-format iso; then
		python3 - "$tmp/d1" "$tmp/k" <<'EOF'
import re, sys
from datetime import datetime
stamp = re.compile(r'^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d,\d{6}[+-]\d\d:\d\d) (.*)$', re.S)
def parse(s):
    return datetime.strptime(s.replace(',', '.'), '%Y-%m-%dT%H:%M:%S.%f%z')
a = open(sys.argv[1], 'rb').read().decode('utf-8', 'surrogateescape').split('\n')
b = open(sys.argv[2], 'rb').read().decode('utf-8', 'surrogateescape').split('\n')
if len(a) != len(b):
    print('# line counts differ: %d vs %d' % (len(a), len(b))); sys.exit(1)
dts = []
for x, y in zip(a, b):
    if x == y:
        continue
    mx, my = stamp.match(x), stamp.match(y)
    ok = mx and my and mx.group(2) == my.group(2)
    if ok:
        dt = (parse(my.group(1)) - parse(mx.group(1))).total_seconds()
        ok = -2e-6 <= dt < 1
        dts.append(dt)
    if not ok:
        print('# dmesg:  ' + x[:150]); print('# kdmesg: ' + y[:150]); sys.exit(1)
if dts and max(dts) - min(dts) > 4e-6:
    print('# offsets vary from %f to %f s' % (min(dts), max(dts))); sys.exit(1)
EOF
		ok $? "kdmesg --time-format iso = dmesg --time-format iso (clock tolerance)"
	else
		n=$((n + 1))
		echo "ok $n - --time-format iso # SKIP the kernel log kept changing"
	fi

	# -T: equal, or one second later where 2.38.1 lost a carry.
	if sandwich -T; then
		python3 - "$tmp/d1" "$tmp/k" <<'EOF'
import re, sys
from datetime import datetime
stamp = re.compile(r'^\[(\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4})\] (.*)$', re.S)
a = open(sys.argv[1], 'rb').read().decode('utf-8', 'surrogateescape').split('\n')
b = open(sys.argv[2], 'rb').read().decode('utf-8', 'surrogateescape').split('\n')
if len(a) != len(b):
    print('# line counts differ: %d vs %d' % (len(a), len(b))); sys.exit(1)
carries = 0
for x, y in zip(a, b):
    if x == y:
        continue
    mx, my = stamp.match(x), stamp.match(y)
    ok = mx and my and mx.group(2) == my.group(2)
    if ok:
        f = '%a %b %d %H:%M:%S %Y'
        dt = (datetime.strptime(my.group(1), f) - datetime.strptime(mx.group(1), f)).total_seconds()
        ok = dt == 1
        carries += 1
    if not ok:
        print('# dmesg:  ' + x[:150]); print('# kdmesg: ' + y[:150]); sys.exit(1)
print('# %d stamps one second later (2.38.1 carry bug)' % carries)
EOF
		ok $? "kdmesg -T = dmesg -T (apart from 2.38.1's lost carry)"
	else
		n=$((n + 1))
		echo "ok $n - -T # SKIP the kernel log kept changing"
	fi

	# -J: compare what 2.38.1 gets right (see the header).
	if sandwich -J; then
		python3 - "$tmp/d1" "$tmp/k" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1], 'rb'))['dmesg']
k = json.load(open(sys.argv[2], 'rb'))['dmesg']
if len(d) != len(k):
    print('# record counts differ: %d vs %d' % (len(d), len(k))); sys.exit(1)
skipped = 0
for i, (x, y) in enumerate(zip(d, k)):
    if x.get('time') != y.get('time') or x.get('caller') != y.get('caller'):
        print('# record %d: time/caller %r vs %r' % (i, x, y)); sys.exit(1)
    if y.get('pri', 0) < 8 and x.get('pri') != y.get('pri'):
        print('# record %d: pri %r vs %r' % (i, x.get('pri'), y.get('pri'))); sys.exit(1)
    if y.get('pri', 0) >= 8:
        skipped += 1
    xm, ym = x.get('msg', ''), y.get('msg', '')
    if xm != ym:
        if not xm.startswith(ym):
            print('# record %d: msg %r vs %r' % (i, xm[:100], ym[:100])); sys.exit(1)
        skipped += 1
print('# %d fields left out for dmesg 2.38.1 bugs' % skipped)
EOF
		ok $? "kdmesg -J = dmesg -J (apart from 2.38.1's pri/msg bugs)"
	else
		n=$((n + 1))
		echo "ok $n - -J # SKIP the kernel log kept changing"
	fi
else
	n=$((n + 1))
	echo "ok $n - -T, --time-format iso and -J # SKIP python3 is not installed"
fi

tap_done
