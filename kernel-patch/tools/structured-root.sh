# shellcheck shell=bash
# structured-root.sh - sourced by check-kernel.sh: what the kprint boot's
# initramfs needs for issue 10's checks (tools/structured.sh): the guest
# script, and /lib/modules/<release> holding the test module with the
# host depmod's indexes, so that libkmod inside the guest knows the loaded
# module (state, path, version) as it would on an installed system (in
# every variant: without a modules tree kdmesg -o jsonl notes on stderr
# that libkmod has nothing to say).

# structured_root VARIANT DIR ROOT: add the above to the initramfs at ROOT.
structured_root() {
	local variant=$1 dir=$2 root=$3 rel
	cp "$HERE/tools/structured.sh" "$root/etc/structured.sh"
	[ -f "$dir/module/kprint_test.ko" ] || return 0
	rel=$(cat "$dir/obj/include/config/kernel.release" 2>/dev/null) || return 0
	mkdir -p "$root/lib/modules/$rel/extra"
	cp "$dir/module/kprint_test.ko" "$root/lib/modules/$rel/extra/"
	for f in modules.builtin modules.builtin.modinfo modules.order; do
		[ ! -f "$dir/obj/$f" ] || cp "$dir/obj/$f" "$root/lib/modules/$rel/"
	done
	if command -v depmod > /dev/null || [ -x /usr/sbin/depmod ]; then
		PATH=$PATH:/usr/sbin depmod -b "$root" "$rel" || true
	fi
}
