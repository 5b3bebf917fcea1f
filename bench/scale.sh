#!/usr/bin/env bash
# bench/scale.sh — scale-out benchmark of issue 12 (docs/scale-out.md).
#
# Generates a MediaWiki stub dump of PAGES pages (default 1,000,000) over
# SPAN (default 1 y) whose page sizes are heavy-tailed: each page is a
# Poisson process with a rate drawn from a lognormal (RATE_MU, RATE_SIGMA
# per hour; the defaults give about 100 revisions per page, ≥ 100 M in
# all, the largest pages tens of thousands), gzip-compressed like the
# Wikipedia dumps. Then, each stage timed with /usr/bin/time (wall, CPU =
# user + sys, peak RSS):
#   generate        the .xml.gz dump (not a revisit stage; for reference)
#   ingest          gzip dump → one-file dataset
#   ingest-parts    the same into PARTS part files (--parts; 0 skips)
#   replay-top      replay --top TOP (default samplers, every method)
#   replay-shard    replay --top 0 --shard SHARD (every page of one shard)
# and extrapolates from the measured rates to the English Wikipedia stub
# history: 27 files, about 100 GB gzip, about 1.2 billion revisions
# (goal: ingest < 1 h on 2 cores, peak RSS ≤ 256 MiB per process).
#
# Heavy: about 7 GB in TMPDIR (removed at exit) and, on 2 cores, 10–20
# minutes. Smaller runs: PAGES=20000 bench/scale.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
PAGES=${PAGES:-1000000}
SPAN=${SPAN:-1y}
RATE_MU=${RATE_MU:--5.6}
RATE_SIGMA=${RATE_SIGMA:-1.5}
PARTS=${PARTS:-16}
TOP=${TOP:-100}
SHARD=${SHARD:-0/256}
FULL_REVS=${FULL_REVS:-1.2e9}
FULL_GZ=${FULL_GZ:-100e9}
BIN=${BIN:-bin/revisit}
[ -x "$BIN" ] || go build -o "$BIN" ./cmd/revisit
tmp=$(mktemp -d "${TMPDIR:-/tmp}/revisit-bench-scale.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

echo "scale benchmark: $PAGES pages over $SPAN, rates lognormal($RATE_MU, $RATE_SIGMA)/h; $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-13s %9s %9s %8s %9s  %s\n' stage wall_s cpu_s cpu/wall rss_MiB notes

# stage NAME CMD...: runs CMD under /usr/bin/time, prints one line and
# leaves "wall cpu rss_kib" in $tmp/NAME.t.
stage() {
  local name=$1
  shift
  if ! /usr/bin/time -f '%e %U %S %M' -o "$tmp/$name.time" "$@" >"$tmp/$name.log" 2>&1; then
    echo "stage $name failed:" >&2
    tail -5 "$tmp/$name.log" >&2
    exit 1
  fi
  tail -1 "$tmp/$name.time" | awk '{print $1, $2 + $3, $4}' >"$tmp/$name.t"
  read -r wall cpu rss <"$tmp/$name.t"
  printf '%-13s %9.1f %9.1f %8.2f %9.0f  %s\n' "$name" "$wall" "$cpu" "$(awk -v c="$cpu" -v w="$wall" 'BEGIN {print (w > 0 ? c / w : 0)}')" \
    "$(awk -v r="$rss" 'BEGIN {print r / 1024}')" "${NOTE:-}"
}
manifest() { grep -o "\"$2\": [0-9]*" "$1/manifest.json" | head -1 | awk '{print $2}'; }

NOTE="(reference)" stage generate "$BIN" -q generate --pages "$PAGES" --span "$SPAN" --talk 0 \
  --model "exp:{lognormal:$RATE_MU,$RATE_SIGMA}" --seed 1 -o "$tmp/stub.xml.gz"
rm -f "$tmp/stub.truth.json"
gz=$(stat -c %s "$tmp/stub.xml.gz")

stage ingest "$BIN" -q ingest "$tmp/stub.xml.gz" -o "$tmp/ds"
revs=$(manifest "$tmp/ds" revisions_read)
pages=$(manifest "$tmp/ds" pages_kept)
read -r iwall icpu irss <"$tmp/ingest.t"
echo "              dump: $pages pages, $revs revisions, $gz bytes gzip ($(awk -v g="$gz" -v r="$revs" 'BEGIN {printf "%.1f", g / r}') B/revision); dataset $(du -sm "$tmp/ds" | cut -f1) MiB"

prss=0
if [ "$PARTS" -gt 0 ]; then
  NOTE="--parts $PARTS" stage ingest-parts "$BIN" -q ingest "$tmp/stub.xml.gz" --parts "$PARTS" -o "$tmp/dsp"
  read -r _ _ prss <"$tmp/ingest-parts.t"
  rm -rf "$tmp/dsp"
fi
rm -f "$tmp/stub.xml.gz"

NOTE="--top $TOP" stage replay-top "$BIN" -q replay "$tmp/ds" --top "$TOP" --seed 1 -o "$tmp/rtop"
NOTE="--top 0 --shard $SHARD" stage replay-shard "$BIN" -q replay "$tmp/ds" --top 0 --shard "$SHARD" --seed 1 -o "$tmp/rshard"
read -r swall scpu srss <"$tmp/replay-shard.t"
spages=$(grep -o '"pages": [0-9]*' "$tmp/rshard/replay.json" | head -1 | awk '{print $2}')
nshards=${SHARD#*/}

echo
echo "extrapolation to the English Wikipedia stub history ($FULL_REVS revisions, $FULL_GZ bytes gzip, 27 files):"
awk -v revs="$revs" -v gz="$gz" -v w="$iwall" -v c="$icpu" -v R="$FULL_REVS" -v G="$FULL_GZ" -v rss="$irss" -v prss="$prss" '
BEGIN {
  printf "  ingest rate: %.2f M revisions/s wall, %.2f M revisions per CPU-s, %.0f MB gzip/s wall\n", revs / w / 1e6, revs / c / 1e6, gz / w / 1e6
  hr = R / revs * w / 3600; hg = G / gz * w / 3600; hc = R / revs * c / 3600
  printf "  one ingest process, 27 files in a row: %.2f h scaled by revisions, %.2f h scaled by gzip bytes\n", hr, hg
  printf "  CPU: %.2f CPU-h, so ≥ %.2f h on 2 cores (CPU-bound bound), %s the goal of < 1 h\n", hc, hc / 2, (hc / 2 < 1 ? "within" : "NOT within")
  printf "  peak RSS: %.0f MiB (one file), %.0f MiB (--parts); goal ≤ 256 MiB: %s\n", rss / 1024, prss / 1024, (rss / 1024 <= 256 && prss / 1024 <= 256 ? "met" : "NOT met")
}'
awk -v sp="$spages" -v n="$nshards" -v w="$swall" -v c="$scpu" -v revs="$revs" -v R="$FULL_REVS" -v rss="$srss" '
BEGIN {
  if (sp == "" || sp == 0) exit
  full = c * n * (R / revs)
  printf "  replay of every page (default samplers, every method): shard of %d pages took %.0f CPU-s, so about %.1f CPU-h for 1.2 B revisions\n", sp, c, full / 3600
  printf "    (scaled by revisions; %d shards on 2-core machines: ≈ %.1f min each, plus reading the whole dataset; peak RSS %.0f MiB per shard)\n", n, full / n / 2 / 60, rss / 1024
}'
