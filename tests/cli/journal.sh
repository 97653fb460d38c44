#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# journal.sh - kdmesg on the systemd journal, with real components started
# here (no running journald): journals of three made-up machines with two
# boots each are built by systemd-journal-remote from export streams
# (tests/journal/gen-export.py), one from kdmesg's own -o export of a
# fixture, one from what the real systemd-journald stored of the patched
# kernel's boot in make check-kernel (tests/fixtures/journald-kprint.json),
# and damaged copies; then kdmesg's filters, outputs, --stats,
# translation, --list-boots and -w are checked against journalctl on the
# same files and against kdmesg on the dump the journal was made from, and
# the round trip kdmesg -o export | systemd-journal-remote | journalctl is
# compared field by field.
#
# Skips when kdmesg was built without libsystemd or journal-remote is not
# installed (Debian: libsystemd-dev, systemd-journal-remote).
set -u

: "${KDMESG:?KDMESG must point at the built kdmesg}"
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
F=$srcdir/tests/fixtures
GEN="python3 $srcdir/tests/journal/gen-export.py"

remote=
for p in /lib/systemd/systemd-journal-remote /usr/lib/systemd/systemd-journal-remote; do
	[ -x "$p" ] && remote=$p && break
done
if [ -z "$remote" ] || ! command -v journalctl >/dev/null 2>&1; then
	echo "1..0 # SKIP systemd-journal-remote is not installed"
	exit 0
fi
if "$KDMESG" --journal-file /nonexistent 2>&1 | grep -q 'without libsystemd'; then
	echo "1..0 # SKIP kdmesg was built without libsystemd"
	exit 0
fi

tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
. "$srcdir/tests/cli/tap.sh"
. "$srcdir/tests/cli/reap.sh"
export TZ=GMT LC_ALL=C.UTF-8 SYSTEMD_COLORS=0 KDMESG_MODULES_DIR=/nonexistent
unset LANGUAGE DMESG_TEST_BOOTIME

# journal NAME < EXPORT: a journal file made by systemd-journal-remote.
journal() {
	"$remote" -o "$1" - >"$tmp/remote.log" 2>&1
}

# --- the fleet: three machines, two boots each, in one directory ---------
D=$tmp/fleet
mkdir -p "$D"
for m in 0 1 2; do
	$GEN --kernel 30 --user 3 --machine "$m" | journal "$D/m$m.journal" || break
done
ok $? "systemd-journal-remote builds the journals of three machines"
$GEN --kernel 30 --user 3 >"$tmp/fleet.export"
nk=$(grep -c '^_TRANSPORT=kernel$' "$tmp/fleet.export")

# jctl ARGS: journalctl's short-monotonic lines as kdmesg prints them
# ("host kernel: " becomes the host column, no boot separators).
jctl() {
	journalctl --no-pager -o short-monotonic "$@" 2>/dev/null |
		grep -v '^-- ' | sed 's/ kernel: / /'
}

"$KDMESG" --journal-directory "$D" >"$tmp/all.out" 2>"$tmp/all.err"
ok $? "--journal-directory exits 0"
[ "$(wc -l <"$tmp/all.out")" -eq "$nk" ] && [ ! -s "$tmp/all.err" ]
ok $? "every kernel entry ($nk) and none of the user-space ones, nothing on stderr"
jctl -D "$D" _TRANSPORT=kernel >"$tmp/all.ref"
cmp -s "$tmp/all.out" "$tmp/all.ref"
ok $? "text with a host column: as journalctl -o short-monotonic _TRANSPORT=kernel"
diff "$tmp/all.ref" "$tmp/all.out" | head -5 | sed 's/^/# /'

# jctl1 ARGS: the same for records of one machine (no host column).
jctl1() {
	jctl "$@" | sed 's/^\(\[[^]]*\]\) [^ ]* /\1 /'
}

# Selections, each against journalctl's own on the same directory; $ONE:
# the selection is of one machine.
check_sel() {
	desc=$1
	shift
	# shellcheck disable=SC2086
	"$KDMESG" --journal-directory "$D" $KD >"$tmp/sel.out" 2>"$tmp/sel.err"
	rc=$?
	if [ -n "${ONE:-}" ]; then
		jctl1 -D "$D" "$@" >"$tmp/sel.ref"
	else
		jctl -D "$D" "$@" >"$tmp/sel.ref"
	fi
	[ "$rc" = 0 ] && [ -s "$tmp/sel.out" ] && cmp -s "$tmp/sel.out" "$tmp/sel.ref"
	ok $? "$desc"
	diff "$tmp/sel.ref" "$tmp/sel.out" | head -4 | sed 's/^/# /'
}
# One machine: no host column (journalctl's host field dropped too).
ONE=1 KD="--machine beta" check_sel "--machine HOST: that machine's records, no host column" _TRANSPORT=kernel _HOSTNAME=beta
ONE=1 KD="--machine 03030303030303030303030303030303" check_sel "--machine MACHINE-ID" _TRANSPORT=kernel _MACHINE_ID=03030303030303030303030303030303
KD="--machine alpha --machine gamma" check_sel "two --machine: either" _TRANSPORT=kernel _HOSTNAME=alpha _HOSTNAME=gamma
ONE=1 KD="--boot -1" check_sel "--boot -1: the boot before the last, as journalctl -b -1" -k -b -1
ONE=1 KD="--boot 1" check_sel "--boot 1: the first boot" -k -b 1
ONE=1 KD="--boot=-3" check_sel "--boot=-3" -k -b -3
id=00000002000000010000000000000001
ONE=1 KD="--boot $id" check_sel "--boot ID" -k -b "$id"
ONE=1 KD="--boot $id+2" check_sel "--boot ID+2" -k -b "$id+2"
KD="--boot all" check_sel "--boot all: every boot" _TRANSPORT=kernel
# journalctl counts boots of every machine; kdmesg those of the chosen ones.
ONE=1 KD="--boot -1 --machine alpha" check_sel "--boot with --machine: offsets among that machine's boots" -k -b 00000001000000010000000000000001
"$KDMESG" --journal-directory "$D" --boot -9 >"$tmp/o" 2>"$tmp/e"
[ $? = 1 ] && [ "$(cat "$tmp/e")" = "kdmesg: boot -9: not in the journal" ]
ok $? "a boot that is not there: one line, status 1"
"$KDMESG" --journal-directory "$D" --boot=x1 >"$tmp/o" 2>"$tmp/e"
[ $? = 1 ] && grep -q "invalid boot: 'x1'" "$tmp/e"
ok $? "a malformed boot: usage error"
"$KDMESG" -K "$F/kmsg-nul.dump" --boot -1 >"$tmp/o" 2>"$tmp/e"
[ $? = 1 ] && grep -q 'read the journal, not' "$tmp/e"
ok $? "--boot with -K is refused"

# Reading a large journal, kdmesg drops its page-table entries for the
# journal pages sd-journal mapped (memory); forced at every record, what
# is read does not change, with a directory, files, and -w.
for sel in "" "--boot -2" "--machine beta --boot 1" "--machine alpha --machine gamma -l err+" "--list-boots"; do
	# shellcheck disable=SC2086
	"$KDMESG" --journal-directory "$D" $sel >"$tmp/a" 2>&1
	# shellcheck disable=SC2086
	KDMESG_TEST_JOURNAL_DROP=1 "$KDMESG" --journal-directory "$D" $sel >"$tmp/b" 2>&1
	[ -s "$tmp/a" ] && cmp -s "$tmp/a" "$tmp/b"
	ok $? "pages dropped at every record${sel:+ ($sel)}: the same output"
done
KDMESG_TEST_JOURNAL_DROP=1 "$KDMESG" --journal-file "$D/m0.journal" --journal-file "$D/m2.journal" -o json >"$tmp/b" 2>&1
"$KDMESG" --journal-file "$D/m0.journal" --journal-file "$D/m2.journal" -o json >"$tmp/a" 2>&1
[ -s "$tmp/a" ] && cmp -s "$tmp/a" "$tmp/b"
ok $? "... with --journal-file, -o json"
if command -v strace >/dev/null 2>&1; then
	# (LeakSanitizer cannot run under ptrace)
	nolsan="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	ASAN_OPTIONS=$nolsan KDMESG_TEST_JOURNAL_DROP=1 strace -f -e trace=madvise -o "$tmp/strace" \
		"$KDMESG" --journal-directory "$D" --machine beta --boot 1 >"$tmp/b" 2>/dev/null
	nd=$(grep -c 'MADV_DONTNEED) = 0' "$tmp/strace")
	[ -s "$tmp/b" ] && [ "$nd" -ge "$(wc -l <"$tmp/b")" ]
	ok $? "... and they were dropped ($nd madvise calls for $(wc -l <"$tmp/b") records)"
	# Without the test hook, a small journal is never dropped.
	ASAN_OPTIONS=$nolsan strace -f -e trace=madvise -o "$tmp/strace" "$KDMESG" --journal-directory "$D" >/dev/null 2>&1
	! grep -q MADV_DONTNEED "$tmp/strace"
	ok $? "... and not on a small journal without the hook"
fi

# Filters and levels work on journal records as on any.
"$KDMESG" --journal-directory "$D" -l err+ >"$tmp/o" 2>&1
jctl -D "$D" _TRANSPORT=kernel -p err >"$tmp/r"
cmp -s "$tmp/o" "$tmp/r"
ok $? "-l err+: as journalctl -p err"
"$KDMESG" --journal-directory "$D" --subsystem nvme --module nvme --function nvme_timeout >"$tmp/o" 2>/dev/null
jctl -D "$D" _TRANSPORT=kernel _KERNEL_SUBSYSTEM=nvme _KERNEL_CODE_FUNC=nvme_timeout >"$tmp/r"
[ -s "$tmp/o" ] && cmp -s "$tmp/o" "$tmp/r"
ok $? "--subsystem/--module/--function on _KERNEL_ fields"
# alpha's boots are a day apart: the window holds its first one only.
"$KDMESG" --journal-directory "$D" --machine alpha --since '2025-12-05 01:59:00' --until '2025-12-05 03:00:00' >"$tmp/o" 2>&1
jctl1 -D "$D" -k -b 00000001000000010000000000000001 >"$tmp/r"
[ -s "$tmp/o" ] && cmp -s "$tmp/o" "$tmp/r"
ok $? "--since/--until with each record's own boot time"

# --list-boots: journalctl's table, a HOST column for several machines.
"$KDMESG" --journal-directory "$D" --list-boots >"$tmp/lb" 2>&1
journalctl --no-pager -D "$D" --list-boots >"$tmp/lb.ref" 2>&1
sed -E 's/^(IDX BOOT ID {26})HOST +/\1/; s/^( *-?[0-9]+ [0-9a-f]{32} )[a-z]+ +/\1/' "$tmp/lb" >"$tmp/lb.nohost"
cmp -s "$tmp/lb.nohost" "$tmp/lb.ref" && [ "$(grep -c ' beta ' "$tmp/lb")" = 2 ]
ok $? "--list-boots: journalctl's table plus a HOST column"
diff "$tmp/lb.ref" "$tmp/lb.nohost" | head -4 | sed 's/^/# /'

# -o json: every record with its machine and boot, valid JSON.
"$KDMESG" --journal-directory "$D" -o json >"$tmp/j" 2>/dev/null
python3 - "$tmp/j" "$tmp/fleet.export" <<'PY'
import json, sys
recs = json.load(open(sys.argv[1]))["dmesg"]
ents, cur = [], {}
for line in open(sys.argv[2], encoding="utf-8"):
    line = line.rstrip("\n")
    if not line:
        if cur.get("_TRANSPORT") == "kernel":
            ents.append(cur)
        cur = {}
        continue
    k, _, v = line.partition("=")
    cur[k] = v
key = lambda d: (d["_HOSTNAME"], d["_BOOT_ID"], int(d["__REALTIME_TIMESTAMP"]))
a = sorted(recs, key=key)
b = sorted(ents, key=key)
assert len(a) == len(b), (len(a), len(b))
for r, e in zip(a, b):
    for f in ("_HOSTNAME", "_MACHINE_ID", "_BOOT_ID", "MESSAGE"):
        assert r["msg" if f == "MESSAGE" else f] == e[f], (f, r, e)
    assert r["__REALTIME_TIMESTAMP"] == int(e["__REALTIME_TIMESTAMP"])
    for k, v in e.items():
        if k.startswith("_KERNEL_"):
            assert r[k[8:]] == v, (k, r)
PY
ok $? "-o json: _HOSTNAME, _MACHINE_ID, _BOOT_ID, __REALTIME_TIMESTAMP and every _KERNEL_ field"

# --stats: which hosts log each site most.
"$KDMESG" --journal-directory "$D" --stats >"$tmp/st" 2>/dev/null
n_oom=$(grep -A1 'Out of memory' "$tmp/st" | grep -c 'hosts:')
grep -q 'hosts: ' "$tmp/st" && [ "$n_oom" = 1 ]
ok $? "--stats: a hosts line under each site"
"$KDMESG" --journal-directory "$D" --stats -J >"$tmp/stj" 2>/dev/null
python3 - "$tmp/stj" "$tmp/fleet.export" <<'PY'
import json, sys, collections
st = json.load(open(sys.argv[1]))
want = collections.Counter()
cur = {}
for line in open(sys.argv[2], encoding="utf-8"):
    line = line.rstrip("\n")
    if not line:
        if cur.get("_TRANSPORT") == "kernel" and cur.get("_KERNEL_CODE_FUNC") == "nvme_timeout":
            want[cur["_HOSTNAME"]] += 1
        cur = {}
        continue
    k, _, v = line.partition("=")
    cur[k] = v
site = [s for s in st["sites"] if s.get("function") == "nvme_timeout"][0]
got = {h["host"]: h["count"] for h in site["hosts"]}
assert got == dict(want), (got, want)
counts = [h["count"] for h in site["hosts"]]
assert counts == sorted(counts, reverse=True)
PY
ok $? "--stats -J: per-site host counts as in the journal, most first"

# --- fixtures through kdmesg's own export: the journal reads as the dump -
# (kmsg-kprint-qemu.dump is the patched kernel's own boot log, captured by
# make check-kernel.)
B=1700000000.000000
for fx in kmsg-kprint.dump kmsg-kprint-qemu.dump; do
	rm -f "$tmp/k.journal"	# journal-remote appends to a file that exists
	DMESG_TEST_BOOTIME=$B "$KDMESG" -K "$F/$fx" -o export >"$tmp/k.export" 2>/dev/null &&
		journal "$tmp/k.journal" <"$tmp/k.export"
	ok $? "kdmesg -K $fx -o export | systemd-journal-remote"
	# (Not -o verbose: the export makes a lower-case key upper case, as the
	# journal's field names must be.)
	for args in "" "-x" "-T" "--location" "-l warn+ -x" "--time-format iso" "--stats" "--function pci_setup_device -d"; do
		# shellcheck disable=SC2086
		DMESG_TEST_BOOTIME=$B "$KDMESG" -K "$F/$fx" $args >"$tmp/d.out" 2>&1
		# shellcheck disable=SC2086
		"$KDMESG" --journal-file "$tmp/k.journal" $args >"$tmp/j.out" 2>&1
		cmp -s "$tmp/d.out" "$tmp/j.out"
		ok $? "$fx through the journal, kdmesg ${args:-(default)}: as on the dump"
		diff "$tmp/d.out" "$tmp/j.out" | head -4 | sed 's/^/# /'
	done
	"$KDMESG" --journal-file "$tmp/k.journal" -o jsonl 2>/dev/null | python3 -c '
import json, sys
n = 0
for line in sys.stdin:
    r = json.loads(line)
    assert "message" in r and "seq" in r
    n += 1
assert n > 10, n'
	ok $? "$fx through the journal, -o jsonl: valid JSON lines with seq and message"
done
journalctl --no-pager --file "$tmp/k.journal" -k -o cat >"$tmp/o" 2>&1
[ "$(wc -l <"$tmp/o")" -ge 10 ]
ok $? "journalctl -k on kdmesg's export of a dump finds its boot (a _BOOT_ID from its boot time)"

# Translation on journal records, as on the dump.
if command -v msgfmt >/dev/null 2>&1; then
	mkdir -p "$tmp/cat/xx/LC_MESSAGES"
	msgfmt -o "$tmp/cat/xx/LC_MESSAGES/linux-kmsg.mo" "$F/kmsg-test-xx.po"
	DMESG_TEST_BOOTIME=$B "$KDMESG" -K "$F/kmsg-translate.dump" -o export 2>/dev/null |
		journal "$tmp/t.journal"
	LANGUAGE=xx DMESG_TEST_BOOTIME=$B "$KDMESG" -K "$F/kmsg-translate.dump" --translate=always --catalog-dir "$tmp/cat" >"$tmp/d.out" 2>&1
	LANGUAGE=xx "$KDMESG" --journal-file "$tmp/t.journal" --translate=always --catalog-dir "$tmp/cat" >"$tmp/j.out" 2>&1
	cmp -s "$tmp/d.out" "$tmp/j.out" && ! cmp -s "$tmp/j.out" "$tmp/k.journal"
	ok $? "--translate on journal records: as on the dump"
	diff "$tmp/d.out" "$tmp/j.out" | head -4 | sed 's/^/# /'
fi

# --- journald's own journal of the patched kernel's boot ------------------
# tests/fixtures/journald-kprint.json: what systemd-journald (started by
# kernel-patch/tools/journald.sh in make check-kernel's VM) stored of the
# kprint kernel's ring, as journalctl -o json wrote it; the same records
# as /dev/kmsg gave them before journald started are
# kmsg-kprint-journald.dump.  The JSON is turned back into an export
# stream (binary fields as journalctl -o export writes them) for
# systemd-journal-remote.
python3 - "$F/journald-kprint.json" >"$tmp/jd.export" <<'PY'
import json, sys
out = sys.stdout.buffer
for line in open(sys.argv[1], encoding="utf-8"):
    for k, v in json.loads(line).items():
        b = bytes(v) if isinstance(v, list) else v.encode()
        if b"\n" in b or any(c < 0x20 and c != 9 for c in b):
            out.write(k.encode() + b"\n" + len(b).to_bytes(8, "little") + b + b"\n")
        else:
            out.write(k.encode() + b"=" + b + b"\n")
    out.write(b"\n")
PY
journal "$tmp/jd.journal" <"$tmp/jd.export"
njd=$(grep -c . "$F/journald-kprint.json")
[ "$(journalctl --no-pager --file "$tmp/jd.journal" _TRANSPORT=kernel -o cat 2>/dev/null | grep -c .)" -ge "$njd" ]
ok $? "journald's entries of the kprint boot in a journal ($njd entries)"
# the boot's wall-clock start, as the journal dates its records
JB=$(python3 -c 'import json, sys
e = json.loads(open(sys.argv[1]).readline())
t = int(e["__REALTIME_TIMESTAMP"]) - int(e["__MONOTONIC_TIMESTAMP"])
print("@%d.%06d" % (t // 1000000, t % 1000000))' "$F/journald-kprint.json")
JD="-K $F/kmsg-kprint-journald.dump --boot-time $JB"
for args in "" "-x -T" "--location" "--code-file arch/x86/kernel/e820.c" \
	"--code-file kprint_test.c -l warn+" "--function kp_levels" "--module e820 -x" \
	"--stats" "--stats -J" "--group"; do
	# shellcheck disable=SC2086
	"$KDMESG" $JD $args >"$tmp/d.out" 2>&1
	# shellcheck disable=SC2086
	"$KDMESG" --journal-file "$tmp/jd.journal" $args >"$tmp/j.out" 2>&1
	[ -s "$tmp/d.out" ] && cmp -s "$tmp/d.out" "$tmp/j.out"
	ok $? "journald's journal, kdmesg ${args:-(default)}: as on the dump ($(wc -l <"$tmp/d.out") lines)"
	diff "$tmp/d.out" "$tmp/j.out" | head -4 | sed 's/^/# /'
done
# -o verbose field by field: the journal keeps no sequence number, and a
# record's fields in its own order.
# verbose_norm FILE [keep-seq]: each record's fields sorted, without the
# sequence number unless asked.
verbose_norm() {
	python3 -c 'import re, sys
blocks = []
for line in open(sys.argv[1], encoding="utf-8", errors="surrogateescape"):
    if line.startswith(" "):
        blocks[-1][1].append(line)
    else:
        blocks.append([line if len(sys.argv) > 2 else re.sub(r"seq=\d+ ", "", line), []])
for head, fields in blocks:
    sys.stdout.write(head + "".join(sorted(fields)))' "$@"
}
# shellcheck disable=SC2086
"$KDMESG" $JD -o verbose >"$tmp/d.out" 2>/dev/null
"$KDMESG" --journal-file "$tmp/jd.journal" -o verbose >"$tmp/j.out" 2>/dev/null
verbose_norm "$tmp/d.out" >"$tmp/d.norm"
verbose_norm "$tmp/j.out" >"$tmp/j.norm"
[ "$(grep -c 'CODE_FILE=' "$tmp/j.norm")" -ge 100 ] && cmp -s "$tmp/d.norm" "$tmp/j.norm"
ok $? "journald's journal, -o verbose: every field of every record as on the dump"
diff "$tmp/d.norm" "$tmp/j.norm" | head -4 | sed 's/^/# /'
# -o json: each _KERNEL_<KEY> journald stored is the record's KEY, MESSAGE
# its message, PRIORITY its level; what the journal adds is journald's.
"$KDMESG" --journal-file "$tmp/jd.journal" -o json >"$tmp/j.json" 2>/dev/null
# shellcheck disable=SC2086
"$KDMESG" $JD -o json >"$tmp/d.json" 2>/dev/null
python3 - "$F/journald-kprint.json" "$tmp/j.json" "$tmp/d.json" <<'PY'
import json, sys
ents = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
got = json.load(open(sys.argv[2], encoding="utf-8"))["dmesg"]
dump = json.load(open(sys.argv[3], encoding="utf-8"))["dmesg"]
assert len(ents) == len(got) == len(dump), (len(ents), len(got), len(dump))
def text(v):
    return bytes(v).decode("utf-8", "replace") if isinstance(v, list) else v
keys = 0
for e, r, d in zip(ents, got, dump):
    assert r["pri"] == int(e["PRIORITY"]), (r, e)
    for k, v in e.items():
        if k.startswith("_KERNEL_"):
            assert r[k[8:]] == text(v), (k, r.get(k[8:]), v)
            keys += 1
    for k in ("_HOSTNAME", "_MACHINE_ID", "_BOOT_ID"):
        assert r.pop(k) == e[k], k
    assert r.pop("__REALTIME_TIMESTAMP") == int(e["__REALTIME_TIMESTAMP"])
    assert r == d, (r, d)
assert keys > 500, keys
PY
ok $? "journald's journal, -o json: every _KERNEL_<KEY> as the record's KEY, the rest as on the dump"
# The same dump through kdmesg's own -o export: KDMESG_SEQNUM keeps the
# sequence numbers, and _KERNEL_<KEY> every dictionary key.
rm -f "$tmp/kx.journal"
# shellcheck disable=SC2086
"$KDMESG" $JD -o export >"$tmp/kx.export" 2>/dev/null && journal "$tmp/kx.journal" <"$tmp/kx.export"
ok $? "kdmesg -K kmsg-kprint-journald.dump -o export | systemd-journal-remote"
# shellcheck disable=SC2086
"$KDMESG" $JD -o verbose >"$tmp/d.out" 2>/dev/null
"$KDMESG" --journal-file "$tmp/kx.journal" -o verbose >"$tmp/j.out" 2>/dev/null
verbose_norm "$tmp/d.out" keep-seq >"$tmp/d.norm"
verbose_norm "$tmp/j.out" keep-seq >"$tmp/j.norm"
[ "$(grep -c '\[seq=' "$tmp/j.norm")" = "$njd" ] && cmp -s "$tmp/d.norm" "$tmp/j.norm"
ok $? "... -o verbose: every field of every record, sequence numbers too, as on the dump"
diff "$tmp/d.norm" "$tmp/j.norm" | head -4 | sed 's/^/# /'
for args in "--code-file kprint_test.c -x" "--code-file arch/x86 --location" "--function kp_levels -T"; do
	# shellcheck disable=SC2086
	"$KDMESG" $JD $args >"$tmp/d.out" 2>&1
	# shellcheck disable=SC2086
	"$KDMESG" --journal-file "$tmp/kx.journal" $args >"$tmp/j.out" 2>&1
	[ -s "$tmp/d.out" ] && cmp -s "$tmp/d.out" "$tmp/j.out"
	ok $? "... $args: as on the dump ($(wc -l <"$tmp/d.out") lines)"
	diff "$tmp/d.out" "$tmp/j.out" | head -4 | sed 's/^/# /'
done

# --- the round trip, field by field ----------------------------------------
"$KDMESG" --journal-directory "$D" -o export >"$tmp/rt.export" 2>/dev/null &&
	journal "$tmp/rt.journal" <"$tmp/rt.export"
ok $? "kdmesg --journal-directory -o export | systemd-journal-remote"
# fields FILE-ARGS...: each entry's fields, sorted, one entry a line;
# __CURSOR/__SEQNUM name the file, __MONOTONIC_TIMESTAMP is journald's
# clock (kdmesg writes the kernel's stamp there).
fields() {
	journalctl --no-pager -o export "$@" 2>/dev/null | python3 -c '
import sys
out, cur = [], []
for line in sys.stdin.read().split("\n"):
    if not line:
        if cur:
            out.append("|".join(sorted(f for f in cur if not f.startswith(("__CURSOR=", "__SEQNUM", "__MONOTONIC_TIMESTAMP=", "_SOURCE_REALTIME")))))
        cur = []
    else:
        cur.append(line)
print("\n".join(sorted(out)))'
}
fields -D "$D" _TRANSPORT=kernel >"$tmp/f.ref"
fields --file "$tmp/rt.journal" >"$tmp/f.out"
cmp -s "$tmp/f.ref" "$tmp/f.out" && [ "$(wc -l <"$tmp/f.out")" -eq "$nk" ]
ok $? "round trip: every field of every kernel entry comes back ($nk entries)"
diff "$tmp/f.ref" "$tmp/f.out" | head -4 | cut -c1-300 | sed 's/^/# /'
jctl --file "$tmp/rt.journal" -k -b "$id" >"$tmp/o"
jctl -D "$D" -k -b "$id" >"$tmp/r"
[ -s "$tmp/o" ] && cmp -s "$tmp/o" "$tmp/r"
ok $? "round trip: journalctl -k -b ID finds the boot"

# --- damaged files ---------------------------------------------------------
cp "$D/m1.journal" "$tmp/trunc.journal"
truncate -s 100000 "$tmp/trunc.journal"
head -c 200000 /dev/urandom >"$tmp/random.journal"
"$KDMESG" --journal-file "$D/m0.journal" --journal-file "$tmp/trunc.journal" \
	--journal-file "$tmp/random.journal" --journal-file "$D/m2.journal" >"$tmp/o" 2>"$tmp/e"
rc=$?
jctl --file "$D/m0.journal" --file "$D/m2.journal" _TRANSPORT=kernel >"$tmp/r"
[ "$rc" = 1 ] && cmp -s "$tmp/o" "$tmp/r"
ok $? "corrupt and truncated files: the others' records, exit status 1"
[ "$(sed "s|$tmp|TMP|" "$tmp/e")" = "kdmesg: TMP/trunc.journal: cannot read this journal file, left out: truncated
kdmesg: TMP/random.journal: cannot read this journal file, left out: corrupt, or not a journal file" ]
ok $? "... and one line for each damaged file"
sed 's/^/# /' "$tmp/e"
mkdir "$tmp/mixed" && cp "$D/m0.journal" "$tmp/trunc.journal" "$tmp/mixed/"
"$KDMESG" --journal-directory "$tmp/mixed" >"$tmp/o" 2>"$tmp/e"
[ $? = 1 ] && [ "$(wc -l <"$tmp/o")" -gt 0 ] && grep -q 'trunc.journal: cannot read' "$tmp/e"
ok $? "a damaged file in a directory: reported, the others read"
"$KDMESG" --journal-file "$tmp/random.journal" >"$tmp/o" 2>"$tmp/e"
[ $? = 1 ] && [ ! -s "$tmp/o" ]
ok $? "only a damaged file: status 1, no output"
# An entry larger than any kernel record: bounded, and said so.
python3 -c '
m = "x" * 100000
print("__REALTIME_TIMESTAMP=1700000000000000\n__MONOTONIC_TIMESTAMP=5\n_BOOT_ID=" + "ab" * 16 +
      "\n_TRANSPORT=kernel\nPRIORITY=3\nMESSAGE=" + m + "\n_KERNEL_BIG=" + m + "\n")' |
	journal "$tmp/big.journal"
"$KDMESG" --journal-file "$tmp/big.journal" >"$tmp/o" 2>"$tmp/e"
[ $? = 0 ] && [ "$(wc -c <"$tmp/o")" -le 8300 ] && [ "$(cat "$tmp/e")" = "kdmesg: 1 record was truncated" ]
ok $? "a 100,000-byte entry: cut at the kernel's record size and counted"
mkdir "$tmp/empty"
"$KDMESG" --journal-directory "$tmp/empty" >"$tmp/o" 2>"$tmp/e"
[ $? = 1 ] && grep -q 'no journal files' "$tmp/e"
ok $? "a directory without journals: one line, status 1"

# --- -w follows the journal: a file that appears later is read -----------
: >"$tmp/w.out"
: >"$tmp/wd.out"
"$KDMESG" --journal-directory "$D" -w >"$tmp/w.out" 2>"$tmp/w.err" &
pid=$!
# and a second one whose journal pages are dropped at every record
KDMESG_TEST_JOURNAL_DROP=1 "$KDMESG" --journal-directory "$D" -w >"$tmp/wd.out" 2>&1 &
pid2=$!
i=0
while { [ "$(wc -l <"$tmp/w.out")" -lt "$nk" ] || [ "$(wc -l <"$tmp/wd.out")" -lt "$nk" ]; } && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
# (later than what was read: following goes on from the newest entry)
$GEN --kernel 5 --user 1 --machines 4 --boots 1 --seed 7 --machine 3 --days 10 | journal "$D/m3.journal"
i=0
while { [ "$(grep -c ' delta ' "$tmp/w.out")" -lt 5 ] || [ "$(grep -c ' delta ' "$tmp/wd.out")" -lt 5 ]; } &&
	[ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill "$pid" "$pid2" 2>/dev/null
wait "$pid" "$pid2" 2>/dev/null
pid=
[ "$(grep -c ' delta ' "$tmp/w.out")" = 5 ]
ok $? "-w: the records of a journal file written later are shown"
cmp -s "$tmp/w.out" "$tmp/wd.out"
ok $? "-w with the journal pages dropped at every record: the same"

# --- the viewer on the fleet: Enter shows a record's host and boot --------
if command -v tmux >/dev/null 2>&1; then
	sock="$tmp/tmux.sock"
	tmux -S "$sock" new-session -d -x 120 -y 30 \
		"sh -c 'echo \$\$ >\"$tmp/tui.pid\"; exec env TZ=GMT LC_ALL=C.UTF-8 \"$KDMESG\" --tui --journal-directory \"$D\"'" 2>/dev/null
	sleep 1
	tmux -S "$sock" capture-pane -p >"$tmp/rows" 2>/dev/null
	tmux -S "$sock" send-keys Enter
	sleep 1
	tmux -S "$sock" capture-pane -p >"$tmp/tui" 2>/dev/null
	tmux -S "$sock" send-keys q
	sleep 0.3
	tmux -S "$sock" kill-server 2>/dev/null
	reap_viewer "$tmp/tui.pid"
	grep -q '^\[ *[0-9.]*\] gamma Out of memory' "$tmp/rows"
	ok $? "--tui on the journal: rows with the host column"
	# the last record: delta's, added by the -w check above
	grep -q '^_HOSTNAME *delta' "$tmp/tui" && grep -q '^_BOOT_ID *00000004000000010000000000000007' "$tmp/tui" &&
		grep -q 'wall clock *Mon Dec 15 05:00:0' "$tmp/tui"
	rc=$?
	ok $rc "... the detail pane names the record's host and boot, dated with its own boot"
	[ $rc = 0 ] || grep -E '^(_|wall)' "$tmp/tui" | sed 's/^/# /'
fi

tap_done
