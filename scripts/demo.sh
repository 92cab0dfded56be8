#!/usr/bin/env bash
# Runs the quickstart end to end against a local emulator: builds the
# provider and rms-emulator, starts the emulator on a free loopback port,
# points Terraform at the fresh build through dev_overrides in a CLI config of
# its own (the user's ~/.terraformrc is never touched), applies
# examples/quickstart, shows the outputs, checks that a second plan has no
# changes, destroys, and stops the emulator on any exit.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
export CHECKPOINT_DISABLE=1

# The terraform on PATH when it is 1.11.4 or newer, else a cached build of
# 1.11.4 (scripts/terraform.sh), or TF_ACC_TERRAFORM_PATH when set.
tf_bin="$(bash "$root/scripts/check-terraform.sh")"
terraform() { "$tf_bin" "$@"; }

work="$(mktemp -d "${TMPDIR:-/tmp}/rms-demo.XXXXXX")"
emulator_pid=""
cleanup() {
  local code=$?
  if [[ -n "$emulator_pid" ]] && kill -0 "$emulator_pid" 2>/dev/null; then
    kill "$emulator_pid" 2>/dev/null || true
    wait "$emulator_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
  exit "$code"
}
trap cleanup EXIT INT TERM

echo "==> building provider and emulator"
go build -C "$root" -o "$work/bin/terraform-provider-rms" .
go build -C "$root" -o "$work/bin/rms-emulator" ./cmd/rms-emulator

echo "==> starting rms-emulator"
# Batches take a few seconds, so the demo shows an export being waited for
# (PENDING, then IN_PROGRESS, then FINISHED) without taking long.
"$work/bin/rms-emulator" -addr 127.0.0.1:0 -port-file "$work/emulator.url" \
  -username demo -password demo-password -customer-id 1000 \
  -batch-pending 1s -batch-min-duration 2s >"$work/emulator.log" 2>&1 &
emulator_pid=$!
for _ in $(seq 1 100); do
  [[ -s "$work/emulator.url" ]] && break
  kill -0 "$emulator_pid" 2>/dev/null || { cat "$work/emulator.log" >&2; exit 1; }
  sleep 0.1
done
[[ -s "$work/emulator.url" ]] || { echo "demo: emulator did not start" >&2; cat "$work/emulator.log" >&2; exit 1; }
export RMS_BASE_URL="$(cat "$work/emulator.url")"
export RMS_CUSTOMER_ID=1000 RMS_USERNAME=demo RMS_PASSWORD=demo-password
# Poll batches every second rather than the production default of 30s.
export RMS_BATCH_POLL_INTERVAL=1s
echo "    emulator at $RMS_BASE_URL"

cat >"$work/terraformrc" <<CFG
provider_installation {
  dev_overrides {
    "registry.terraform.io/rms-labs/rms" = "$work/bin"
  }
  direct {}
}
CFG
export TF_CLI_CONFIG_FILE="$work/terraformrc"

cp -R "$root/examples/quickstart" "$work/quickstart"
cd "$work/quickstart"

# run_tf runs terraform, shows its output without the dev_overrides warning
# box, and fails the demo when terraform fails.
run_tf() {
  local out="$work/last.txt" code=0
  terraform "$@" -input=false -no-color >"$out" 2>&1 || code=$?
  # With -no-color the warning is a paragraph ending in "releases."
  awk '/^Warning: Provider development overrides are in effect/{skip=1} skip&&/releases\.$/{skip=0;next} !skip' "$out"
  if [[ $code -ne 0 ]]; then
    echo "demo: terraform $1 failed (exit code $code)" >&2
    exit "$code"
  fi
}

echo "==> terraform apply"
run_tf apply -auto-approve

echo "==> outputs"
terraform output -no-color

echo "==> exported file (first lines)"
head -n 5 exports/lists.csv

echo "==> second plan (must show no changes)"
set +e
terraform plan -detailed-exitcode -input=false -no-color >"$work/plan.txt" 2>&1
plan_code=$?
set -e
if [[ $plan_code -ne 0 ]]; then
  cat "$work/plan.txt"
  echo "demo: the second plan was not empty (exit code $plan_code)" >&2
  exit 1
fi
grep -E "No changes" "$work/plan.txt"

echo "==> terraform destroy"
run_tf destroy -auto-approve
echo "==> demo finished"
