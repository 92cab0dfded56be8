#!/usr/bin/env bash
# Builds the provider and rms-emulator for a few of the release's platforms,
# so a change that compiles only where an int is 64 bits, or only on the
# machine's own system, fails here and not ten minutes into a release
# snapshot. A cheap stand-in for the 13 platforms of .goreleaser.yml: every
# operating system the release names, and both 32-bit architectures (386,
# arm), where an untyped constant above 2^31-1 used as an int overflows.
#
# With a warm build cache only the links run (a few seconds each).
# CROSS_PARALLELISM (default 2) bounds the builds run at once; CROSS_TARGETS
# overrides the list (GOOS/GOARCH words).
set -euo pipefail
cd "$(dirname "$0")/.."

targets="${CROSS_TARGETS:-freebsd/386 linux/arm windows/386 darwin/arm64}"

build_one() {
  local target="$1" os arch out
  os="${target%/*}"
  arch="${target#*/}"
  for pkg in . ./cmd/rms-emulator; do
    # The release's own settings: static, -trimpath, no symbol table
    # (which also makes the link, the only step a warm cache repeats, faster).
    if ! out="$(CGO_ENABLED=0 GOOS="$os" GOARCH="$arch" go build -trimpath -ldflags="-s -w" -o /dev/null "$pkg" 2>&1)"; then
      echo "cross-check: $pkg does not build for ${os}_${arch}:" >&2
      echo "$out" >&2
      return 1
    fi
  done
  echo "cross-check: ${os}_${arch} builds (provider, rms-emulator)"
}
export -f build_one

# xargs exits non-zero when any build failed, after the others finished.
printf '%s\n' $targets | xargs -P "${CROSS_PARALLELISM:-2}" -I{} bash -c 'build_one "$1"' _ {}
