#!/usr/bin/env bash
# What the evidence (replay buffer, stills, clips) costs the daemon: plays the
# bundled demo through `boardcam run` with evidence and without it
# (--no-evidence), alternately, PAIRS times, and prints for each run the
# daemon's own figures: frames analysed and dropped, the analysis time per
# frame (the "analyze" stage: mean, p50, p95), the capture → journal latency,
# and the Go heap (go_memstats_heap_inuse_bytes sampled from /metrics every
# 0.25 s: its first and highest values; the highest resident set size).
#
# Fairness on a shared machine: both runs of a pair get the same CPU set
# (taskset -c $CPUS, default one core: the worst case, the compressor and
# ffmpeg compete with the analysis on it) and the same priority: each run is
# a session of its own (setsid) whose autogroup gets nice $NICE (default
# -10; with the kernel's autogroup scheduling, a process's nice counts only
# within its session, so this is what puts the run above other sessions'
# builds; needs root, else 0), and the daemon runs at nice $NICE within it.
# The order alternates so that a change in the machine's load hits both
# alike.
#
#   scripts/evidence-cost.sh [PAIRS]        (default 3; about 1 minute per run)
#
# Needs bin/boardcam (go build -o bin/boardcam ./cmd/boardcam) and curl.
set -euo pipefail
cd "$(dirname "$0")/.."
pairs=${1:-3}
cpus=${CPUS:-1}
prio=${NICE:--10}
port=${PORT:-18433}
[ "$(id -u)" = 0 ] || prio=0
work=$(mktemp -d /tmp/evidence-cost.XXXXXX)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT

run() { # run NAME [boardcam run flags…]
	local name=$1
	shift
	local dir=$work/$name
	mkdir -p "$dir"
	bin/boardcam new-match --config deploy/demo.yaml --journal-dir "$dir" --resume testdata/videos/demo.log >/dev/null 2>&1
	setsid sh -c 'echo "$1" >/proc/self/autogroup 2>/dev/null; shift; exec "$@"' sh "$prio" \
		taskset -c "$cpus" nice -n "$prio" bin/boardcam run --config deploy/demo.yaml --journal-dir "$dir" \
		--listen "127.0.0.1:$port" --display none "$@" >"$dir/out" 2>"$dir/err" &
	local pid=$! first="" peak=0 rss=0 v r
	while kill -0 "$pid" 2>/dev/null; do
		read -r v r < <(curl -s --max-time 1 "http://127.0.0.1:$port/metrics" |
			awk '/^go_memstats_heap_inuse_bytes /{h=$2} /^process_resident_memory_bytes /{r=$2} END{if (h) printf "%d %d\n", h, r}') || true
		if [ -n "${v:-}" ]; then
			[ -n "$first" ] || first=$v
			[ "$v" -gt "$peak" ] && peak=$v
			[ "$r" -gt "$rss" ] && rss=$r
		fi
		v=""
		sleep 0.25
	done
	wait "$pid" || true
	awk -v name="$name" -v first="${first:-0}" -v peak="$peak" -v rss="$rss" '
		/^pipeline:/ { read=$2; analysed=$5; dropped="0"; if (match($0, /[0-9]+ frames before the analysis/)) { split(substr($0, RSTART, RLENGTH), m, " "); dropped=m[1] } }
		$1=="analyze" { an=$3" "$4" "$5 }
		$1=="frame" && $3=="journal" { jl=$5" p95 "$7 }
		/^score:/ { score=$3$4$5$6 }
		END { printf "%-12s analysed %s/%s dropped %s  analyze mean/p50/p95 %s  frame→journal mean %s  heap %.1f → %.1f MiB (+%.1f)  RSS %.0f MiB  %s\n",
			name, analysed, read, dropped, an, jl, first/1048576, peak/1048576, (peak-first)/1048576, rss/1048576, score }' "$dir/out"
	grep -h '^evidence:\|decisions written' "$dir/out" | sed 's/^/             /' || true
}

echo "demo ×$pairs pairs, taskset -c $cpus, nice -n $prio, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq 1 "$pairs"); do
	if [ $((i % 2)) = 1 ]; then
		run "with-$i"
		run "without-$i" --no-evidence
	else
		run "without-$i" --no-evidence
		run "with-$i"
	fi
done
echo "load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
