#!/usr/bin/env bash
# bench/schedule-scale.sh: `revisit schedule` on BENCH_PAGES generated
# pages (default 1,000,000; Lomax intervals, about 12 updates a page over
# a year, so about 11 knots of true G_U each, as in the measurement of
# docs/methods.md#schedule), from the dataset (oracle plan): wall, CPU and
# peak RSS (/usr/bin/time -v) without the sweep, with -o (schedule.parquet
# and schedule.csv) and with -o --no-csv; then the solver benchmarks at
# 18 M pages (schedule/bench_test.go, -benchmem, run alone: the float64
# input columns take 4.6 GB). BENCH_SOLVER=0 skips them. Each run prints
# the store's bytes (the input columns: the float32 curves and per-page
# columns the plans are solved on) and the peak RSS beyond them.
# BENCH_RUNS (default 1) repeats each run; BENCH_DS names a dataset
# generated as below to reuse (BENCH_PAGES must then be its page count;
# generating 18 M pages takes about 150 CPU-s and 8.4 GB).
set -euo pipefail
cd "$(dirname "$0")/.."
pages=${BENCH_PAGES:-1000000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/revisit" ./cmd/revisit
ds=${BENCH_DS:-}
if [ -z "$ds" ]; then
  ds=$tmp/ds
  /usr/bin/time -v -o "$tmp/time" "$tmp/revisit" -q generate --format parquet --pages "$pages" --span 1y --model 'pareto:1.8,{lognormal:6.5,1}' --seed 1 -o "$ds"
  awk '/User time/ {u=$NF} /System time/ {s=$NF} /Elapsed/ {w=$NF} /Maximum resident/ {r=$NF}
    END {printf "generate: wall %s, CPU %.1f s, peak RSS %d MiB\n", w, u+s, r/1024}' "$tmp/time"
fi
echo "dataset: $pages pages, $(du -sh "$ds" | cut -f1)"
run() {
  local name=$1; shift
  for _ in $(seq "${BENCH_RUNS:-1}"); do
    rm -rf "$tmp/out"
    /usr/bin/time -v -o "$tmp/time" "$tmp/revisit" schedule "$ds" --budget "$((pages / 10))/d" --no-sweep "$@" >/dev/null 2>"$tmp/err"
    store=$(sed -n 's/.*; store \([0-9.]*\) MiB$/\1/p' "$tmp/err")
    awk -v n="$name" -v st="$store" '
      /User time/ {u=$NF} /System time/ {s=$NF} /Elapsed/ {w=$NF} /Maximum resident/ {r=$NF}
      END {printf "%-22s wall %s, CPU %.1f s, peak RSS %d MiB = store %.0f MiB + %.0f MiB beyond\n", n, w, u+s, r/1024, st, r/1024 - st}' "$tmp/time"
  done
  if [ -d "$tmp/out" ]; then ls -l "$tmp/out"/schedule.* | awk '{printf "  %s %.0f bytes\n", $NF, $5}'; fi
}
run "no output"
run "-o" -o "$tmp/out"
run "-o --no-csv" -o "$tmp/out" --no-csv
if [ "${BENCH_SOLVER:-1}" != 0 ]; then
  go test -run '^$' -bench 'BenchmarkAllPlans18M|BenchmarkStore18M' -benchtime 1x -benchmem ./schedule | grep -E 'Benchmark|pages'
fi
