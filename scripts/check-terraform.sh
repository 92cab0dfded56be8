#!/usr/bin/env bash
# Fails with a clear message when no terraform binary is available. The tests
# and tfplugindocs never download Terraform; they use TF_ACC_TERRAFORM_PATH
# or the terraform on PATH.
set -euo pipefail
tf="${TF_ACC_TERRAFORM_PATH:-$(command -v terraform || true)}"
if [[ -z "$tf" || ! -x "$tf" ]]; then
  cat >&2 <<'MSG'
terraform was not found. Install Terraform 1.11.4 or newer and put it on PATH,
or set TF_ACC_TERRAFORM_PATH to a terraform binary. Nothing here downloads one.
MSG
  exit 1
fi
# sed reads all of its input: head would exit early and, under pipefail,
# fail the script with SIGPIPE (status 141) when terraform writes again.
version="$("$tf" version 2>/dev/null | sed -n 1p)"
echo "using $version ($tf)"
