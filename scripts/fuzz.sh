#!/usr/bin/env bash
# Runs every Go fuzz target of the module for a bounded time each
# (FUZZTIME, default 60s). New failing inputs land in testdata/fuzz/ beside
# the target, where `go test` replays them as regression tests.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${FUZZTIME:-60s}"
status=0
for pkg in $(go list ./...); do
  for target in $(go test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
    echo "==> $pkg $target ($fuzztime)"
    go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg" || status=1
  done
done
exit $status
