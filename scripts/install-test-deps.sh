#!/usr/bin/env bash
# Installs what the tests need beyond Go, only when it is missing:
#  - DuckDB's Node API (npm @duckdb/node-api) for the Parquet interop test;
#  - Debian's chromium for the report rendering test;
#  - XZ Utils and 7-Zip for the system-decoder tests (decompress, ingest).
# Each step is idempotent; a failure is reported but only fatal under CI=true
# (tests that need the tool then fail with a clear message instead).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
fail=0
for step in "$here"/scripts/test-deps.d/*.sh; do
  [ -e "$step" ] || continue
  bash "$step" || { echo "install-test-deps: $(basename "$step") failed" >&2; fail=1; }
done
if [ "$fail" = 1 ] && [ "${CI:-}" = "true" ]; then exit 1; fi
exit 0
