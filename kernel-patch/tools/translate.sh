# translate.sh - guest side of the translation check (issue 11), sourced by
# /init (tools/init.sh) after the other sections, where check-kernel.sh
# staged it as /etc/translate.sh with tools/translate-stage.sh.  kdmesg
# translates the boot's own records with the shipped catalogues, which the
# stage script compiled into /usr/share/kdmesg-kmsg, with LANGUAGE=LL and
# LC_ALL=C.UTF-8, the one locale the stage script installs (without it
# kdmesg printed the UTF-8 of the translations as \xNN escapes in the
# guest).  Checked on the host by check-translate.py.
# shellcheck shell=sh disable=SC2154
if [ -x /usr/bin/kdmesg ] && [ -d /usr/share/kdmesg-kmsg ]; then
	for l in de fr; do
		[ -f "/usr/share/kdmesg-kmsg/$l/LC_MESSAGES/linux-kmsg.mo" ] || continue
		sec "TRANSLATE-$l" env LANGUAGE=$l LC_ALL=C.UTF-8 /usr/bin/kdmesg \
			--translate=always --catalog-dir /usr/share/kdmesg-kmsg -v
	done
	sec TRANSLATE-JSONL env LANGUAGE=de LC_ALL=C.UTF-8 /usr/bin/kdmesg -o jsonl \
		--translate=always --catalog-dir /usr/share/kdmesg-kmsg
fi
