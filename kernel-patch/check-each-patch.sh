#!/bin/bash
# check-each-patch.sh - build the series one patch at a time (issue 13,
# item 7: every patch builds alone, links, and adds no warning).
#
# Starts from pristine Linux 6.12 (the tarball check-kernel.sh unpacks),
# builds it once with W=1 as the baseline, then applies the patches of
# `series` one by one and after each runs, with W=1 and the configuration
# of check-kernel.sh's "kprint" boot variant without ACPI (re-derived at
# each step with olddefconfig, so a symbol exists only from the patch that
# adds it):
#   make vmlinux modules            (compile and link; incremental)
#   scripts/kernel-doc -none        on every .c/.h file the series touched
#   scripts/checkpatch.pl --strict  on the patch itself
# A compiler or kernel-doc warning counts as new when the baseline has no
# warning with the same text in the same file (line and column numbers are
# left out, since the series moves lines).  One TAP line per patch and
# check; the last line is "N passed, N failed"; exit status 1 on any failure.
#
# Not part of `make check-kernel` or CI: with the series' header changes
# most patches rebuild the whole kernel (about 5 minutes each on an idle
# 2-core machine, 60-70 minutes for the series).
#
# Usage: check-each-patch.sh [--from N] [--to N] [--jobs N] [--patches DIR]
#                            [--no-build]  (only kernel-doc and checkpatch:
#                                           seconds instead of an hour)
# Environment:
#   KDMESG_KERNEL_CACHE  check-kernel.sh's cache (default ~/.cache/kdmesg-kernel);
#                        needs its unpacked tree and kprint/cfg/.config, i.e.
#                        one earlier `check-kernel.sh --variants kprint`
#   LLVM=1               build with clang (make reads it from the environment)
set -euo pipefail

SCRIPT=$(readlink -f "${BASH_SOURCE[0]}")
HERE=$(dirname "$SCRIPT")
CACHE=${KDMESG_KERNEL_CACHE:-$HOME/.cache/kdmesg-kernel}
PRISTINE=$CACHE/linux-6.12-unpacked
TARGET_CONFIG=$CACHE/kprint/cfg/.config
WORK=$CACHE/each
PATCHES=$HERE
JOBS=$(nproc)
FROM=1
TO=0
BUILD=1

usage() {
	sed -n '2,/^set -euo/p' "$SCRIPT" | sed -e '$d' -e 's/^# \{0,1\}//'
}

while [ $# -gt 0 ]; do
	case $1 in
	--from) FROM=$2; shift 2 ;;
	--to) TO=$2; shift 2 ;;
	--jobs) JOBS=$2; shift 2 ;;
	--patches) PATCHES=$(readlink -f "$2"); shift 2 ;;
	--no-build) BUILD=0; shift ;;
	-h|--help) usage; exit 0 ;;
	*) echo "check-each-patch.sh: unknown argument: $1" >&2; usage >&2; exit 2 ;;
	esac
done

fatal() { echo "check-each-patch.sh: $*" >&2; exit 2; }
T0=$(date +%s)
note() { echo "# [$(( $(date +%s) - T0 ))s] $*"; }

[ -f "$PRISTINE/Makefile" ] || fatal "no unpacked tree in $PRISTINE (run check-kernel.sh once)"
[ -f "$TARGET_CONFIG" ] || fatal "no $TARGET_CONFIG (run check-kernel.sh --variants kprint once)"

mapfile -t SERIES < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$PATCHES/series")
[ "$TO" -gt 0 ] || TO=${#SERIES[@]}

mkdir -p "$CACHE"
exec 9> "$CACHE/.each-lock$([ "$BUILD" -eq 1 ] || echo -nobuild)"
flock -n 9 || fatal "another check-each-patch.sh uses $WORK"

PASS=0
FAIL=0
ok() { PASS=$((PASS + 1)); printf 'ok %d - %s\n' $((PASS + FAIL)) "$*"; }
not_ok() { FAIL=$((FAIL + 1)); printf 'not ok %d - %s\n' $((PASS + FAIL)) "$*"; }

# Compiler and kernel-doc warnings of a build log, one per line, as
# "file: text" without line and column numbers.
warnings() {
	sed -n -E \
		-e 's,^([^ :]+):[0-9]+:[0-9]+: warning: (.*),\1: \2,p' \
		-e 's,^([^ :]+):[0-9]+: warning: (.*),\1: \2,p' \
		-e 's,^warning: ([^ :]+):[0-9]+ (.*),\1: \2,p' \
		-e 's,^(ld|ld\.lld|[^ ]*-ld): warning: (.*),ld: \2,p' \
		-e 's,^WARNING: modpost: (.*),modpost: \1,p' "$@" |
		sed -E -e "s,^$SRC/,," -e 's,^\./,,' | sort -u
}

# The .c and .h files the whole series touches (so that the baseline and
# every step check the same files; one that does not exist yet is skipped).
touched_sources() {
	local p
	for p in "${SERIES[@]}"; do
		sed -n -E 's,^\+\+\+ b/([^[:space:]]+).*,\1,p' "$PATCHES/$p"
	done | grep -E '\.[ch]$' | sort -u
}

kernel_doc() {
	local f
	touched_sources | while IFS= read -r f; do
		[ -f "$SRC/$f" ] || continue
		(cd "$SRC" && perl scripts/kernel-doc -none "$f" 2>&1) || true
	done
}

# make olddefconfig from the kprint variant's configuration (the copy taken
# at the start: check-kernel.sh rewrites the original), in this tree,
# without ACPI: the series touches none of it, and it is 208 of the 1,140
# objects the boot test's kernel compiles (the boot test needs it for -smp 2).
configure() {
	cp "$WORK/target.config" "$OBJ/.config"
	"$SRC/scripts/config" --file "$OBJ/.config" --disable ACPI
	make -C "$SRC" O="$OBJ" -s olddefconfig > "$WORK/config.log" 2>&1
}

build() {
	local log=$1
	configure
	make -C "$SRC" O="$OBJ" -j"$JOBS" W=1 vmlinux modules > "$log" 2>&1
}

SRC=$WORK/src
OBJ=$WORK/obj
mkdir -p "$WORK/logs"
if [ "$BUILD" -eq 0 ]; then
	# kernel-doc and checkpatch only, in a tree of their own; the baseline
	# is the build's if there is one (else kernel-doc's warnings alone)
	SRC=$WORK/src-nobuild
	OBJ=
	[ "$FROM" -eq 1 ] || fatal "--no-build starts from patch 1"
	rm -rf "$SRC"
	note "copying $PRISTINE"
	cp -a "$PRISTINE" "$SRC"
	kernel_doc > "$WORK/logs/nobuild-0000.doc" 2>&1
	{ [ ! -f "$WORK/baseline.warn" ] || cat "$WORK/baseline.warn"
	  warnings "$WORK/logs/nobuild-0000.doc"; } | sort -u > "$WORK/baseline-nobuild.warn"
elif [ "$FROM" -eq 1 ]; then
	# a fresh tree: pristine, then patch by patch
	rm -rf "$SRC" "$OBJ"
	mkdir -p "$OBJ"
	cp "$TARGET_CONFIG" "$WORK/target.config"
	note "copying $PRISTINE"
	cp -a "$PRISTINE" "$SRC"
	note "baseline: pristine 6.12, W=1 vmlinux modules"
	build "$WORK/logs/0000.log" || fatal "the pristine tree does not build (see $WORK/logs/0000.log)"
	warnings "$WORK/logs/0000.log" > "$WORK/baseline.warn"
	kernel_doc > "$WORK/logs/0000.doc" 2>&1
	warnings "$WORK/logs/0000.doc" >> "$WORK/baseline.warn"
	sort -u -o "$WORK/baseline.warn" "$WORK/baseline.warn"
	note "baseline: $(wc -l < "$WORK/baseline.warn") distinct warnings"
else
	# go on from an earlier run that stopped after patch FROM-1
	[ -f "$WORK/applied" ] && [ "$(cat "$WORK/applied")" -eq $((FROM - 1)) ] ||
		fatal "--from $FROM: the tree in $WORK does not end at patch $((FROM - 1))"
	[ -f "$WORK/target.config" ] || cp "$TARGET_CONFIG" "$WORK/target.config"
fi

CHECKPATCH_ARGS=(--strict --no-tree --quiet --show-types)
for ((i = FROM; i <= TO; i++)); do
	p=${SERIES[$((i - 1))]}
	name=$(printf '%04d' "$i")
	if ! patch -p1 -d "$SRC" --batch --forward -s < "$PATCHES/$p" > "$WORK/logs/$name.patch" 2>&1; then
		not_ok "$p: applies"
		break
	fi
	[ "$BUILD" -eq 0 ] || echo "$i" > "$WORK/applied"
	if [ "$BUILD" -eq 1 ]; then
		note "$p: building"
		s=$(date +%s)
		if build "$WORK/logs/$name.log"; then
			ok "$p: builds and links (W=1 vmlinux modules, $(( $(date +%s) - s ))s)"
		else
			not_ok "$p: builds and links (see $WORK/logs/$name.log)"
			grep -E 'error' "$WORK/logs/$name.log" | head -n 10 | sed 's/^/# /'
		fi
		kernel_doc > "$WORK/logs/$name.doc" 2>&1
		new=$({ warnings "$WORK/logs/$name.log"; warnings "$WORK/logs/$name.doc"; } |
			sort -u | comm -23 - "$WORK/baseline.warn")
		what="compiler or kernel-doc warning"
	else
		kernel_doc > "$WORK/logs/nobuild-$name.doc" 2>&1
		new=$(warnings "$WORK/logs/nobuild-$name.doc" | sort -u |
			comm -23 - "$WORK/baseline-nobuild.warn")
		what="kernel-doc warning"
	fi
	if [ -z "$new" ]; then
		ok "$p: no new $what"
	else
		not_ok "$p: no new $what"
		printf '%s\n' "$new" | sed 's/^/# /'
	fi
	cp_out=$(cd "$SRC" && perl scripts/checkpatch.pl "${CHECKPATCH_ARGS[@]}" \
		"$PATCHES/$p" 2>&1 || true)
	errs=$(printf '%s\n' "$cp_out" | grep -c '^ERROR:' || true)
	warns=$(printf '%s\n' "$cp_out" | grep -c '^WARNING:' || true)
	checks=$(printf '%s\n' "$cp_out" | grep -c '^CHECK:' || true)
	if [ "$errs" -eq 0 ] && [ "$warns" -eq 0 ]; then
		ok "$p: checkpatch --strict: 0 errors, 0 warnings ($checks checks)"
	else
		# the known exceptions are explained in README.md ("checkpatch")
		not_ok "$p: checkpatch --strict: $errs errors, $warns warnings ($checks checks)"
		printf '%s\n' "$cp_out" | grep -E '^(ERROR|WARNING):' | sed 's/^/# /'
	fi
done

note "done"
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
