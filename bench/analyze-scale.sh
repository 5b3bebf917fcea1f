#!/usr/bin/env bash
# bench/analyze-scale.sh — analyze at scale.
#
# Generates a MediaWiki stub dump of PAGES pages (default 50,000) over SPAN
# (default 1 y) with Poisson pages whose rates are lognormal (RATE_MU,
# RATE_SIGMA per hour, as bench/scale.sh: about 100 revisions per page,
# a third of the pages with ≥ 100, the screen's K), ingests it, then
# times `revisit analyze` (no replay) with --workers 1 and --workers 2
# against `revisit ingest` of the same dump. Each is run RUNS times
# (default 3) under /usr/bin/time -v: medians of wall time, CPU time
# (user + sys) and peak RSS, and the ratios analyze / ingest (goal: wall
# ≤ 1 with every core) and workers 1 / workers 2.
#
# BASE=path/to/older/revisit times that binary's analyze too (RUNS times
# per worker setting, interleaved with this one's; an older binary
# without --workers runs with its default) for before/after ratios
# measured in the same run. The machine's load is printed: on a shared box
# CPU seconds are the steadier measure, wall time shows the parallelism.
# About 1 GB in TMPDIR (removed at exit); with the defaults 2–5 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
PAGES=${PAGES:-50000}
SPAN=${SPAN:-1y}
RATE_MU=${RATE_MU:--5.6}
RATE_SIGMA=${RATE_SIGMA:-1.5}
RUNS=${RUNS:-3}
BIN=${BIN:-bin/revisit}
[ -x "$BIN" ] || go build -o "$BIN" ./cmd/revisit
tmp=$(mktemp -d "${TMPDIR:-/tmp}/revisit-bench-analyze.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

. bench/lib.sh
# timed NAME CMD...: runs CMD RUNS times (N=1 for one run) under
# /usr/bin/time -v, appending "wall cpu rss_MiB" per run to $tmp/NAME.
timed() {
  local name=$1
  shift
  local n=${N:-$RUNS}
  for _ in $(seq "$n"); do
    rm -rf "$tmp/out"
    if ! /usr/bin/time -v -o "$tmp/tv" "$@" >"$tmp/log" 2>&1; then
      echo "$name failed:" >&2
      tail -5 "$tmp/log" >&2
      exit 1
    fi
    awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); w = 0; for (i = 1; i <= n; i++) w = 60 * w + t[i]}
      /User time/ {u = $2} /System time/ {s = $2} /Maximum resident/ {r = $2}
      END {printf "%.2f %.2f %.0f\n", w, u + s, r / 1024}' "$tmp/tv" >>"$tmp/$name"
  done
}
col() { awk -v k="$1" '{print $k}' "$2" | median; }
line() { printf '%-26s %8.2f %8.2f %8.0f   %s\n' "$1" "$(col 1 "$tmp/$2")" "$(col 2 "$tmp/$2")" "$(col 3 "$tmp/$2")" "$(wc -l <"$tmp/$2") runs"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", (b > 0 ? a / b : 0)}'; }

echo "analyze-scale benchmark: $PAGES pages over $SPAN, rates lognormal($RATE_MU, $RATE_SIGMA)/h; $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
"$BIN" -q generate --pages "$PAGES" --span "$SPAN" --talk 0 --model "exp:{lognormal:$RATE_MU,$RATE_SIGMA}" --seed 1 -o "$tmp/stub.xml.gz"
rm -f "$tmp/stub.truth.json"
"$BIN" -q ingest "$tmp/stub.xml.gz" -o "$tmp/ds"
echo "dataset: $(grep -o '"pages_kept": [0-9]*' "$tmp/ds/manifest.json" | awk '{print $2}') pages, $(grep -o '"revisions_read": [0-9]*' "$tmp/ds/manifest.json" | awk '{print $2}') revisions"
# One round of every command at a time, RUNS rounds: a change of the
# machine's load during the benchmark falls on all of them alike.
bw=()
if [ -n "${BASE:-}" ] && "$BASE" analyze --help 2>&1 | grep -q -- --workers; then
  bw=(--workers)
fi
for _ in $(seq "$RUNS"); do
  N=1 timed ingest "$BIN" -q ingest "$tmp/stub.xml.gz" -o "$tmp/out"
  N=1 timed analyze-w1 "$BIN" -q analyze "$tmp/ds" -o "$tmp/out" --workers 1
  N=1 timed analyze-w2 "$BIN" -q analyze "$tmp/ds" -o "$tmp/out" --workers 2
  if [ -n "${BASE:-}" ]; then
    if [ ${#bw[@]} -gt 0 ]; then
      N=1 timed base-w1 "$BASE" -q analyze "$tmp/ds" -o "$tmp/out" --workers 1
      N=1 timed base-w2 "$BASE" -q analyze "$tmp/ds" -o "$tmp/out" --workers 2
    else
      N=1 timed base-w1 "$BASE" -q analyze "$tmp/ds" -o "$tmp/out"
    fi
  fi
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-26s %8s %8s %8s\n' stage wall_s cpu_s rss_MiB
line ingest ingest
line "analyze --workers 1" analyze-w1
line "analyze --workers 2" analyze-w2
[ -f "$tmp/base-w1" ] && line "BASE analyze (1 worker)" base-w1
[ -f "$tmp/base-w2" ] && line "BASE analyze --workers 2" base-w2
iw=$(col 1 "$tmp/ingest")
ic=$(col 2 "$tmp/ingest")
echo "analyze / ingest wall: workers 1 $(ratio "$(col 1 "$tmp/analyze-w1")" "$iw"), workers 2 $(ratio "$(col 1 "$tmp/analyze-w2")" "$iw") (goal ≤ 1)"
echo "analyze / ingest CPU: workers 1 $(ratio "$(col 2 "$tmp/analyze-w1")" "$ic"), workers 2 $(ratio "$(col 2 "$tmp/analyze-w2")" "$ic")"
echo "analyze wall, workers 1 / workers 2: $(ratio "$(col 1 "$tmp/analyze-w1")" "$(col 1 "$tmp/analyze-w2")")"
if [ -f "$tmp/base-w1" ]; then
  echo "BASE analyze / ingest: wall workers 1 $(ratio "$(col 1 "$tmp/base-w1")" "$iw")$([ -f "$tmp/base-w2" ] && echo ", workers 2 $(ratio "$(col 1 "$tmp/base-w2")" "$iw")"), CPU workers 1 $(ratio "$(col 2 "$tmp/base-w1")" "$ic")"
  echo "BASE / this analyze (1 worker): wall $(ratio "$(col 1 "$tmp/base-w1")" "$(col 1 "$tmp/analyze-w1")"), CPU $(ratio "$(col 2 "$tmp/base-w1")" "$(col 2 "$tmp/analyze-w1")"), RSS $(ratio "$(col 3 "$tmp/base-w1")" "$(col 3 "$tmp/analyze-w1")")"
fi
