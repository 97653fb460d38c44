#!/usr/bin/env bash
# check-arm64.sh - build the series for arm64 and boot it (issue 23: the
# series is not x86-only).
#
# Builds Linux 6.12 (Debian's linux-source-6.12) with the fix and the four
# series of kernel-patch/series for arm64 with Debian's cross compiler
# (aarch64-linux-gnu-gcc): tinyconfig plus kernel-patch/kconfig-arm64.fragment,
# CONFIG_KPRINT=y with the KUnit tests, relocatable with KASLR.  On arm64 the
# call-site descriptors take the generic path of <linux/kprint.h> (pointers
# filled in by C; x86_64 has the 32-bit references as an optimisation).
# Builds the test modules kprint_test.ko and kprint_api.ko (test-module/;
# kpapi_asm.S has arm64 assembly callers of kprint_asm(), kprint_asm_site()
# with a KPRINT_ASM_SITE descriptor, and kprint_early()) against it.  Boots
# the Image under qemu-system-aarch64 ("virt", cortex-a57, TCG) with an
# initramfs of two static programs (tools/arm64-init.c, tools/kmsg-dump.c)
# and the modules: they load kprint_test.ko, read the ring in both forms of
# the lines (printk.kprint_dict=full and the default, site) and the debugfs
# site table, then load kprint_api.ko and read the ring again, and
# check-arm64.py checks them on the host.  Also builds the same tree and
# fragment with CONFIG_KPRINT=n (not booted): check-arm64.py compares the
# two vmlinux for the stack of every printk entry path (check-stack.py's
# goal, as on x86_64) and reports their Image sizes and the descriptors.
#
# `make check-arm64` runs it.  tests/run-all.sh (CI) runs it only when this
# machine has built the arm64 kernel once (its cache exists): a cold build
# is two cross-compiled kernels (the first one alone took 55 minutes at
# the lowest priority beside check-kernel.sh's builds), which a cold CI
# run has no time for; with the cache it takes minutes, or a kernel build
# when the series changed a header.  Otherwise CI counts it as skipped.
# kernel-patch/README.md ("arm64") records its last result.  Output is
# TAP-like; the last line is "N passed, N failed"; the exit status is
# non-zero on any failure.
#
# Usage: check-arm64.sh [--kdmesg PATH] [--jobs N] [--timeout SEC] [--clean]
# Environment: KDMESG_KERNEL_CACHE (default ~/.cache/kdmesg-kernel; the
# arm64 tree and build go to its arm64/ directory)
set -euo pipefail

SCRIPT=$(readlink -f "${BASH_SOURCE[0]}")
HERE=$(dirname "$SCRIPT")
REPO=$(dirname "$HERE")
CACHE=${KDMESG_KERNEL_CACHE:-$HOME/.cache/kdmesg-kernel}
TARBALL=/usr/src/linux-source-6.12.tar.xz
PRISTINE=$CACHE/linux-6.12-unpacked
A=$CACHE/arm64
SRC=$A/src
OBJ=$A/obj
JOBS=$(nproc)
BOOT_TIMEOUT=600
CLEAN=0
KDMESG=${KDMESG:-}
CROSS=aarch64-linux-gnu-
# the stock kernel: the same tree and fragment with CONFIG_KPRINT=n, only
# built, for the stack and size comparison
STOCK=$A/obj-stock
KMAKE_TREE=(make -C "$SRC" ARCH=arm64 CROSS_COMPILE="$CROSS"
	KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026'
	KBUILD_BUILD_USER=kdmesg KBUILD_BUILD_HOST=kdmesg KBUILD_BUILD_VERSION=1)
KMAKE=("${KMAKE_TREE[@]}" O="$OBJ")

while [ $# -gt 0 ]; do
	case $1 in
	--kdmesg) KDMESG=$2; shift 2 ;;
	--jobs) JOBS=$2; shift 2 ;;
	--timeout) BOOT_TIMEOUT=$2; shift 2 ;;
	--clean) CLEAN=1; shift ;;
	-h|--help) sed -n '2,/^set -euo/p' "$SCRIPT" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "check-arm64.sh: unknown option $1" >&2; exit 2 ;;
	esac
done

T0=$(date +%s)
note() { echo "# [$(( $(date +%s) - T0 ))s] $*"; }
fatal() {
	echo "not ok 1 - $*"
	echo "0 passed, 1 failed"
	exit 1
}

need() {
	local missing=() p sudo=
	for p in gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm \
		linux-source-6.12 flex bison bc cpio python3; do
		dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	note "installing: ${missing[*]}"
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	$sudo apt-get update -qq || true
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" ||
		fatal "apt-get install ${missing[*]} failed"
}

# The series' files a patch touches (git format-patch).
patch_files() {
	sed -n -E 's,^(---|\+\+\+) [ab]/([^[:space:]]+).*,\2,p' "$@" | sort -u
}

# $SRC: hard links to the pristine tree, except the files the series
# changes, which are copies with the series applied.  Files whose content
# does not change keep their time stamps, so a rebuild recompiles only what
# changed.
prepare_source() {
	local ov=$A/overlay.tmp f p patches=()
	while IFS= read -r p; do
		p=${p%%#*}
		p=${p//[[:space:]]/}
		[ -z "$p" ] || patches+=("$HERE/$p")
	done < "$HERE/series"
	if [ ! -f "$PRISTINE/.kdmesg-unpacked" ]; then
		note "unpacking $TARBALL into $PRISTINE"
		rm -rf "$PRISTINE" "$CACHE/unpack.tmp"
		mkdir -p "$CACHE/unpack.tmp"
		tar -C "$CACHE/unpack.tmp" -xf "$TARBALL"
		mv "$CACHE/unpack.tmp"/linux-source-6.12 "$PRISTINE"
		stat -c '%s %Y' "$TARBALL" > "$PRISTINE/.kdmesg-unpacked"
	fi
	if [ ! -d "$SRC" ]; then
		note "linking $PRISTINE into $SRC"
		cp -al "$PRISTINE" "$SRC.tmp"
		mv "$SRC.tmp" "$SRC"
	fi
	rm -rf "$ov"
	patch_files "${patches[@]}" > "$A/series-files.new"
	while IFS= read -r f; do
		mkdir -p "$ov/$(dirname "$f")"
		[ ! -e "$PRISTINE/$f" ] || cp -p "$PRISTINE/$f" "$ov/$f"
	done < "$A/series-files.new"
	for p in "${patches[@]}"; do
		patch -p1 -d "$ov" --batch --forward --no-backup-if-mismatch -s < "$p" \
			> "$A/patch.log" 2>&1 || fatal "applying $(basename "$p") failed (see $A/patch.log)"
	done
	# files an earlier series changed: back to the pristine ones
	if [ -f "$A/series-files" ]; then
		comm -23 "$A/series-files" "$A/series-files.new" | while IFS= read -r f; do
			rm -f "$SRC/$f"
			[ ! -e "$PRISTINE/$f" ] || cp "$PRISTINE/$f" "$SRC/$f"
		done
	fi
	while IFS= read -r f; do
		if [ -e "$ov/$f" ] && ! cmp -s "$ov/$f" "$SRC/$f"; then
			rm -f "$SRC/$f"
			cp "$ov/$f" "$SRC/$f"
		fi
	done < "$A/series-files.new"
	mv "$A/series-files.new" "$A/series-files"
	rm -rf "$ov"
}

build_kernel() {
	local line
	mkdir -p "$OBJ"
	if [ ! -f "$OBJ/.config" ] || [ "$HERE/kconfig-arm64.fragment" -nt "$OBJ/.config" ]; then
		"${KMAKE[@]}" -s tinyconfig > "$A/build.log" 2>&1
		"$SRC/scripts/kconfig/merge_config.sh" -m -O "$OBJ" "$OBJ/.config" \
			"$HERE/kconfig-arm64.fragment" >> "$A/build.log" 2>&1
		"${KMAKE[@]}" -s olddefconfig >> "$A/build.log" 2>&1
	fi
	while IFS= read -r line; do
		case $line in '' | '#'*) continue ;; esac
		grep -qxF "$line" "$OBJ/.config" ||
			fatal "config fragment line not in .config: $line"
	done < "$HERE/kconfig-arm64.fragment"
	note "building the arm64 Image (make -j$JOBS, log $A/build.log)"
	"${KMAKE[@]}" -j"$JOBS" Image >> "$A/build.log" 2>&1 ||
		fatal "the arm64 kernel does not build (see $A/build.log)"
}

# The stock kernel: the fragment without its CONFIG_KPRINT lines.
build_stock() {
	local frag=$A/kconfig-stock.fragment kmake=("${KMAKE_TREE[@]}" O="$STOCK")
	mkdir -p "$STOCK"
	{ grep -v '^CONFIG_KPRINT' "$HERE/kconfig-arm64.fragment"; echo '# CONFIG_KPRINT is not set'; } \
		> "$frag.new"
	if [ ! -f "$STOCK/.config" ] || ! cmp -s "$frag.new" "$frag"; then
		"${kmake[@]}" -s tinyconfig > "$A/build-stock.log" 2>&1
		"$SRC/scripts/kconfig/merge_config.sh" -m -O "$STOCK" "$STOCK/.config" \
			"$frag.new" >> "$A/build-stock.log" 2>&1
		"${kmake[@]}" -s olddefconfig >> "$A/build-stock.log" 2>&1
	fi
	mv "$frag.new" "$frag"
	grep -qx '# CONFIG_KPRINT is not set' "$STOCK/.config" ||
		fatal "the stock arm64 config has CONFIG_KPRINT"
	note "building the stock arm64 Image (CONFIG_KPRINT=n; log $A/build-stock.log)"
	"${kmake[@]}" -j"$JOBS" Image >> "$A/build-stock.log" 2>&1 ||
		fatal "the stock arm64 kernel does not build (see $A/build-stock.log)"
}

# the test modules: kprint_test.ko and kprint_api.ko (the kprint API, its
# assembly callers in kpapi_asm.S's arm64 code)
build_module() {
	local m=$A/module
	note "building kprint_test.ko and kprint_api.ko (log $A/module.log)"
	"${KMAKE[@]}" -j"$JOBS" modules >> "$A/build.log" 2>&1 ||
		fatal "the arm64 kernel's modules do not build (see $A/build.log)"
	rm -rf "$m"
	mkdir -p "$m"
	cp "$HERE"/test-module/* "$m/"
	"${KMAKE[@]}" M="$m" modules > "$A/module.log" 2>&1 ||
		fatal "the test modules do not build for arm64 (see $A/module.log)"
}

make_initramfs() {
	local root=$A/initramfs
	rm -rf "$root"
	mkdir -p "$root"
	"${CROSS}gcc" -static -O2 -Wall -o "$root/init" "$HERE/tools/arm64-init.c"
	"${CROSS}gcc" -static -O2 -Wall -o "$root/kmsg-dump" "$HERE/tools/kmsg-dump.c"
	cat > "$A/initramfs.list" <<-EOF
	dir /dev 0755 0 0
	nod /dev/console 0600 0 0 c 5 1
	dir /proc 0755 0 0
	dir /sys 0755 0 0
	file /init $root/init 0755 0 0
	file /kmsg-dump $root/kmsg-dump 0755 0 0
	file /kprint_test.ko $A/module/kprint_test.ko 0644 0 0
	file /kprint_api.ko $A/module/kprint_api.ko 0644 0 0
	EOF
	"$OBJ/usr/gen_init_cpio" "$A/initramfs.list" | gzip -9 > "$A/initramfs.cpio.gz"
}

boot() {
	rm -f "$A/console.log"
	note "booting under qemu-system-aarch64 (TCG; timeout ${BOOT_TIMEOUT}s)"
	timeout "$BOOT_TIMEOUT" qemu-system-aarch64 -M virt -cpu cortex-a57 -smp 2 -m 512 \
		-display none -monitor none -no-reboot \
		-kernel "$OBJ/arch/arm64/boot/Image" -initrd "$A/initramfs.cpio.gz" \
		-append "console=ttyAMA0 loglevel=1 printk.kprint_dict=full" \
		-serial "file:$A/console.log" > "$A/qemu.log" 2>&1 || true
}

need
if [ "$CLEAN" -eq 1 ]; then rm -rf "$A"; fi
mkdir -p "$A"
if [ -z "$KDMESG" ] && [ -x "$REPO/build/src/kdmesg" ]; then KDMESG=$REPO/build/src/kdmesg; fi
note "series: $(grep -vcE '^(#|fixes/|$)' "$HERE/series") patches after $(grep -c '^fixes/' "$HERE/series") fix(es); cross compiler: $("${CROSS}gcc" --version | head -n 1)"
prepare_source
build_kernel
build_stock
build_module
make_initramfs
boot
args=(--console "$A/console.log" --src "$SRC" --work "$A/check"
	--module-src "$HERE/test-module/kprint_test.c" --kprint-obj "$OBJ" --stock-obj "$STOCK")
[ -z "$KDMESG" ] || args+=(--kdmesg "$(readlink -f "$KDMESG")")
rc=0
python3 "$HERE/check-arm64.py" "${args[@]}" | tee "$A/result.log" || rc=$?
note "done in $(( $(date +%s) - T0 ))s; result in $A/result.log"
# the summary line last, as callers read it
tail -n 1 "$A/result.log"
exit "$rc"
