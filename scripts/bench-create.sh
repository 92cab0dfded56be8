#!/usr/bin/env bash
# bench-create.sh N: the first apply of an rms_list_contacts from a source
# file of N rows (an rms_list made in the same apply), against rms-emulator
# built from this tree, with the terraform scripts/check-terraform.sh finds.
# It prints the wall time of the apply, the peak RSS of each provider
# process (the largest is the one that applied), and leaves a heap profile
# of that process's peak (RMS_MEM_PROFILE) in the scratch directory it
# names. With BENCH_MORE=1 it then times a no-change plan and the apply of
# a 1 % change (every hundredth row's name), each with its own peak RSS.
# For each command it also prints the emulator's side: its peak and
# resident RSS over that command (VmHWM, reset before it through
# clear_refs, and VmRSS after it), its CPU time, and the GETs of the
# list's contact listing it served (pages read, from -log-requests), and
# it leaves a heap and a CPU profile of each provider process under
# profiles/COMMAND/ in the scratch directory.
# A benchmark, not a test: run it on a quiet machine (uptime).
set -euo pipefail
n="${1:?usage: scripts/bench-create.sh ROWS}"
root="$(cd "$(dirname "$0")/.." && pwd)"
export CHECKPOINT_DISABLE=1
tf_bin="$(bash "$root/scripts/check-terraform.sh")"
work="$(mktemp -d "${TMPDIR:-/tmp}/rms-bench-create.XXXXXX")"
emulator_pid=""
trap '[[ -n "$emulator_pid" ]] && kill "$emulator_pid" 2>/dev/null; true' EXIT

go build -C "$root" -o "$work/real/terraform-provider-rms" .
go build -C "$root" -o "$work/rms-emulator" ./cmd/rms-emulator
# Terraform starts the provider through this wrapper, which records the
# peak RSS of each provider process (GNU time, one file per process).
mkdir -p "$work/bin" "$work/rss"
cat >"$work/bin/terraform-provider-rms" <<WRAP
#!/usr/bin/env bash
exec /usr/bin/time -f "%M %U %S" -o "$work/rss/\$\$" "$work/real/terraform-provider-rms" "\$@"
WRAP
chmod +x "$work/bin/terraform-provider-rms"

"$work/rms-emulator" -addr 127.0.0.1:0 -port-file "$work/emulator.url" \
  -username bench -password bench-password -customer-id 1000 -log-requests >"$work/emulator.log" 2>&1 &
emulator_pid=$!
for _ in $(seq 1 100); do [[ -s "$work/emulator.url" ]] && break; sleep 0.1; done
export RMS_BASE_URL="$(cat "$work/emulator.url")" RMS_CUSTOMER_ID=1000 RMS_USERNAME=bench RMS_PASSWORD=bench-password RMS_BATCH_POLL_INTERVAL=1s
cat >"$work/terraformrc" <<CFG
provider_installation {
  dev_overrides { "registry.terraform.io/rms-labs/rms" = "$work/bin" }
  direct {}
}
CFG
export TF_CLI_CONFIG_FILE="$work/terraformrc"

mkdir "$work/ws" && cd "$work/ws"
awk -v n="$n" 'BEGIN { print "originalId,email,firstname"; for (i = 0; i < n; i++) printf "c-%08d,c%d@example.com,Name %d\n", i, i, i }' >contacts.csv
cat >main.tf <<'TF'
terraform {
  required_providers {
    rms = { source = "rms-labs/rms" }
  }
}
provider "rms" {}
resource "rms_list" "l" {
  name                = "Bench"
  deletion_protection = false
}
resource "rms_list_contacts" "c" {
  list_id     = rms_list.l.id
  source_file = "${path.module}/contacts.csv"
}
TF
# emulator_cpu prints the emulator's CPU time so far, in seconds.
emulator_cpu() {
  awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / hz }' "/proc/$emulator_pid/stat"
}
# timed NAME ARGS...: runs terraform, then prints its wall time and the
# largest provider RSS of that command, and the emulator's figures for it.
timed() {
  local name="$1"; shift
  local dir="$work/profiles/${name//[^a-z0-9]/-}"
  rm -f "$work/rss"/*
  mkdir -p "$dir"
  # Writing 5 to clear_refs resets the emulator's VmHWM, so the peak
  # read after the command is that command's.
  echo 5 >"/proc/$emulator_pid/clear_refs"
  local start end cpu0 log0
  cpu0=$(emulator_cpu)
  log0=$(wc -l <"$work/emulator.log")
  start=$(date +%s.%N)
  RMS_MEM_PROFILE="$dir/heap" RMS_CPU_PROFILE="$dir/cpu" \
    "$tf_bin" "$@" -no-color -input=false >"$work/$name.log" 2>&1 || { tail -30 "$work/$name.log"; exit 1; }
  end=$(date +%s.%N)
  echo "$name: $(echo "$end - $start" | bc) s, provider peak RSS $(sort -n "$work/rss"/* | tail -1 | awk '{printf "%.1f MiB, CPU %.1f s", $1/1024, $2 + $3}') (of $(ls "$work/rss" | wc -l) provider processes), load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "  emulator: peak RSS $(awk '/^VmHWM/ { printf "%.1f MiB", $2/1024 }' "/proc/$emulator_pid/status"), resident after $(awk '/^VmRSS/ { printf "%.1f MiB", $2/1024 }' "/proc/$emulator_pid/status"), CPU $(awk -v a="$(emulator_cpu)" -v b="$cpu0" 'BEGIN { printf "%.2f", a - b }') s, contact listing pages served $(tail -n +"$((log0 + 1))" "$work/emulator.log" | grep -c 'method=GET path=/rest/1000/lists/[0-9]*/contacts status=' || true)"
}
echo "rows: $n"
timed "first apply" apply -auto-approve
if [[ "${BENCH_MORE:-}" == 1 ]]; then
  timed "no-change plan" plan
  awk -F, 'NR > 1 && (NR - 2) % 100 == 0 { $3 = $3 " (changed)" } { print }' OFS=, contacts.csv >contacts.next && mv contacts.next contacts.csv
  timed "1 % change applied" apply -auto-approve
fi
echo "profiles: $work/profiles/*/heap.* (go tool pprof -top -sample_index=inuse_space $work/real/terraform-provider-rms FILE) and cpu.*"
