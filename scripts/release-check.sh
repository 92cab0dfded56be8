#!/usr/bin/env bash
# Checks the files goreleaser wrote into a dist folder for one version:
#   - a provider zip per platform, terraform-provider-rms_{version}_{os}_{arch}.zip,
#     holding only the binary terraform-provider-rms_v{version}[.exe];
#   - an rms-emulator archive per platform, holding rms-emulator[.exe] and its guide;
#   - terraform-provider-rms_{version}_manifest.json, equal to
#     terraform-registry-manifest.json (protocol 6.0);
#   - terraform-provider-rms_{version}_SHA256SUMS listing every archive and the
#     manifest, and `sha256sum -c` passing on it;
#   - the detached signature SHA256SUMS.sig, verified, when GPG_FINGERPRINT is set;
#   - the version injected through -ldflags into both binaries (rms-emulator
#     -version prints it);
#   - the provider network mirror under DIST/mirror: index.json listing the
#     version and VERSION.json naming every provider zip with its zh: hash,
#     under registry.terraform.io and registry.opentofu.org, each zip beside
#     them.
#
# Usage: scripts/release-check.sh DIST VERSION
set -euo pipefail

dist="${1:?usage: $0 DIST VERSION}"
version="${2:?usage: $0 DIST VERSION}"
root="$(cd "$(dirname "$0")/.." && pwd)"
name=terraform-provider-rms
problems=0
fail() { echo "release-check: $*" >&2; problems=$((problems + 1)); }

# The platforms of .goreleaser.yml.
provider_platforms="darwin_amd64 darwin_arm64 freebsd_386 freebsd_amd64 freebsd_arm freebsd_arm64
  linux_386 linux_amd64 linux_arm linux_arm64 windows_386 windows_amd64 windows_arm64"
emulator_platforms="darwin_amd64 darwin_arm64 freebsd_amd64 freebsd_arm64 linux_amd64 linux_arm64 windows_amd64 windows_arm64"

sums="$dist/${name}_${version}_SHA256SUMS"
manifest="${name}_${version}_manifest.json"
[[ -f "$sums" ]] || { echo "release-check: no $sums" >&2; exit 1; }
command -v unzip >/dev/null 2>&1 || { echo "release-check: unzip is needed to look into the zips" >&2; exit 1; }

listed() { awk '{print $2}' "$sums" | sed 's/^\*//' | grep -qxF "$1"; }

for p in $provider_platforms; do
  zip="${name}_${version}_${p}.zip"
  bin="${name}_v${version}"
  [[ "$p" == windows_* ]] && bin="$bin.exe"
  if [[ ! -f "$dist/$zip" ]]; then
    fail "missing $zip"
    continue
  fi
  listed "$zip" || fail "$zip is not in $(basename "$sums")"
  content="$(unzip -Z1 "$dist/$zip" 2>&1)" || { fail "$zip is not a readable zip: $content"; continue; }
  [[ "$content" == "$bin" ]] || fail "$zip holds [$(echo $content)], want only $bin"
done

for p in $emulator_platforms; do
  archive="rms-emulator_${version}_${p}.tar.gz"
  bin=rms-emulator
  if [[ "$p" == windows_* ]]; then archive="rms-emulator_${version}_${p}.zip"; bin=rms-emulator.exe; fi
  if [[ ! -f "$dist/$archive" ]]; then
    fail "missing $archive"
    continue
  fi
  listed "$archive" || fail "$archive is not in $(basename "$sums")"
  if [[ "$archive" == *.zip ]]; then
    content="$(unzip -Z1 "$dist/$archive" 2>&1)" || { fail "$archive is not a readable zip"; continue; }
  else
    content="$(tar -tzf "$dist/$archive" 2>&1)" || { fail "$archive is not a readable tar.gz"; continue; }
  fi
  for want in "$bin" docs/guides/emulator-in-ci.md docs/images/emulator-console.png examples/emulator/fixtures.json; do
    grep -qxF "$want" <<<"$content" || fail "$archive lacks $want"
  done
done

# Nothing unexpected in the release: every archive is one of the above.
expected_archives=$(( $(wc -w <<<"$provider_platforms") + $(wc -w <<<"$emulator_platforms") ))
found_archives=$(find "$dist" -maxdepth 1 \( -name '*.zip' -o -name '*.tar.gz' \) | wc -l)
[[ "$found_archives" -eq "$expected_archives" ]] || fail "dist holds $found_archives archives, want $expected_archives"

if [[ ! -f "$dist/$manifest" ]]; then
  fail "missing $manifest"
elif ! cmp -s "$dist/$manifest" "$root/terraform-registry-manifest.json"; then
  fail "$manifest differs from terraform-registry-manifest.json"
fi
grep -q '"protocol_versions": *\[ *"6.0" *\]' "$root/terraform-registry-manifest.json" || fail "terraform-registry-manifest.json does not declare protocol 6.0"
listed "$manifest" || fail "$manifest is not in $(basename "$sums")"

if command -v sha256sum >/dev/null 2>&1; then
  (cd "$dist" && sha256sum --quiet -c "$(basename "$sums")") || fail "sha256sum -c $(basename "$sums") failed"
else
  (cd "$dist" && shasum -a 256 --quiet -c "$(basename "$sums")") || fail "shasum -c $(basename "$sums") failed"
fi

if [[ -n "${GPG_FINGERPRINT:-}" ]]; then
  if [[ ! -f "$sums.sig" ]]; then
    fail "GPG_FINGERPRINT is set but $(basename "$sums").sig is missing"
  elif ! gpg --batch --verify "$sums.sig" "$sums" 2>/dev/null; then
    fail "$(basename "$sums").sig does not verify"
  fi
elif [[ -e "$sums.sig" ]]; then
  fail "$(basename "$sums").sig exists but GPG_FINGERPRINT is not set"
fi

# The version is injected into both binaries through -ldflags -X (with
# -trimpath, go version -m does not show ldflags; the string itself is in the
# binary, where a build without it has "dev"), and rms-emulator reports it.
for id in provider emulator; do
  bin="$(find "$dist" -path "*/${id}_linux_amd64*/*" -type f | head -n 1)"
  if [[ -z "$bin" ]]; then
    fail "no linux_amd64 $id binary under $dist"
    continue
  fi
  grep -qaF -- "$version" "$bin" || fail "$bin does not carry the version $version (-X main.version)"
done
if [[ "$(go env GOOS)_$(go env GOARCH)" == linux_amd64 ]]; then
  got="$("$(find "$dist" -path '*/emulator_linux_amd64*/rms-emulator' -type f | head -n 1)" -version)"
  [[ "$got" == "rms-emulator $version" ]] || fail "rms-emulator -version prints '$got', want 'rms-emulator $version'"
fi

dist_abs="$(cd "$dist" && pwd)"
(cd "$root" && go run ./internal/providermirror/cmd -check -dist "$dist_abs" -version "$version") || fail "the provider network mirror under $dist/mirror does not check"
for host in registry.terraform.io registry.opentofu.org; do
  for p in $provider_platforms; do
    [[ -f "$dist/mirror/$host/rms-labs/rms/${name}_${version}_${p}.zip" ]] || fail "the mirror lacks $host/rms-labs/rms/${name}_${version}_${p}.zip"
  done
done

if [[ $problems -gt 0 ]]; then
  echo "release-check: $problems problem(s) in $dist" >&2
  exit 1
fi
echo "release-check: $dist holds every archive for $version, the manifest, SHA256SUMS that checks, and the provider network mirror in $dist/mirror:"
(cd "$dist" && ls -1 "${name}_${version}"_* rms-emulator_"${version}"_* | sed 's/^/  /')
(cd "$dist" && find mirror -name '*.json' | sort | sed 's/^/  /')
