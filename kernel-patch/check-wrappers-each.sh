#!/bin/bash
# check-wrappers-each.sh - each patch of a range of the wrappers/ series
# builds alone, in order, where its code is: the directories it touches.
#
# check-each-patch.sh builds every patch on the boot test's tinyconfig
# kernel, which compiles none of the drivers that wrappers/0016-0039
# change (wireless, RDMA, UBI, UBIFS, 9p, qedf, qedi, lpfc, mlx4_en,
# nilfs2, ocfs2, tda18271, jfs).  This checks out each commit of REV1..REV2
# of a git tree that holds the series as commits (detached HEAD; the tree
# is put back on its branch at the end) and runs, in a build directory
# configured for those drivers (kconfig-wrappers.fragment on top of an
# x86_64 defconfig, see kernel-patch/README.md),
#   make -jN O=OBJ <each directory the commit touches>/
# (recursively; a header's directory stands for its users, and three
# header directories for their users elsewhere: include/rdma for
# drivers/infiniband, include/net/9p for net/9p and fs/9p,
# fs/ocfs2/cluster for fs/ocfs2).  A commit passes when make exits 0 and
# prints no "warning:".  Objects are rebuilt as make sees the checkouts'
# new times, so each directory is compiled at the commit that changes it.
#
# Usage: check-wrappers-each.sh --tree DIR --obj DIR REV1 REV2 [--jobs N]
# Output: one TAP line per commit, last line "N passed, N failed"; exit 1
# on a failure, 2 on a usage or git error.
set -euo pipefail

TREE=
OBJ=
JOBS=$(nproc)
REVS=()
while [ $# -gt 0 ]; do
	case $1 in
	--tree) TREE=$2; shift 2 ;;
	--obj) OBJ=$2; shift 2 ;;
	--jobs) JOBS=$2; shift 2 ;;
	-*) echo "check-wrappers-each.sh: unknown option $1" >&2; exit 2 ;;
	*) REVS+=("$1"); shift ;;
	esac
done
if [ -z "$TREE" ] || [ -z "$OBJ" ] || [ ${#REVS[@]} -ne 2 ]; then
	echo "usage: check-wrappers-each.sh --tree DIR --obj DIR REV1 REV2 [--jobs N]" >&2
	exit 2
fi
[ -f "$OBJ/.config" ] || { echo "check-wrappers-each.sh: no $OBJ/.config" >&2; exit 2; }
git -C "$TREE" diff --quiet HEAD ||
	{ echo "check-wrappers-each.sh: $TREE has changes; commit them first" >&2; exit 2; }
BRANCH=$(git -C "$TREE" symbolic-ref -q --short HEAD) ||
	{ echo "check-wrappers-each.sh: $TREE is not on a branch" >&2; exit 2; }
trap 'git -C "$TREE" checkout -q "$BRANCH"' EXIT

T0=$(date +%s)
PASS=0
FAIL=0
declare -A USERS=(
	[include/rdma]="drivers/infiniband"
	[include/net/9p]="net/9p fs/9p"
	[fs/ocfs2/cluster]="fs/ocfs2"
)
for c in $(git -C "$TREE" rev-list --reverse "${REVS[0]}..${REVS[1]}"); do
	subject=$(git -C "$TREE" log -1 --format=%s "$c")
	dirs=()
	while read -r d; do
		dirs+=(${USERS[$d]:-$d})
	done < <(git -C "$TREE" show --name-only --format= "$c" | xargs -n1 dirname | sort -u)
	# a directory inside another that is built anyway is left out
	mapfile -t dirs < <(printf '%s\n' "${dirs[@]}" | sort -u |
		awk '{ for (i = 1; i <= n; i++) if (index($0 "/", d[i] "/") == 1) next; d[++n] = $0; print }')
	git -C "$TREE" checkout -q "$c"
	log=$OBJ/each-$(git -C "$TREE" rev-parse --short "$c").log
	rc=0
	make -C "$TREE" O="$OBJ" -j"$JOBS" "${dirs[@]/%//}" > "$log" 2>&1 || rc=$?
	warnings=$(grep -c 'warning:' "$log" || true)
	built=$(grep -c -E '^ +CC( \[M\])? ' "$log" || true)
	desc="$subject: make ${dirs[*]/%//}: $built files compiled, exit $rc, $warnings warnings ($(( $(date +%s) - T0 ))s)"
	if [ "$rc" -eq 0 ] && [ "$warnings" -eq 0 ] && [ "$built" -gt 0 ]; then
		PASS=$((PASS + 1))
		echo "ok $((PASS + FAIL)) - $desc"
	else
		FAIL=$((FAIL + 1))
		echo "not ok $((PASS + FAIL)) - $desc (log $log)"
		grep -E 'error|warning:' "$log" | head -n 10 | sed 's/^/# /'
	fi
done
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
