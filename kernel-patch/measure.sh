#!/usr/bin/env bash
# measure.sh - the numbers issue 3 asks for, from the last check-kernel.sh run:
# kernel sizes, printk ring-buffer memory and the cost of one printk()
# (kprint_test bench: switch on / switch off / CONFIG_KPRINT=n), for both
# variants in the cache.  Prints a markdown report; with --write it also
# stores it as kernel-patch/MEASUREMENTS.md.
#
# Usage: measure.sh [--write]     (run check-kernel.sh first)
set -euo pipefail

SCRIPT=$(readlink -f "${BASH_SOURCE[0]}")
HERE=$(dirname "$SCRIPT")
CACHE=${KDMESG_KERNEL_CACHE:-$HOME/.cache/kdmesg-kernel}
WRITE=0
[ "${1:-}" = --write ] && WRITE=1

K=$CACHE/kprint
S=$CACHE/stock
for d in "$K" "$S"; do
	[ -f "$d/obj/vmlinux" ] || { echo "measure.sh: no build in $d; run check-kernel.sh" >&2; exit 1; }
done

cfgval() { sed -n "s/^$2=//p" "$1/obj/.config"; }
fsize() { stat -c %s "$1"; }
# size(1) columns of vmlinux: text data bss
sizes() { size "$1/obj/vmlinux" | awk 'NR == 2 { print $1, $2, $3 }'; }
# printk/kprint data symbols with their sizes: "name size"
ringsyms() {
	local addr size type name
	nm -S --size-sort "$1/obj/vmlinux" |
		awk '$3 ~ /^[bBdDrR]$/ && $4 ~ /(printk_rb|_printk_rb_static|printk_info|__log_buf|kprint|prb_)/' |
		while read -r addr size type name; do
			: "$addr" "$type"
			echo "$name $((16#$size))"
		done | sort
}
symsize() { awk -v s="$2" '$1 == s { print $2; f = 1 } END { if (!f) print 0 }' <<< "$1"; }
# median / smallest "ns_per_call" and the number of lines matching a
# pattern of the kprint_test benchmark lines in a boot's data channel
median_ns() {
	{ grep -ao "$2" "$1/data.log" 2>/dev/null || true; } |
		sed 's/.*ns_per_call=\([0-9]*\).*/\1/' | sort -n |
		awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "" }'
}
min_ns() {
	{ grep -ao "$2" "$1/data.log" 2>/dev/null || true; } |
		sed 's/.*min=\([0-9]*\).*/\1/' | sort -n | head -n 1
}
count_lines() { { grep -ao "$2" "$1/data.log" 2>/dev/null || true; } | wc -l; }
# bench=N, by switch label; bench2=N (contention), by the other CPU's mode
bench() { median_ns "$1" "kptest:bench ns_per_call=[0-9]* switch=$2 "; }
benchmin() { min_ns "$1" "kptest:bench ns_per_call=[0-9]* switch=$2 n=[0-9]* min=[0-9]*"; }
benchn() { count_lines "$1" "kptest:bench ns_per_call=[0-9]* switch=$2 "; }
bench2() { median_ns "$1" "kptest:bench2 ns_per_call=[0-9]* flush=$2 "; }
bench2min() { min_ns "$1" "kptest:bench2 ns_per_call=[0-9]* flush=$2 variant=[a-z]* n=[0-9]* min=[0-9]*"; }
bench2n() { count_lines "$1" "kptest:bench2 ns_per_call=[0-9]* flush=$2 "; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print "n/a"; else printf "%.2f", a / b }'; }

shift_k=$(cfgval "$K" CONFIG_LOG_BUF_SHIFT)
shift_s=$(cfgval "$S" CONFIG_LOG_BUF_SHIFT)
rk=$(ringsyms "$K")
rs=$(ringsyms "$S")
# PRB_AVGBITS is 5: one descriptor per 32 bytes of text buffer
nrec_k=$(( 1 << (shift_k - 5) ))
nrec_s=$(( 1 << (shift_s - 5) ))

read -r kt kd kb <<< "$(sizes "$K")"
read -r st sd sb <<< "$(sizes "$S")"

on=$(bench "$K" on)
off=$(bench "$K" off)
stock=$(bench "$S" stock)
onmin=$(benchmin "$K" on)
offmin=$(benchmin "$K" off)
stockmin=$(benchmin "$S" stock)
accel=$(cat "$K/accel" 2>/dev/null || echo unknown)

report() {
	echo "# CONFIG_KPRINT measurements"
	echo
	echo "Produced by \`kernel-patch/measure.sh --write\` from the last"
	echo "\`kernel-patch/check-kernel.sh\` run on $(date -u +%Y-%m-%d) (tinyconfig +"
	echo "kconfig.fragment, Linux $(make -s -C "$CACHE/src" kernelversion 2>/dev/null),"
	echo "qemu-system-x86_64 -smp 2, accel $accel, host $(nproc) CPUs)."
	echo "Series: $(grep -cvE '^[[:space:]]*(#|$)' "$HERE/series" 2>/dev/null || echo 0) patch(es) of kernel-patch/series,"
	echo "build key kprint $(cut -c1-12 "$K/obj/.kdmesg-key"), stock $(cut -c1-12 "$S/obj/.kdmesg-key")."
	echo "CONFIG_KPRINT: kprint=$(cfgval "$K" CONFIG_KPRINT | grep . || echo n) stock=$(cfgval "$S" CONFIG_KPRINT | grep . || echo n)"
	echo
	echo "## Kernel size"
	echo
	# Issue 23: the boot test's two kernels differ beyond CONFIG_KPRINT
	# (the kprint one has KUnit suites, CONFIG_BUG, the test options), so
	# their sizes are not the cost of the series; measure-sizes.sh builds
	# kernels that differ in CONFIG_KPRINT alone.
	local cfgdiff
	cfgdiff=$(diff <(grep -v '^# \|^$\|KPRINT' "$K/obj/.config" | sort) \
		<(grep -v '^# \|^$\|KPRINT' "$S/obj/.config" | sort) | grep -c '^[<>]' || true)
	if [ "$cfgdiff" -gt 0 ]; then
		echo "Not compared here: the boot test's kprint and stock kernels differ in"
		echo "$cfgdiff configuration lines besides CONFIG_KPRINT* (KUnit suites, CONFIG_BUG,"
		echo "test options), so their sizes are not the cost of the series."
		echo "\`measure-sizes.sh\` builds kernels that differ in CONFIG_KPRINT alone."
	else
		echo "| | CONFIG_KPRINT=y | CONFIG_KPRINT=n | difference |"
		echo "|---|---:|---:|---:|"
		local a b
		a=$(fsize "$K/obj/vmlinux"); b=$(fsize "$S/obj/vmlinux")
		echo "| vmlinux file (bytes) | $a | $b | $((a - b)) |"
		echo "| vmlinux text | $kt | $st | $((kt - st)) |"
		echo "| vmlinux data | $kd | $sd | $((kd - sd)) |"
		echo "| vmlinux bss | $kb | $sb | $((kb - sb)) |"
		a=$(fsize "$K/obj/arch/x86/boot/bzImage"); b=$(fsize "$S/obj/arch/x86/boot/bzImage")
		echo "| bzImage (bytes) | $a | $b | $((a - b)) |"
	fi
	echo
	echo "## printk ring buffer (static, CONFIG_LOG_BUF_SHIFT=$shift_k)"
	echo
	echo "Records: 2^(LOG_BUF_SHIFT-5) = $nrec_k descriptors (kprint), $nrec_s (stock)."
	echo
	echo "| symbol | CONFIG_KPRINT=y | CONFIG_KPRINT=n | difference |"
	echo "|---|---:|---:|---:|"
	local names n x y tk=0 ts=0
	names=$( { awk '{ print $1 }' <<< "$rk"; awk '{ print $1 }' <<< "$rs"; } | sort -u)
	for n in $names; do
		x=$(symsize "$rk" "$n"); y=$(symsize "$rs" "$n")
		tk=$((tk + x)); ts=$((ts + y))
		echo "| \`$n\` | $x | $y | $((x - y)) |"
	done
	echo "| **total** | $tk | $ts | $((tk - ts)) |"
	local ik is dk ds
	ik=$(symsize "$rk" _printk_rb_static_infos); is=$(symsize "$rs" _printk_rb_static_infos)
	dk=$(symsize "$rk" _printk_rb_static_descs); ds=$(symsize "$rs" _printk_rb_static_descs)
	echo
	echo "Per record (descriptor + printk_info): $(( (ik + dk) / nrec_k )) bytes with"
	echo "CONFIG_KPRINT=y, $(( (is + ds) / nrec_s )) bytes without; plus the message"
	echo "text in \`__log_buf\` (shared by both; on average 32 bytes per record)."
	echo "Other kprint storage is listed above if its symbol name contains kprint."
	local nsites ksec
	nsites=$(grep -ao '^@@ file=[^ ]* lines=[0-9]*' "$K/data.log" 2>/dev/null | head -n 1 | sed 's/.*lines=//')
	ksec=$(size -A "$K/obj/vmlinux" | awk '$1 == ".kprint_sites" { print $2 }')
	echo
	echo "Call-site descriptors: ${nsites:-n/a} lines in the debugfs site table of the"
	echo "kprint boot (vmlinux and the loaded test modules); \`.kprint_sites\`, the"
	echo "array of 28-byte descriptors of vmlinux: ${ksec:-n/a} bytes"
	echo "($(( ${ksec:-0} / 28 )) descriptors)."
	echo
	echo "## Cost of one printk()"
	echo
	# shellcheck disable=SC2016 # markdown backquotes
	printf '%s\n' 'kprint_test `bench=N`: N x `printk(KERN_INFO "kpbench: i=%d s=%s x=%x\n", ...)`'
	echo "timed with ktime_get_ns(), 5 loops per run, console_loglevel 1; each"
	echo "boot runs it 5 times per setting (switch on/off alternating).  \"median\""
	echo "is the median over the runs of each run's median loop; \"fastest\" is the"
	echo "fastest loop of all runs (least disturbed by the host: under TCG, host"
	echo "load inflates guest time)."
	echo
	echo "| setting | runs | median ns | ratio to switch off | ratio to KPRINT=n | fastest ns | ratio to switch off | ratio to KPRINT=n |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|"
	echo "| CONFIG_KPRINT=y, switch on | $(benchn "$K" on) | ${on:-n/a} | $(ratio "$on" "$off") | $(ratio "$on" "$stock") | ${onmin:-n/a} | $(ratio "$onmin" "$offmin") | $(ratio "$onmin" "$stockmin") |"
	echo "| CONFIG_KPRINT=y, switch off | $(benchn "$K" off) | ${off:-n/a} | 1.00 | $(ratio "$off" "$stock") | ${offmin:-n/a} | 1.00 | $(ratio "$offmin" "$stockmin") |"
	local nosw
	nosw=$(bench "$K" noswitch)
	if [ -n "$nosw" ]; then
		echo "| CONFIG_KPRINT=y, no switch found | $(benchn "$K" noswitch) | $nosw | | $(ratio "$nosw" "$stock") | | | |"
	fi
	echo "| CONFIG_KPRINT=n | $(benchn "$S" stock) | ${stock:-n/a} | | 1.00 | ${stockmin:-n/a} | | 1.00 |"
	echo
	echo "Goal (issue 3): switch on under 1.3x a plain printk."
	echo
	echo "## printk() under contention (issue 13)"
	echo
	# shellcheck disable=SC2016 # markdown backquotes
	echo 'kprint_test `bench2=N` (N = 2000): a kthread on the first CPU times N'
	echo "printk() calls while a kthread on the other CPU logs at the same time"
	echo "(\"other CPU logs\") or flushes 8-line groups all the time (\"other CPU"
	echo "flushes groups\", kprint only); 5 loops per run, median loop per run,"
	echo "3 runs per boot, switch on; \"median\" and \"fastest\" as above."
	echo
	echo "| kernel, other CPU | runs | median ns | ratio to KPRINT=n | fastest ns | ratio to KPRINT=n |"
	echo "|---|---:|---:|---:|---:|---:|"
	local c0 c1 s0 c0m c1m s0m
	c0=$(bench2 "$K" 0); c1=$(bench2 "$K" 1); s0=$(bench2 "$S" 0)
	c0m=$(bench2min "$K" 0); c1m=$(bench2min "$K" 1); s0m=$(bench2min "$S" 0)
	echo "| CONFIG_KPRINT=y, other CPU logs | $(bench2n "$K" 0) | ${c0:-n/a} | $(ratio "$c0" "$s0") | ${c0m:-n/a} | $(ratio "$c0m" "$s0m") |"
	echo "| CONFIG_KPRINT=y, other CPU flushes groups | $(bench2n "$K" 1) | ${c1:-n/a} | $(ratio "$c1" "$s0") | ${c1m:-n/a} | $(ratio "$c1m" "$s0m") |"
	echo "| CONFIG_KPRINT=n, other CPU logs | $(bench2n "$S" 0) | ${s0:-n/a} | 1.00 | ${s0m:-n/a} | 1.00 |"
	echo
	echo "Goal (issue 13): at most 1.2x KPRINT=n in both."
	if [ -f "$CACHE/contention.md" ]; then
		echo
		echo "## printk() under contention, alternating boots (issue 13)"
		echo
		echo "From \`kernel-patch/measure-contention.sh\` ($(date -u -r "$CACHE/contention.md" '+%Y-%m-%d %H:%M UTC')):"
		echo "the same bench2, but kprint and stock booted in turn, several times,"
		echo "with only the benchmark running (no KUnit, no other test)."
		echo
		cat "$CACHE/contention.md"
	fi
}

out=$(report)
echo "$out"
if [ "$WRITE" -eq 1 ]; then
	echo "$out" > "$HERE/MEASUREMENTS.md"
	echo "measure.sh: wrote $HERE/MEASUREMENTS.md" >&2
fi
