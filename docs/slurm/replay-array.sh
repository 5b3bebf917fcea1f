#!/bin/bash
# One replay shard per array task. Submit with the shard count as the array:
#   sbatch --array=0-6 replay-array.sh DATASET SHARD_ROOT
# revisit takes the shard index from SLURM_ARRAY_TASK_ID (minus
# SLURM_ARRAY_TASK_MIN, so --array=1-7 works too) and the count from
# SLURM_ARRAY_TASK_COUNT. scripts/slurm-test.sh runs this file on a real
# single-node Slurm in `make test`.
#SBATCH --job-name=revisit-replay
#SBATCH --cpus-per-task=1
#SBATCH --mem=1G
#SBATCH --time=02:00:00
set -euo pipefail
dataset=$1 shards=$2
shift 2
exec revisit -q replay "$dataset" --shard "$SLURM_ARRAY_TASK_COUNT" "$@" \
  -o "$shards/$SLURM_ARRAY_TASK_ID"
