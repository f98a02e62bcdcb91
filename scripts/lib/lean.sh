# Sourced by the build scripts: the environment of the lean build, which
# links only the OpenCV modules boardcam uses. `go build ./...` and
# `go test ./...` do not need it (they link gocv's usual pkg-config set);
# the release binaries and the packages are built with it.
#
#   . scripts/lib/lean.sh
#   lean_env amd64                 # native build against /usr/lib/x86_64-linux-gnu
#   lean_env arm64 SYSROOT         # cross build against an arm64 sysroot
#
# How: gocv's build tag `customenv` drops its `pkg-config: opencv4` line
# (every OpenCV module, Qt's highgui and the rest), so the flags below are
# the whole story. gocv compiles its C++ for every module it wraps; with
# -ffunction-sections the wrappers boardcam never calls are dropped by
# --gc-sections, and --as-needed records only the libraries still used.

# The OpenCV modules boardcam links, in link order: the Debian runtime
# packages are libopencv-<module>406 (scripts/package.sh declares them).
# Not videoio and imgcodecs: video is decoded by FFmpeg's libavcodec
# (frames/libav), images by libjpeg-turbo and Go (internal/cvio), cameras
# read through gst-launch (daemon/source_gst.go); their dependency trees
# (GDAL, GDCM, GStreamer, libgphoto2 …) are neither linked nor installed.
LEAN_MODULES="calib3d features2d imgproc core"

# The other C libraries (cgo pkg-config names of frames/libav and
# internal/jpeg; libavformat is loaded with dlopen, only for other
# containers than MP4 and for streams) and their Debian packages: runtime
# (the .deb's Depends come from the binary) and, for the arm64 sysroot,
# the -dev packages with the headers and .pc files.
LEAN_LIBS_RUNTIME="libavcodec59 libswscale6 libavutil57 libavformat59 libjpeg62-turbo"
LEAN_LIBS_DEV="libavcodec-dev libavformat-dev libswscale-dev libavutil-dev libjpeg62-turbo-dev"

lean_env() {
  local arch=$1 sysroot=${2:-}
  local libs="" m
  for m in $LEAN_MODULES; do libs="$libs -lopencv_$m"; done
  export CGO_ENABLED=1 GOOS=linux GOARCH="$arch"
  # -s: no symbol table or DWARF (panics still name their functions). Not
  # -trimpath: tests find testdata/ from their source paths.
  # LEAN_TAGS adds build tags: scripts/package.sh builds the package's
  # binary with `notools` (no render/synth/simulate/eval tools:
  # cmd/boardcam/tools_off.go).
  export GOFLAGS="-tags=customenv${LEAN_TAGS:+,$LEAN_TAGS} -ldflags=-s"
  # The headers are the same for every architecture (Multi-Arch: same),
  # so a cross build uses the host's libopencv-dev headers.
  export CGO_CPPFLAGS="-I/usr/include/opencv4"
  export CGO_CFLAGS="-g -O2 -ffunction-sections -fdata-sections"
  export CGO_CXXFLAGS="-g -O2 --std=c++11 -ffunction-sections -fdata-sections"
  local ld="-Wl,--gc-sections -Wl,--as-needed"
  if [ "$arch" = arm64 ] && [ "$(uname -m)" != aarch64 ]; then
    [ -n "$sysroot" ] || { echo "lean_env arm64: a sysroot is needed to cross-build" >&2; return 1; }
    export CC=aarch64-linux-gnu-gcc CXX=aarch64-linux-gnu-g++
    # Link against the sysroot's OpenCV through a directory of .so links
    # (the sysroot has runtime packages only, no -dev symlinks); the
    # libraries these need are resolved at run time, on the Pi or under
    # qemu, not checked here.
    local linkdir="$sysroot/.boardcam-link"
    mkdir -p "$linkdir"
    for m in $LEAN_MODULES; do
      ln -sfn "$sysroot/usr/lib/aarch64-linux-gnu/libopencv_$m.so.406" "$linkdir/libopencv_$m.so"
    done
    ld="-L$linkdir -Wl,-rpath-link,$sysroot/usr/lib/aarch64-linux-gnu -Wl,--allow-shlib-undefined $ld"
    # FFmpeg's and libjpeg's headers are the sysroot's (their -dev packages
    # are architecture-specific), read through their .pc files; the -L they
    # give is dropped (that directory's libc.so is a linker script with
    # absolute paths) and the libraries linked through the same directory
    # of links as OpenCV's.
    export PKG_CONFIG_SYSROOT_DIR="$sysroot"
    export PKG_CONFIG_LIBDIR="$sysroot/usr/lib/aarch64-linux-gnu/pkgconfig:$sysroot/usr/share/pkgconfig"
    printf '#!/bin/sh\nout=$(pkg-config "$@") || exit\necho "$out" | sed "s/-L[^ ]*//g"\n' > "$linkdir/pkg-config"
    chmod +x "$linkdir/pkg-config"
    export PKG_CONFIG="$linkdir/pkg-config"
    local so
    for so in libavcodec.so.59 libswscale.so.6 libavutil.so.57 libjpeg.so.62; do
      ln -sfn "$sysroot/usr/lib/aarch64-linux-gnu/$so" "$linkdir/${so%.so.*}.so"
    done
    # libjpeg's jconfig.h is in the multiarch directory, which the native
    # compiler searches by itself; searched last, after the toolchain's own.
    CGO_CFLAGS="$CGO_CFLAGS -idirafter $sysroot/usr/include/aarch64-linux-gnu"
  fi
  export CGO_LDFLAGS="$ld$libs"
}
