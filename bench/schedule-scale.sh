#!/usr/bin/env bash
# bench/schedule-scale.sh: `revisit schedule` on BENCH_PAGES generated
# pages (default 1,000,000; Lomax intervals, about 12 updates a page over
# a year, so about 11 knots of true G_U each, as in the measurement of
# docs/methods.md#schedule), from the dataset (oracle plan): wall, CPU and
# peak RSS (/usr/bin/time -v) without the sweep, with -o (schedule.parquet
# and schedule.csv) and with -o --no-csv; then the solver benchmarks at
# 18 M pages (schedule/bench_test.go, -benchmem, run alone: the float64
# input columns take 4.6 GB). BENCH_SOLVER=0 skips them.
set -euo pipefail
cd "$(dirname "$0")/.."
pages=${BENCH_PAGES:-1000000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/revisit" ./cmd/revisit
"$tmp/revisit" -q generate --format parquet --pages "$pages" --span 1y --model 'pareto:1.8,{lognormal:6.5,1}' --seed 1 -o "$tmp/ds"
echo "dataset: $pages pages, $(du -sh "$tmp/ds" | cut -f1)"
run() {
  local name=$1; shift
  rm -rf "$tmp/out"
  /usr/bin/time -v -o "$tmp/time" "$tmp/revisit" -q schedule "$tmp/ds" --budget "$((pages / 10))/d" --no-sweep "$@" >/dev/null
  awk -v n="$name" '
    /User time/ {u=$NF} /System time/ {s=$NF} /Elapsed/ {w=$NF} /Maximum resident/ {r=$NF}
    END {printf "%-22s wall %s, CPU %.1f s, peak RSS %d MiB\n", n, w, u+s, r/1024}' "$tmp/time"
  if [ -d "$tmp/out" ]; then ls -l "$tmp/out"/schedule.* | awk '{printf "  %s %d bytes\n", $NF, $5}'; fi
}
run "no output"
run "-o" -o "$tmp/out"
run "-o --no-csv" -o "$tmp/out" --no-csv
if [ "${BENCH_SOLVER:-1}" != 0 ]; then
  go test -run '^$' -bench 'BenchmarkAllPlans18M|BenchmarkStore18M' -benchtime 1x -benchmem ./schedule | grep -E 'Benchmark|pages'
fi
