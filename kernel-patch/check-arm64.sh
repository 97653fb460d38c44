#!/usr/bin/env bash
# check-arm64.sh - build the series for arm64 and boot it (issue 23: the
# series is not x86-only).
#
# Builds Linux 6.12 (Debian's linux-source-6.12) with the fix and the four
# series of kernel-patch/series for arm64 with Debian's cross compiler
# (aarch64-linux-gnu-gcc): tinyconfig plus kernel-patch/kconfig-arm64.fragment,
# CONFIG_KPRINT=y with the KUnit tests, relocatable with KASLR, and the same
# with CONFIG_KPRINT=n (not booted, for the stack and sizes); boots it under
# qemu-system-aarch64 with the test modules and checks the records on the
# host.  The work is boot-small.sh's (see there); check-small.py checks.
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
exec bash "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/boot-small.sh" --arch arm64 "$@"
