#!/bin/bash
# The whole sharded pipeline as Slurm jobs: a replay array, its merge, an
# analyze array against the merged replay, and its merge, each job
# starting when the one before has succeeded.
#   bash pipeline.sh DATASET OUT SHARDS [replay flags] -- [analyze flags]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dataset=$1 out=$2 n=$3
shift 3
rflags=() aflags=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do rflags+=("$1"); shift; done
[ $# -gt 0 ] && shift
aflags=("$@")
mkdir -p "$out/replay-shards" "$out/analysis-shards" "$out/log"
last=$((n - 1))
r=$(sbatch --parsable --array=0-$last -o "$out/log/replay-%a.out" \
  "$here/replay-array.sh" "$dataset" "$out/replay-shards" "${rflags[@]}")
m=$(sbatch --parsable --dependency=afterok:$r --kill-on-invalid-dep=yes -o "$out/log/merge-replay.out" \
  --wrap "revisit -q merge replay $out/replay-shards/* -o $out/replay")
a=$(sbatch --parsable --dependency=afterok:$m --kill-on-invalid-dep=yes --array=0-$last -o "$out/log/analyze-%a.out" \
  "$here/analyze-array.sh" "$dataset" "$out/replay" "$out/analysis-shards" "${aflags[@]}")
sbatch --parsable --wait --dependency=afterok:$a --kill-on-invalid-dep=yes -o "$out/log/merge-analysis.out" \
  --wrap "revisit -q merge analysis $out/analysis-shards/* -o $out/analysis"
