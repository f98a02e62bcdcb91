#!/usr/bin/env bash
# Runs the whole test suite: formatting, vet, Go tests (with the Mat leak
# profile), the arm64 build and tests under emulation, the Debian packages
# and their install test, and the browser tests. Installs what is missing
# first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test
export PATH="$PATH:/usr/local/go/bin"

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

# The arm64 toolchain and sysroot download while the amd64 tests run
# (network and disk, little CPU); scripts/test-arm64.sh waits for them.
mkdir -p dist
scripts/test-arm64.sh --prepare > dist/arm64-prepare.log 2>&1 &
prepare=$!

say "gofmt"
bad=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './node_modules/*'))
if [ -n "$bad" ]; then
  echo "not gofmt-formatted:" >&2; echo "$bad" >&2; exit 1
fi

say "go vet"
go vet ./...

say "go test (-tags matprofile: every test fails on a leaked OpenCV Mat)"
# BOARDCAM_E2E=1: boardcam run on every corpus clip that keeps a score must
# end with the truth's score and fouls (cmd/boardcam TestRunCorpusClips).
BOARDCAM_E2E=1 go test -tags matprofile -count=1 -timeout 20m ./...

say "arm64: cross-build, tests and eval under qemu (scripts/test-arm64.sh)"
if ! wait "$prepare"; then
  cat dist/arm64-prepare.log >&2
  exit 1
fi
scripts/test-arm64.sh

say "packages: install, run and purge the amd64 .deb (scripts/test-package.sh); the arm64 .deb"
scripts/test-package.sh
scripts/package.sh arm64

if [ -f web/e2e/package.json ]; then
  say "browser tests (headless Chromium)"
  (cd web/e2e && npm ci --no-audit --no-fund --silent && node run.mjs)
fi
say "all tests passed"
