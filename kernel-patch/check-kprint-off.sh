#!/usr/bin/env bash
# check-kprint-off.sh - CONFIG_KPRINT=n leaves the kernel as it was
# (issues 23 and 24: "CONFIG_KPRINT=n byte-identical").
#
# Takes the configuration of check-kernel.sh's kprint kernel, the boot with
# real subsystems (check-kernel.sh must have built it once:
# $CACHE/kprint/obj/.config) with CONFIG_KPRINT turned off, builds the
# directories and objects the series touches from the unpatched tree
# ($CACHE/linux-6.12-unpacked) and from the tree with every series
# ($CACHE/src, which check-kernel.sh patched), and
# compares each object file of the two builds.  An object passes when the
# two are the same byte for byte, or when their code (objdump -d) is the
# same (the line numbers of WARN()s move with the lines the series adds
# above them, in __bug_table).  kernel/printk/index.o is the printk index
# fix of fixes/, which changes code on purpose: reported, not judged.
#
# Usage: check-kprint-off.sh [--jobs N] [OBJECT-OR-DIR...]
#   (default: every directory and object file the series touches that
#   the drivers configuration builds)
# Environment: KDMESG_KERNEL_CACHE (default ~/.cache/kdmesg-kernel).
# Output is TAP-like; the last line is "N passed, N failed"; the exit
# status is non-zero on any failure.  It builds two partial kernels:
# about 15 minutes on the 2-core development machine.  Not run by CI.
set -u

CACHE=${KDMESG_KERNEL_CACHE:-$HOME/.cache/kdmesg-kernel}
PRISTINE=$CACHE/linux-6.12-unpacked
PATCHED=$CACHE/src
CONFIG=$CACHE/kprint/obj/.config
WORK=$CACHE/kprint-off
JOBS=$(nproc)
TARGETS=()
while [ $# -gt 0 ]; do
	case $1 in
	--jobs) JOBS=$2; shift 2 ;;
	-h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) echo "check-kprint-off.sh: unknown option $1" >&2; exit 2 ;;
	*) TARGETS+=("$1"); shift ;;
	esac
done
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(kernel/printk/ lib/vsprintf.o drivers/base/
	drivers/acpi/ fs/ext4/ drivers/scsi/ drivers/gpu/drm/ fs/btrfs/ fs/xfs/
	fs/f2fs/ net/bluetooth/ fs/nilfs2/ net/9p/ fs/9p/)

pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok $((pass + fail)) - $1"; }
notok() {
	fail=$((fail + 1)); echo "not ok $((pass + fail)) - $1"
	shift; for l in "$@"; do echo "#   $l"; done
}
fatal() { echo "check-kprint-off.sh: $*" >&2; echo "$pass passed, $((fail + 1)) failed"; exit 1; }

[ -f "$CONFIG" ] || fatal "no $CONFIG: run kernel-patch/check-kernel.sh once"
[ -d "$PRISTINE" ] && [ -d "$PATCHED" ] || fatal "no $PRISTINE or $PATCHED"

for t in pristine patched; do
	src=$PRISTINE; [ $t = patched ] && src=$PATCHED
	o=$WORK/$t
	mkdir -p "$o"
	cp "$CONFIG" "$o/.config"
	"$src/scripts/config" --file "$o/.config" --disable KPRINT
	echo "# building ${TARGETS[*]} from the $t tree with CONFIG_KPRINT=n (log $o/build.log)"
	{ make -C "$src" O="$o" olddefconfig && make -C "$src" O="$o" -j"$JOBS" "${TARGETS[@]}"; } \
		> "$o/build.log" 2>&1 || fatal "the $t build failed (see $o/build.log)"
done
if grep -q '^CONFIG_KPRINT=y' "$WORK/patched/.config"; then
	notok "the patched tree's configuration has CONFIG_KPRINT=n" "CONFIG_KPRINT=y after olddefconfig"
fi

same=0 code=0 differ=() reported=()
while read -r f; do
	if cmp -s "$WORK/pristine/$f" "$WORK/patched/$f"; then
		same=$((same + 1))
	elif cmp -s <(objdump -d "$WORK/pristine/$f" | tail -n +3) \
			<(objdump -d "$WORK/patched/$f" | tail -n +3); then
		code=$((code + 1))
	elif [ "$f" = kernel/printk/index.o ]; then
		reported+=("$f")
	else
		differ+=("$f")
	fi
done < <(cd "$WORK/pristine" && for t in "${TARGETS[@]}"; do
	if [ -d "$t" ]; then find "$t" -name '*.o' ! -name '*.mod.o'; else echo "$t"; fi
done | sort -u)
total=$((same + code + ${#reported[@]} + ${#differ[@]}))
[ "$total" -gt 0 ] || fatal "no object files built"
if [ ${#differ[@]} -eq 0 ]; then
	ok "CONFIG_KPRINT=n: $same of $total object files the same byte for byte, $code more with the same code (objdump -d)"
else
	notok "CONFIG_KPRINT=n: ${#differ[@]} of $total object files have other code than the unpatched tree's" "${differ[@]}"
fi
[ ${#reported[@]} -eq 0 ] || echo "# other code, on purpose: ${reported[*]} (the printk index fix of fixes/)"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
