#!/usr/bin/env bash
# Installs DuckDB's Node API (npm @duckdb/node-api) into internal/interop/
# for the Parquet interop test. Idempotent: a fast no-op when it is there.
set -euo pipefail
dir=$(cd "$(dirname "$0")/../../internal/interop" && pwd)
if [ -f "$dir/node_modules/@duckdb/node-api/package.json" ] &&
   node -e "require('$dir/node_modules/@duckdb/node-api')" 2>/dev/null; then
  exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "duckdb.sh: npm not found; the DuckDB interop test will be skipped (fails under CI=true)" >&2
  exit 1
fi
echo "duckdb.sh: installing @duckdb/node-api into $dir" >&2
cd "$dir"
# npm ci installs exactly the committed lock file and never rewrites it,
# so a test run leaves `git status` clean (npm install added the optional
# platform packages to the lock file).
npm ci --no-audit --no-fund --loglevel=error >&2
