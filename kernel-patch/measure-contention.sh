#!/usr/bin/env bash
# measure-contention.sh - printk() cost under contention (issue 13), the
# kprint kernel against the stock (CONFIG_KPRINT=n) one, from the kernels
# and test modules that the last check-kernel.sh run left in its cache.
#
# Boots the two kernels in turn, ROUNDS times each (kprint, stock, kprint,
# ...: both see the same host load on average), with a minimal /init that
# loads kprint_test.ko and runs its bench2 benchmark RUNS times per boot:
# a kthread on the first CPU times BENCH2_N printk() calls while a kthread
# on the other CPU calls printk() too (flush=0) or, on the kprint kernel,
# flushes 8-line groups all the time (flush=1).  After each bench2 run it
# also times BENCH_N calls on one CPU alone, of printk() (pv=0) and of
# kp_pv_msg(), a "%pV" wrapper built as ext4_msg() is (pv=1, issue 24),
# with the module's bench.  Each run reports the median of 5 loops; this
# script prints every run, then per setting the median, quartiles and
# range over all runs, and the ratios of the medians to the stock
# kernel's.  TCG timings depend on the host's load: read the quartiles
# before the ratios.
#
# --icount boots with QEMU's "-icount shift=0,sleep=off": the guest's clock
# then advances one nanosecond per instruction executed, so the one-CPU
# loops time instructions, not the host's seconds, and repeat to within
# 0.1% whatever the host's load (the bench2 runs, whose two vCPUs QEMU then
# runs in turn, are left out).  Its lines read "insns variant=V pv=P ns=N
# min=M" with N and M instructions per call.
#
# --ref VARIANT boots that CONFIG_KPRINT=n kernel of the cache as the
# reference in place of "stock": check-kernel.sh passes "costref", the
# unpatched kernel built with the kprint kernel's configuration (CONFIG_BUG,
# KASLR, the printk index), where "stock" has tinyconfig's (no CONFIG_BUG:
# no WARN_ON() code in vsnprintf() and the printk() path).  Its lines keep
# its name; the tables call it the stock kernel.
#
# Usage: measure-contention.sh [--rounds N] [--runs N] [--n N] [--out FILE]
#                              [--raw FILE] [--icount] [--ref VARIANT]
# (default --out: contention.md in the cache, which measure.sh includes;
# --raw: the bench2 lines of every run, which check-kernel.sh passes to
# check-records.py for its verdict)
set -euo pipefail

CACHE=${KDMESG_KERNEL_CACHE:-$HOME/.cache/kdmesg-kernel}
ROUNDS=4
RUNS=5
BENCH2_N=2000
# calls per loop of the single-CPU printk() and %pV wrapper benchmark
BENCH_N=1000
OUT=$CACHE/contention.md
RAW=
ICOUNT=0
REF=stock
while [ $# -gt 0 ]; do
	case $1 in
	--rounds) ROUNDS=$2; shift 2 ;;
	--runs) RUNS=$2; shift 2 ;;
	--n) BENCH2_N=$2; shift 2 ;;
	--out) OUT=$2; shift 2 ;;
	--raw) RAW=$2; shift 2 ;;
	--icount) ICOUNT=1; shift ;;
	--ref) REF=$2; shift 2 ;;
	*) echo "usage: measure-contention.sh [--rounds N] [--runs N] [--n N] [--out FILE] [--raw FILE] [--icount] [--ref VARIANT]" >&2
		exit 2 ;;
	esac
done

for v in kprint "$REF"; do
	for f in "$CACHE/$v/obj/arch/x86/boot/bzImage" "$CACHE/$v/module/kprint_test.ko"; do
		[ -f "$f" ] || { echo "measure-contention.sh: no $f; run check-kernel.sh first" >&2; exit 1; }
	done
done

ACCEL=(-accel tcg)
TAG=bench
if [ "$ICOUNT" = 1 ]; then
	ACCEL+=(-icount shift=0,sleep=off)
	TAG=insns
fi

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# initramfs per variant: busybox, the module, an /init that only measures
mkroot() {
	local v=$1 root=$WORK/$1 a
	mkdir -p "$root"/{bin,proc,sys,dev}
	cp /bin/busybox "$root/bin/busybox"
	for a in sh mount insmod cat echo sleep reboot; do ln -s busybox "$root/bin/$a"; done
	cp "$CACHE/$v/module/kprint_test.ko" "$root/kprint_test.ko"
	# bench2 settings: the other CPU logs (0) or flushes groups (1, kprint)
	local flushes="0"
	[ "$v" = kprint ] && flushes="0 1"
	[ "$ICOUNT" = 1 ] && flushes=""
	cat > "$root/init" <<-EOF
	#!/bin/sh
	mount -t proc proc /proc
	mount -t sysfs sysfs /sys
	mount -t devtmpfs devtmpfs /dev
	exec 3>/dev/ttyS1
	insmod /kprint_test.ko
	P=/sys/module/kprint_test/parameters
	echo 1 > /proc/sys/kernel/printk
	i=0
	while [ \$i -lt $RUNS ]; do
		for f in $flushes; do
			echo \$f > \$P/bench2_flush
			echo $BENCH2_N > \$P/bench2
			echo "bench2 variant=$v flush=\$f ns=\$(cat \$P/bench2_result) min=\$(cat \$P/bench2_min)" >&3
		done
		for p in 0 1; do
			echo \$p > \$P/bench_pv
			echo $BENCH_N > \$P/bench
			echo "$TAG variant=$v pv=\$p ns=\$(cat \$P/bench_result) min=\$(cat \$P/bench_min)" >&3
		done
		i=\$((i + 1))
	done
	echo "=====DONE=====" >&3
	reboot -f
	EOF
	chmod 755 "$root/init"
	(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -1 > "$WORK/$v.cpio.gz"
}

boot() {
	local v=$1 log=$WORK/$1.$2.log
	timeout -k 10 600 qemu-system-x86_64 "${ACCEL[@]}" -m 256 -smp 2 \
		-kernel "$CACHE/$v/obj/arch/x86/boot/bzImage" -initrd "$WORK/$v.cpio.gz" \
		-append "console=ttyS0 rdinit=/init loglevel=1 panic=-1 kunit.enable=0 no_timer_check" \
		-display none -monitor none -nodefaults -no-reboot \
		-serial null -serial "file:$log" > /dev/null 2>&1 || true
	grep -q "=====DONE=====" "$log" || echo "# $v boot $2 did not finish" >&2
	grep -a -E '^(bench2?|insns) ' "$log" || true
}

mkroot kprint
mkroot "$REF"
res=$WORK/results
: > "$res"
for r in $(seq 1 "$ROUNDS"); do
	for v in kprint "$REF"; do
		echo "# round $r: $v ($(date -u +%H:%M:%S), load $(cut -d' ' -f1 /proc/loadavg))" >&2
		boot "$v" "$r" | tee -a "$res"
	done
done

report() {
	if [ "$ICOUNT" = 1 ]; then
		echo "measure-contention.sh --icount: $ROUNDS boots per kernel, $RUNS runs per boot, N=$BENCH_N, instructions per call; stock: $REF"
	else
		echo "measure-contention.sh: $ROUNDS boots per kernel, $RUNS bench2 runs per boot, N=$BENCH2_N; stock: $REF"
	fi
	python3 - "$res" "$TAG" <<'PY'
import re, statistics, sys
runs = {}
for line in open(sys.argv[1]):
    m = re.match(r"bench2 variant=(\w+) flush=(\d) ns=(\d+) min=(\d+)", line)
    if m:
        # the reference (stock or --ref) is "stock" below
        v = "kprint" if m.group(1) == "kprint" else "stock"
        runs.setdefault((v, m.group(2)), []).append(int(m.group(3)))
def q(v, p):
    v = sorted(v)
    k = (len(v) - 1) * p
    f = int(k)
    return v[f] + (v[min(f + 1, len(v) - 1)] - v[f]) * (k - f)
base = statistics.median(runs[("stock", "0")]) if ("stock", "0") in runs else None
unit = "instructions" if sys.argv[2] == "insns" else "ns"
if runs:
    print("| kernel, other CPU | runs | median ns | quartiles ns | range ns | median / stock |")
    print("|---|---:|---:|---:|---:|---:|")
    for key, name in ((("stock", "0"), "CONFIG_KPRINT=n, other CPU logs"),
                      (("kprint", "0"), "CONFIG_KPRINT=y, other CPU logs"),
                      (("kprint", "1"), "CONFIG_KPRINT=y, other CPU flushes groups")):
        v = runs.get(key)
        if not v:
            print("| %s | 0 | | | | |" % name)
            continue
        med = statistics.median(v)
        print("| %s | %d | %d | %d-%d | %d-%d | %s |" % (
            name, len(v), med, q(v, 0.25), q(v, 0.75), min(v), max(v),
            "%.2f" % (med / base) if base else "n/a"))
# one CPU alone: printk() and the "%pV" wrapper, each against the stock
# kernel's same call
alone = {}
for line in open(sys.argv[1]):
    m = re.match(r"%s variant=(\w+) pv=(\d) ns=(\d+) min=(\d+)" % sys.argv[2], line)
    if m:
        v = "kprint" if m.group(1) == "kprint" else "stock"
        alone.setdefault((v, m.group(2)), []).append(int(m.group(3)))
if alone:
    print()
    print("| one CPU alone | runs | median %s | quartiles | range | median / stock |" % unit)
    print("|---|---:|---:|---:|---:|---:|")
    for p, what in (("0", "printk()"), ("1", "%pV wrapper (as ext4_msg())")):
        sv = alone.get(("stock", p))
        for var in ("stock", "kprint"):
            v = alone.get((var, p))
            if not v:
                continue
            med = statistics.median(v)
            print("| %s, %s | %d | %d | %d-%d | %d-%d | %s |" % (
                what, "CONFIG_KPRINT=n" if var == "stock" else "CONFIG_KPRINT=y", len(v), med,
                q(v, 0.25), q(v, 0.75), min(v), max(v),
                "%.2f" % (med / statistics.median(sv)) if sv else "n/a"))
PY
}
report
if [ -n "$RAW" ]; then cp "$res" "$RAW"; fi
if [ -n "$OUT" ]; then
	{ report; echo; echo "Runs:"; echo; sed 's/^/    /' "$res"; } > "$OUT"
fi
