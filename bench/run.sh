#!/usr/bin/env bash
# make bench: every benchmark script in bench/, each printing its ratios.
set -euo pipefail
cd "$(dirname "$0")/.."
for s in bench/*.sh; do
  [ "$(basename "$s")" = run.sh ] && continue
  echo "== $s"; bash "$s"
done
