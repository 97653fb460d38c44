#!/usr/bin/env bash
# boot-small.sh - build the series (or its first series) into a small
# tinyconfig-based kernel and boot it with the test modules: the harness
# behind check-arm64.sh (issue 23: the series is not x86-only) and
# check-alone.sh (issue 23: each series boots without the ones after it).
#
# Builds Linux 6.12 (Debian's linux-source-6.12) with the fix and the series
# of kernel-patch/series (all of them, or up to --upto) for --arch:
#   arm64    Debian's cross compiler (aarch64-linux-gnu-gcc), tinyconfig plus
#            kernel-patch/kconfig-arm64.fragment; the call-site descriptors
#            take the generic path of <linux/kprint.h> (pointers filled in
#            by C; x86_64 has the 32-bit references as an optimisation)
#   x86_64   the host compiler, tinyconfig plus
#            kernel-patch/kconfig-x86_64.fragment (the same options with the
#            8250 serial console and ACPI)
# both CONFIG_KPRINT=y with the KUnit tests, relocatable with KASLR.
# Builds the test modules kprint_test.ko and kprint_api.ko (test-module/;
# kpapi_asm.S has arm64 and x86_64 assembly callers of kprint_asm(),
# kprint_asm_site() with a KPRINT_ASM_SITE descriptor, and kprint_early())
# against it; kprint_api.ko only when the kernel has the kprint API.  Boots
# the kernel under qemu-system-<arch> (arm64: "virt", cortex-a57; TCG) with
# an initramfs of two static programs (tools/small-init.c, tools/kmsg-dump.c)
# and the modules: they load kprint_test.ko, read the ring in both forms of
# the lines (printk.kprint_dict=full and the default, site) and the debugfs
# site table, then load kprint_api.ko and read the ring again, and
# check-small.py checks them on the host (the checks of series that are not
# applied are skipped).  Unless --no-stock, also builds the same tree and
# fragment with CONFIG_KPRINT=n (not booted): check-small.py compares the
# two vmlinux for the stack of every printk entry path (check-stack.py's
# goal, as on x86_64) and reports their image sizes and the descriptors.
# Output is TAP-like; the last line is "N passed, N failed"; the exit
# status is non-zero on any failure.
#
# Usage: boot-small.sh [--arch arm64|x86_64] [--upto SERIES] [--no-stock]
#                      [--dir NAME] [--kdmesg PATH] [--jobs N]
#                      [--timeout SEC] [--clean]
#   --upto SERIES  apply the series file up to the last patch of SERIES
#                  (a directory of kernel-patch/: core, api, groups, tiny)
#   --dir NAME     the cache directory of the tree and builds (default:
#                  <arch>, or <arch>-<SERIES> with --upto)
# (The boot with real subsystems of issue 24 is check-kernel.sh's kprint
# variant since 2026-12-07.)
# Environment: KDMESG_KERNEL_CACHE (default ~/.cache/kdmesg-kernel)
set -euo pipefail

SCRIPT=$(readlink -f "${BASH_SOURCE[0]}")
HERE=$(dirname "$SCRIPT")
REPO=$(dirname "$HERE")
CACHE=${KDMESG_KERNEL_CACHE:-$HOME/.cache/kdmesg-kernel}
TARBALL=/usr/src/linux-source-6.12.tar.xz
PRISTINE=$CACHE/linux-6.12-unpacked
JOBS=$(nproc)
BOOT_TIMEOUT=600
CLEAN=0
KDMESG=${KDMESG:-}
ARCH=arm64
UPTO=
STOCK_BUILD=1
DIR=

while [ $# -gt 0 ]; do
	case $1 in
	--kdmesg) KDMESG=$2; shift 2 ;;
	--arch) ARCH=$2; shift 2 ;;
	--upto) UPTO=${2%/}; shift 2 ;;
	--no-stock) STOCK_BUILD=0; shift ;;
	--dir) DIR=$2; shift 2 ;;
	--jobs) JOBS=$2; shift 2 ;;
	--timeout) BOOT_TIMEOUT=$2; shift 2 ;;
	--clean) CLEAN=1; shift ;;
	-h|--help) sed -n '2,/^set -euo/p' "$SCRIPT" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "boot-small.sh: unknown option $1" >&2; exit 2 ;;
	esac
done

case $ARCH in
arm64)
	CROSS=aarch64-linux-gnu-
	PACKAGES="gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm"
	IMAGE=Image
	IMAGE_PATH=arch/arm64/boot/Image
	QEMU=(qemu-system-aarch64 -M virt -cpu cortex-a57)
	CONSOLE=ttyAMA0
	;;
x86_64)
	CROSS=
	PACKAGES="gcc libc6-dev qemu-system-x86 libelf-dev libssl-dev"
	IMAGE=bzImage
	IMAGE_PATH=arch/x86/boot/bzImage
	QEMU=(qemu-system-x86_64)
	CONSOLE=ttyS0
	;;
*) echo "boot-small.sh: --arch arm64 or x86_64, not $ARCH" >&2; exit 2 ;;
esac
FRAGMENT=$HERE/kconfig-$ARCH.fragment
FRAGMENTS=("$FRAGMENT")
if [ -z "$DIR" ]; then
	DIR=$ARCH${UPTO:+-$UPTO}
fi
A=$CACHE/$DIR
SRC=$A/src
OBJ=$A/obj
# the stock kernel: the same tree and fragment with CONFIG_KPRINT=n, only
# built, for the stack and size comparison
STOCK=$A/obj-stock
KMAKE_TREE=(make -C "$SRC" ARCH="$ARCH" CROSS_COMPILE="$CROSS"
	KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026'
	KBUILD_BUILD_USER=kdmesg KBUILD_BUILD_HOST=kdmesg KBUILD_BUILD_VERSION=1)
KMAKE=("${KMAKE_TREE[@]}" O="$OBJ")

T0=$(date +%s)
note() { echo "# [$(( $(date +%s) - T0 ))s] $*"; }
fatal() {
	echo "not ok 1 - $*"
	echo "0 passed, 1 failed"
	exit 1
}

need() {
	local missing=() p sudo=
	for p in $PACKAGES linux-source-6.12 flex bison bc cpio python3; do
		dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	note "installing: ${missing[*]}"
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	$sudo apt-get update -qq || true
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" ||
		fatal "apt-get install ${missing[*]} failed"
}

# The patches of the series file, up to the last one of $UPTO if given.
series_patches() {
	local p all=() last=0
	while IFS= read -r p; do
		p=${p%%#*}
		p=${p//[[:space:]]/}
		[ -n "$p" ] || continue
		all+=("$HERE/$p")
		case $p in "$UPTO"/*) last=${#all[@]} ;; esac
	done < "$HERE/series"
	if [ -n "$UPTO" ]; then
		[ "$last" -gt 0 ] || fatal "no patch of series $UPTO in $HERE/series"
		all=("${all[@]:0:last}")
	fi
	printf '%s\n' "${all[@]}"
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
	mapfile -t patches < <(series_patches)
	[ ${#patches[@]} -gt 0 ] || fatal "no patches in $HERE/series"
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
		# "/.": the tree's files, also when $PRISTINE is a symbolic
		# link (cp -a would copy the link, and the patches would then
		# change the pristine tree itself)
		rm -rf "$SRC.tmp"
		mkdir -p "$SRC.tmp"
		cp -al "$PRISTINE/." "$SRC.tmp/"
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
	local line name
	mkdir -p "$OBJ"
	if [ ! -f "$OBJ/.config" ] || [ -n "$(find "${FRAGMENTS[@]}" -newer "$OBJ/.config")" ]; then
		"${KMAKE[@]}" -s tinyconfig > "$A/build.log" 2>&1
		"$SRC/scripts/kconfig/merge_config.sh" -m -O "$OBJ" "$OBJ/.config" \
			"${FRAGMENTS[@]}" >> "$A/build.log" 2>&1
		"${KMAKE[@]}" -s olddefconfig >> "$A/build.log" 2>&1
	fi
	while IFS= read -r line; do
		case $line in '' | '#'*) continue ;; esac
		grep -qxF "$line" "$OBJ/.config" && continue
		# an option that a later series adds (--upto)
		name=${line%%=*}
		if [ -n "$UPTO" ] && ! grep -rqs --include='Kconfig*' \
			"^config ${name#CONFIG_}\$" "$SRC/init" "$SRC/lib" "$SRC/kernel"; then
			note "$line: not in this tree (a later series adds it)"
			continue
		fi
		fatal "config fragment line not in .config: $line"
	done < <(cat "${FRAGMENTS[@]}")
	note "building the $ARCH $IMAGE (make -j$JOBS, log $A/build.log)"
	"${KMAKE[@]}" -j"$JOBS" "$IMAGE" >> "$A/build.log" 2>&1 ||
		fatal "the $ARCH kernel does not build (see $A/build.log)"
}

# The stock kernel: the fragment without its CONFIG_KPRINT lines.
build_stock() {
	local frag=$A/kconfig-stock.fragment kmake=("${KMAKE_TREE[@]}" O="$STOCK")
	mkdir -p "$STOCK"
	{ cat "${FRAGMENTS[@]}" | grep -v '^CONFIG_KPRINT'; echo '# CONFIG_KPRINT is not set'; } \
		> "$frag.new"
	if [ ! -f "$STOCK/.config" ] || ! cmp -s "$frag.new" "$frag"; then
		"${kmake[@]}" -s tinyconfig > "$A/build-stock.log" 2>&1
		"$SRC/scripts/kconfig/merge_config.sh" -m -O "$STOCK" "$STOCK/.config" \
			"$frag.new" >> "$A/build-stock.log" 2>&1
		"${kmake[@]}" -s olddefconfig >> "$A/build-stock.log" 2>&1
	fi
	mv "$frag.new" "$frag"
	grep -qx '# CONFIG_KPRINT is not set' "$STOCK/.config" ||
		fatal "the stock $ARCH config has CONFIG_KPRINT"
	note "building the stock $ARCH $IMAGE (CONFIG_KPRINT=n; log $A/build-stock.log)"
	"${kmake[@]}" -j"$JOBS" "$IMAGE" >> "$A/build-stock.log" 2>&1 ||
		fatal "the stock $ARCH kernel does not build (see $A/build-stock.log)"
}

# the test modules: kprint_test.ko, and kprint_api.ko (the kprint API, its
# assembly callers in kpapi_asm.S) when the kernel has the API (Kbuild
# looks at Module.symvers)
build_module() {
	local m=$A/module
	note "building the test modules (log $A/module.log)"
	"${KMAKE[@]}" -j"$JOBS" modules >> "$A/build.log" 2>&1 ||
		fatal "the $ARCH kernel's modules do not build (see $A/build.log)"
	rm -rf "$m"
	mkdir -p "$m"
	cp "$HERE"/test-module/* "$m/"
	"${KMAKE[@]}" M="$m" modules > "$A/module.log" 2>&1 ||
		fatal "the test modules do not build for $ARCH (see $A/module.log)"
}

make_initramfs() {
	local root=$A/initramfs
	rm -rf "$root"
	mkdir -p "$root"
	"${CROSS}gcc" -static -O2 -Wall -o "$root/init" "$HERE/tools/small-init.c"
	"${CROSS}gcc" -static -O2 -Wall -o "$root/kmsg-dump" "$HERE/tools/kmsg-dump.c"
	cat > "$A/initramfs.list" <<-EOF
	dir /dev 0755 0 0
	nod /dev/console 0600 0 0 c 5 1
	dir /proc 0755 0 0
	dir /sys 0755 0 0
	file /init $root/init 0755 0 0
	file /kmsg-dump $root/kmsg-dump 0755 0 0
	file /kprint_test.ko $A/module/kprint_test.ko 0644 0 0
	EOF
	if [ -f "$A/module/kprint_api.ko" ]; then
		echo "file /kprint_api.ko $A/module/kprint_api.ko 0644 0 0" >> "$A/initramfs.list"
	fi
	"$OBJ/usr/gen_init_cpio" "$A/initramfs.list" | gzip -9 > "$A/initramfs.cpio.gz"
}

boot() {
	local append="console=$CONSOLE loglevel=1 printk.kprint_dict=full"
	rm -f "$A/console.log"
	note "booting under ${QEMU[0]} (TCG; timeout ${BOOT_TIMEOUT}s)"
	timeout "$BOOT_TIMEOUT" "${QEMU[@]}" -smp 2 -m 512 \
		-display none -monitor none -no-reboot \
		-kernel "$OBJ/$IMAGE_PATH" -initrd "$A/initramfs.cpio.gz" \
		-append "$append" \
		-serial "file:$A/console.log" > "$A/qemu.log" 2>&1 || true
}

need
if [ "$CLEAN" -eq 1 ]; then rm -rf "$A"; fi
mkdir -p "$A"
if [ -z "$KDMESG" ] && [ -x "$REPO/build/src/kdmesg" ]; then KDMESG=$REPO/build/src/kdmesg; fi
mapfile -t applied < <(series_patches | sed -n -E 's,.*/([^/]+)/[^/]+$,\1,p' | grep -vx fixes | uniq)
# LLVM=1 in the environment: Kbuild builds the kernel with clang
if [ -n "${LLVM:-}" ]; then cc_version=$(clang --version | head -n 1); else cc_version=$("${CROSS}gcc" --version | head -n 1); fi
note "$ARCH: series ${applied[*]} ($(series_patches | grep -vc '/fixes/') patches after the fix); compiler: $cc_version"
prepare_source
build_kernel
[ "$STOCK_BUILD" -eq 0 ] || build_stock
build_module
make_initramfs
boot
args=(--arch "$ARCH" --series "${applied[*]}" --console "$A/console.log" --src "$SRC"
	--work "$A/check" --module-src "$HERE/test-module/kprint_test.c")
[ "$STOCK_BUILD" -eq 0 ] || args+=(--kprint-obj "$OBJ" --stock-obj "$STOCK")
[ -z "$KDMESG" ] || args+=(--kdmesg "$(readlink -f "$KDMESG")")
rc=0
python3 "$HERE/check-small.py" "${args[@]}" | tee "$A/result.log" || rc=$?
note "done in $(( $(date +%s) - T0 ))s; result in $A/result.log"
# the summary line last, as callers read it
tail -n 1 "$A/result.log"
exit "$rc"
