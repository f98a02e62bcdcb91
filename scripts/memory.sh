#!/bin/sh
# memory.sh CMD ARGS…: run a command and report the peak resident memory
# (VmHWM, KiB) of it and of every process it starts (a decoder), sampled
# from /proc every 20 ms; then the sum of those peaks (errs high: the
# processes need not peak together, nor live together) and the peak of
# the sum of the processes alive at each sample (VmRSS; may miss a peak
# shorter than 20 ms). /usr/bin/time -v shows only the largest single
# process of the tree, not a sum. The command's output is its own (the
# daemon's exit summary on stdout); the figures go to stderr.
#
# MEMORY_SMAPS=FILE keeps, in FILE, /proc/PID/smaps of the command's own
# process at the sample of its largest resident set, to see what it was
# made of (docs/memory.md: mappings, Anonymous against file-backed).
set -eu
[ $# -gt 0 ] || { echo "usage: scripts/memory.sh command [args…]" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$@" &
pid=$!
# descendants PID: its children, theirs, … (/proc/PID/task/*/children).
descendants() {
  for c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
    echo "$c"
    descendants "$c"
  done
}
n=0
most=0
while kill -0 "$pid" 2>/dev/null; do
  if [ -n "${MEMORY_SMAPS:-}" ]; then
    r=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
    if [ -n "$r" ] && [ "$r" -gt "$most" ]; then
      most=$r
      cat "/proc/$pid/smaps" > "$out/smaps" 2>/dev/null && cp "$out/smaps" "$MEMORY_SMAPS" || true
    fi
  fi
  for p in $pid $(descendants "$pid"); do
    st=$(awk '/^VmHWM:/ {h=$2} /^VmRSS:/ {r=$2} END {if (h) print h, r}' "/proc/$p/status" 2>/dev/null || true)
    name=$(cat "/proc/$p/comm" 2>/dev/null || true)
    [ -n "$st" ] && [ -n "$name" ] && echo "$n $p $name $st" >> "$out/samples"
  done
  n=$((n + 1))
  sleep 0.02
done
wait "$pid" && rc=0 || rc=$?
awk '{ t = $1; p = $2; if ($4 > peak[p]) peak[p] = $4; name[p] = $3; now[t] += $5 } END {
  for (p in peak) { printf "%-12s pid %-8s peak %8d KiB (%.1f MB)\n", name[p], p, peak[p], peak[p] * 1.024 / 1000; sum += peak[p] }
  for (t in now) if (now[t] > most) most = now[t]
  printf "%-21s %8d KiB (%.1f MB)\n", "sum of the peaks", sum, sum * 1.024 / 1000
  printf "%-21s %8d KiB (%.1f MB)\n", "peak of the sum", most, most * 1.024 / 1000 }' "$out/samples" >&2
exit $rc
