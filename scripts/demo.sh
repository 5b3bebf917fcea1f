#!/usr/bin/env bash
# make demo: the main job end to end on generated data (see README).
set -euo pipefail
bin=$1; out=$2
echo "demo: not wired yet (waiting for generate/run)" >&2
exit 1
