#!/usr/bin/env bash
# Runs the whole test suite: formatting, vet, Go tests (with the Mat leak
# profile), the arm64 build and tests under emulation, the Debian packages
# and their install test, and the browser tests. Installs what is missing
# first.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

# Each stage's duration, said when it ends and listed at the end (also
# when a stage fails): where CI's time goes.
# With each stage's CPU time (user+sys of the processes it waited for, in
# /proc/$$/stat's cutime and cstime, clock ticks): the figure a loaded
# machine does not inflate. The arm64 job runs beside go test; its CPU
# counts in the stage during which it ends (the shell reaps it then):
# go test's when it ends first (dist/arm64.log has its qemu tests' CPU).
T0=$SECONDS
stage_name="" stage_t0=0 stage_cpu0=0 stage_times=""
children_cpu() { # CPU ticks of this shell's finished children
  local s
  read -r s < /proc/$$/stat
  s=${s##*) }
  set -- $s
  echo $(( ${14} + ${15} ))
}
TICKS=$(getconf CLK_TCK)
CPU0=$(children_cpu)
stage() {
  end_stage
  stage_name=$1 stage_t0=$SECONDS stage_cpu0=$(children_cpu)
  say "$1"
}
end_stage() {
  [ -n "$stage_name" ] || return 0
  local d=$((SECONDS - stage_t0)) c=$((($(children_cpu) - stage_cpu0) / TICKS))
  say "${stage_name%% (*}: $d s ($c s CPU)"
  stage_times+=$(printf '%6d s %6d s  %s' "$d" "$c" "${stage_name%% (*}")$'\n'
  stage_name=""
}
summary() {
  local rc=$?
  end_stage
  printf '\033[1m==> stages (wall time, CPU time)\033[0m\n%s%6d s %6d s  total\n' "$stage_times" \
    $((SECONDS - T0)) $((($(children_cpu) - CPU0) / TICKS)) >&2
  return $rc
}
trap summary EXIT

stage "setup (scripts/setup.sh --test)"
scripts/setup.sh --test

# The arm64 job (scripts/test-arm64.sh: toolchain and sysroot, cross-build,
# tests and eval under qemu) runs beside the amd64 tests, at a lower
# priority: it takes the CPU the amd64 packages leave idle (the longest
# ones finish alone) and the downloads overlap. BOARDCAM_TEST_SERIAL=1 runs
# it after them instead (each stage's own time). Its log is dist/arm64.log.
mkdir -p dist
arm64=""
arm64_start() {
  # its own process group (setsid), so that a failure here ends all of it
  setsid -w nice -n 10 scripts/test-arm64.sh > dist/arm64.log 2>&1 &
  arm64=$!
}
arm64_stop() { [ -z "$arm64" ] || kill -- "-$arm64" 2>/dev/null || true; }
trap 'arm64_stop; summary' EXIT
if [ -z "${BOARDCAM_TEST_SERIAL:-}" ]; then
  arm64_start
fi

stage "gofmt"
bad=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './node_modules/*'))
if [ -n "$bad" ]; then
  echo "not gofmt-formatted:" >&2; echo "$bad" >&2; exit 1
fi

stage "go vet"
go vet ./...

stage "go test (-tags matprofile: every test fails on a leaked OpenCV Mat)"
# BOARDCAM_E2E=1: boardcam run on every corpus clip that keeps a score must
# end with the truth's score and fouls, or hold for the umpire, on modelled
# computers 1 to 8 times slower (cmd/boardcam TestRunSlowerCPU), and as
# 30 and 15 fps cameras, and the 15 fps one half an interval later
# (TestEvalFramesRemoved).
# scripts/testreport prints what go test would, then the time per package
# and the slowest tests, and the CPU time (user+sys) of each package and of
# the tests that used the most: it runs each test binary (go test -exec).
# The longest packages are named first: go test starts the packages in the
# order given, two at a time (-p = the cores), ./... adding the others in
# its order; alphabetically, vision (231 s of CI's 673) started last and
# ran alone at the end. CI at 1fdb8f1 (wall): cmd/boardcam 370 s, vision
# 231, calibrate 185, daemon 81, render 43, tracker 21, render/synth 19,
# web 15, every other package under 10.
go build -o dist/testreport ./scripts/testreport
rm -f dist/test-cpu.jsonl
first="./cmd/boardcam ./vision ./calibrate ./daemon ./render ./tracker ./render/synth ./web"
# -timeout is per package: vision needs about 4 min alone, but on a machine
# loaded 15 times over (a shared one) it timed out at 20 min; 40 min still
# ends a hung test well within CI's 90.
BOARDCAM_E2E=1 TESTREPORT_CPU="$PWD/dist/test-cpu.jsonl" go test -exec "$PWD/dist/testreport exec" \
  -tags matprofile -count=1 -timeout 40m -json $first ./... | dist/testreport -cpu dist/test-cpu.jsonl

stage "arm64: cross-build, tests and eval under qemu (scripts/test-arm64.sh)"
[ -n "$arm64" ] || arm64_start
if ! wait "$arm64"; then
  arm64=""
  cat dist/arm64.log >&2
  exit 1
fi
arm64=""
# the job's own laps (it ran beside the amd64 tests)
grep -a '==> arm64' dist/arm64.log >&2 || true
# and the CPU of its packages and tests under qemu
awk '/^CPU per package/ { p = 1 } /^\033/ { p = 0 } p' dist/arm64.log | sed 's/^/arm64: /' >&2

# The browser tests run beside the package test: each plays the demo
# clip losslessly (--no-pace: what is decided does not depend on the
# load) on about one core, so together they take about as long as the
# longer one (CI at 3a97fc9: packages 22 s, browser tests 30 s, one after
# the other). Their output is dist/browser.log, shown when they end.
browser=""
trap 'arm64_stop; [ -z "$browser" ] || kill -- "-$browser" 2>/dev/null || true; summary' EXIT
stage "packages: install, run and purge the amd64 .deb (scripts/test-package.sh), the arm64 .deb; beside them the browser tests (headless Chromium)"
if [ -f web/e2e/package.json ]; then
  setsid -w bash -c 'cd web/e2e && npm ci --no-audit --no-fund --silent && node run.mjs' > dist/browser.log 2>&1 &
  browser=$!
fi
scripts/test-package.sh
scripts/package.sh arm64
if [ -n "$browser" ]; then
  rc=0
  wait "$browser" || rc=$?
  browser=""
  say "browser tests (headless Chromium, dist/browser.log)"
  cat dist/browser.log >&2
  [ "$rc" = 0 ] || exit 1
fi
end_stage
say "all tests passed"
