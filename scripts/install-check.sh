#!/usr/bin/env bash
# Checks that installing from source works exactly as README.md says. It
# copies the tree as a clean checkout has it (tracked files and new ones
# not ignored; no bin/), and runs each of README.md's two install blocks as
# written, in one shell, with a fresh HOME (no ~/.terraformrc, no plugin
# cache):
#
# - the block between "install-mirror-check: begin" and "...: end" (make
#   install-mirror) with no CLI configuration at all; then, in a copy of
#   examples/quickstart, `terraform init` must install rms-labs/rms from
#   Terraform's implied local mirror and write a lock file naming it, and
#   apply and destroy must work against the bin/rms-emulator it built;
# - the block between "install-check: begin" and "...: end" (make
#   dev-install) with TF_CLI_CONFIG_FILE naming a missing file (as on many
#   CI images); then, through the CLI configuration that block exported and
#   without `terraform init`, examples/quickstart is applied and destroyed.
#
# Go's caches stay the caller's (a cold build would take minutes); the
# terraform used is scripts/check-terraform.sh's, first on PATH.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
export CHECKPOINT_DISABLE=1

fail() { echo "install-check: $*" >&2; exit 1; }

# readme_block prints README.md's block between the markers
# "<!-- $1: begin -->" and "<!-- $1: end -->", without its fence lines.
readme_block() {
  local b
  b="$(awk -v m="$1" '$0 == "<!-- " m ": begin -->" {on=1; next} $0 == "<!-- " m ": end -->" {on=0} on && !/^```/' "$root/README.md")"
  [[ -n "$b" ]] || fail "README.md has no block between <!-- $1: begin --> and <!-- $1: end -->"
  printf '%s\n' "$b"
}
block="$(readme_block install-check)"
mirror_block="$(readme_block install-mirror-check)"

tf_bin="$(bash "$root/scripts/check-terraform.sh")"
# The commands run in an empty environment but for PATH, a fresh HOME, Go's
# settings (proxy, toolchain, flags) and caches, and proxy variables.
mapfile -t base_env < <(env | grep -E '^(GO[A-Z0-9_]*|https?_proxy|HTTPS?_PROXY|no_proxy|NO_PROXY)=' || true)
base_env+=(GOCACHE="$(go env GOCACHE)" GOMODCACHE="$(go env GOMODCACHE)" GOPATH="$(go env GOPATH)")
# The copy's folder is new on every run, and Go's build cache keys packages
# by folder unless -trimpath: with it, only the first run compiles.
base_env+=(GOFLAGS="${GOFLAGS:+$GOFLAGS }-trimpath")
base_env+=(PATH="$(dirname "$tf_bin"):$PATH" TMPDIR="${TMPDIR:-/tmp}" CHECKPOINT_DISABLE=1)

work="$(mktemp -d "${TMPDIR:-/tmp}/rms-install-check.XXXXXX")"
emulator_pid=""
cleanup() {
  local code=$?
  if [[ -n "$emulator_pid" ]] && kill -0 "$emulator_pid" 2>/dev/null; then
    kill "$emulator_pid" 2>/dev/null || true
    wait "$emulator_pid" 2>/dev/null || true
  fi
  chmod -R u+w "$work" 2>/dev/null || true
  rm -rf "$work"
  exit "$code"
}
trap cleanup EXIT INT TERM

echo "==> copying the tree as a checkout has it"
src="$work/terraform-provider-rms"
mkdir -p "$src" "$work/home"
(cd "$root" && git ls-files -z --cached --others --exclude-standard |
  while IFS= read -r -d '' f; do [[ -e "$f" ]] && printf '%s\0' "$f"; done |
  tar --null -T - -cf -) | tar -C "$src" -xf -
[[ ! -e "$src/bin" ]] || fail "the copy has a bin/ folder: is bin/ tracked?"

start_emulator() {
  rm -f "$work/emulator.url"
  "$src/bin/rms-emulator" -addr 127.0.0.1:0 -port-file "$work/emulator.url" >"$work/emulator.log" 2>&1 &
  emulator_pid=$!
  for _ in $(seq 1 100); do
    [[ -s "$work/emulator.url" ]] && break
    kill -0 "$emulator_pid" 2>/dev/null || { cat "$work/emulator.log" >&2; fail "the emulator stopped"; }
    sleep 0.1
  done
  [[ -s "$work/emulator.url" ]] || { cat "$work/emulator.log" >&2; fail "the emulator did not start"; }
}

stop_emulator() {
  kill "$emulator_pid" 2>/dev/null || true
  wait "$emulator_pid" 2>/dev/null || true
  emulator_pid=""
}

# The mirror first: its HOME has no CLI configuration, and TF_CLI_CONFIG_FILE
# is not set at all, so Terraform's implied local mirror is on.
echo "==> running the README's mirror block in $src:"
printf '%s\n' "$mirror_block" | sed 's/^/    /'
mkdir -p "$work/mirror-home"
printf 'set -euo pipefail\ncd "%s"\n%s\n' "$src" "$mirror_block" >"$work/mirror-block.sh"
env -i "${base_env[@]}" HOME="$work/mirror-home" bash "$work/mirror-block.sh" >"$work/mirror-block.log" 2>&1 ||
  { cat "$work/mirror-block.log" >&2; fail "the README's mirror block failed"; }
cat "$work/mirror-block.log"
[[ -x "$src/bin/rms-emulator" ]] || fail "the README's mirror block did not make bin/rms-emulator"

start_emulator
quick="$work/quickstart-mirror"
cp -R "$src/examples/quickstart" "$quick"
run_mirror_tf() {
  env -i "${base_env[@]}" HOME="$work/mirror-home" RMS_BASE_URL="$(cat "$work/emulator.url")" RMS_CUSTOMER_ID=1000 \
    RMS_USERNAME=rms RMS_PASSWORD=rms-password RMS_BATCH_POLL_INTERVAL=1s \
    terraform -chdir="$quick" "$@" -input=false -no-color >"$work/tf.log" 2>&1 ||
    { cat "$work/tf.log" >&2; fail "terraform $1 failed in a copy of examples/quickstart with the mirror"; }
  ! grep -q "Provider development overrides are in effect" "$work/tf.log" ||
    { cat "$work/tf.log" >&2; fail "terraform $1 took the provider from dev overrides, not the mirror"; }
}
echo "==> terraform init with the implied local mirror (no CLI configuration)"
run_mirror_tf init
grep -E "Installing rms-labs/rms|Installed rms-labs/rms" "$work/tf.log" || { cat "$work/tf.log" >&2; fail "terraform init did not install rms-labs/rms"; }
lock="$quick/.terraform.lock.hcl"
[[ -f "$lock" ]] || fail "terraform init wrote no .terraform.lock.hcl"
grep -q 'provider "registry.terraform.io/rms-labs/rms"' "$lock" || { cat "$lock" >&2; fail "the lock file does not name rms-labs/rms"; }
mirror_version="$(sed -n 's/^MIRROR_VERSION *?= *//p' "$root/GNUmakefile")"
[[ -n "$mirror_version" ]] || fail "GNUmakefile sets no MIRROR_VERSION"
grep -q "version *= *\"$mirror_version\"" "$lock" || { cat "$lock" >&2; fail "the lock file does not hold version $mirror_version"; }
echo "lock file: rms-labs/rms $mirror_version"
echo "==> terraform apply and destroy with the mirror"
run_mirror_tf apply -auto-approve
grep -E "^Apply complete" "$work/tf.log"
run_mirror_tf destroy -auto-approve
grep -E "^Destroy complete" "$work/tf.log"
stop_emulator

echo "==> running the README's install block in $src:"
printf '%s\n' "$block" | sed 's/^/    /'
cat >"$work/block.sh" <<EOF
set -euo pipefail
cd "$src"
$block
EOF
# The block must not rely on anything but Go, make and terraform on PATH.
env -i "${base_env[@]}" HOME="$work/home" TF_CLI_CONFIG_FILE="$work/home/.missing.tfrc" \
  bash -c 'source "$1" >"$2" 2>&1; rc=$?; env >"$3"; exit $rc' _ "$work/block.sh" "$work/block.log" "$work/block.env" ||
  { cat "$work/block.log" >&2; fail "the README's install block failed"; }
cat "$work/block.log"

want="export TF_CLI_CONFIG_FILE=$src/bin/dev.tfrc"
[[ "$(grep -v '^$' "$work/block.log" | tail -n 1)" == "$want" ]] ||
  fail "make dev-install did not end with the line the README has users run ($want)"
cli_config="$(sed -n 's/^TF_CLI_CONFIG_FILE=//p' "$work/block.env")"
[[ "$cli_config" == "$src/bin/dev.tfrc" ]] ||
  fail "after the README's block TF_CLI_CONFIG_FILE is '$cli_config', not $src/bin/dev.tfrc"
for f in bin/terraform-provider-rms bin/rms-emulator bin/dev.tfrc; do
  [[ -f "$src/$f" ]] || fail "the README's block did not make $f"
done

echo "==> starting bin/rms-emulator"
start_emulator

# The emulator's default account, as the README gives it.
run_tf() {
  env -i "${base_env[@]}" HOME="$work/home" TF_CLI_CONFIG_FILE="$cli_config" RMS_BASE_URL="$(cat "$work/emulator.url")" RMS_CUSTOMER_ID=1000 \
    RMS_USERNAME=rms RMS_PASSWORD=rms-password RMS_BATCH_POLL_INTERVAL=1s \
    terraform -chdir="$src/examples/quickstart" "$@" -input=false -no-color >"$work/tf.log" 2>&1 ||
    { cat "$work/tf.log" >&2; fail "terraform $1 failed in examples/quickstart"; }
  grep -q "Provider development overrides are in effect" "$work/tf.log" ||
    { cat "$work/tf.log" >&2; fail "terraform $1 did not take the provider from the dev overrides"; }
  ! grep -q "Unable to open CLI configuration file" "$work/tf.log" ||
    { cat "$work/tf.log" >&2; fail "terraform $1 warned about the CLI configuration"; }
  grep -E "^(Apply complete|Destroy complete)" "$work/tf.log"
}

echo "==> terraform apply in examples/quickstart (no terraform init)"
run_tf apply -auto-approve
echo "==> terraform destroy"
run_tf destroy -auto-approve
echo "==> install-check passed"
