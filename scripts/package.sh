#!/usr/bin/env bash
# Builds the boardcam Debian packages with nfpm (deploy/nfpm.yaml):
#
#   scripts/package.sh [amd64] [arm64]     (default: both)
#
# into dist/boardcam_<version>_<arch>.deb, from the lean release binaries
# (scripts/lib/lean.sh: only the OpenCV modules boardcam uses). arm64 is
# cross-built against an arm64 sysroot (scripts/lib/arm64.sh). The
# package's Depends are the Debian packages of exactly the shared libraries
# the binary needs. nfpm is built from the Go module proxy into
# $BOARDCAM_CACHE/bin the first time.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
. scripts/lib/lean.sh
. scripts/lib/arm64.sh

NFPM_VERSION=v2.45.2
say() { printf '\033[1m==> package: %s\033[0m\n' "$*" >&2; }

archs=("$@")
[ "${#archs[@]}" -gt 0 ] || archs=(amd64 arm64)

cache=${BOARDCAM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/boardcam}
NFPM=$cache/bin/nfpm-$NFPM_VERSION
if [ ! -x "$NFPM" ]; then
  say "building nfpm $NFPM_VERSION"
  mkdir -p "$cache/bin"
  tmp=$(mktemp -d)
  GOBIN=$tmp GOFLAGS= go install "github.com/goreleaser/nfpm/v2/cmd/nfpm@$NFPM_VERSION"
  mv "$tmp/nfpm" "$NFPM"
  rm -rf "$tmp"
fi

# 0.0~git<date>.<commit>: sorts by commit date; +dirty when built from
# uncommitted changes.
VERSION="0.0~git$(TZ=UTC git log -1 --date=format-local:%Y%m%d%H%M --format=%cd).$(git rev-parse --short=7 HEAD)"
git diff --quiet HEAD 2>/dev/null || VERSION="$VERSION+dirty"

# depends_of BINARY: the Debian packages of its NEEDED libraries (readelf
# reads any architecture's ELF), by
# Debian's library package names (libopencv_X.so.406 is libopencv-X406), and
# the C library version its symbols need.
depends_of() {
  local bin=$1 lib deps=() glibc
  for lib in $(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    case "$lib" in
      libopencv_*.so.406) m=${lib#libopencv_}; deps+=("libopencv-${m%.so.406}406 (>= 4.6.0)") ;;
      libavcodec.so.59) deps+=("libavcodec59 (>= 7:5.1)") ;;
      libswscale.so.6) deps+=("libswscale6 (>= 7:5.1)") ;;
      libavutil.so.57) deps+=("libavutil57 (>= 7:5.1)") ;;
      libjpeg.so.62) deps+=("libjpeg62-turbo (>= 1:2.0)") ;;
      libstdc++.so.6) deps+=("libstdc++6 (>= 12)") ;;
      libgcc_s.so.1) deps+=("libgcc-s1") ;;
      libc.so.6 | libm.so.6 | libpthread.so.0 | libdl.so.2 | libresolv.so.2) ;;
      *) echo "package: $bin needs $lib: add its Debian package to depends_of" >&2; return 1 ;;
    esac
  done
  glibc=$(readelf -W --dyn-syms "$bin" | grep -o '@GLIBC_[0-9.]*' | sed 's/@GLIBC_//' | sort -V | tail -1)
  deps+=("libc6 (>= $glibc)")
  printf '%s\n' "${deps[@]}"
}

mkdir -p dist
for arch in "${archs[@]}"; do
  case "$arch" in
    amd64) (LEAN_TAGS=notools lean_env amd64 && go build -o dist/boardcam-linux-amd64 ./cmd/boardcam) ;;
    arm64)
      if [ "$(uname -m)" = aarch64 ]; then # on the Pi itself: a native build
        (LEAN_TAGS=notools lean_env arm64 && go build -o dist/boardcam-linux-arm64 ./cmd/boardcam)
      else
        arm64_setup
        (LEAN_TAGS=notools lean_env arm64 "$SYSROOT" && go build -o dist/boardcam-linux-arm64 ./cmd/boardcam)
      fi
      ;;
    *) echo "package: unknown architecture $arch (amd64, arm64)" >&2; exit 2 ;;
  esac
  deps=$(depends_of "dist/boardcam-linux-$arch")
  out="dist/boardcam_${VERSION}_${arch}.deb"
  rm -f dist/boardcam_*_"$arch".deb
  cfg=$(mktemp --suffix=.yaml)
  awk -v arch="$arch" -v version="$VERSION" -v deps="$deps" '
    /^@DEPENDS@$/ { n = split(deps, d, "\n"); for (i = 1; i <= n; i++) print "  - \"" d[i] "\""; next }
    { gsub(/@ARCH@/, arch); gsub(/@VERSION@/, version); print }' deploy/nfpm.yaml > "$cfg"
  "$NFPM" package --config "$cfg" --packager deb --target "$out" >/dev/null
  rm -f "$cfg"
  say "$out ($(du -k "$out" | cut -f1) KiB), Depends: adduser, $(echo "$deps" | paste -sd, | sed 's/,/, /g')"
done
