#!/usr/bin/env bash
# bench/replay-ingest.sh — the CPU of `revisit replay` against that of
# `revisit ingest` on the same corpus (goal: replay ≤ 5× ingest).
#
# For each corpus a MediaWiki stub dump (.xml.gz) is generated (not
# timed), then each stage runs under /usr/bin/time -v (CPU = user + sys,
# peak RSS), RUNS times (medians printed):
#   ingest            the dump → a dataset (one file)
#   replay            replay --top 0 with the default samplers (exp:20x and
#                     const:0.05x in one process), every method
#   replay SAMPLER    the same with each default sampler alone
# and each replay's CPU divided by ingest's. Corpora:
#   small  generate --pages 2000 --span 1y --seed 3: the generator's
#          default model, Lomax intervals of shape 1.5 whose G_U has a
#          heavy tail, so x_max (the 0.99 quantile of G_U) spans up to
#          10⁵ bins of h and M6 pairs each visit with up to 2·10⁴ others
#   scale  bench/scale.sh's corpus at SCALE_PAGES pages (default
#          200,000): Poisson pages with lognormal rates (--talk 0,
#          seed 1); SCALE_RUNS runs (default 1); SCALE_PAGES=0 skips it
# Uses bin/revisit (built from the work tree unless BIN names a binary).
# Needs about 1 GB in TMPDIR (removed at exit); on 2 loaded cores the
# small corpus takes about 5 min a run, the scale corpus about 30 min.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
SCALE_PAGES=${SCALE_PAGES:-200000}
SCALE_RUNS=${SCALE_RUNS:-1}
BIN=${BIN:-}
if [ -z "$BIN" ]; then
  BIN=bin/revisit
  go build -o "$BIN" ./cmd/revisit
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/revisit-bench-replay-ingest.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

. bench/lib.sh

# timed NAME CMD...: runs CMD under /usr/bin/time -v and appends
# "cpu_s rss_kib" to $tmp/NAME.t (exit 1 with the log's tail on failure).
timed() {
  local name=$1
  shift
  if ! /usr/bin/time -v -o "$tmp/time" "$@" >"$tmp/log" 2>&1; then
    echo "$name failed:" >&2
    tail -5 "$tmp/log" >&2
    exit 1
  fi
  awk -F': ' '/User time/ {u = $2} /System time/ {s = $2} /Maximum resident set size/ {r = $2}
    END {print u + s, r}' "$tmp/time" >>"$tmp/$name.t"
}

# corpus NAME RUNS GENERATE-ARGS...: generates the dump, times ingest and
# the replays RUNS times each, prints the table.
corpus() {
  local name=$1 runs=$2
  shift 2
  "$BIN" -q generate "$@" -o "$tmp/$name.xml.gz"
  rm -f "$tmp/$name.truth.json"
  rm -f "$tmp"/*.t
  for _ in $(seq "$runs"); do
    rm -rf "$tmp/ds"
    timed ingest "$BIN" -q ingest "$tmp/$name.xml.gz" -o "$tmp/ds"
    timed replay "$BIN" -q replay "$tmp/ds" --top 0 -o "$tmp/out/both"
    for s in exp:20x const:0.05x; do
      timed "replay-$s" "$BIN" -q replay "$tmp/ds" --top 0 --sampler "$s" -o "$tmp/out/$s"
    done
  done
  local pages updates
  pages=$(grep -o '"pages_kept": [0-9]*' "$tmp/ds/manifest.json" | awk '{print $2}')
  updates=$(grep -o '"updates": [0-9]*' "$tmp/ds/manifest.json" | awk '{print $2}')
  echo "$name: generate $* → $pages pages kept, $updates updates; medians of $runs run(s)"
  printf '  %-20s %8s %9s %12s\n' stage cpu_s rss_MiB cpu/ingest
  local icpu
  icpu=$(awk '{print $1}' "$tmp/ingest.t" | median)
  for st in ingest replay replay-exp:20x replay-const:0.05x; do
    local cpu rss label=$st
    cpu=$(awk '{print $1}' "$tmp/$st.t" | median)
    rss=$(awk '{print $2}' "$tmp/$st.t" | median)
    [ "$st" = replay ] && label="replay (both)"
    printf '  %-20s %8.2f %9.0f %12.2f\n' "$label" "$cpu" "$(awk -v r="$rss" 'BEGIN {print r / 1024}')" \
      "$(awk -v c="$cpu" -v i="$icpu" 'BEGIN {print c / i}')"
  done
  rm -rf "$tmp/ds" "$tmp/out" "$tmp/$name.xml.gz"
}

echo "replay against ingest: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); goal replay (both) ≤ 5× ingest"
corpus small "$RUNS" --pages 2000 --span 1y --seed 3
if [ "$SCALE_PAGES" -gt 0 ]; then
  corpus scale "$SCALE_RUNS" --pages "$SCALE_PAGES" --span 1y --talk 0 --model 'exp:{lognormal:-5.6,1.5}' --seed 1
fi
