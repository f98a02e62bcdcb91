#!/bin/sh
# The hunt for runs that end wrong without a word (issue 11), on clips the
# corpus does not hold: renders testdata/hunt/*.yaml (our renderer, other
# seeds and combinations of camera conditions, shots the corpus has few
# of; see testdata/hunt/README.md) into OUT, makes their lens files, and
# plays them through the eval, every removal and modelled slower CPU, and
# "none" (every frame analysed through boardcam run).
#
#   scripts/hunt.sh [OUT] [BOARDCAM]        # default /tmp/hunt, bin/boardcam
#   ONLY=h01-double-pot-longexp,v-break scripts/hunt.sh /tmp/hunt
#
# Writes OUT/eval.json (rest recall/precision, events) and OUT/removed.json
# (right/held/wrong per clip and removal; exit status 1 if a run is wrong),
# and prints the summary tables. Rendering costs about 10-15 CPU minutes,
# the removal sweep about as much again; nothing is committed.
set -eu
out=${1:-/tmp/hunt}
bc=${2:-bin/boardcam}
repo=$(cd "$(dirname "$0")/.." && pwd)
jobs=${JOBS:-2}
mkdir -p "$out"
mkdir -p "$out/boards"
cp "$repo"/testdata/videos/boards/*.yaml "$repo"/testdata/hunt/boards/*.yaml "$out/boards/"
for f in "$repo"/testdata/hunt/*.yaml; do
	n=$(basename "$f")
	# boards named relative to testdata/hunt are copied beside the specs
	# (the truth keeps the path relative to the clip, as eval reads it)
	sed "s#^board: \.\./videos/boards/#board: boards/#" "$f" >"$out/$n.new"
	if cmp -s "$out/$n.new" "$out/$n" 2>/dev/null; then rm "$out/$n.new"; else mv "$out/$n.new" "$out/$n"; fi
done
# render only the clips (of ONLY, if set) whose truth is missing or older
# than their spec
todo=""
for f in "$out"/*.yaml; do
	n=$(basename "$f" .yaml)
	if [ -n "${ONLY:-}" ] && ! echo ",$ONLY," | grep -q ",$n,"; then continue; fi
	t="$out/$n.truth.json"; [ -f "$t" ] || t="$t.gz"
	if [ ! -f "$t" ] || [ "$f" -nt "$t" ]; then todo="$todo,$n"; fi
done
if [ -n "$todo" ]; then
	nice -n 10 "$bc" synth --jobs "$jobs" --only "${todo#,}" "$out"
	# with ONLY, the lens files of those clips alone (the index keeps
	# the others'): fitting every spec's camera takes many minutes
	nice -n 10 "$bc" synth --lens --only "${ONLY:-}" "$out"
fi
nice -n 10 "$bc" eval --json --quiet "$out" >"$out/eval.json" || true
nice -n 10 "$bc" eval --quiet "$out" | head -60 || true
rc=0
nice -n 10 "$bc" eval --jobs "$jobs" --json --quiet --remove burst,random10,random30,fps30,fps15,fps15late,speed1,speed2,speed4,speed8,none "$out" >"$out/removed.json" || rc=$?
python3 "$repo/testdata/hunt/summary.py" "$out/removed.json"
exit $rc
