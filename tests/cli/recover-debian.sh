#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# recover-debian.sh - kdmesg recovers the records of Debian's own kernel
# (issue 18): tests/fixtures/kmsg-debian-6.12.dump, the log of the
# unmodified linux-image-6.12.118+deb12-amd64 booted by
# kernel-patch/debian-boot.sh, against an index written by kdmesg-po from
# tests/fixtures/debian-6.12-formats.tar.xz: the sites of an index of
# Debian's linux-source-6.12 (same version) whose formats could have made
# one of the log's texts, every competitor included
# (kernel-patch/debian-sites.sh).  Checks the -v summary, records of each
# prefix kind (pr_fmt, dev_printk, netdev_printk) with their call sites
# and arguments, and every record's recovered fields against
# tests/expected/recover/debian.txt.  The index of the whole tree is
# judged by `make check-kernel` (kernel-patch/check-recover.py).
# `--update` rewrites the golden files.  Prints TAP.
set -u

: "${KDMESG:?KDMESG must point at the built kdmesg}"
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
builddir=${top_builddir:-$(dirname "$KDMESG")/..}
KDMESG_PO=${KDMESG_PO:-$builddir/src/kdmesg-po}
F=$srcdir/tests/fixtures
E=$srcdir/tests/expected/recover
update=${1:-}
. "$srcdir/tests/cli/tap.sh"

for t in xz python3; do
	if ! command -v $t > /dev/null 2>&1; then
		echo "1..0 # SKIP $t is not installed"
		exit 77
	fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

tar -C "$tmp" -xJf "$F/debian-6.12-formats.tar.xz"
"$KDMESG_PO" index -o "$tmp/debian.kdfi" --release 6.12.118+deb12-amd64 \
	"$tmp/debian-6.12-formats/printk-index" "$tmp/debian-6.12-formats/sites.txt" 2> "$tmp/index.err"
ok $? "kdmesg-po index reads the printk index and the site table of the fixture"

"$KDMESG" -K "$F/kmsg-debian-6.12.dump" --formats "$tmp/debian.kdfi" -o jsonl -v \
	> "$tmp/out.jsonl" 2> "$tmp/err"
ok $? "kdmesg -K --formats -o jsonl -v on Debian's log"
grep '^kdmesg: recover' "$tmp/err" > "$tmp/summary"
[ "$update" != --update ] || { mkdir -p "$E"; cp "$tmp/summary" "$E/debian.summary"; }
cmp -s "$tmp/summary" "$E/debian.summary"
ok $? "the -v summary is the expected one ($(head -n 1 "$tmp/summary"))"

# each record: seq, FORMAT, call site, ambiguity, ARGn (recovered members)
python3 - "$tmp/out.jsonl" > "$tmp/fields.txt" <<'EOF'
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
[ "$update" != --update ] || cp "$tmp/fields.txt" "$E/debian.txt"
diff -u "$E/debian.txt" "$tmp/fields.txt" > "$tmp/diff"
ok $? "every record's recovered fields are the expected ones (tests/expected/recover/debian.txt)"
head -n 20 "$tmp/diff" | sed 's/^/# /'

# has SEQ-TEXT-PATTERN FIELDS-PATTERN: the record whose fields line
# matches both (grep -E on the fields.txt line of that record)
has() {
	grep -E "$1" "$tmp/fields.txt" | grep -qE "$2"
}
# netdev_info(): "driver device ifname: " before the format
has '"Intel\(R\) PRO/1000 Network Connection"' \
	'drivers/net/ethernet/intel/e1000/e1000_main.c:[0-9]+ e1000_probe e1000	'
ok $? "netdev_info() of e1000: the format after the netdev prefix, e1000_probe"
# dev_info() of virtio_blk
has '"\[%s\] %s%llu %d-byte logical blocks \(%s/%s\)"' 'drivers/block/virtio_blk.c:[0-9]+ virtblk_update_capacity virtio_blk'
ok $? "dev_notice() of virtio_blk: the format after the device prefix"
# a plain pr_info() with its arguments
has '"e1000: %s NIC Link is Up %d Mbps %s, Flow Control: %s"' \
	'e1000_watchdog e1000	.*\["eth0", "1000", "Full Duplex", "RX"\]'
ok $? "pr_info() with pr_fmt \"e1000: \": four arguments"
nrec=$(grep -c . "$tmp/fields.txt")
[ "$nrec" -eq "$(grep -c '^[0-9]' "$F/kmsg-debian-6.12.dump")" ]
ok $? "one output record per record of the log ($nrec)"

tap_done
