# shellcheck shell=bash
# drivers-devices.sh - the devices of the kprint boot with real subsystems
# (issue 24), sourced by check-kernel.sh: disk images on the host and the
# QEMU options that give them to the kernel.  tools/init.sh drives them
# when the command line has "kptest.drivers".
#
# drivers_devices DIR: (re)creates the images in DIR and sets the array
# DRIVERS_QEMU to the QEMU options:
#   /dev/vda to /dev/vde: ext4, btrfs, XFS, f2fs and nilfs2 disks on
#   virtio-blk (sparse images, the smallest sizes their mkfs take)
#   the 9p share "kd9p" over virtio: the directory DIR/9p
#   AHCI with an 8 MiB SATA disk with one partition (/dev/sda) and a
#   CD-ROM (/dev/sr0): libata, SCSI disk and CD-ROM
#   an e1000 card on user networking
#   xHCI with a USB keyboard (HID, input) and an 8 MiB stick (/dev/sdb)
#   the standard VGA, which bochs-drm drives
# Needs mkfs.ext4, mkfs.btrfs, mkfs.xfs, mkfs.f2fs, mkfs.nilfs2 and sfdisk
# (DRIVERS_PACKAGES).
# shellcheck disable=SC2034 # read by check-kernel.sh, which sources this file
DRIVERS_PACKAGES="e2fsprogs btrfs-progs xfsprogs f2fs-tools nilfs-tools fdisk"

# drivers_image FILE SIZE MKFS [ARG...]: a sparse image with a filesystem
drivers_image() {
	local file=$1 size=$2
	shift 2
	truncate -s "$size" "$file"
	"$@" "$file" > /dev/null 2>&1 || { echo "$1 of $file failed" >&2; return 1; }
}

drivers_devices() {
	local img=$1 fs
	DRIVERS_QEMU=()
	mkdir -p "$img"
	rm -f "$img"/*.img
	rm -rf "$img/9p" && mkdir "$img/9p" || return 1
	drivers_image "$img/ext4.img" 16M mkfs.ext4 -q -F -L kdmesg || return 1
	drivers_image "$img/btrfs.img" 128M mkfs.btrfs -q -f -L kdmesg || return 1
	drivers_image "$img/xfs.img" 300M mkfs.xfs -q -f -L kdmesg || return 1
	drivers_image "$img/f2fs.img" 64M mkfs.f2fs -q -f -l kdmesg || return 1
	drivers_image "$img/nilfs2.img" 32M mkfs.nilfs2 -q -f -B 256 -L kdmesg || return 1
	truncate -s 8M "$img/sata.img" "$img/usb.img"
	echo ',,L' | sfdisk -q "$img/sata.img" > /dev/null ||
		{ echo "sfdisk of $img/sata.img failed" >&2; return 1; }
	truncate -s 1M "$img/cd.img"
	# /dev/vda to /dev/vde, in this order
	for fs in ext4 btrfs xfs f2fs nilfs2; do
		DRIVERS_QEMU+=(-drive "file=$img/$fs.img,format=raw,if=virtio")
	done
	# shellcheck disable=SC2054 # the commas are inside QEMU's option values
	DRIVERS_QEMU+=(-device ahci,id=ahci
		-drive "if=none,id=sata0,file=$img/sata.img,format=raw"
		-device ide-hd,drive=sata0,bus=ahci.0
		-drive "if=none,id=cd0,file=$img/cd.img,format=raw,media=cdrom,readonly=on"
		-device ide-cd,drive=cd0,bus=ahci.1
		-virtfs "local,path=$img/9p,mount_tag=kd9p,security_model=none"
		-nic user,model=e1000
		-device qemu-xhci,id=xhci -device usb-kbd,bus=xhci.0
		-drive "if=none,id=stick,file=$img/usb.img,format=raw"
		-device usb-storage,bus=xhci.0,drive=stick
		-vga std)
}
