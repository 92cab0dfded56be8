#!/usr/bin/env bash
# Terraform binaries for the test matrix, built from source through the Go
# module proxy (the only network these machines reach) and cached outside the
# repository, keyed by version:
#
#   ${XDG_CACHE_HOME:-$HOME/.cache}/terraform-provider-rms/terraform/<version>/terraform
#
# Usage:
#   scripts/terraform.sh path <version|min|latest>   print the cached binary, building it if needed
#   scripts/terraform.sh min-path                    terraform on PATH if >= min, else the cached min build
#   scripts/terraform.sh versions                    print "min latest"
#
# Why a build and not `go install`: the terraform module zip lacks the nested
# modules of its remote-state backends (azure, consul, cos, gcs, kubernetes,
# oci, oss, pg, s3, and internal/legacy), which its go.mod replaces with ./
# paths. The recipe below drops those backends from the backend table and
# those modules from go.mod; everything the tests use (local backend,
# providers, query, actions) is untouched. Verified for 1.11.4 and 1.16.4;
# 1.11.4 also needs a GODEBUG setting current Go no longer knows dropped.
set -euo pipefail

TF_MIN_VERSION="1.11.4"
TF_LATEST_VERSION="1.16.4"
REMOVED_BACKENDS="azure consul cos gcs kubernetes oci oss pg s3"

CACHE_ROOT="${XDG_CACHE_HOME:-$HOME/.cache}/terraform-provider-rms/terraform"

die() { echo "scripts/terraform.sh: $*" >&2; exit 1; }
log() { echo "scripts/terraform.sh: $*" >&2; }

resolve_version() {
  case "$1" in
    min) echo "$TF_MIN_VERSION" ;;
    latest) echo "$TF_LATEST_VERSION" ;;
    [0-9]*.[0-9]*.[0-9]*) echo "${1#v}" ;;
    v[0-9]*.[0-9]*.[0-9]*) echo "${1#v}" ;;
    *) die "not a Terraform version: '$1' (want e.g. 1.16.4, min or latest)" ;;
  esac
}

# version_ge A B: true when version A >= version B (numeric, x.y.z).
version_ge() {
  awk -v a="$1" -v b="$2" 'BEGIN {
    split(a, x, "."); split(b, y, ".")
    for (i = 1; i <= 3; i++) { if (x[i] + 0 != y[i] + 0) exit !(x[i] + 0 > y[i] + 0) }
    exit 0
  }'
}

# binary_version PATH: "1.11.4" from "Terraform v1.11.4", empty when unusable.
# The whole output is read first: a pipe into `head` would kill terraform
# with SIGPIPE, which pipefail turns into a silent exit.
binary_version() {
  local out
  out="$("$1" version 2>/dev/null)" || true
  sed -n '1s/^Terraform v\([0-9][0-9.]*\).*/\1/p' <<<"$out"
}

build() {
  local version="$1" dir="$2"
  local bin="$dir/terraform"
  command -v go >/dev/null 2>&1 || die "go is not on PATH; it is needed to build Terraform $version"

  local work
  work="$(mktemp -d "$dir/.build.XXXXXX")"
  # The source copy is ~100 MB of read-only module files: make it writable
  # before removing it.
  trap 'chmod -R u+w "'"$work"'" 2>/dev/null; rm -rf "'"$work"'"' EXIT
  local logf="$work/build.log"

  log "building Terraform $version from the Go module proxy (a few minutes, once per machine) ..."
  local start=$SECONDS

  # Outside any module, without workspaces or the caller's GOFLAGS (CI sets
  # -mod=readonly, which would refuse the go.mod edits below).
  local -a goenv=(env GOWORK=off GOFLAGS=-buildvcs=false GOTOOLCHAIN=local)
  local src_json src
  if ! src_json="$(cd "$work" && "${goenv[@]}" go mod download -json "github.com/hashicorp/terraform@v$version" 2>"$logf")"; then
    cat "$logf" >&2
    die "could not download github.com/hashicorp/terraform@v$version from the Go module proxy ($(go env GOPROXY))"
  fi
  src="$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p' <<<"$src_json")"
  [[ -n "$src" && -d "$src" ]] || die "go mod download did not name a source folder for terraform@v$version: $src_json"

  cp -R "$src" "$work/src"
  chmod -R u+w "$work/src"

  local init="$work/src/internal/backend/init/init.go" gomod="$work/src/go.mod"
  [[ -f "$init" ]] || die "unexpected source layout in terraform $version: no internal/backend/init/init.go"

  # Drop each removed backend's import and every line that uses its alias
  # (its entry in the backend map).
  local b alias
  for b in $REMOVED_BACKENDS; do
    alias="$(sed -n 's#^[[:space:]]*\([A-Za-z0-9_]*\)[[:space:]]*"github.com/hashicorp/terraform/internal/backend/remote-state/'"$b"'"$#\1#p' "$init")"
    [[ -z "$alias" ]] && continue # e.g. oci does not exist in 1.11
    sed -i -e '\#"github.com/hashicorp/terraform/internal/backend/remote-state/'"$b"'"$#d' \
      -e '/\b'"$alias"'\./d' "$init"
  done
  if grep -Eq 'internal/backend/remote-state/('"${REMOVED_BACKENDS// /|}"')"' "$init"; then
    die "could not remove the remote-state backends from $init; the recipe needs updating for $version"
  fi

  # Drop every `replace X => ./...` (the nested modules missing from the zip)
  # and the require line of each such X.
  local mod
  for mod in $(sed -n 's#^replace[[:space:]]\{1,\}\([^[:space:]]*\)[[:space:]]*=>[[:space:]]*\./.*#\1#p' "$gomod"); do
    sed -i -e '\#^replace[[:space:]]\{1,\}'"$mod"'[[:space:]]*=>#d' \
      -e '\#^[[:space:]]*'"$mod"'[[:space:]]\{1,\}v#d' "$gomod"
  done

  # Older releases set GODEBUG options this Go no longer knows (1.11 has
  # `godebug tlskyber=0`, for a key exchange Go 1.24 removed), which stops go
  # from loading go.mod at all: drop each one it names, and only those.
  local tries setting
  for tries in 1 2 3 4 5; do
    if (cd "$work/src" && "${goenv[@]}" go list -m >/dev/null 2>"$work/gomod.err"); then
      break
    fi
    setting="$(sed -n 's/.*unknown godebug "\([A-Za-z0-9_]*\)".*/\1/p' "$work/gomod.err")"
    setting="${setting%%$'\n'*}"
    if [[ -z "$setting" || $tries -eq 5 ]]; then
      cat "$work/gomod.err" >&2
      die "go cannot load the go.mod of terraform $version (above); the recipe needs updating"
    fi
    log "dropping 'godebug $setting' from go.mod: unknown to $(go env GOVERSION)"
    sed -i -e '/^godebug[[:space:]]\{1,\}'"$setting"'=/d' "$gomod"
  done

  if ! (cd "$work/src" && "${goenv[@]}" go build -trimpath \
    -ldflags "-s -w -X github.com/hashicorp/terraform/version.dev=no" \
    -o "$work/terraform" . >>"$logf" 2>&1); then
    tail -40 "$logf" >&2
    die "building Terraform $version failed (full log above, last 40 lines); nothing was cached"
  fi

  local got
  got="$(binary_version "$work/terraform")"
  [[ "$got" == "$version" ]] || die "the built binary reports version '$got', expected $version; nothing was cached"

  # Same filesystem: the rename is atomic, so a reader never sees half a binary.
  mv -f "$work/terraform" "$bin"
  log "built Terraform $version in $((SECONDS - start))s: $bin"
}

cached_path() {
  local version
  version="$(resolve_version "$1")"
  local dir="$CACHE_ROOT/$version"
  local bin="$dir/terraform"
  if [[ ! -x "$bin" ]]; then
    mkdir -p "$dir" || die "cannot create the cache folder $dir"
    # One builder per version; a second caller waits and then finds the binary.
    exec 9>"$dir/.lock"
    if ! command -v flock >/dev/null 2>&1; then
      # Still safe without it (each build has its own folder and the final
      # rename is atomic); parallel callers just each build.
      log "flock not found: parallel callers will not wait for one build"
    elif ! flock -n 9; then
      log "another process is building Terraform $version; waiting for it ..."
      flock 9
    fi
    if [[ ! -x "$bin" ]]; then
      # Holding the lock, no one else is building: leftovers are from a
      # build that was killed.
      if command -v flock >/dev/null 2>&1; then
        chmod -R u+w "$dir"/.build.* 2>/dev/null || true
        rm -rf "$dir"/.build.*
      fi
      (build "$version" "$dir")
    fi
    exec 9>&-
    [[ -x "$bin" ]] || die "no Terraform $version at $bin after the build"
  fi
  echo "$bin"
}

min_path() {
  local tf v
  tf="$(command -v terraform || true)"
  if [[ -n "$tf" ]]; then
    v="$(binary_version "$tf")"
    if [[ -n "$v" ]] && version_ge "$v" "$TF_MIN_VERSION"; then
      echo "$tf"
      return
    fi
    log "terraform on PATH ($tf) is ${v:-of unknown version}, older than the minimum $TF_MIN_VERSION; using a cached build"
  fi
  cached_path "$TF_MIN_VERSION"
}

case "${1:-}" in
  path) [[ $# -eq 2 ]] || die "usage: $0 path <version|min|latest>"; cached_path "$2" ;;
  min-path) min_path ;;
  versions) echo "$TF_MIN_VERSION $TF_LATEST_VERSION" ;;
  *) die "usage: $0 path <version|min|latest> | min-path | versions" ;;
esac
