#!/usr/bin/env bash
# Runs the acceptance tests (and the examples validation) with OpenTofu
# instead of Terraform: the tofu binary is built once from the Go module proxy
# and cached by scripts/tofu.sh. terraform-plugin-testing drives it like
# terraform; OpenTofu resolves provider sources without a host to
# registry.opentofu.org, so the in-process provider is registered there.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
export CHECKPOINT_DISABLE=1

start=$SECONDS
# TOFU_VERSION picks another release than scripts/tofu.sh's default (the
# oldest supported), e.g. TOFU_VERSION=1.12.6 make test-tofu.
tofu="$(bash scripts/tofu.sh path ${TOFU_VERSION:-})"
echo "using OpenTofu $(bash scripts/tofu.sh version-of "$tofu") ($tofu); ready after $((SECONDS - start))s"

# The packages whose tests drive the CLI: those importing internal/acctest,
# and the root package (TestExamplesValidate).
module="$(go list -m)"
pkgs="$(go list -f '{{.ImportPath}} {{join .TestImports " "}} {{join .XTestImports " "}}' ./... |
  awk -v acc="$module/internal/acctest" -v root="$module" '$1 == root {print $1; next} {for (i = 2; i <= NF; i++) if ($i == acc) {print $1; break}}')"
[[ -n "$pkgs" ]] || { echo "test-tofu: found no package whose tests use internal/acctest" >&2; exit 1; }

test_start=$SECONDS
set -x
TF_ACC=1 TF_ACC_TERRAFORM_PATH="$tofu" TF_ACC_PROVIDER_HOST=registry.opentofu.org TF_ACC_PROVIDER_NAMESPACE=hashicorp \
  go test -race -count=1 -timeout "${TEST_TIMEOUT:-20m}" ${GO_TEST_ARGS:-} $pkgs
{ set +x; } 2>/dev/null
echo "test-tofu: the tests took $((SECONDS - test_start))s"
