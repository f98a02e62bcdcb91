# Sourced by scripts/test-arm64.sh and scripts/package.sh: the arm64 cross
# toolchain, qemu and the arm64 sysroot.
#
#   arm64_setup        installs what is missing; sets SYSROOT, QEMU_CPU and
#                      QEMU_LD_PREFIX (qemu-aarch64-static then runs arm64
#                      binaries against the sysroot's libraries)
#
# The arm64 libraries are not installed on this machine with multiarch:
# bookworm's amd64 and arm64 OpenCV trees conflict (GDAL's plugins), and
# apt would remove libopencv-dev. They go to a sysroot made with mmdebstrap
# (extracted, no maintainer scripts run, so no emulation is needed), cached
# in $BOARDCAM_CACHE (default ~/.cache/boardcam) and reused while the
# package list and the apt sources are unchanged.

arm64_setup() {
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  local tools=(gcc-aarch64-linux-gnu g++-aarch64-linux-gnu qemu-user-static mmdebstrap file)
  local missing=() p
  for p in "${tools[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    printf '\033[1m==> installing %s\033[0m\n' "${missing[*]}" >&2
    $sudo apt-get update -qq
    # --no-remove: never let apt trade away anything installed.
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends --no-remove "${missing[@]}" >/dev/null
  fi

  # The runtime packages the arm64 .deb depends on, the C libraries, and
  # the headers of FFmpeg and libjpeg (-dev: frames/libav, internal/jpeg).
  local pkgs="libc6 libstdc++6 libgcc-s1 $LEAN_LIBS_RUNTIME $LEAN_LIBS_DEV" m
  for m in $LEAN_MODULES; do pkgs="$pkgs libopencv-$m""406"; done
  local sources=/etc/apt/sources.list.d/debian.sources
  [ -f "$sources" ] || sources=/etc/apt/sources.list
  local cache=${BOARDCAM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/boardcam}
  local key
  key=$( (echo "$pkgs"; grep -v '^#' "$sources") | sha256sum | cut -c1-12)
  SYSROOT=$cache/sysroot-arm64-$key
  if [ ! -f "$SYSROOT/.complete" ]; then
    printf '\033[1m==> making the arm64 sysroot in %s\033[0m\n' "$SYSROOT" >&2
    $sudo rm -rf "$SYSROOT"
    mkdir -p "$cache"
    $sudo mmdebstrap --quiet --mode=root --variant=extract --architectures=arm64 \
      --include="$(echo $pkgs | tr ' ' ',')" bookworm "$SYSROOT" "$sources" >/dev/null
    # update-alternatives did not run: OpenCV's core needs BLAS and LAPACK.
    local l
    for l in blas/libblas.so.3 lapack/liblapack.so.3; do
      $sudo ln -sfn "$l" "$SYSROOT/usr/lib/aarch64-linux-gnu/${l#*/}"
    done
    $sudo touch "$SYSROOT/.complete"
  fi
  # Emulate a Pi 4's core (no extension a Pi 4 lacks).
  export QEMU_CPU=cortex-a72 QEMU_LD_PREFIX="$SYSROOT" SYSROOT
}
