#!/bin/sh
# run-all.sh - every test suite of the project, one after the other:
#   1. a -Wall -Wextra -Werror build and `make check`;
#   2. an AddressSanitizer + UndefinedBehaviorSanitizer build and `make check`;
#   3. a short, bounded libFuzzer run of each parser fuzz target;
#   4. `make distcheck`;
#   5. `make check-kernel` (build, boot and check the patched kernel; its
#      kprint boot drives real subsystems, issue 24);
#   6. `make check-arm64` (the series on arm64), where the arm64 kernel was
#      built once before (else counted as one skipped check).
# Each suite's TAP results are added up; the last line is
# "N passed, N failed[, N skipped]" and the exit status is 1 on any failure.
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
out=${KDMESG_TEST_DIR:-$top/build-tests}
mkdir -p "$out"
passed=0 failed=0 skipped=0

# count LOG: add a test-suite.log's totals (Automake's summary lines).
count() {
	if [ ! -f "$1" ]; then
		echo "run-all: no $1: the suite did not run" >&2
		failed=$((failed + 1))
		return
	fi
	p=$(sed -n 's/^# PASS: *//p' "$1" | head -1)
	f=$(sed -n 's/^# FAIL: *//p' "$1" | head -1)
	e=$(sed -n 's/^# ERROR: *//p' "$1" | head -1)
	x=$(sed -n 's/^# XPASS: *//p' "$1" | head -1)
	s=$(sed -n 's/^# SKIP: *//p' "$1" | head -1)
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-0} + ${e:-0} + ${x:-0}))
	skipped=$((skipped + ${s:-0}))
}

# suite NAME DIR CONFIGURE-ARGS...: build in DIR and run make check.
suite() {
	name=$1 dir=$2
	shift 2
	echo "=== $name" >&2
	rm -f "$dir/test-suite.log"
	mkdir -p "$dir"
	if ! (cd "$dir" && "$top/configure" -q "$@" && make -s -j"$(nproc)") >&2; then
		echo "run-all: $name: build failed" >&2
		failed=$((failed + 1))
		return
	fi
	(cd "$dir" && make -s -j"$(nproc)" check) >&2
	count "$dir/test-suite.log"
	grep -E '^(FAIL|ERROR|XPASS):' "$dir/test-suite.log" >&2 || true
}

[ -x configure ] || ./autogen.sh >/dev/null 2>&1

suite "werror" "$out/werror" --enable-werror
suite "asan+ubsan" "$out/sanitize" --enable-asan --enable-ubsan CC=gcc

if [ -f "$top/tests/fuzz/run-fuzz.sh" ]; then
	echo "=== fuzz" >&2
	if sh "$top/tests/fuzz/run-fuzz.sh" "$out/fuzz" >&2; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
fi

echo "=== distcheck" >&2
if (cd "$out/werror" && make -s distcheck) >"$out/distcheck.log" 2>&1; then
	passed=$((passed + 1))
else
	tail -30 "$out/distcheck.log" >&2
	failed=$((failed + 1))
fi

# Show a kernel check's log and add its last line, "N passed, N failed[, N
# skipped]", to the totals (a log without it counts as one failure).
add_summary() {
	cat "$1" >&2
	last=$(tail -1 "$1")
	kp=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed.*/\1/p')
	kf=$(echo "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed.*/\2/p')
	ks=$(echo "$last" | sed -n 's/.* \([0-9]*\) skipped$/\1/p')
	if [ -n "$kp" ]; then
		passed=$((passed + kp))
		failed=$((failed + kf))
		skipped=$((skipped + ${ks:-0}))
	else
		failed=$((failed + 1))
	fi
}

if [ -f "$top/kernel-patch/check-kernel.sh" ] && [ "${KDMESG_SKIP_KERNEL:-0}" != 1 ]; then
	echo "=== check-kernel" >&2
	(cd "$out/werror" && make -s check-kernel) >"$out/check-kernel.log" 2>&1
	add_summary "$out/check-kernel.log"
fi

# cached_check TARGET DIR: make TARGET (a kernel-patch boot) only where its
# kernel was built once, in DIR of the kernel cache; else one skipped
# check: a cold build of those kernels does not fit in a cold CI run's time
cached_check() {
	[ "${KDMESG_SKIP_KERNEL:-0}" != 1 ] || return 0
	if [ -f "${KDMESG_KERNEL_CACHE:-$HOME/.cache/kdmesg-kernel}/$2/obj/.config" ]; then
		echo "=== $1" >&2
		(cd "$out/werror" && make -s "$1") >"$out/$1.log" 2>&1
		add_summary "$out/$1.log"
	else
		echo "=== $1: skipped (no build in $2/ of the kernel cache; make $1 builds one)" >&2
		skipped=$((skipped + 1))
	fi
}
# issue 23: the arm64 build and boot (see check-arm64.sh)
[ ! -f "$top/kernel-patch/check-arm64.sh" ] || cached_check check-arm64 arm64

line="$passed passed, $failed failed"
[ "$skipped" -gt 0 ] && line="$line, $skipped skipped"
echo "$line"
[ "$failed" -eq 0 ]
