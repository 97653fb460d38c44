#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cover-letter.sh - the kernel series' cover letter carries generated
# numbers (issue 23): the core series' cover letter has the Measurements
# of the four series, the rendering of kernel-patch/cover-letter.numbers
# by kernel-patch/cover-numbers.py, and those numbers were measured on the
# series it belongs to (a hash of the patch files kernel-patch/series
# lists).  Changing a patch without running check-kernel.sh and
# `cover-numbers.py collect` and `update` again fails here.  Also checks
# that the checker fails on a hand-edited number and on a changed patch,
# and that `collect` reads a check-kernel.sh output.
set -u

: "${top_srcdir:?top_srcdir must be set}"
kp=$top_srcdir/kernel-patch
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
. "$top_srcdir/tests/cli/tap.sh"

if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is not installed"
	exit 0
fi
cn="python3 $kp/cover-numbers.py"
letter=core/0000-cover-letter.patch

$cn check "$kp/cover-letter.numbers" "$kp/$letter" 2>"$tmp/err"
ok $? "the cover letter's Measurements are rendered from cover-letter.numbers of this series"
sed 's/^/# /' "$tmp/err"

# kernel-patch/series and the four series' directories agree: every patch
# file is listed, each cover letter counts its directory's patches
# ("[PATCH 0/N]" and the shortlog's "(N):") and each patch says its place
# ("[PATCH i/N]"; git format-patch pads i and 0 to N's digits)
bad=
for f in $(sed 's/#.*//' "$kp/series"); do
	[ -f "$kp/$f" ] || bad="$bad $f(missing)"
done
for d in $(sed -e 's/#.*//' -e 's,/.*,,' "$kp/series" | sort -u); do
	for f in "$kp/$d"/[0-9][0-9][0-9][0-9]-*.patch; do
		b=${f##*/}
		[ "$b" = 0000-cover-letter.patch ] && continue
		grep -qx "$d/$b" "$kp/series" || bad="$bad $d/$b(not in series)"
	done
	[ "$d" = fixes ] && continue
	k=$(grep -c "^$d/" "$kp/series")
	c=$kp/$d/0000-cover-letter.patch
	grep -q "^Subject: \[PATCH $(printf '%0*d' ${#k} 0)/$k\] " "$c" &&
		grep -q "^Seed 52ba9e8e maintainers ($k):\$" "$c" ||
		bad="$bad $d(cover letter does not count $k patches)"
	i=0
	for f in $(grep "^$d/" "$kp/series"); do
		i=$((i + 1))
		grep -q "^Subject: \[PATCH $(printf '%0*d' ${#k} $i)/$k\] " "$kp/$f" ||
			bad="$bad $f(not [PATCH $i/$k])"
	done
done
[ -z "$bad" ]
ok $? "kernel-patch/series lists every patch file, each exists, and each cover letter counts its series' patches"
[ -z "$bad" ] || echo "# $bad"

# a copy of the series to break: the series file, the fix and the patch
# directories it lists
mkdir "$tmp/kp"
cp "$kp/series" "$kp/cover-numbers.py" "$kp/cover-letter.numbers" "$tmp/kp/"
for d in $(sed -e 's/#.*//' -e 's,/.*,,' "$kp/series" | sort -u); do
	mkdir "$tmp/kp/$d"
	cp "$kp/$d"/*.patch "$tmp/kp/$d/"
done
$cn check "$tmp/kp/cover-letter.numbers" "$tmp/kp/$letter" 2>/dev/null
ok $? "the copy checks as the original"

# every patch the series lists counts, whichever series it is in
[ "$($cn hash "$tmp/kp")" = "$($cn hash "$kp")" ]
ok $? "cover-numbers.py hash DIR: the copy's hash is the original's"

sed 's/^stack_growth_max .*/stack_growth_max 48/' "$kp/cover-letter.numbers" >"$tmp/kp/edited.numbers"
$cn check "$tmp/kp/edited.numbers" "$tmp/kp/$letter" 2>"$tmp/err"
[ $? = 1 ] && grep -q 'not the rendering' "$tmp/err"
ok $? "a number that differs from the letter's fails (exit 1)"

# a patch of a later series changes the numbers' series too
p=$(ls "$tmp/kp"/tiny/0001-*.patch)
cp "$p" "$tmp/p.saved"
echo " " >>"$p"
$cn check "$tmp/kp/cover-letter.numbers" "$tmp/kp/$letter" 2>"$tmp/err"
[ $? = 1 ] && grep -q 'measured on series' "$tmp/err"
ok $? "numbers of a series whose patch (tiny/0001) changed fail (exit 1)"
cp "$tmp/p.saved" "$p"

f=$(ls "$tmp/kp"/fixes/*.patch | head -n 1)
echo " " >>"$f"
$cn check "$tmp/kp/cover-letter.numbers" "$tmp/kp/$letter" 2>"$tmp/err"
[ $? = 1 ] && grep -q 'measured on series' "$tmp/err"
ok $? "numbers of a series whose fix in fixes/ changed fail (exit 1)"

$cn check "$tmp/missing.numbers" "$tmp/kp/$letter" 2>"$tmp/err"
[ $? = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ]
ok $? "an unreadable numbers file: one line on stderr, exit 2"

# collect: what a check-kernel.sh output gives
cat >"$tmp/run.log" <<'LOG'
# run: 2026-12-06T01:00Z abc1234 0123456789ab
ok 9 - kprint: the kernel runs relocated by KASLR (_text at ffffffff90c00000, linked at ffffffff81000000)
ok 26 - contention: printk() while the other CPU logs: median 9297 ns with CONFIG_KPRINT, 7959 ns stock: 1.17x (24 and 24 runs on boots in turn; goal 1.2x, judged at 1.6x for TCG's noise)
ok 27 - contention: printk() while the other CPU flushes groups: median 8504 ns with CONFIG_KPRINT, 7959 ns stock: 1.07x (24 and 24 runs on boots in turn; goal 1.2x, judged at 1.6x for TCG's noise) # SKIP host busy
# kprint: journal after the boot log: 1186 entries in 3 file(s), 700440 bytes of objects, 591 bytes per entry
# kprint: dictionary bytes of the 900 records: 90000 full, 20000 default (site), 0.22x
# kprint (off): journal after the boot log: 1189 entries in 2 file(s), 472320 bytes of objects, 397 bytes per entry
# kprint (site): journal after the boot log: 1190 entries in 2 file(s), 523600 bytes of objects, 440 bytes per entry
ok 140 - stack: printk(), pr_*(), pr_cont() (store): 824 bytes, stock 768, growth +56 (goal <= +64)
not ok 141 - stack: dev_*(), dev_printk() (store): 1100 bytes, stock 1008, growth +92 (goal <= +64)
ok 142 - stack: kprint_buffer_flush() (group) vs printk() (store): 632 bytes, stock 704, growth -72 (goal <= +64)
# render: boot log: 256 of 258 records with FORMAT (99.2%) re-render exactly from FORMAT and ARGn
180 passed, 1 failed, 2 skipped
LOG
$cn collect "$tmp/run.log" --keep "$kp/cover-letter.numbers" >"$tmp/run.numbers"
st=$?
want='checks_failed 1
checks_passed 180
checks_skipped 2
contention_groups 1.07(skipped)
contention_logs 1.17
dict_full 90000
dict_records 900
dict_site 20000
journal_kprint_boot 591
journal_off_boot 397
journal_site_boot 440
kaslr relocated
render_boot_exact 256
render_boot_total 258
run_date 2026-12-06T01:00Z
run_kdmesg abc1234
series 0123456789ab
stack_group_max -72
stack_growth_max 92
stack_growth_min 56
stack_paths 2'
got=$(grep -E '^(checks|contention_(logs|groups)|dict|journal|kaslr|render|run_|series|stack)' "$tmp/run.numbers")
[ $st = 0 ] && [ "$got" = "$want" ] && grep -q '^size_7 ' "$tmp/run.numbers"
ok $? "collect reads a check-kernel.sh output and keeps the size keys"
[ "$got" = "$want" ] || { echo "$got" | sed 's/^/# got: /'; }

# --sizes: the bzImage bytes of a measure-sizes.sh table, for the run's series
cat >"$tmp/table.md" <<'TABLE'
| variant | config | bzImage | compressed kernel |
|---|---|---:|---:|
| kprint-off | CONFIG_KPRINT=n (baseline) | 1,037,312 | 1,003,520 |
| kprint-7 | KPRINT=y, MIN_LOGLEVEL=7 | 1,061,888 (+24,576) | 1,026,000 (+22,480) |

| variant | descriptors | bytes |
|---|---:|---:|
| kprint-7 | 1,724 | 48,272 |
TABLE
$cn collect "$tmp/run.log" --sizes "$tmp/table.md" >"$tmp/sized.numbers"
[ "$(grep '^size_' "$tmp/sized.numbers" | tr '\n' ' ')" = "size_7 1061888 size_off 1037312 size_series 0123456789ab " ]
ok $? "collect --sizes takes bzImage of kprint-off and kprint-7 for the run's series, not a later table's row"

tap_done
