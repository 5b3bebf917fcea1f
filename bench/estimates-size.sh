#!/usr/bin/env bash
# bench/estimates-size.sh: bytes of estimates.parquet per page × sampler
# with --curves full and with the default compact curves, on a generated
# corpus (BENCH_PAGES pages, default 2,000, over 1 year, default models,
# every page replayed: --top 0, --full-curves 0), and a check that the
# analysis error tables (page_errors.csv: every WMRD and KS) are the same
# from both.
set -euo pipefail
cd "$(dirname "$0")/.."
pages=${BENCH_PAGES:-2000}
. bench/lib.sh
bench_work
"$BIN" generate -q --pages "$pages" --span 1y --format parquet --seed 1 -o "$WORK/corpus"
TIMEFORMAT='%R'
for c in full compact; do
  t=$( { time "$BIN" replay -q "$WORK/corpus" --top 0 --curves "$c" --full-curves 0 -o "$WORK/rep-$c" >/dev/null; } 2>&1 )
  bytes=$(stat -c %s "$WORK/rep-$c/estimates.parquet")
  jobs=$(awk -F'"pages": ' '/"pages":/ {split($2, a, ","); print a[1]; exit}' "$WORK/rep-$c/replay.json")
  printf "  --curves %-7s %11d bytes, %d pages × 2 samplers: %8.0f bytes per page × sampler (replay %s s)\n" \
    "$c" "$bytes" "$jobs" "$(echo "$bytes / ($jobs * 2)" | bc -l)" "$t"
  t=$( { time "$BIN" analyze -q "$WORK/corpus" "$WORK/rep-$c" -o "$WORK/an-$c" >/dev/null; } 2>&1 )
  echo "  analyze on --curves $c: $t s"
done
if cmp -s "$WORK/an-full/page_errors.csv" "$WORK/an-compact/page_errors.csv"; then
  echo "  page_errors.csv: identical (every WMRD and KS)"
else
  echo "  page_errors.csv: DIFFERENT"; exit 1
fi
