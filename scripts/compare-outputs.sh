#!/usr/bin/env bash
# Compares what two revisit binaries write, file by file, on the jobs a
# user runs: the demo (generated corpus, simulation, the real Anarchism
# history), the 1,000-article enwiki sample, a sharded replay, analyze and
# estimate merged, and a schedule with its validation.
#
#   bash scripts/compare-outputs.sh OLD_BIN NEW_BIN [WORKDIR]
#
# Each binary runs every job into WORKDIR/run, moved to WORKDIR/old and
# WORKDIR/new (default WORKDIR: a new temporary directory, kept for
# inspection). Then every file is
# compared byte for byte, except the fields that say when and how fast a
# command ran and what the file system did: in JSON files the keys
# "created", "elapsed_s" and "version" (the build's); of
# .revisit-entries.json only the paths and types (it records each file's
# hash, inode and times, so that a later run can tell an untouched file
# from an edited one: the files themselves are compared); the time
# simulate prints on its first line.
# Prints one line per differing file and exits 1 when any differs.
# Needs jq; the real data at ../shared/data/real (or REVISIT_REAL_DATA).
set -euo pipefail
old=$(realpath "${1:?usage: compare-outputs.sh OLD_BIN NEW_BIN [WORKDIR]}")
new=$(realpath "${2:?usage: compare-outputs.sh OLD_BIN NEW_BIN [WORKDIR]}")
work=${3:-$(mktemp -d "${TMPDIR:-/tmp}/revisit-compare.XXXXXX")}
here=$(cd "$(dirname "$0")/.." && pwd)
real=${REVISIT_REAL_DATA:-$here/../shared/data/real}
[ -d "$real" ] || { echo "compare-outputs: real data not found at $real (set REVISIT_REAL_DATA)" >&2; exit 2; }
command -v jq >/dev/null || { echo "compare-outputs: jq is needed" >&2; exit 2; }
enwiki=$real/wikipedia/Kevinisagirl__Wikipedia-Revisions-1000-articleid-sample/articlesthatareoldenough.txt.gz

# jobs BIN OUT: every job, into OUT.
jobs() {
  local bin=$1 out=$2
  mkdir -p "$out"
  bash "$here/scripts/demo.sh" "$bin" "$out/demo" >/dev/null 2>&1
  "$bin" -q run "$enwiki" --id 0 --title-column 1 --time 2 --seed 1 -o "$out/enwiki"

  # sharded replay, analyze and estimate of a generated corpus, merged
  "$bin" -q generate --pages 300 --span 2y --unit h --seed 7 --format parquet \
    --model '0.5*pareto:1.5,{lognormal:3,1}' --model '0.5*exp:{lognormal:-3,1}' -o "$out/gen"
  for i in 0 1 2; do
    "$bin" -q replay "$out/gen" --top 0 --seed 3 --shard "$i/3" -o "$out/replay-$i"
    "$bin" -q analyze "$out/gen" --shard "$i/3" -o "$out/analysis-$i"
  done
  "$bin" -q merge replay "$out"/replay-? -o "$out/replay-merged"
  "$bin" -q merge analysis "$out"/analysis-? -o "$out/analysis-merged"
  "$bin" -q replay "$out/gen" --top 5 --seed 3 --write-observations cdx -o "$out/observed"
  for i in 0 1 2; do
    "$bin" -q estimate "$out"/observed/observations/*.cdx --shard "$i/3" -o "$out/estimate-$i"
  done
  "$bin" -q merge estimate "$out"/estimate-? -o "$out/estimate-merged"

  # a schedule from the replay and its validation on the true series
  "$bin" -q schedule "$out/replay-merged" --budget 200/d -o "$out/schedule"
  "$bin" -q schedule --validate "$out/gen" --sampler const:1 --budget 200/d --seeds 2 -o "$out/validate"
}

# Both binaries write at the same path (outputs name their inputs'
# paths), moved aside after each.
for side in old new; do
  bin=$old; [ "$side" = new ] && bin=$new
  echo "compare-outputs: $side $bin" >&2
  rm -rf "${work:?}/run" "${work:?}/$side"
  jobs "$bin" "$work/run"
  mv "$work/run" "$work/$side"
done

# norm FILE: the file as compared.
norm() {
  case "$1" in
    */.revisit-entries.json)
      jq -S '.entries |= map({path, type})' "$1" ;;
    *.json)
      jq -S 'walk(if type == "object" then del(.created, .elapsed_s, .version) else . end)' "$1" ;;
    */simulate.txt) sed -E '1s/, ([0-9]+ ms|([0-9]+h)?([0-9]+m)?[0-9.]+s)$//' "$1" ;;  # human.Elapsed: "780 ms", "2s", "2m5.1s"
    *) cat "$1" ;;
  esac
}

differ=0
while IFS= read -r -d '' f; do
  rel=${f#"$work/old/"}
  if [ ! -e "$work/new/$rel" ]; then
    echo "only in old: $rel"; differ=1; continue
  fi
  if ! cmp -s <(norm "$f") <(norm "$work/new/$rel"); then
    echo "differs: $rel"; differ=1
  fi
done < <(find "$work/old" -type f -print0 | sort -z)
while IFS= read -r -d '' f; do
  rel=${f#"$work/new/"}
  [ -e "$work/old/$rel" ] || { echo "only in new: $rel"; differ=1; }
done < <(find "$work/new" -type f -print0 | sort -z)

n=$(find "$work/old" -type f | wc -l)
if [ "$differ" = 0 ]; then
  echo "compare-outputs: $n files, all identical (outputs in $work)"
else
  echo "compare-outputs: differences above (outputs in $work)"
  exit 1
fi
