#!/bin/sh
# debian-sites.sh - the small format index source that `make check` uses
# to recover the records of Debian's own kernel (issue 18).
#
# Writes an index of Debian's linux-source-6.12 tree (kdmesg-po index),
# lists its sites as a site table (tools/fidx-sites.c, built against the
# build tree's lib/libkdmesg.a) and keeps those whose format could have
# made the text of a record of tests/fixtures/kmsg-debian-6.12.dump
# (tools/sites-for-dump.py: every competitor of every pick stays), as a
# printk index and a site table that keep each site's family, into
# tests/fixtures/debian-6.12-formats.tar.xz.
#
# Usage: debian-sites.sh BUILDDIR TREE
#   BUILDDIR  a configured and built kdmesg build tree
#   TREE      Debian's linux-source-6.12 6.12.118-1~deb12u1, unpacked
#             (check-kernel.sh unpacks it to
#             ~/.cache/kdmesg-kernel/linux-6.12-unpacked)
set -eu

[ $# -eq 2 ] || { sed -n '2,/^set -eu/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//' >&2; exit 2; }
build=$(cd "$1" && pwd)
tree=$2
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

"$build/src/kdmesg-po" index -o "$tmp/full.kdfi" --release 6.12.118+deb12-amd64 "$tree"
${CC:-cc} -std=gnu11 -O2 -include "$build/config.h" -I "$top/lib" \
	-o "$tmp/fidx-sites" "$here/tools/fidx-sites.c" "$build/lib/libkdmesg.a"
"$tmp/fidx-sites" "$tmp/full.kdfi" > "$tmp/full.sites"
python3 "$here/tools/sites-for-dump.py" "$tmp/full.sites" \
	"$top/tests/fixtures/kmsg-debian-6.12.dump" "$tmp/debian-6.12-formats"
# reproducible bytes: sorted names, fixed owner and times
tar -C "$tmp" --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 \
	-cf - debian-6.12-formats | xz -9 > "$top/tests/fixtures/debian-6.12-formats.tar.xz"
echo "debian-sites.sh: of $(wc -l < "$tmp/full.sites") sites, tests/fixtures/debian-6.12-formats.tar.xz" >&2
