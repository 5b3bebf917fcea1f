#!/bin/bash
# One analyze shard per array task, against the merged replay:
#   sbatch --array=0-6 analyze-array.sh DATASET REPLAY SHARD_ROOT
# (scripts/slurm-test.sh runs this file on a real single-node Slurm.)
#SBATCH --job-name=revisit-analyze
#SBATCH --cpus-per-task=1
#SBATCH --mem=1G
#SBATCH --time=02:00:00
set -euo pipefail
dataset=$1 replay=$2 shards=$3
shift 3
exec revisit -q analyze "$dataset" "$replay" --shard "$SLURM_ARRAY_TASK_COUNT" "$@" \
  -o "$shards/$SLURM_ARRAY_TASK_ID"
