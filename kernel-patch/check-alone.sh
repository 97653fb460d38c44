#!/usr/bin/env bash
# check-alone.sh - boot each series of kernel-patch/series without the ones
# after it (issue 23: independent series that each stand alone).
#
# For each series but the last, in the order of the series file (core;
# core+api; core+api+groups; core+api+groups+tiny), boot-small.sh --arch x86_64 --upto SERIES
# applies the fix and the series up to it, builds a tinyconfig-based
# x86_64 kernel (kconfig-x86_64.fragment: CONFIG_KPRINT=y, its KUnit
# tests, dynamic debug, relocatable with KASLR), builds the test modules
# that kernel can have (kprint_api.ko needs the api series), boots it under
# qemu-system-x86_64 and checks its records with check-small.py: the
# KUnit suites of the applied series, each call site of kprint_test.ko, the
# default and full forms of the lines resolved through the debugfs site
# table, and kprint_api.ko's checks when the API is applied.  The whole
# series is check-kernel.sh's (and check-arm64.sh's).
#
# Not in CI: four kernel builds (about 10 minutes each on 2 cores) do not
# fit a cold run's time; kernel-patch/README.md records the last result.
# Output: each boot's TAP lines, then "N passed, N failed" over all of them;
# the exit status is non-zero on any failure.
#
# Usage: check-alone.sh [--kdmesg PATH] [--jobs N] [--clean] [SERIES...]
#   SERIES  only these ends (default: every series but the last)
# Environment: KDMESG_KERNEL_CACHE (each end builds in its x86_64-<SERIES>
# directory)
set -uo pipefail

HERE=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
opts=()
ends=()
while [ $# -gt 0 ]; do
	case $1 in
	--kdmesg | --jobs) opts+=("$1" "$2"); shift 2 ;;
	--clean) opts+=("$1"); shift ;;
	-h | --help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) echo "check-alone.sh: unknown option $1" >&2; exit 2 ;;
	*) ends+=("$1"); shift ;;
	esac
done
if [ ${#ends[@]} -eq 0 ]; then
	mapfile -t ends < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$HERE/series" |
		sed -n -E 's,^([^/]+)/.*,\1,p' | grep -vx fixes | uniq | sed '$d')
fi
passed=0
failed=0
skipped=0
for end in "${ends[@]}"; do
	echo "# === the series up to $end"
	out=$(mktemp)
	bash "$HERE/boot-small.sh" --arch x86_64 --upto "$end" --no-stock "${opts[@]}" | tee "$out"
	last=$(tail -n 1 "$out")
	rm -f "$out"
	if [[ $last =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed(,\ ([0-9]+)\ skipped)? ]]; then
		passed=$((passed + BASH_REMATCH[1]))
		failed=$((failed + BASH_REMATCH[2]))
		skipped=$((skipped + ${BASH_REMATCH[4]:-0}))
	else
		echo "not ok - the boot of the series up to $end gave no summary"
		failed=$((failed + 1))
	fi
done
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
