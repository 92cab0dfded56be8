#!/usr/bin/env bash
# Prints the terraform binary the minimum-version test leg (and make demo)
# uses, and says which on stderr:
#   1. TF_ACC_TERRAFORM_PATH, when set (an explicit choice wins);
#   2. the terraform on PATH, when it is the supported minimum or newer;
#   3. otherwise the minimum version built from source and cached by
#      scripts/terraform.sh (once per machine, a few minutes).
# Nothing here downloads a Terraform release.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [[ -n "${TF_ACC_TERRAFORM_PATH:-}" ]]; then
  tf="$TF_ACC_TERRAFORM_PATH"
  [[ -x "$tf" ]] || { echo "TF_ACC_TERRAFORM_PATH=$tf is not an executable file; unset it to use the terraform on PATH or a cached build" >&2; exit 1; }
else
  tf="$(bash "$here/terraform.sh" min-path)"
fi
out="$("$tf" version 2>/dev/null)" || true
echo "using ${out%%$'\n'*} ($tf)" >&2
echo "$tf"
