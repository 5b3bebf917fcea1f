#!/usr/bin/env bash
# bench/scale.sh — scale-out benchmark of issues 12 and 20 (docs/scale-out.md).
#
# Generates a MediaWiki stub dump of PAGES pages (default 100,000) over
# SPAN (default 1 y) whose page sizes are heavy-tailed: each page is a
# Poisson process with a rate drawn from a lognormal (RATE_MU, RATE_SIGMA
# per hour; the defaults give about 100 revisions per page, the largest
# pages tens of thousands), gzip-compressed like the Wikipedia dumps.
# Then, each process timed with /usr/bin/time (wall, CPU = user + sys,
# peak RSS):
#   generate        the .xml.gz dump (not a revisit stage; for reference)
#   ingest          gzip dump → one-file dataset
#   ingest-parts    the same into PARTS part files (--parts, default 64)
#   replay-top      replay --top TOP of the parted dataset
#   replay-shards   replay --top 0 --min-updates MIN_UPDATES (default 100)
#                   as SHARDS (default 64) processes, JOBS (default nproc)
#                   at a time: every page with ≥ MIN_UPDATES updates; the
#                   bytes each shard read of the dataset (shard.json)
#   merge-replay    revisit merge replay of the SHARDS outputs
#   analyze         analyze of the parted dataset with the top replay
#   analyze-shards  the same as SHARDS processes, and merge-analysis
#   estimate        estimate of a CDX of EST_CAPTURES captures (default
#                   2,800,000 of 28,000 URLs: with the URLs' own share,
#                   just under the default --max-observations),
#                   unsorted; estimate-shards (2 shards) and merge-estimate
# and extrapolates: ingest to the English Wikipedia stub history (27
# files, about 100 GB gzip, about 1.2 billion revisions), replay to
# WIKI_PAGES pages with ≥ 100 updates of WIKI_MEAN_UPDATES updates each
# (assumptions: see docs/scale-out.md) on CORES cores (default 64).
#
# The goal: every process within 256 MiB of peak RSS. Needs about 2 GB in
# TMPDIR (removed at exit) and, on 2 loaded cores, about 10 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
PAGES=${PAGES:-100000}
SPAN=${SPAN:-1y}
RATE_MU=${RATE_MU:--5.6}
RATE_SIGMA=${RATE_SIGMA:-1.5}
PARTS=${PARTS:-64}
SHARDS=${SHARDS:-64}
JOBS=${JOBS:-$(nproc)}
MIN_UPDATES=${MIN_UPDATES:-100}
TOP=${TOP:-100}
EST_CAPTURES=${EST_CAPTURES:-2800000}
FULL_REVS=${FULL_REVS:-1.2e9}
FULL_GZ=${FULL_GZ:-100e9}
WIKI_PAGES=${WIKI_PAGES:-1e6}
WIKI_MEAN_UPDATES=${WIKI_MEAN_UPDATES:-}
CORES=${CORES:-64}
BIN=${BIN:-bin/revisit}
[ -x "$BIN" ] || go build -o "$BIN" ./cmd/revisit
tmp=$(mktemp -d "${TMPDIR:-/tmp}/revisit-bench-scale.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

echo "scale benchmark: $PAGES pages over $SPAN, rates lognormal($RATE_MU, $RATE_SIGMA)/h; $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-15s %9s %9s %8s %9s  %s\n' stage wall_s cpu_s cpu/wall rss_MiB notes

# timed NAME CMD...: runs CMD under /usr/bin/time -v, leaves
# "wall cpu rss_kib" in $tmp/t/NAME.t (exit 1 with the log's tail on failure).
mkdir -p "$tmp/t"
timed() {
  local name=$1
  shift
  if ! /usr/bin/time -v -o "$tmp/t/$name.time" "$@" >"$tmp/t/$name.log" 2>&1; then
    echo "$name failed:" >&2
    tail -5 "$tmp/t/$name.log" >&2
    exit 1
  fi
  awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, a, ":"); w = 0; for (i = 1; i <= n; i++) w = w * 60 + a[i]}
    /User time/ {u = $2} /System time/ {s = $2} /Maximum resident set size/ {r = $2}
    END {print w, u + s, r}' "$tmp/t/$name.time" >"$tmp/t/$name.t"
}
# line NAME WALL CPU RSS_KIB NOTE: one line of the table.
line() {
  printf '%-15s %9.1f %9.1f %8.2f %9.0f  %s\n' "$1" "$2" "$3" "$(awk -v c="$3" -v w="$2" 'BEGIN {print (w > 0 ? c / w : 0)}')" \
    "$(awk -v r="$4" 'BEGIN {print r / 1024}')" "$5"
}
# stage NAME CMD...: one timed process and its line (NOTE from the environment).
stage() {
  timed "$@"
  local wall cpu rss
  read -r wall cpu rss <"$tmp/t/$1.t"
  line "$1" "$wall" "$cpu" "$rss" "${NOTE:-}"
}
# shards NAME CMD...: CMD run for i = 0…SHARDS−1 with {} replaced by i,
# JOBS at a time; one line: wall of all, CPU summed, the largest peak RSS.
shards() {
  local name=$1
  shift
  export -f timed
  export tmp
  local start end
  start=$(date +%s.%N)
  # xargs puts i for {} in every argument
  seq 0 $((SHARDS - 1)) | xargs -P "$JOBS" -I{} bash -c 'timed "$0-$1" "${@:2}"' "$name" {} "$@"
  end=$(date +%s.%N)
  cat "$tmp/t/$name"-*.t | awk -v w="$(awk -v a="$start" -v b="$end" 'BEGIN {print b - a}')" \
    '{c += $2; if ($3 > r) r = $3; if ($2 > m) m = $2} END {print w, c, r, m}' >"$tmp/t/$name.t"
  local wall cpu rss maxcpu
  read -r wall cpu rss maxcpu <"$tmp/t/$name.t"
  line "$name" "$wall" "$cpu" "$rss" "$SHARDS processes, $JOBS at a time; RSS the largest, CPU the sum (largest shard $maxcpu s)${NOTE:+; $NOTE}"
}
manifest() { grep -o "\"$2\": [0-9]*" "$1/manifest.json" | head -1 | awk '{print $2}'; }
jsonnum() { grep -o "\"$2\": *[0-9.e+-]*" "$1" | head -1 | awk -F: '{print $2 + 0}'; }

NOTE="(reference)" stage generate "$BIN" -q generate --pages "$PAGES" --span "$SPAN" --talk 0 \
  --model "exp:{lognormal:$RATE_MU,$RATE_SIGMA}" --seed 1 -o "$tmp/stub.xml.gz"
rm -f "$tmp/stub.truth.json"
gz=$(stat -c %s "$tmp/stub.xml.gz")

stage ingest "$BIN" -q ingest "$tmp/stub.xml.gz" -o "$tmp/ds"
revs=$(manifest "$tmp/ds" revisions_read)
pages=$(manifest "$tmp/ds" pages_kept)
read -r iwall icpu irss <"$tmp/t/ingest.t"
echo "                dump: $pages pages, $revs revisions, $gz bytes gzip ($(awk -v g="$gz" -v r="$revs" 'BEGIN {printf "%.1f", g / r}') B/revision); dataset $(du -sm "$tmp/ds" | cut -f1) MiB"
rm -rf "$tmp/ds"
NOTE="--parts $PARTS" stage ingest-parts "$BIN" -q ingest "$tmp/stub.xml.gz" --parts "$PARTS" -o "$tmp/dsp"
read -r _ _ prss <"$tmp/t/ingest-parts.t"
rm -f "$tmp/stub.xml.gz"
dsbytes=$(du -sb "$tmp/dsp" | cut -f1)

NOTE="--top $TOP" stage replay-top "$BIN" -q replay "$tmp/dsp" --top "$TOP" --seed 1 -o "$tmp/rtop"

mkdir -p "$tmp/rs"
NOTE="--top 0 --min-updates $MIN_UPDATES" shards replay-shards "$BIN" replay "$tmp/dsp" --top 0 --min-updates "$MIN_UPDATES" \
  --seed 1 --shard "{}/$SHARDS" -o "$tmp/rs/{}"
read -r rwall rcpu rrss _ <"$tmp/t/replay-shards.t"
grep -h "reads" "$tmp/t/replay-shards-0.log" | sed 's/^/                /' || true
cat "$tmp"/rs/*/shard.json | grep -o '"dataset_bytes_read": *[0-9]*' | awk -F: -v d="$dsbytes" -v n="$SHARDS" '
  {b = $2 + 0; s += b; if (min == "" || b < min) min = b; if (b > max) max = b}
  END {printf "                dataset read per shard: %.2f–%.2f MiB (mean %.2f MiB) of %.1f MiB: %.4f of the dataset (1/%d = %.4f)\n",
    min / 2^20, max / 2^20, s / NR / 2^20, d / 2^20, s / NR / d, n, 1 / n}'
stage merge-replay "$BIN" -q merge replay "$tmp"/rs/* -o "$tmp/rmerged"
rpages=$(jsonnum "$tmp/rmerged/replay.json" pages)
rrows=$(jsonnum "$tmp/rmerged/replay.json" rows)
rsize=$(stat -c %s "$tmp/rmerged/estimates.parquet")
echo "                replayed $rpages pages (≥ $MIN_UPDATES updates) of $pages, $rrows rows; estimates.parquet $(awk -v s="$rsize" 'BEGIN {printf "%.1f MiB, %.0f B per page", s / 2^20, s / '"${rpages:-1}"'}')"
# The replayed pages' updates, from the shards' page lists.
rupdates=$(cat "$tmp"/rs/*/shard.json | grep -o '"id": *[0-9]*, *"n": *[0-9]*' | awk -F: '{s += $3} END {print s + 0}')
rm -rf "$tmp/rs"

stage analyze "$BIN" -q analyze "$tmp/dsp" "$tmp/rtop" -o "$tmp/an"
mkdir -p "$tmp/as"
shards analyze-shards "$BIN" -q analyze "$tmp/dsp" "$tmp/rtop" --shard "{}/$SHARDS" -o "$tmp/as/{}"
stage merge-analysis "$BIN" -q merge analysis "$tmp"/as/* -o "$tmp/amerged"
if ! diff -rq "$tmp/an" "$tmp/amerged" >/dev/null; then echo "merged analysis differs from the unsharded one" >&2; exit 1; fi
rm -rf "$tmp/as" "$tmp/an" "$tmp/amerged"

awk -v n="$EST_CAPTURES" 'BEGIN {
  per = 100; urls = int(n / per)
  for (k = 0; k < per; k++) for (u = 0; u < urls; u++) {
    t = 1400000000 + k * 3600 + u % 60
    printf "com,example)/page/%07d %s http://example.com/page/%07d text/html 200 D%07dX%d 1000\n", u, strftime("%Y%m%d%H%M%S", t, 1), u, u, int(k / 7)
  }
}' >"$tmp/log.cdx"
NOTE="$EST_CAPTURES captures, unsorted" stage estimate "$BIN" -q estimate "$tmp/log.cdx" --methods naive,M6 -o "$tmp/est"
for i in 0 1; do
  NOTE="shard $i/2" stage estimate-$i "$BIN" -q estimate "$tmp/log.cdx" --methods naive,M6 --shard $i/2 -o "$tmp/est-$i"
done
stage merge-estimate "$BIN" -q merge estimate "$tmp/est-0" "$tmp/est-1" -o "$tmp/estm"
cmp -s "$tmp/est/estimates.parquet" "$tmp/estm/estimates.parquet" || { echo "merged estimate differs" >&2; exit 1; }
rm -rf "$tmp/log.cdx" "$tmp"/est*

echo
echo "peak RSS of every revisit process above: $(ls "$tmp"/t/*.t | grep -v /generate.t | xargs cat | awk '{if ($3 > r) r = $3} END {printf "%.0f MiB", r / 1024}') at most (goal ≤ 256 MiB)"
echo
echo "extrapolation to the English Wikipedia stub history ($FULL_REVS revisions, $FULL_GZ bytes gzip, 27 files):"
awk -v revs="$revs" -v gz="$gz" -v w="$iwall" -v c="$icpu" -v R="$FULL_REVS" -v G="$FULL_GZ" -v rss="$irss" -v prss="$prss" '
BEGIN {
  printf "  ingest rate: %.2f M revisions/s wall, %.2f M revisions per CPU-s, %.0f MB gzip/s wall\n", revs / w / 1e6, revs / c / 1e6, gz / w / 1e6
  hr = R / revs * w / 3600; hg = G / gz * w / 3600; hc = R / revs * c / 3600
  printf "  one ingest process, 27 files in a row: %.2f h scaled by revisions, %.2f h scaled by gzip bytes\n", hr, hg
  printf "  CPU: %.2f CPU-h, so ≥ %.2f h on 2 cores (CPU-bound bound), %s the goal of < 1 h\n", hc, hc / 2, (hc / 2 < 1 ? "within" : "NOT within")
  printf "  peak RSS: %.0f MiB (one file), %.0f MiB (--parts)\n", rss / 1024, prss / 1024
}'
awk -v p="$rpages" -v u="$rupdates" -v c="$rcpu" -v P="$WIKI_PAGES" -v U="${WIKI_MEAN_UPDATES:-0}" -v k="$CORES" -v n="$SHARDS" -v rss="$rrss" -v s="$rsize" '
BEGIN {
  if (p == "" || p == 0) exit
  if (U == 0) U = u / p
  printf "replay of every page with ≥ %s updates (default samplers, every method):\n", '"$MIN_UPDATES"'
  printf "  measured: %d pages, %.0f updates each on average, %.0f CPU-s in %d shard processes: %.1f CPU-ms per page, %.2f CPU-µs per update\n", p, u / p, c, n, c / p * 1e3, c / u * 1e6
  printf "  assumed: %.3g English Wikipedia pages with ≥ 100 updates, %.0f updates each on average%s\n", P, U, ("'"${WIKI_MEAN_UPDATES}"'" == "" ? " (the corpus mean)" : "")
  cp = c / p * P; cu = c / u * P * U
  printf "  CPU: %.1f CPU-h scaled by pages, %.1f CPU-h scaled by updates\n", cp / 3600, cu / 3600
  printf "  on %d cores (%d shard processes, 1 core each): %.1f min (by pages), %.1f min (by updates) of wall time, plus the merge\n", k, k, cp / k / 60, cu / k / 60
  printf "  output: %.0f B of estimates.parquet per page, so about %.1f GiB; peak RSS per shard %.0f MiB\n", s / p, s / p * P / 2^30, rss / 1024
}'
