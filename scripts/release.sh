#!/usr/bin/env bash
# Builds the release with goreleaser (a tool of tools/go.mod: nothing is
# downloaded at run time) and checks what it wrote.
#
#   scripts/release.sh snapshot   every archive of the current tree into dist/,
#                                 version <next>-SNAPSHOT-<commit>; signed only
#                                 when GPG_FINGERPRINT names a key
#   scripts/release.sh release    a tagged release, published to GitHub;
#                                 needs GPG_FINGERPRINT and GITHUB_TOKEN
#
# Both then lay the provider zips out under dist/mirror in Terraform's
# provider network mirror protocol (internal/providermirror), for
# registry.terraform.io and registry.opentofu.org: a team publishes that
# folder on any static HTTPS host. MIRROR_PREVIOUS names a copy of the
# mirror already published, whose versions stay listed in index.json.
#
# RELEASE_PARALLELISM (default 2) bounds the builds goreleaser runs at once;
# RELEASE_TIMEOUT (default 3h) bounds the whole run. GORELEASER overrides the
# goreleaser command.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

mode="${1:-}"
# goreleaser gives up after an hour by default; a first build of every
# target on a busy 2-core machine can take longer (RELEASE_TIMEOUT).
args=(release --clean -p "${RELEASE_PARALLELISM:-2}" --timeout "${RELEASE_TIMEOUT:-3h}")
case "$mode" in
  snapshot)
    args+=(--snapshot)
    if [[ -z "${GPG_FINGERPRINT:-}" ]]; then
      echo "release: GPG_FINGERPRINT is not set: SHA256SUMS is not signed (a snapshot needs no signature)"
      args+=(--skip=sign)
    fi
    ;;
  release)
    [[ -n "${GPG_FINGERPRINT:-}" ]] || { echo "release: set GPG_FINGERPRINT to the key the Registry knows; a release must be signed" >&2; exit 1; }
    [[ -n "${GITHUB_TOKEN:-}" ]] || { echo "release: set GITHUB_TOKEN to publish the release" >&2; exit 1; }
    ;;
  *) echo "usage: $0 snapshot|release" >&2; exit 2 ;;
esac

start=$SECONDS
# GORELEASER overrides the command (e.g. another goreleaser binary).
read -r -a goreleaser <<<"${GORELEASER:-go tool -modfile=tools/go.mod goreleaser}"
if ! "${goreleaser[@]}" "${args[@]}"; then
  echo "release: goreleaser failed after $((SECONDS - start))s" >&2
  exit 1
fi
# go tool reports success even when goreleaser was killed by a signal: trust
# only what goreleaser wrote at its very end.
[[ -s dist/artifacts.json ]] || { echo "release: goreleaser did not finish (no dist/artifacts.json)" >&2; exit 1; }
echo "release: goreleaser took $((SECONDS - start))s"

# goreleaser records the version it used; the Registry's files are named
# after it.
version="$(sed -n 's/.*"version":"\([^"]*\)".*/\1/p' dist/metadata.json)"
[[ -n "$version" ]] || { echo "release: no version in dist/metadata.json" >&2; exit 1; }

# goreleaser lists the manifest in SHA256SUMS under its release name and
# uploads it on publish, but leaves it out of dist/: copy it there so that
# dist/ holds everything the Registry fetches, and SHA256SUMS checks whole.
cp terraform-registry-manifest.json "dist/terraform-provider-rms_${version}_manifest.json"

# The network mirror: the same zips, laid out for Terraform's
# network_mirror and `providers lock -net-mirror`.
go run ./internal/providermirror/cmd -dist dist -version "$version" ${MIRROR_PREVIOUS:+-previous "$MIRROR_PREVIOUS"}

bash scripts/release-check.sh dist "$version"
