#!/usr/bin/env bash
# debian-boot.sh - boot Debian's own linux-image-6.12 (issue 18).
#
# Fetches the Debian 12 package linux-image-6.12.118+deb12-amd64, version
# 6.12.118-1~deb12u1 (apt-get download; unpacked with dpkg-deb -x, not
# installed, not modified), boots its vmlinuz under qemu-system-x86_64
# (TCG, 2 CPUs) with a busybox initramfs that loads some of the package's
# own modules (e1000, virtio_net, virtio_blk, ext4, what they depend on,
# and crc32c_generic, which ext4 would ask modprobe for), brings the
# network cards up and mounts an ext4 disk, and saves the kernel's
# /dev/kmsg records in the `cat /dev/kmsg` format.  The kernel has
# no CONFIG_KPRINT and no CONFIG_PRINTK_INDEX: its records carry no
# FORMAT/CODE_* fields, which kdmesg recovers from a format index (see
# kernel-patch/README.md, "Recovery on stock kernels").
#
# Usage: debian-boot.sh [--out FILE] [--dyndbg FILE] [--timeout SEC]
#   --out FILE     where the records go (default:
#                  tests/fixtures/kmsg-debian-6.12.dump)
#   --dyndbg FILE  also save the guest's dynamic-debug control file
# Environment:
#   KDMESG_KERNEL_CACHE  cache dir (default ~/.cache/kdmesg-kernel); the
#                        package and the boot go into its debian/ folder
#   KDMESG_QEMU_ACCEL    qemu accelerators, default "tcg"
set -euo pipefail

PKG=linux-image-6.12.118+deb12-amd64
VERSION=6.12.118-1~deb12u1
MODULES="e1000 virtio_net virtio_blk crc32c_generic ext4"
SCRIPT=$(readlink -f "${BASH_SOURCE[0]}")
HERE=$(dirname "$SCRIPT")
REPO=$(dirname "$HERE")
CACHE=${KDMESG_KERNEL_CACHE:-$HOME/.cache/kdmesg-kernel}/debian
OUT=$REPO/tests/fixtures/kmsg-debian-6.12.dump
DYNDBG=
TIMEOUT=600
QEMU_ACCEL=${KDMESG_QEMU_ACCEL:-tcg}

usage() {
	sed -n '2,/^set -euo/p' "$SCRIPT" | sed -e '$d' -e 's/^# \{0,1\}//'
}

while [ $# -gt 0 ]; do
	case $1 in
	--out) OUT=$2; shift 2 ;;
	--dyndbg) DYNDBG=$2; shift 2 ;;
	--timeout) TIMEOUT=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) echo "debian-boot.sh: unknown argument: $1" >&2; usage >&2; exit 2 ;;
	esac
done

die() { echo "debian-boot.sh: $*" >&2; exit 1; }
note() { echo "# debian-boot: $*" >&2; }

for t in qemu-system-x86_64 busybox cpio gzip mkfs.ext4 dpkg-deb apt-get gcc python3; do
	command -v "$t" > /dev/null ||
		die "$t is missing (apt-get install qemu-system-x86 busybox-static cpio e2fsprogs gcc python3)"
done

mkdir -p "$CACHE"
exec 9> "$CACHE/.lock"
flock 9

# ---------------------------------------------------------------- package
IMG=$CACHE/image
DEB=$CACHE/${PKG}_${VERSION//:/%3a}_amd64.deb
if [ ! -f "$IMG/.unpacked" ] || [ "$(cat "$IMG/.unpacked")" != "$PKG $VERSION" ]; then
	if [ ! -f "$DEB" ]; then
		note "apt-get download $PKG=$VERSION"
		(cd "$CACHE" && apt-get download "$PKG=$VERSION") > "$CACHE/download.log" 2>&1 ||
			{ cat "$CACHE/download.log" >&2; die "apt-get download $PKG=$VERSION failed"; }
	fi
	rm -rf "$IMG"
	dpkg-deb -x "$DEB" "$IMG"
	echo "$PKG $VERSION" > "$IMG/.unpacked"
fi
REL=${PKG#linux-image-}
VMLINUZ=$IMG/boot/vmlinuz-$REL
[ -f "$VMLINUZ" ] || die "$VMLINUZ is not in the package"

# ---------------------------------------------------------------- initramfs
# The modules, dependencies first, from the "depends=" entries of their
# .modinfo sections (the package ships no modules.dep; depmod is in kmod,
# which the build does not need otherwise).  Decompressed from .ko.xz: the
# bytes the kernel would load after its own in-kernel decompression.
ROOT=$CACHE/initramfs
rm -rf "$ROOT"
mkdir -p "$ROOT"/{bin,sbin,etc,proc,sys,dev,tmp,modules,usr/bin,usr/sbin}
# shellcheck disable=SC2086 # a list of module names
python3 - "$IMG/lib/modules/$REL/kernel" "$ROOT/modules" $MODULES > "$ROOT/etc/modules.order" <<'PY'
import lzma, os, re, sys
top, dest, want = sys.argv[1], sys.argv[2], sys.argv[3:]
paths = {}
for d, _, files in os.walk(top):
    for f in files:
        if f.endswith(".ko.xz"):
            paths[f[:-6].replace("-", "_")] = os.path.join(d, f)
order, seen = [], set()
def visit(name):
    name = name.replace("-", "_")
    if name in seen:
        return
    seen.add(name)
    if name not in paths:
        sys.exit("module %s is not in the package" % name)
    data = lzma.decompress(open(paths[name], "rb").read())
    m = re.search(rb"\0depends=([^\0]*)\0", data)
    for dep in (m.group(1).decode().split(",") if m and m.group(1) else []):
        visit(dep)
    with open(os.path.join(dest, name + ".ko"), "wb") as fh:
        fh.write(data)
    order.append(name)
for w in want:
    visit(w)
print("\n".join(order))
PY
cp /bin/busybox "$ROOT/bin/busybox"
for a in $(/bin/busybox --list); do
	[ -e "$ROOT/bin/$a" ] || ln -s busybox "$ROOT/bin/$a"
done
if [ ! -x "$CACHE/kmsg-dump" ] || [ "$HERE/tools/kmsg-dump.c" -nt "$CACHE/kmsg-dump" ]; then
	gcc -static -O2 -Wall -o "$CACHE/kmsg-dump" "$HERE/tools/kmsg-dump.c"
fi
cp "$CACHE/kmsg-dump" "$ROOT/bin/kmsg-dump"
cp "$HERE/tools/debian-init.sh" "$ROOT/init"
chmod 755 "$ROOT/init"
(cd "$ROOT" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -1 > "$CACHE/initramfs.cpio.gz"
rm -f "$CACHE/disk.img"
truncate -s 32M "$CACHE/disk.img"
mkfs.ext4 -q -F "$CACHE/disk.img"

# ---------------------------------------------------------------- boot
IFS=: read -r -a acc <<< "$QEMU_ACCEL"
accel=()
for v in "${acc[@]}"; do accel+=(-accel "$v"); done
rm -f "$CACHE/console.log" "$CACHE/data.log"
note "booting $REL ($QEMU_ACCEL, timeout ${TIMEOUT}s, console $CACHE/console.log)"
rc=0
timeout -k 10 "$TIMEOUT" qemu-system-x86_64 "${accel[@]}" -m 1024 -smp 2 \
	-kernel "$VMLINUZ" -initrd "$CACHE/initramfs.cpio.gz" \
	-append "console=ttyS0 rdinit=/init panic=-1 no_timer_check" \
	-display none -monitor none -nodefaults -no-reboot \
	-netdev user,id=n0 -device e1000,netdev=n0 \
	-netdev user,id=n1 -device virtio-net-pci,netdev=n1 \
	-drive file="$CACHE/disk.img",format=raw,if=virtio \
	-serial "file:$CACHE/console.log" -serial "file:$CACHE/data.log" \
	> "$CACHE/qemu.log" 2>&1 || rc=$?
[ $rc -eq 0 ] || { cat "$CACHE/qemu.log" >&2; die "qemu exited with status $rc"; }
grep -q '=====DEBIAN-DONE=====' "$CACHE/data.log" ||
	{ tail -n 20 "$CACHE/console.log" >&2; die "the guest did not finish (see $CACHE/console.log)"; }

# ---------------------------------------------------------------- save
section() {
	tr -d '\r' < "$CACHE/data.log" | sed -n "/^=====$1-BEGIN=====\$/,/^=====$1-END=====\$/p" | sed '1d;$d'
}
section INSMOD | sed 's/^/# /' >&2
if section INSMOD | grep -v ': 0$' | grep -q .; then
	die "a module did not load"
fi
section KMSG | grep -v '^@@' > "$OUT.tmp"
[ -s "$OUT.tmp" ] || die "no records in the KMSG section"
mv "$OUT.tmp" "$OUT"
[ -z "$DYNDBG" ] || section DYNDBG > "$DYNDBG"
note "$(grep -c '^[0-9]' "$OUT") records of $(section INFO | head -n 1) in $OUT"
