#!/usr/bin/env bash
# measure-sizes.sh - size table of issue 4: what CONFIG_KPRINT and its
# compile-time cut-off CONFIG_KPRINT_MIN_LOGLEVEL cost or save, against
# CONFIG_KPRINT=n and against CONFIG_PRINTK=n, for ONE tinyconfig-based
# measurement config (the issue's reference config):
#
#   make tinyconfig + CONFIG_64BIT, TTY, SERIAL_8250(_CONSOLE), BLK_DEV_INITRD,
#   DEVTMPFS, PROC_FS, SYSFS, DEBUG_FS, MODULES, PRINTK   (no NET/ACPI/KUNIT)
#
# Variants, each built in its own O= dir under the cache:
#   printk-off      CONFIG_PRINTK=n                     (unpatched tree)
#   kprint-off      CONFIG_PRINTK=y, no CONFIG_KPRINT   (unpatched tree; the
#                   series keeps CONFIG_KPRINT=n byte-identical to it)
#   kprint-N        CONFIG_KPRINT=y, CONFIG_KPRINT_MIN_LOGLEVEL=N, N = 7..0
#                   (tree with the series of --patches applied)
#   <any>-lb12      the same with CONFIG_LOG_BUF_SHIFT=12 (smallest ring)
#   kprint-N-nofunc kprint-N with CONFIG_KPRINT_FUNC_NAMES=n (the tiny-kernel
#                   control that leaves the function names out)
#   kprint-N-func   kprint-N with CONFIG_KPRINT_FUNC_NAMES=y (it defaults to
#                   CONFIG_KALLSYMS, which this config leaves out: kprint-N
#                   has no function names)
#
# Measured per variant: bzImage bytes; code = sum of the sizes of the text
# symbols (nm -S, types t/T: the .text section is padded, its size says
# nothing); .rodata section size; sum of all .init.* sections; .data section
# size; each also as difference to kprint-off.  Then the two goals of issue 4
# with PASS/FAIL:
#   1. kprint-7 costs at most 2% of bzImage over kprint-off (also given for
#      kprint-7-func, with the function names kept);
#   2. kprint-3-lb12 recovers at least half of the bzImage bytes that
#      CONFIG_PRINTK=n saves: (kprint-off - kprint-3-lb12) >=
#      0.5 * (kprint-off - printk-off).
#
# Usage: measure-sizes.sh [--patches DIR] [--only "printk-off kprint-7 ..."]
#                         [--rebuild] [--no-build] [--jobs N] [--write FILE]
#   --patches DIR  series + patches for the kprint-N variants (default: the
#                  kernel-patch dir of this script)
#   --only LIST    build/measure only these variants (default: all:
#                  printk-off kprint-off kprint-off-lb12 kprint-7..kprint-0
#                  kprint-3-lb12); the table shows every variant that has a
#                  build in the cache, built now or before
#   --rebuild      rebuild even if the build key (tree + config) is unchanged
#                  (default: an existing build with the same key is reused)
#   --no-build     only print the table from the existing builds
#   --write FILE   also write the table to FILE
# Environment:
#   KDMESG_SIZES_CACHE   cache (default /work/cache/kc-sizes if it exists,
#                        else ~/.cache/kdmesg-sizes)
#   KDMESG_PRISTINE      unpacked pristine linux 6.12 (read-only; default
#                        ~/.cache/kdmesg-kernel/linux-6.12-unpacked, unpacked
#                        from /usr/src/linux-source-6.12.tar.xz if missing)
# Builds run under nice -n 19.
set -euo pipefail

SCRIPT=$(readlink -f "${BASH_SOURCE[0]}")
HERE=$(dirname "$SCRIPT")
if [ -n "${KDMESG_SIZES_CACHE:-}" ]; then
	CACHE=$KDMESG_SIZES_CACHE
elif [ -d /work/cache/kc-sizes ]; then
	CACHE=/work/cache/kc-sizes
else
	CACHE=$HOME/.cache/kdmesg-sizes
fi
TARBALL=/usr/src/linux-source-6.12.tar.xz
PRISTINE=${KDMESG_PRISTINE:-$HOME/.cache/kdmesg-kernel/linux-6.12-unpacked}
SRC=$CACHE/src
PATCHES=$HERE
JOBS=2
ONLY=
REBUILD=0
NOBUILD=0
WRITE=
ALL="printk-off kprint-off kprint-off-lb12 kprint-7 kprint-7-func kprint-6 kprint-5 kprint-4 kprint-3 kprint-2 kprint-1 kprint-0 kprint-3-lb12"

usage() { sed -n '2,/^set -euo/p' "$SCRIPT" | sed -e '$d' -e 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
	case $1 in
	--patches) PATCHES=$(readlink -f "$2"); shift 2 ;;
	--only) ONLY=$2; shift 2 ;;
	--rebuild) REBUILD=1; shift ;;
	--no-build) NOBUILD=1; shift ;;
	--jobs) JOBS=$2; shift 2 ;;
	--write) WRITE=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) echo "measure-sizes.sh: unknown argument: $1" >&2; usage >&2; exit 2 ;;
	esac
done

T0=$(date +%s)
note() { echo "# [$(( $(date +%s) - T0 ))s] $*" >&2; }
die() { echo "measure-sizes.sh: $*" >&2; exit 1; }

mkdir -p "$CACHE"
if [ "$NOBUILD" -eq 0 ]; then
	exec 9> "$CACHE/.lock"
	flock -n 9 || { note "waiting for another measure-sizes.sh on $CACHE"; flock 9; }
fi

# The measurement config: tinyconfig plus these lines (the issue's
# reference config: serial console, initramfs, devtmpfs, proc, sys,
# debugfs, modules).
BASE_CONFIG='CONFIG_64BIT=y
CONFIG_TTY=y
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y
CONFIG_BLK_DEV_INITRD=y
CONFIG_DEVTMPFS=y
CONFIG_PROC_FS=y
CONFIG_SYSFS=y
CONFIG_DEBUG_FS=y
CONFIG_MODULES=y'

# variant -> extra config lines
variant_config() {
	local v=$1 base lb='' nofunc='' func=''
	case $v in *-lb12) base=${v%-lb12}; lb='CONFIG_LOG_BUF_SHIFT=12' ;; *) base=$v ;; esac
	case $base in
	kprint-[0-7]-nofunc) base=${base%-nofunc}; nofunc=1 ;;
	kprint-[0-7]-func) base=${base%-func}; func=1 ;;
	esac
	case $base in
	printk-off)
		[ -z "$lb" ] || die "$v: CONFIG_LOG_BUF_SHIFT needs CONFIG_PRINTK"
		echo '# CONFIG_PRINTK is not set' ;;
	kprint-off) echo 'CONFIG_PRINTK=y' ;;
	kprint-[0-7])
		echo 'CONFIG_PRINTK=y'
		echo 'CONFIG_KPRINT=y'
		echo "CONFIG_KPRINT_MIN_LOGLEVEL=${base#kprint-}" ;;
	*) die "unknown variant $v" ;;
	esac
	[ -z "$nofunc" ] || echo '# CONFIG_KPRINT_FUNC_NAMES is not set'
	[ -z "$func" ] || echo 'CONFIG_KPRINT_FUNC_NAMES=y'
	[ -z "$lb" ] || echo "$lb"
}
variant_patched() { case $1 in kprint-[0-7]*) return 0 ;; *) return 1 ;; esac; }
variant_src() { if variant_patched "$1"; then echo "$SRC"; else echo "$PRISTINE"; fi; }

KBUILD_ID=(KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026'
	KBUILD_BUILD_USER=kdmesg KBUILD_BUILD_HOST=kdmesg KBUILD_BUILD_VERSION=1)

unpack_pristine() {
	[ -f "$PRISTINE/Makefile" ] && return 0
	note "unpacking $TARBALL into $PRISTINE"
	mkdir -p "$PRISTINE.tmp"
	tar -C "$PRISTINE.tmp" -xf "$TARBALL"
	mv "$PRISTINE.tmp/linux-source-6.12" "$PRISTINE"
	rmdir "$PRISTINE.tmp"
}

SERIES_PATCHES=()
read_series() {
	local line name
	[ -f "$PATCHES/series" ] || die "$PATCHES/series missing (needed for kprint-N)"
	while IFS= read -r line || [ -n "$line" ]; do
		line=${line%%#*}
		read -r name _ <<< "$line" || true
		[ -n "${name:-}" ] || continue
		[ -f "$PATCHES/$name" ] || die "series lists $name, which does not exist"
		SERIES_PATCHES+=("$PATCHES/$name")
	done < "$PATCHES/series"
}

# $SRC = pristine + series, rewriting only files whose content changes (so
# the kprint-N builds stay incremental): check-kernel.sh's patch_files() and
# prepare_source(), taken from it so both scripts prepare the tree alike.
eval "$(sed -n -e '/^patch_files() {/,/^}/p' -e '/^prepare_source() {/,/^}/p' \
	"$HERE/check-kernel.sh")"
fatal() { die "$*"; }

build_key() {
	local v=$1
	{
		echo "tarball $(stat -c '%s %Y' "$TARBALL" 2>/dev/null || echo none)"
		if variant_patched "$v"; then cat "${SERIES_PATCHES[@]}"; fi
		echo "$BASE_CONFIG"
		variant_config "$v"
		sed -n '/^# >>> build/,/^# <<< build/p' "$SCRIPT"
	} | sha256sum | cut -d' ' -f1
}

# >>> build: hashed into the build key
make_config() {
	local v=$1 obj=$2 src frag
	src=$(variant_src "$v")
	frag=$obj/measure.fragment
	{ echo "$BASE_CONFIG"; variant_config "$v"; } > "$frag.new"
	make -C "$src" O="$obj" -s tinyconfig > "$obj/config.log" 2>&1
	# drop the fragment's symbols from the tinyconfig, append the fragment
	sed -n -E 's/^(# )?(CONFIG_[A-Za-z0-9_]+)[ =].*/\2/p' "$frag.new" |
		sed -E 's/.*/^(# )?&[ =]/' > "$obj/frag.re"
	grep -v -E -f "$obj/frag.re" "$obj/.config" > "$obj/.config.new" || true
	cat "$frag.new" >> "$obj/.config.new"
	mv "$obj/.config.new" "$obj/.config"
	make -C "$src" O="$obj" -s olddefconfig >> "$obj/config.log" 2>&1
	mv "$frag.new" "$frag"
	local line bad=0
	while IFS= read -r line; do
		case $line in
		"# "*) if grep -q -E "^${line#\# }=" "$obj/.config"; then note "$v: not in .config: $line"; bad=1; fi ;;
		*) if ! grep -qxF "$line" "$obj/.config"; then note "$v: not in .config: $line"; bad=1; fi ;;
		esac
	done < "$frag"
	return $bad
}
# <<< build

# An O= dir of a sibling variant built from the same tree: copying it first
# makes this build incremental (Kbuild rebuilds only the objects whose
# CONFIG_ dependencies changed, e.g. only printk.c for CONFIG_LOG_BUF_SHIFT).
seed_for() {
	local v=$1 s
	case $v in
	*-lb12) s=${v%-lb12} ;;
	*-nofunc) s=${v%-nofunc} ;;
	*-func) s=${v%-func} ;;
	kprint-[0-6]) s=kprint-$(( ${v#kprint-} + 1 )) ;;
	kprint-7) s= ;;
	kprint-off) s=printk-off ;;
	*) s= ;;
	esac
	if [ -n "$s" ] && [ -f "$CACHE/$s/obj/.measure-key" ]; then echo "$s"; return; fi
	# else any kprint-N build of the same tree: host tools, objtool and the
	# objects that do not print are reused
	case $v in
	kprint-[0-7])
		for s in kprint-7 kprint-6 kprint-5 kprint-4 kprint-3 kprint-2 kprint-1 kprint-0; do
			if [ "$s" != "$v" ] && [ -f "$CACHE/$s/obj/.measure-key" ]; then echo "$s"; return; fi
		done ;;
	esac
}

build_variant() {
	local v=$1 key obj=$CACHE/$1/obj seed src
	key=$(build_key "$v")
	src=$(variant_src "$v")
	if [ "$REBUILD" -eq 0 ] && [ -f "$obj/.measure-key" ] &&
		[ "$(cat "$obj/.measure-key")" = "$key" ] && [ -f "$obj/arch/x86/boot/bzImage" ]; then
		note "$v: up to date"
		return 0
	fi
	if [ ! -d "$obj" ]; then
		seed=$(seed_for "$v")
		if [ -n "$seed" ]; then
			note "$v: seeding O= dir from $seed"
			mkdir -p "$CACHE/$v"
			cp -a --reflink=auto "$CACHE/$seed/obj" "$obj"
		fi
	fi
	mkdir -p "$obj"
	rm -f "$obj/.measure-key"
	make_config "$v" "$obj" || die "$v: config fragment did not survive olddefconfig"
	note "$v: building bzImage (nice -n 19 make -j$JOBS, log $CACHE/$v/build.log)"
	if ! nice -n 19 make -C "$src" O="$obj" -j"$JOBS" "${KBUILD_ID[@]}" bzImage \
		> "$CACHE/$v/build.log" 2>&1; then
		grep -E 'error|Error' "$CACHE/$v/build.log" | head -n 20 >&2
		die "$v: build failed (log $CACHE/$v/build.log)"
	fi
	echo "$key" > "$obj/.measure-key"
	# which series the table row comes from
	if variant_patched "$v"; then
		{ echo "${#SERIES_PATCHES[@]} patches from $PATCHES, last: ${SERIES_PATCHES[-1]#"$PATCHES"/}," \
			"sha256 $(cat "${SERIES_PATCHES[@]}" | sha256sum | cut -c1-12)"; } > "$CACHE/$v/series.txt"
	else
		echo "unpatched 6.12.118" > "$CACHE/$v/series.txt"
	fi
	note "$v: built"
}

# "bzimage code rodata init data" of one build
measure() {
	local obj=$CACHE/$1/obj
	python3 - "$obj" <<-'EOF'
	import os, subprocess, sys
	obj = sys.argv[1]
	bz = os.path.getsize(os.path.join(obj, "arch/x86/boot/bzImage"))
	# the compressed kernel inside the bzImage: the bzImage itself grows in
	# 4 KiB steps, this shows the bytes
	import glob
	pl = [f for f in glob.glob(os.path.join(obj, "arch/x86/boot/compressed/vmlinux.bin.*"))
	      if not f.endswith(".cmd")]
	payload = os.path.getsize(pl[0]) if pl else 0
	vml = os.path.join(obj, "vmlinux")
	code = 0
	for l in subprocess.run(["nm", "-S", "--size-sort", vml], capture_output=True,
	                        text=True, check=True).stdout.splitlines():
	    f = l.split()
	    if len(f) >= 4 and f[2] in ("t", "T"):
	        code += int(f[1], 16)
	sec = {}
	for l in subprocess.run(["readelf", "-SW", vml], capture_output=True, text=True,
	                        check=True).stdout.splitlines():
	    l = l.replace("[ ", "[")
	    f = l.split()
	    if len(f) > 6 and f[0].startswith("[") and f[1].startswith("."):
	        sec[f[1]] = int(f[5], 16)
	init = sum(s for n, s in sec.items() if n.startswith(".init."))
	print(bz, payload, code, sec.get(".rodata", 0), init, sec.get(".data", 0))
	EOF
}

table() {
	local v have=() base
	for v in $ALL; do
		[ -f "$CACHE/$v/obj/.measure-key" ] && [ -f "$CACHE/$v/obj/vmlinux" ] && have+=("$v")
	done
	[ ${#have[@]} -gt 0 ] || die "no builds in $CACHE"
	{
		for v in "${have[@]}"; do echo "$v $(measure "$v") $(variant_config "$v" | tr '\n' ' ')"; done
	} > "$CACHE/sizes.txt"
	python3 - "$CACHE/sizes.txt" "$PATCHES" <<-'EOF'
	import sys
	rows = {}
	order = []
	for l in open(sys.argv[1]):
	    f = l.split()
	    rows[f[0]] = [int(x) for x in f[1:7]]
	    order.append(f[0])
	desc = {
	    "printk-off": "CONFIG_PRINTK=n",
	    "kprint-off": "CONFIG_KPRINT=n (baseline)",
	    "kprint-off-lb12": "CONFIG_KPRINT=n, LOG_BUF_SHIFT=12",
	}
	def d(v):
	    if v in desc: return desc[v]
	    lb = v.endswith("-lb12")
	    n = v.split("-")[1]
	    return "KPRINT=y, MIN_LOGLEVEL=%s%s%s" % (n, ", FUNC_NAMES=n" if "-nofunc" in v else
	                                            ", FUNC_NAMES=y" if v.endswith("-func") or "-func-" in v else "",
	                                            ", LOG_BUF_SHIFT=12" if lb else "")
	base = rows.get("kprint-off")
	cols = ["bzImage", "compressed kernel", "code (t/T symbols)", ".rodata", ".init.*", ".data"]
	out = []
	out.append("Measurement config: `make tinyconfig` + 64BIT, TTY, SERIAL_8250, "
	           "SERIAL_8250_CONSOLE, BLK_DEV_INITRD, DEVTMPFS, PROC_FS, SYSFS, DEBUG_FS, "
	           "MODULES, PRINTK (LOG_BUF_SHIFT=17 unless -lb12); Linux 6.12.118 (Debian "
	           "linux-source-6.12), x86_64, gcc %s. Bytes; (Δ) = difference to kprint-off."
	           % __import__("subprocess").run(["gcc", "-dumpfullversion"], capture_output=True,
	                                           text=True).stdout.strip())
	out.append("")
	out.append("| variant | config | " + " | ".join(cols) + " |")
	out.append("|---|---|" + "---:|" * len(cols))
	for v in order:
	    r = rows[v]
	    cells = []
	    for i, x in enumerate(r):
	        if base and v != "kprint-off":
	            cells.append("{:,} ({:+,})".format(x, x - base[i]))
	        else:
	            cells.append("{:,}".format(x))
	    out.append("| %s | %s | %s |" % (v, d(v), " | ".join(cells)))
	out.append("")
	out.append("bzImage grows in 4 KiB steps (every difference above is a multiple of 4,096); "
	           "\"compressed kernel\" is arch/x86/boot/compressed/vmlinux.bin.<comp>, the bytes "
	           "that make up the bzImage's payload.  The goals are computed on bzImage, as the "
	           "issue states them; the same ratios on the compressed kernel are given after them.")
	out.append("")
	def goal(name, ok, text):
	    out.append("- %s: **%s** — %s" % (name, "PASS" if ok else "FAIL", text))
	if not (base and "kprint-7" in rows):
	    out.append("- Goal 1: not measured (needs kprint-off and kprint-7)")
	for v, name in (("kprint-7", "Goal 1 (CONFIG_KPRINT=y at cut-off 7 costs ≤ 2% of bzImage over "
	                 "CONFIG_KPRINT=n)"),
	                ("kprint-7-func", "Goal 1 with the function names kept (kprint-7-func, "
	                 "CONFIG_KPRINT_FUNC_NAMES=y; its default follows CONFIG_KALLSYMS, which "
	                 "this config leaves out)"),
	                ("kprint-7-nofunc", "Goal 1 with the function names left out (kprint-7-nofunc, "
	                 "CONFIG_KPRINT_FUNC_NAMES=n)")):
	    if base and v in rows:
	        k7 = rows[v][0]
	        pct = 100.0 * (k7 - base[0]) / base[0]
	        goal(name, pct <= 2.0, "%s %s − kprint-off %s = %+d bytes = %+.2f%%"
	             % (v, format(k7, ","), format(base[0], ","), k7 - base[0], pct))
	if base and "kprint-3-lb12" in rows and "printk-off" in rows:
	    k3 = rows["kprint-3-lb12"][0]
	    po = rows["printk-off"][0]
	    saved = base[0] - po
	    rec = base[0] - k3
	    goal("Goal 2 (cut-off 3 + LOG_BUF_SHIFT=12 recovers ≥ half of the bzImage bytes PRINTK=n saves)",
	         rec >= 0.5 * saved,
	         "kprint-off − kprint-3-lb12 = %s bytes vs 0.5 × (kprint-off − printk-off) = 0.5 × %s = %s (%.0f%% recovered)"
	         % (format(rec, ","), format(saved, ","), format(saved // 2, ","),
	            100.0 * rec / saved if saved else 0))
	else:
	    out.append("- Goal 2: not measured (needs kprint-off, printk-off and kprint-3-lb12)")
	for v in ("kprint-7", "kprint-7-func", "kprint-7-nofunc"):
	    if base and v in rows:
	        out.append("  - on the compressed kernel: %s %+d bytes = %+.2f%%" % (
	            v, rows[v][1] - base[1], 100.0 * (rows[v][1] - base[1]) / base[1]))
	if base and "kprint-3-lb12" in rows and "printk-off" in rows:
	    s1 = base[1] - rows["printk-off"][1]
	    r1 = base[1] - rows["kprint-3-lb12"][1]
	    out.append("  - on the compressed kernel: kprint-3-lb12 saves %s of the %s that PRINTK=n saves (%.0f%%)"
	               % (format(r1, ","), format(s1, ","), 100.0 * r1 / s1 if s1 else 0))
	if base and "printk-off" in rows:
	    po = rows["printk-off"]
	    out.append("- Reference (issue 4, same config on Debian 6.12.118): PRINTK=n .rodata "
	               "489,088 → 394,920, bzImage 1,086,464 → 1,008,640 (−7.2%%); here: .rodata "
	               "%s → %s, bzImage %s → %s (%.1f%%)."
	               % (format(base[3], ","), format(po[3], ","), format(base[0], ","),
	                  format(po[0], ","), 100.0 * (po[0] - base[0]) / base[0]))
	import os
	cache = os.path.dirname(sys.argv[1])
	srcs = {}
	for v in order:
	    p = os.path.join(cache, v, "series.txt")
	    srcs.setdefault(open(p).read().strip() if os.path.exists(p) else "unknown", []).append(v)
	out.append("")
	for k, vs in srcs.items():
	    out.append("- built from %s: %s" % (k, ", ".join(vs)))
	print("\n".join(out))
	EOF
	sites_table "${have[@]}"
}

# What is left of the call-site descriptors at each cut-off: how many, their
# bytes and what they compress to alone (xz -9e, as the bzImage), their
# file and function strings, and the static levels of their formats.
sites_table() {
	local v
	echo
	echo "Call-site descriptors in vmlinux (\`.kprint_sites\`, 28 bytes each; \"strings\": the distinct file and function names they add; levels from the format's KERN_ prefix: c = KERN_CONT, none = no prefix, e.g. dev_*() with a separate level):"
	echo
	echo "| variant | descriptors | bytes | xz alone | files (bytes) | functions (bytes) | levels |"
	echo "|---|---:|---:|---:|---:|---:|---|"
	for v in "$@"; do
		case $v in kprint-[0-7]*) ;; *) continue ;; esac
		python3 - "$v" "$CACHE/$v/obj/vmlinux" <<-'EOF'
		import lzma, struct, subprocess, sys
		v, vml = sys.argv[1], sys.argv[2]
		raw = open(vml, "rb").read()
		secs = {}
		for l in subprocess.run(["readelf", "-SW", vml], capture_output=True, text=True,
		                        check=True).stdout.splitlines():
		    f = l.replace("[ ", "[").split()
		    if len(f) > 6 and f[0].startswith("[") and f[1].startswith("."):
		        secs[f[1]] = (int(f[3], 16), int(f[4], 16), int(f[5], 16))
		if ".kprint_sites" not in secs:
		    sys.exit(0)
		addr, off, size = secs[".kprint_sites"]
		data = raw[off:off + size]
		def string(ref):
		    # a non-relocatable x86_64 kernel: the sign-extended address;
		    # 0 in a descriptor that was never filled in (not .comment's 0)
		    if ref == 0:
		        return b""
		    a = ref & 0xffffffffffffffff
		    for n, (sa, so, ss) in secs.items():
		        if sa <= a < sa + ss and n != ".kprint_sites":
		            o = so + a - sa
		            return raw[o:raw.index(b"\0", o)]
		    return b""
		files, funcs, lv = set(), set(), {}
		for i in range(0, size - size % 28, 28):
		    fr, fu, mo, fm, le, ow, ln = struct.unpack_from("<iiiiiiI", data, i)
		    files.add(string(fr))
		    funcs.add(string(fu))
		    fmt = string(fm) if fm else b""
		    k = fmt[1:2].decode() if fmt[:1] == b"\x01" else "none"
		    lv[k] = lv.get(k, 0) + 1
		xz = len(lzma.compress(data, preset=9 | lzma.PRESET_EXTREME))
		levels = ", ".join("%s: %d" % (k, lv[k]) for k in sorted(lv))
		print("| %s | %s | %s | %s | %d (%s) | %d (%s) | %s |" % (
		    v, format(size // 28, ","), format(size, ","), format(xz, ","),
		    len(files - {b""}), format(sum(len(x) + 1 for x in files - {b""}), ","),
		    len(funcs - {b""}), format(sum(len(x) + 1 for x in funcs - {b""}), ","), levels))
		EOF
	done
}

main() {
	local v list=${ONLY:-$ALL} need_src=0
	for v in $list; do variant_config "$v" > /dev/null; done
	for v in $list; do variant_patched "$v" && need_src=1; done
	[ "$need_src" -eq 0 ] || read_series
	if [ "$NOBUILD" -eq 0 ]; then
		unpack_pristine
		if [ "$need_src" -eq 1 ]; then
			note "series: ${#SERIES_PATCHES[@]} patch(es) from $PATCHES"
			prepare_source
		fi
		for v in $list; do
			build_variant "$v"
		done
	fi
	table > "$CACHE/table.md"
	cat "$CACHE/table.md"
	if [ -n "$WRITE" ]; then cp "$CACHE/table.md" "$WRITE"; note "wrote $WRITE"; fi
}

main "$@"
