# translate-stage.sh - host side: put the kernel-message catalogues and
# tools/translate.sh into an initramfs.  Sourced by check-kernel.sh's
# make_initramfs() with $HERE (kernel-patch/) and $root (the initramfs
# tree) set; does nothing without msgfmt or without a kdmesg in the image.
# shellcheck shell=bash disable=SC2154
if command -v msgfmt > /dev/null && [ -x "$root/usr/bin/kdmesg" ]; then
	for po in "$HERE"/../po-kmsg/*.po; do
		[ -f "$po" ] || continue
		l=$(basename "$po" .po)
		mkdir -p "$root/usr/share/kdmesg-kmsg/$l/LC_MESSAGES"
		msgfmt -c -o "$root/usr/share/kdmesg-kmsg/$l/LC_MESSAGES/linux-kmsg.mo" "$po"
	done
	cp "$HERE/tools/translate.sh" "$root/etc/translate.sh"
	# the host's C.UTF-8 locale: without it, glibc 2.36 in the guest falls
	# back to ASCII and kdmesg escapes the translations' UTF-8 bytes
	if [ -d /usr/lib/locale/C.utf8 ]; then
		mkdir -p "$root/usr/lib/locale"
		cp -r /usr/lib/locale/C.utf8 "$root/usr/lib/locale/"
	fi
fi
