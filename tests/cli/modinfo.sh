#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# modinfo.sh - kdmesg with libkmod reading a modules tree: --module by an
# alias and in either spelling, libkmod's facts in -o verbose, -o jsonl,
# -o json and --stats (text and JSON, never -J), a note for a module
# libkmod does not know, and libkmod's own error messages reported as
# kdmesg's ("kdmesg: libkmod: ..."), also those libkmod logs while it
# reads the modprobe configuration.
#
# The tree is made here: three built-in modules of kmsg-kprint.dump
# (e1000, nvme, snd_hda_intel) in modules.builtin and
# modules.builtin.modinfo (descriptions, a version, aliases), indexed by
# depmod(8).  Only records of those modules are shown with facts, so
# nothing depends on the modules of the machine that runs the test.
#
# Skips when depmod is missing or kdmesg was built without libkmod.
set -u

: "${KDMESG:?KDMESG must point at the built kdmesg}"
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/cli/tap.sh"
dump=$srcdir/tests/fixtures/kmsg-kprint.dump

depmod=$(command -v depmod 2>/dev/null || true)
[ -n "$depmod" ] || [ ! -x /usr/sbin/depmod ] || depmod=/usr/sbin/depmod
[ -n "$depmod" ] || [ ! -x /sbin/depmod ] || depmod=/sbin/depmod
if [ -z "$depmod" ]; then
	echo "1..0 # SKIP depmod (package kmod) is not installed"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
export TZ=GMT LC_ALL=C LANG=C LANGUAGE=
export DMESG_TEST_BOOTIME=1234567890.123456 KDMESG_TEST_CALLER_WIDTH=6
unset KMOD_LOG

rel=6.12.0-kdmesg-test
mods=$tmp/lib/modules/$rel
mkdir -p "$mods"
printf '%s\n' kernel/drivers/net/ethernet/intel/e1000/e1000.ko \
	kernel/drivers/nvme/host/nvme.ko kernel/sound/pci/hda/snd-hda-intel.ko \
	>"$mods/modules.builtin"
printf '%s\0' 'e1000.description=Intel(R) PRO/1000 Network Driver' \
	'e1000.alias=pci:v00008086d0000100Esv*sd*bc*sc*i*' \
	'nvme.version=1.0' 'nvme.description=NVM Express device driver' \
	'snd_hda_intel.description=Intel HDA driver' 'snd_hda_intel.alias=snd-card-0' \
	>"$mods/modules.builtin.modinfo"
: >"$mods/modules.order"
if ! "$depmod" -b "$tmp" "$rel" 2>"$tmp/depmod.err"; then
	echo "1..0 # SKIP depmod cannot index a test tree: $(head -1 "$tmp/depmod.err")"
	exit 0
fi
export KDMESG_MODULES_DIR="$mods"

# kd ARGS...: run kdmesg on the dump; stdout in $tmp/out, stderr in $tmp/err.
kd() {
	"$KDMESG" -K "$dump" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

kd --module nvme
if grep -q 'built without libkmod' "$tmp/err"; then
	echo "1..0 # SKIP kdmesg was built without libkmod"
	exit 0
fi

# is FILE WANT DESCRIPTION: FILE holds exactly the bytes WANT (and a newline).
is() {
	printf '%s\n' "$2" | cmp -s - "$1"
	r=$?
	ok $r "$3"
	[ $r = 0 ] || { echo "# want: $2"; sed 's/^/# got:  /' "$1"; }
}

kd --module snd-card-0
is "$tmp/out" "[    4.100000] [   T90] snd_hda_intel 0000:00:1b.0: no codecs found!" \
	"--module ALIAS: the record of the module libkmod resolves the alias to"
[ $rc = 0 ] && [ ! -s "$tmp/err" ]
ok $? "--module ALIAS: exit status 0, nothing on standard error"

kd --module snd-hda-intel
cp "$tmp/out" "$tmp/dash"
kd --module snd_hda_intel
cmp -s "$tmp/out" "$tmp/dash" && [ -s "$tmp/out" ]
ok $? "--module: '-' and '_' are the same"

kd --module nosuch
[ $rc = 0 ] && [ ! -s "$tmp/out" ]
ok $? "--module NAME libkmod does not know: status 0, no record"
is "$tmp/err" "kdmesg: note: libkmod knows no module or alias 'nosuch': matching MODULE=nosuch as given" \
	"--module NAME libkmod does not know: a note, once"

kd --module e1000 -o verbose
cnt=$(grep -c -x '    MODULE_INFO\[libkmod\]=builtin, Intel(R) PRO/1000 Network Driver' "$tmp/out")
[ "$cnt" = 4 ] && [ $rc = 0 ] && [ ! -s "$tmp/err" ]
ok $? "-o verbose: each of the 4 e1000 records with libkmod's facts (got $cnt)"

kd --module nvme -o jsonl
cnt=$(grep -c '"MODULE":"nvme",.*,"module_info":{"state":"builtin","version":"1.0","description":"NVM Express device driver"}}$' "$tmp/out")
[ "$cnt" = 2 ] && [ "$(wc -l <"$tmp/out")" = 2 ]
ok $? "-o jsonl: module_info object last on each of the 2 nvme records (got $cnt)"

# Records of two modules in turn: each with its own module's facts.
kd --module e1000 --module nvme --module snd_hda_intel -o jsonl
e=$(grep -c '"MODULE":"e1000",.*"module_info":{"state":"builtin","description":"Intel(R) PRO/1000 Network Driver"}}$' "$tmp/out")
v=$(grep -c '"MODULE":"nvme",.*"module_info":{"state":"builtin","version":"1.0",' "$tmp/out")
h=$(grep -c '"MODULE":"snd_hda_intel",.*"module_info":{"state":"builtin","description":"Intel HDA driver"}}$' "$tmp/out")
[ "$e/$v/$h" = 4/2/1 ] && [ "$(wc -l <"$tmp/out")" = 7 ]
ok $? "-o jsonl, three modules in turn: each record with its own module's facts (got $e/$v/$h)"

kd --module nvme -o json
tr -d ' \n' <"$tmp/out" >"$tmp/flat"
cnt=$(grep -o '"module_info":{"state":"builtin","version":"1.0","description":"NVMExpressdevicedriver"}}' "$tmp/flat" | wc -l)
[ "$cnt" = 2 ]
ok $? "-o json: a module_info object in each nvme record (got $cnt)"

kd --module nvme -J
grep -q module_info "$tmp/out"
[ $? = 1 ] && [ -s "$tmp/out" ]
ok $? "-J: dmesg's members only, no module_info"

kd --module nvme --module e1000 --top 1
is "$tmp/out" "  COUNT  SHARE      FIRST       LAST LEVEL  SITE
      2  33.3%   3.000000   3.500000 err    drivers/nvme/host/pci.c:1402 nvme_timeout() [nvme: builtin, version 1.0, NVM Express device driver] \"I/O tag %d (%04x) QID %d timeout, aborting\\n\"" \
	"--stats: the module's facts after its name"

kd --stats -J --module nvme
tr -d ' \n' <"$tmp/out" >"$tmp/flat"
grep -q '"module":"nvme","module_info":{"state":"builtin","version":"1.0","description":"NVMExpressdevicedriver"},"format"' "$tmp/flat"
ok $? "--stats -J: the module's facts as a module_info object"

# A bad line in the modprobe configuration: libkmod logs it from inside
# kmod_new(), before kdmesg can give it a log function; it still comes
# out as kdmesg's, once, and the rest of the file (an alias) is used.
printf 'bogus line\nalias kdtest-nic e1000\n' >"$tmp/modprobe.conf"
KDMESG_MODPROBE_CONFIG=$tmp/modprobe.conf kd --module kdtest-nic
is "$tmp/err" "kdmesg: libkmod: $tmp/modprobe.conf line 1: ignoring bad line starting with 'bogus'" \
	"libkmod's message from kmod_new() goes through kdmesg's error reporting"
[ $rc = 0 ] && [ "$(wc -l <"$tmp/out")" = 4 ]
ok $? "the configuration's alias resolves to e1000's 4 records"

# A corrupt index: libkmod's message comes out as kdmesg's, then the note.
cp -r "$mods" "$tmp/bad"
printf 'not an index' >"$tmp/bad/modules.alias.bin"
KDMESG_MODULES_DIR=$tmp/bad kd --module e1000
head -1 "$tmp/err" | grep -q '^kdmesg: libkmod: .'
ok $? "libkmod's own error goes through kdmesg's error reporting"
grep -q '^kdmesg: note: no module facts: libkmod cannot read the modules of this kernel' "$tmp/err" &&
	[ $rc = 0 ] && [ "$(wc -l <"$tmp/out")" = 4 ]
ok $? "a modules tree libkmod cannot read: a note, and --module matches the name as given"

tap_done
