#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# completion.sh - the bash completion (completion/kdmesg) driven as
# bash drives it: the file is sourced, COMP_WORDS and COMP_CWORD are set as
# bash splits a command line (COMP_WORDBREAKS splits at '='), the
# completion function is called and COMPREPLY is checked.  kdmesg is the
# built one, first in PATH; libkmod's modules directory is a fake one.
# The zsh completion is checked for syntax (zsh -n) when zsh is there.
# Prints TAP.
set -u

: "${KDMESG:?KDMESG must point at the built kdmesg}"
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/cli/tap.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/bin" "$tmp/modules/kernel/drivers/net" "$tmp/dir"
ln -s "$KDMESG" "$tmp/bin/kdmesg"
ln -s "$(dirname "$KDMESG")/kdmesg-po" "$tmp/bin/kdmesg-po"
: >"$tmp/modules/kernel/drivers/net/e1000e.ko.xz"
: >"$tmp/modules/kernel/drivers/net/igb.ko"
cp "$srcdir/tests/fixtures/kmsg-kprint.dump" "$tmp/dir/k.dump"
export PATH="$tmp/bin:$PATH" KDMESG_MODULES_DIR="$tmp/modules"
cd "$tmp/dir" || exit 1

# shellcheck source=../../completion/kdmesg
. "$srcdir/completion/kdmesg"
compopt() { :; }	# only valid while bash itself completes

# complete LINE: split LINE as bash would (at blanks and '='), the
# cursor at its end, call the function for its command; the candidates
# go into $got, one per line, sorted.
complete_line() {
	local line=$1 w
	COMP_LINE=$line
	COMP_POINT=${#line}
	COMP_WORDS=()
	# Split at blanks; then each '=' is a word of its own.
	for w in $line; do
		while [[ $w == *=* ]]; do
			[[ -n ${w%%=*} ]] && COMP_WORDS+=("${w%%=*}")
			COMP_WORDS+=("=")
			w=${w#*=}
		done
		[[ -n $w ]] && COMP_WORDS+=("$w")
	done
	[[ $line == *" " ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	case ${COMP_WORDS[0]} in
	kdmesg) _kdmesg ;;
	kdmesg-po) _kdmesg_po ;;
	esac
	got=$(printf '%s\n' "${COMPREPLY[@]}" | sort)
}

# expect LINE WANT...: the candidates are exactly WANT (sorted).
expect() {
	local line=$1
	shift
	complete_line "$line"
	local want
	want=$(printf '%s\n' "$@" | sort)
	[ "$got" = "$want" ]
	ok $? "'$line' completes to: $(printf '%s ' "$@")"
	[ "$got" = "$want" ] || printf '%s\n' "$got" | sed 's/^/#   got: /'
}

# has LINE WORD...: the candidates include each WORD.
has() {
	local line=$1 w missing=
	shift
	complete_line "$line"
	for w in "$@"; do
		printf '%s\n' "$got" | grep -qx -- "$w" || missing="$missing $w"
	done
	[ -z "$missing" ]
	ok $? "'$line' offers $*"
	[ -z "$missing" ] || echo "#   missing:$missing"
}

expect "kdmesg --lev" --level
expect "kdmesg --follow" --follow --follow-new
has "kdmesg --" --code-file --function --module --stats --tui --translate --time-format
expect "kdmesg --level e" emerg emerg+ err err+
expect "kdmesg --level=w" warn warn+
expect "kdmesg -l err,w" err,warn err,warn+
expect "kdmesg -l +c" +crit
expect "kdmesg -f ke" kern
has "kdmesg --facility=" kern user daemon local7
expect "kdmesg -o j" json jsonl
expect "kdmesg --output=" text json jsonl export verbose help
expect "kdmesg --time-format " notime ctime delta reltime iso raw
expect "kdmesg -L a" auto always
expect "kdmesg --translate=" auto always never
expect "kdmesg SUB" SUBSYSTEM=
has "kdmesg " CODE_FILE= CODE_FUNC= MODULE= PRIORITY= MESSAGE=
expect "kdmesg --module e1" e1000e
expect "kdmesg --module i" igb
# Values from the -K file on the line.
expect "kdmesg -K k.dump --code-file drivers/n" drivers/net/ drivers/net/ethernet/ \
	drivers/net/ethernet/intel/ drivers/net/ethernet/intel/e1000/ \
	drivers/net/ethernet/intel/e1000/e1000_main.c drivers/nvme/ drivers/nvme/host/ \
	drivers/nvme/host/pci.c
expect "kdmesg --kmsg-file=k.dump --function e1000_p" e1000_probe
has "kdmesg -K k.dump --module " e1000e igb e1000 snd_hda_intel
expect "kdmesg -K k.dump SUBSYSTEM=p" pci
expect "kdmesg -K k.dump MODULE=nv" nvme
# No input file on the line: nothing is read (the live log is not asked).
expect "kdmesg --code-file dr"
expect "kdmesg --function e1000_p"
# Files.
expect "kdmesg -K k." k.dump
expect "kdmesg -F k" k.dump
expect "kdmesg --since "
# kdmesg-po.
expect "kdmesg-po ex" extract
expect "kdmesg-po extract --so" --sort
expect "kdmesg-po extract --sort " count source
expect "kdmesg-po extract --context=" none module
has "kdmesg-po extract --" --root --dump --msgid-bugs-address --output

if command -v zsh >/dev/null 2>&1; then
	zsh -n "$srcdir/completion/_kdmesg"
	ok $? "zsh accepts completion/_kdmesg (zsh -n)"
else
	echo "# zsh is not installed: completion/_kdmesg not checked"
fi

tap_done
