#!/usr/bin/env bash
# check-drivers.sh - the series on x86_64 with real subsystems (issue 24):
# who prints the records of a boot with disks, a network card, USB and a
# display.
#
# Builds Linux 6.12 (Debian's linux-source-6.12) with the fix and the four
# series of kernel-patch/series: tinyconfig plus kconfig-x86_64.fragment
# (CONFIG_KPRINT=y, relocatable with KASLR) and kconfig-drivers.fragment
# (PCI, virtio-blk, ext4, btrfs, XFS, f2fs, nilfs2, 9p over virtio,
# AHCI/libata, SCSI disk and CD-ROM,
# e1000, xHCI with usb-storage and USB HID, DRM with bochs-drm, the printk
# index), and boots it under qemu-system-x86_64 (TCG, 2 CPUs) with those
# devices: small-init mounts the ext4, btrfs, XFS, f2fs and nilfs2 disks
# and the 9p share, reads the
# others, brings the card up and saves the ring before loading the test
# modules.  check-small.py runs its
# checks of boot-small.sh and check-drivers.py reports, for the records
# before the test modules, the share that re-renders from FORMAT and ARGn
# and the share whose call site is a wrapper's (ext4_msg(),
# sdev_printk(), drm_*(), ...), per subsystem: issue 24's numbers, reported
# and not judged while most wrappers do not pass their callers' call
# sites (the wrappers series does it for ext4_msg(), sdev_printk(),
# ACPI's and ACPICA's macros, dev_err_probe(), DRM's macros, btrfs, XFS,
# Bluetooth and f2fs).  The work is boot-small.sh --drivers (see there).
#
# `make check-drivers` runs it.  tests/run-all.sh (CI) runs it only when
# this machine has built the kernel once (its cache exists): a cold build
# took 12 minutes on this 2-core machine (check-kernel.sh's kprint kernel
# about 6.5), which a cold CI run has no room for.
# kernel-patch/README.md ("Issue 24") records its last result.  Output is
# TAP-like; the last line is "N passed, N failed"; the exit status is
# non-zero on any failure.
#
# Usage: check-drivers.sh [--kdmesg PATH] [--jobs N] [--timeout SEC] [--clean]
# Environment: KDMESG_KERNEL_CACHE (default ~/.cache/kdmesg-kernel; the tree
# and build go to its x86_64-drivers/ directory)
exec bash "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/boot-small.sh" \
	--arch x86_64 --drivers --no-stock "$@"
