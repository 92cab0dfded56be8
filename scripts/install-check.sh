#!/usr/bin/env bash
# Checks that installing from source works exactly as README.md says. It
# copies the tree as a clean checkout has it (tracked files and new ones
# not ignored; no bin/), gives the commands a fresh HOME (no
# ~/.terraformrc, no plugin cache) and a TF_CLI_CONFIG_FILE naming a
# missing file (as on many CI images), and runs the shell block of README.md
# between the markers "install-check: begin" and "install-check: end" as
# written, in one shell. Then, through the CLI configuration that block
# exported and without `terraform init`, it applies examples/quickstart
# against the bin/rms-emulator the block built, and destroys.
#
# Go's caches stay the caller's (a cold build would take minutes); the
# terraform used is scripts/check-terraform.sh's, first on PATH.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
export CHECKPOINT_DISABLE=1

fail() { echo "install-check: $*" >&2; exit 1; }

# The README block, without its fence lines.
block="$(awk '/<!-- install-check: begin -->/{on=1; next} /<!-- install-check: end -->/{on=0} on && !/^```/' "$root/README.md")"
[[ -n "$block" ]] || fail "README.md has no block between <!-- install-check: begin --> and <!-- install-check: end -->"

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
"$src/bin/rms-emulator" -addr 127.0.0.1:0 -port-file "$work/emulator.url" >"$work/emulator.log" 2>&1 &
emulator_pid=$!
for _ in $(seq 1 100); do
  [[ -s "$work/emulator.url" ]] && break
  kill -0 "$emulator_pid" 2>/dev/null || { cat "$work/emulator.log" >&2; fail "the emulator stopped"; }
  sleep 0.1
done
[[ -s "$work/emulator.url" ]] || { cat "$work/emulator.log" >&2; fail "the emulator did not start"; }

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
