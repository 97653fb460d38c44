#!/bin/sh
# setup.sh - the README's two set-up commands, for a fresh Debian 12 machine
# (as root) or a developer's checkout:
#
#   sh scripts/setup.sh run    install what is missing, build, run kdmesg
#   sh scripts/setup.sh test   install what is missing, build, run every test
#
# "test" ends with one line "N passed, N failed" over every suite it ran and
# exits non-zero when any test failed.
set -eu

mode=${1:-run}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

# Debian packages needed to build and test; the kernel boot test installs
# its own (see kernel-patch/check-kernel.sh).
pkgs="autoconf automake autopoint gettext pkg-config make gcc libkmod-dev
libncurses-dev tmux clang libclang-rt-14-dev python3 jq util-linux xz-utils
systemd-journal-remote bash-completion zsh
libsystemd-dev"

install_missing() {
	missing=""
	for p in $pkgs; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q "install ok installed" || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		echo "setup.sh: missing packages:$missing (run as root to install them)" >&2
		exit 1
	fi
	echo "setup.sh: installing$missing" >&2
	DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing >/dev/null
}

# build DIR CONFIGURE-ARGS...: configure and build out of tree in DIR.
build() {
	dir=$1
	shift
	mkdir -p "$dir"
	(cd "$dir" && "$top/configure" -q "$@" && make -s -j"$(nproc)") >&2
}

install_missing
[ -x configure ] || ./autogen.sh >/dev/null 2>&1

case "$mode" in
run)
	build build
	exec build/src/kdmesg
	;;
test)
	exec sh "$top/tests/run-all.sh"
	;;
*)
	echo "usage: sh scripts/setup.sh run|test" >&2
	exit 2
	;;
esac
