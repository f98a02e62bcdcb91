#!/usr/bin/env bash
# Installs what boardcam needs on Debian bookworm / Raspberry Pi OS bookworm
# and builds bin/boardcam. Safe to run again: it only installs what is missing.
#
#   scripts/setup.sh          runtime needs (OpenCV, ffmpeg, Go) and the build
#   scripts/setup.sh --test   also what the test suite needs (Chromium, Node.js,
#                             Mosquitto: the MQTT tests start their own broker
#                             on a loopback port, internal/mosquittotest)
set -euo pipefail
cd "$(dirname "$0")/.."

GO_MIN=1.24          # go.mod's go line
GO_FETCH=1.26.8      # fetched from go.dev when no Go >= GO_MIN is installed

want_test=0
[ "${1:-}" = "--test" ] && want_test=1

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: run as root or install sudo" >&2; exit 1; }
  SUDO="sudo"
fi

# libav*-dev: frames/libav decodes with FFmpeg's libraries directly (libopencv-dev
# brings them too, through libopencv-highgui-dev; named here because we use them);
# libjpeg62-turbo-dev: internal/jpeg; gstreamer1.0-tools/-plugins-base: cameras
# are read through gst-launch-1.0 (daemon/source_gst.go; its test uses videotestsrc).
pkgs=(build-essential pkg-config libopencv-dev libavformat-dev libavcodec-dev libswscale-dev libjpeg62-turbo-dev gstreamer1.0-tools gstreamer1.0-plugins-base ffmpeg ca-certificates curl git)
if [ "$want_test" = 1 ]; then
  # systemd: systemd-analyze checks the service unit (deploy/unit_test.go).
  pkgs+=(chromium systemd mosquitto)
  # Node.js may come from Debian or from NodeSource (whose nodejs package
  # bundles npm and conflicts with Debian's npm): ask for it only when the
  # commands are missing.
  command -v node >/dev/null || pkgs+=(nodejs)
  command -v npm >/dev/null || pkgs+=(npm)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  say "installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Go: use the one on PATH (or /usr/local/go) when new enough, else fetch it.
export PATH="$PATH:/usr/local/go/bin:$HOME/go/bin"
version_ge() { [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]; }
have_go=""
if command -v go >/dev/null; then
  have_go=$(go env GOVERSION | sed 's/^go//')
fi
if [ -z "$have_go" ] || ! version_ge "$have_go" "$GO_MIN"; then
  case "$(uname -m)" in
    x86_64) arch=amd64 ;; aarch64|arm64) arch=arm64 ;; armv6l|armv7l) arch=armv6l ;;
    *) echo "setup: no Go build for $(uname -m); install Go >= $GO_MIN by hand" >&2; exit 1 ;;
  esac
  say "installing Go $GO_FETCH ($arch) into /usr/local/go"
  tmp=$(mktemp -d)
  curl -fsSL "https://go.dev/dl/go${GO_FETCH}.linux-${arch}.tar.gz" -o "$tmp/go.tgz"
  $SUDO rm -rf /usr/local/go
  $SUDO tar -C /usr/local -xzf "$tmp/go.tgz"
  rm -rf "$tmp"
fi

say "building bin/boardcam (the first build compiles gocv's OpenCV bindings: about a minute)"
mkdir -p bin
go build -o bin/boardcam ./cmd/boardcam
