#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tui.sh - the --tui viewer's goals of issue 12 on a 1,000,000-record -K
# dump (the one bench/run.sh uses, generated and cached the same way):
#
#   memory        peak RSS of `kdmesg --tui` holding the whole dump, as a
#                 ratio to the dump's size (goal <= 2)
#   open          from start until the status line shows the last of the
#                 1,000,000 records selected (goal <= 1 s), polled in tmux;
#                 and the CPU time of that run (it quits right after), the
#                 figure to judge on a machine busy with other work
#   repaint       a filter change or a search: until the page to show is
#                 known and formatted, and the longest loop turn while
#                 the rest of the log is done (goal <= 100 ms), from
#                 bench/tui-model (the viewer's code without curses)
#   follow        a file growing by 10,000 records/s for 10 s: every record
#                 shown, and how long after the writer stopped (goal: none
#                 lost, keeping up)
#
# Environment: KDMESG, MODEL (bench/tui-model), BENCH_DIR, BENCH_COUNT,
# BENCH_SEED as for run.sh; FOLLOW_RATE (10000), FOLLOW_SECONDS (10).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
KDMESG=${KDMESG:-$(pwd)/src/kdmesg}
MODEL=${MODEL:-$(pwd)/bench/tui-model}
BENCH_COUNT=${BENCH_COUNT:-1000000}
BENCH_SEED=${BENCH_SEED:-20261203}
BENCH_DIR=${BENCH_DIR:-$(pwd)/bench-data}
FOLLOW_RATE=${FOLLOW_RATE:-10000}
FOLLOW_SECONDS=${FOLLOW_SECONDS:-10}

command -v tmux >/dev/null || { echo "bench/tui.sh: needs tmux" >&2; exit 1; }
mkdir -p "$BENCH_DIR"
syslog="$BENCH_DIR/dump-$BENCH_COUNT-$BENCH_SEED.syslog"
kmsg="$BENCH_DIR/dump-$BENCH_COUNT-$BENCH_SEED.kmsg"
if [ ! -s "$kmsg" ]; then
	echo "generating $BENCH_COUNT records ..." >&2
	python3 "$here/gen-dump.py" --count "$BENCH_COUNT" --seed "$BENCH_SEED" \
		"$syslog.tmp" "$kmsg.tmp"
	mv "$syslog.tmp" "$syslog"
	mv "$kmsg.tmp" "$kmsg"
fi
dump_bytes=$(stat -c %s "$kmsg")

tmp=$(mktemp -d)
sock=$tmp/tmux.sock
writer=
trap 'tmux -S "$sock" kill-server 2>/dev/null; [ -n "$writer" ] && kill "$writer" 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM

now_ms() {
	date +%s%3N
}

status() {
	tmux -S "$sock" capture-pane -p | tail -n 1
}

# until_status TEXT LIMIT_S: poll every 20 ms; prints the ms it took.
until_status() {
	t0=$(now_ms)
	while ! status | grep -q -- "$1"; do
		if [ $(($(now_ms) - t0)) -gt $(($2 * 1000)) ]; then
			echo "timeout waiting for '$1' (status: $(status))" >&2
			return 1
		fi
		sleep 0.02
	done
	echo $(($(now_ms) - t0))
}

echo "dump: $kmsg, $BENCH_COUNT records, $dump_bytes bytes"
echo
echo "== the model without the screen (bench/tui-model)"
"$MODEL" "$kmsg" | tee "$tmp/model"
echo

echo "== kdmesg --tui in tmux (120x40)"
tmux -S "$sock" -f /dev/null new-session -d -x 120 -y 40 \
	"env LC_ALL=C.UTF-8 TERM=screen /usr/bin/time -f '%M %U %S' -o '$tmp/rss' '$KDMESG' --tui -K '$kmsg'; sleep 60"
t_open=$(until_status "$BENCH_COUNT/$BENCH_COUNT of $BENCH_COUNT  following" 60)
tmux -S "$sock" send-keys q
i=0
while [ ! -s "$tmp/rss" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
read -r rss_kib cpu_user cpu_sys <"$tmp/rss"
cpu_open=$(echo "$cpu_user $cpu_sys" | awk '{ printf "%d", ($1 + $2) * 1000 }')
tmux -S "$sock" kill-server 2>/dev/null || true
echo "open_at_end_ms $t_open (wall clock, polled every 20 ms)"
echo "open_at_end_cpu_ms $cpu_open (user + system of the whole run: open, then q)"
echo "peak_rss_kib $rss_kib"

# Following: a file that grows by FOLLOW_RATE records a second.
grow=$tmp/grow.kmsg
printf '6,0,0,-;first\n' >"$grow"
sock=$tmp/tmux2.sock
tmux -S "$sock" -f /dev/null new-session -d -x 120 -y 40 \
	"env LC_ALL=C.UTF-8 TERM=screen '$KDMESG' --tui -K '$grow'; sleep 60"
until_status "1/1 of 1  following" 10 >/dev/null
python3 - "$grow" "$FOLLOW_RATE" "$FOLLOW_SECONDS" <<'EOF' >"$tmp/written" &
import sys, time
path, rate, secs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
batch = rate // 20
n = 0
start = time.monotonic()
with open(path, "a") as f:
    for tick in range(secs * 20):
        lines = []
        for _ in range(batch):
            n += 1
            lines.append("6,%d,%d,-;usb 1-1: follow record %d\n" % (n, n * 100, n))
        f.write("".join(lines))
        f.flush()
        delay = start + (tick + 1) / 20 - time.monotonic()
        if delay > 0:
            time.sleep(delay)
print(n, "%.2f" % (time.monotonic() - start))
EOF
writer=$!
max_behind=0
while kill -0 "$writer" 2>/dev/null; do
	shown=$(status | sed -n 's/.* of \([0-9]*\).*/\1/p')
	lines=$(wc -l <"$grow")
	behind=$((lines - ${shown:-0}))
	[ $behind -gt $max_behind ] && max_behind=$behind
	sleep 0.5
done
wait "$writer"
writer=
read -r written wsecs <"$tmp/written"
total=$((written + 1))
lag=$(until_status "$total/$total of $total  following" 30 || echo never)
tmux -S "$sock" send-keys q
echo "follow_written $written records in $wsecs s"
echo "follow_max_behind $max_behind records (sampled every 0.5 s)"
echo "follow_caught_up_ms $lag after the writer stopped"
echo

echo "== ratios and goals"
awk -v rss="$rss_kib" -v dump="$dump_bytes" -v open="$t_open" -v cpu="$cpu_open" '
	$1 == "store_bytes" { store = $2 }
	$1 ~ /^page_ms_/ && $1 != "page_ms_search" { if ($2 > page) page = $2 }
	$1 ~ /^step_max_ms_/ { if ($2 > step) step = $2 }
	END {
		printf "memory: peak RSS / dump = %.2f (goal <= 2); store / dump = %.2f (issue 10: <= 1.5)\n",
			rss * 1024 / dump, store / dump
		printf "open at the end: %d ms wall clock, %d ms CPU (goal <= 1000)\n", open, cpu
		printf "filter change / search: page known in <= %.1f ms, longest loop turn %.1f ms (goal <= 100)\n",
			page, step
	}' "$tmp/model"
