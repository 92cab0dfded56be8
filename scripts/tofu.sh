#!/usr/bin/env bash
# The OpenTofu CLI for `make test-tofu`, built from source through the Go
# module proxy (the only network these machines reach) and cached outside the
# repository, keyed by version:
#
#   ${XDG_CACHE_HOME:-$HOME/.cache}/terraform-provider-rms/tofu/<version>/tofu
#
# Usage:
#   scripts/tofu.sh path [version]   print the cached binary, building it if needed
#   scripts/tofu.sh version          print the default version
#   scripts/tofu.sh version-of path  print the version a tofu binary reports
#
# Why a build and not `go install`: OpenTofu's go.mod has a replace line,
# which `go install module@version` refuses. Its module zip is complete,
# though, so a writable copy of it builds as is.
set -euo pipefail

TOFU_VERSION="1.10.10"
CACHE_ROOT="${XDG_CACHE_HOME:-$HOME/.cache}/terraform-provider-rms/tofu"

die() { echo "scripts/tofu.sh: $*" >&2; exit 1; }
log() { echo "scripts/tofu.sh: $*" >&2; }

resolve_version() {
  case "$1" in
    [0-9]*.[0-9]*.[0-9]*) echo "$1" ;;
    v[0-9]*.[0-9]*.[0-9]*) echo "${1#v}" ;;
    *) die "not an OpenTofu version: '$1' (want e.g. $TOFU_VERSION)" ;;
  esac
}

# binary_version PATH: "1.10.10" from "OpenTofu v1.10.10" ("1.10.10-dev"
# from a development build), empty when unusable. The output is read whole: a
# pipe into `head` could kill tofu with SIGPIPE, which pipefail turns into a
# silent failure. The version line is looked for on every line: OpenTofu 1.12
# prints CLI configuration warnings (a TF_CLI_CONFIG_FILE naming no file, as
# on these machines) on stdout before it.
binary_version() {
  local out
  out="$("$1" version 2>/dev/null)" || true
  sed -n '/^OpenTofu v/{s/^OpenTofu v\([^[:space:]]*\).*/\1/p;q;}' <<<"$out"
}

build() {
  local version="$1" dir="$2"
  command -v go >/dev/null 2>&1 || die "go is not on PATH; it is needed to build OpenTofu $version"
  local work
  work="$(mktemp -d "$dir/.build.XXXXXX")"
  # The source copy is read-only module files: make it writable to remove it.
  trap 'chmod -R u+w "'"$work"'" 2>/dev/null; rm -rf "'"$work"'"' EXIT
  local logf="$work/build.log"
  log "building OpenTofu $version from the Go module proxy (several minutes, once per machine) ..."
  local start=$SECONDS

  # Outside any module, without workspaces or the caller's GOFLAGS (CI sets
  # -mod=readonly).
  local -a goenv=(env GOWORK=off GOFLAGS=-buildvcs=false GOTOOLCHAIN=local)
  local src_json src
  if ! src_json="$(cd "$work" && "${goenv[@]}" go mod download -json "github.com/opentofu/opentofu@v$version" 2>"$logf")"; then
    cat "$logf" >&2
    die "could not download github.com/opentofu/opentofu@v$version from the Go module proxy ($(go env GOPROXY))"
  fi
  src="$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p' <<<"$src_json")"
  [[ -n "$src" && -d "$src" ]] || die "go mod download did not name a source folder for opentofu@v$version: $src_json"
  cp -R "$src" "$work/src"
  chmod -R u+w "$work/src"

  # version.dev=no: a release build, reporting "v1.10.10", not "v1.10.10-dev"
  # (a prerelease to version checks).
  if ! (cd "$work/src" && "${goenv[@]}" go build -trimpath \
    -ldflags "-s -w -X github.com/opentofu/opentofu/version.dev=no" \
    -o "$work/tofu" ./cmd/tofu >>"$logf" 2>&1); then
    tail -40 "$logf" >&2
    die "building OpenTofu $version failed (last 40 lines of the log above); nothing was cached"
  fi
  local got
  got="$(binary_version "$work/tofu")"
  [[ "$got" == "$version" ]] || die "the built binary reports version '$got', expected $version; nothing was cached"
  # Same filesystem: the rename is atomic, so a reader never sees half a binary.
  mv -f "$work/tofu" "$dir/tofu"
  log "built OpenTofu $version in $((SECONDS - start))s: $dir/tofu"
}

cached_path() {
  local version dir bin
  version="$(resolve_version "$1")"
  dir="$CACHE_ROOT/$version"
  bin="$dir/tofu"
  if [[ ! -x "$bin" ]]; then
    mkdir -p "$dir" || die "cannot create the cache folder $dir"
    # One builder per version; a second caller waits, then finds the binary.
    exec 9>"$dir/.lock"
    if command -v flock >/dev/null 2>&1; then
      if ! flock -n 9; then
        log "another process is building OpenTofu $version; waiting for it ..."
        flock 9
      fi
      # Holding the lock, no one else is building: leftovers are from a
      # build that was killed.
      if [[ ! -x "$bin" ]]; then
        chmod -R u+w "$dir"/.build.* 2>/dev/null || true
        rm -rf "$dir"/.build.*
      fi
    fi
    # Without flock it is still safe (each build has its own folder and the
    # final rename is atomic); parallel callers just each build.
    [[ -x "$bin" ]] || (build "$version" "$dir")
    exec 9>&-
    [[ -x "$bin" ]] || die "no OpenTofu $version at $bin after the build"
  fi
  echo "$bin"
}

case "${1:-}" in
  path) [[ $# -le 2 ]] || die "usage: $0 path [version]"; cached_path "${2:-$TOFU_VERSION}" ;;
  version) echo "$TOFU_VERSION" ;;
  version-of) [[ $# -eq 2 ]] || die "usage: $0 version-of path"; binary_version "$2" ;;
  *) die "usage: $0 path [version] | version | version-of path" ;;
esac
