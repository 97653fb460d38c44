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
# The third source alone: the shipped German catalogue's msgids, no
# index, on the same log; each record it recovers set against the index
# made from the kernel's own printk index (the same format, another one
# that prints the same text or not, one the index lacks).
if command -v msgfmt > /dev/null 2>&1; then
	mkdir -p "$tmp/cat/de/LC_MESSAGES" "$tmp/none"
	msgfmt -o "$tmp/cat/de/LC_MESSAGES/linux-kmsg.mo" "$srcdir/po-kmsg/de.po"
	env -u LANG -u LC_MESSAGES LANGUAGE=de LC_ALL=C.UTF-8 KDMESG_FORMATS_DIR="$tmp/none" \
		KDMESG_DEBUGFS="$tmp/none" KDMESG_MODULES_DIR=/nonexistent "$KDMESG" \
		-K "$F/kmsg-debian-6.12.dump" --translate=always --catalog-dir "$tmp/cat" \
		-o jsonl -v > "$tmp/de.jsonl" 2> "$tmp/de.err"
	ok $? "kdmesg --translate with the German catalogue and no index on Debian's log"
	python3 - "$tmp/de.jsonl" "$tmp/out.jsonl" > "$tmp/de.txt" <<'EOF'
import json, sys
cat, idx = ([json.loads(l) for l in open(p, encoding="utf-8")] for p in sys.argv[1:3])
K = "FORMAT[recovered]"
n = {"same": 0, "other": 0, "none": 0}
lines = []
for c, i in zip(cat, idx):
    if K not in c:
        continue
    kind = "same" if c[K] == i.get(K) else "other" if K in i else "none"
    n[kind] += 1
    if kind != "same":
        lines.append("%d\t%s\t%s\t%s" % (c["seq"], kind, json.dumps(c[K]), json.dumps(i.get(K, "-"))))
print("recovered %d, translated %d: the index's format %d, another %d, one the index lacks %d"
      % (sum(n.values()), sum("message_translated" in c for c in cat), n["same"], n["other"], n["none"]))
print("\n".join(lines))
EOF
	grep '^kdmesg: ' "$tmp/de.err" >> "$tmp/de.txt"
	[ "$update" != --update ] || cp "$tmp/de.txt" "$E/debian-de.txt"
	diff -u "$E/debian-de.txt" "$tmp/de.txt" > "$tmp/diff"
	ok $? "the catalogue's picks against the index's are the expected ones ($(head -n 1 "$tmp/de.txt"))"
	head -n 20 "$tmp/diff" | sed 's/^/# /'
else
	skip_de() {
		n=$((n + 1))
		echo "ok $n # SKIP msgfmt (gettext) is not installed"
	}
	skip_de
	skip_de
fi

nrec=$(grep -c . "$tmp/fields.txt")
[ "$nrec" -eq "$(grep -c '^[0-9]' "$F/kmsg-debian-6.12.dump")" ]
ok $? "one output record per record of the log ($nrec)"

tap_done
