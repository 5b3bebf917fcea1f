#!/usr/bin/env bash
# bench/replay.sh: the speed of M6 and of `revisit replay` (SPEC §4).
#
# 1. M6 on a 10-year page visited at λ = 2/h (≈175,000 visits), h = 0.05 h:
#    the sweep at x_max = 100 h and 1000 h against the Θ(m²) definition,
#    which is measured on the first 5,000 and 10,000 visits and extrapolated
#    to the whole page by (m_page/m)². Medians of RUNS runs.
# 2. `revisit replay` of the 10 busiest pages of a generated Wikipedia-like
#    corpus (300 pages over 10 years, Lomax intervals, heavy-tailed rates),
#    all methods, samplers exp:2 and const:0.5, h = 0.05, x_max = 1000 h, all
#    cores: median wall time of RUNS runs.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# Measure the code as it is now: build a fresh binary unless BIN names one
# (a leftover bin/revisit may predate the last change).
BIN=${BIN:-}

. bench/lib.sh

echo "M6: fast sweep vs naive pairs (go test -bench, $RUNS runs each, medians)"
go test -run '^$' -bench 'BenchmarkM6(Fast|Naive)$' -benchtime 1x -count "$RUNS" ./estimator >"$WORK/m6.txt"
awk '/^BenchmarkM6/ {name=$1; sub(/-[0-9]+$/, "", name); print name, $3}' "$WORK/m6.txt" >"$WORK/m6.tsv"
visits=$(grep -o 'visits=[0-9]*/xmax' "$WORK/m6.tsv" | head -1 | tr -dc 0-9)
get() { awk -v n="$1" '$1 == n {print $2}' "$WORK/m6.tsv" | median; }
f100=$(get "BenchmarkM6Fast/visits=$visits/xmax=100")
f1000=$(get "BenchmarkM6Fast/visits=$visits/xmax=1000")
n5=$(get "BenchmarkM6Naive/visits=5000")
n10=$(get "BenchmarkM6Naive/visits=10000")
awk -v v="$visits" -v f100="$f100" -v f1000="$f1000" -v n5="$n5" -v n10="$n10" 'BEGIN {
  full = n10 * (v / 10000)^2
  printf "  page: %d visits\n", v
  printf "  naive, 5,000 visits:   %8.3f s\n", n5/1e9
  printf "  naive, 10,000 visits:  %8.3f s   (×%.2f for 2× the visits; m² predicts ×4)\n", n10/1e9, n10/n5
  printf "  naive, whole page:     %8.1f s   (extrapolated from 10,000 visits by m²)\n", full/1e9
  printf "  fast, x_max = 100 h:   %8.3f s   naive/fast = %.0f×\n", f100/1e9, full/f100
  printf "  fast, x_max = 1000 h:  %8.3f s   naive/fast = %.0f×\n", f1000/1e9, full/f1000
}'

echo
echo "replay: 10 busiest pages of a generated Wikipedia-like corpus, all methods, exp:2 + const:0.5 ($RUNS runs)"
if [ -z "$BIN" ]; then
  BIN="$WORK/revisit"
  go build -o "$BIN" ./cmd/revisit
fi
"$BIN" generate -q --pages 300 --span 10y --format parquet --model 'pareto:1.8,{lognormal:2,0.8}' --seed 1 -o "$WORK/corpus"
TIMEFORMAT='%R %U %S'
for i in $(seq "$RUNS"); do
  { time "$BIN" replay -q "$WORK/corpus" --top 10 --methods all --sampler exp:2 --sampler const:0.5 \
      --h 0.05 --xmax 1000 --seed "$i" -o "$WORK/replay" >"$WORK/summary.txt"; } 2>>"$WORK/replay.txt"
done
head -1 "$WORK/summary.txt" | sed 's/^/  /'
printf "  wall time: median %.2f s (runs: %s), %s cores; goal < 60 s on 2 cores\n" \
  "$(cut -d' ' -f1 "$WORK/replay.txt" | median)" "$(cut -d' ' -f1 "$WORK/replay.txt" | tr '\n' ' ')" "$(nproc)"
printf "  CPU time (user+sys): median %.2f s — wall ≈ CPU/cores when the machine is idle; load now: %s\n" \
  "$(awk '{print $2 + $3}' "$WORK/replay.txt" | median)" "$(cut -d' ' -f1-3 /proc/loadavg)"
