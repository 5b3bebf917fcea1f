#!/usr/bin/env bash
# bench/ingest.sh — ingest benchmarks, run by `make bench`.
# Prints medians of RUNS runs (default 3) and ratios measured in this run:
#   1. parser alone on plain XML (MB/s): a synthetic stub-meta-history dump
#      (bench/stubgen, STUB_SIZE, default 200MB) and the real 1 GB full-text
#      history large.xml.lzma, decompressed to a temp file first;
#   2. end to end on the gzip stub dump: wall time of `revisit ingest`
#      divided by `gzip -dc > /dev/null` on the same file (goal ≤ 1.3);
#   3. peak RSS of `revisit ingest` on a BIG_SIZE (default 2.1GB) plain XML
#      dump with /usr/bin/time -v (goal ≤ 256 MiB).
# Set SKIP_RSS=1 to skip 3 (it writes BIG_SIZE to TMPDIR).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
STUB_SIZE=${STUB_SIZE:-200MB}
BIG_SIZE=${BIG_SIZE:-2.1GB}
BIN=${BIN:-bin/revisit}
[ -x "$BIN" ] || go build -o "$BIN" ./cmd/revisit
tmp=$(mktemp -d "${TMPDIR:-/tmp}/revisit-bench-ingest.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

. bench/lib.sh
# seconds of wall time of a command (3 decimals)
walltime() { local TIMEFORMAT=%R; { time "$@" >/dev/null 2>&1; } 2>&1; }
# A Go file benchmark run RUNS times, three passes each; prints per run the wall
# MB/s and the MB/s per CPU second (bytes / (user + sys)): on a shared VM
# with CPU steal the second is the steadier measure of work per core.
gobench() { # pkg bench env=value bytes
  local bin="$tmp/$(basename "$1").test"
  [ -x "$bin" ] || go test -c -o "$bin" "$1"
  for _ in $(seq "$RUNS"); do
    env "$3" /usr/bin/time -f '%U %S' -o "$tmp/cpu" "$bin" -test.run XXX -test.bench "^$2\$" -test.benchtime 3x |
      awk '/MB\/s/ {for (i = 1; i <= NF; i++) if ($i == "MB/s") printf "%s ", $(i-1)}'
    awk -v b="$4" '{printf "%.0f\n", 3 * b / ($1 + $2) / 1e6}' "$tmp/cpu"
  done
}
# median of column k of "wall cpu" lines
col() { awk -v k="$1" '{print $k}' | median; }

echo "ingest benchmarks: $RUNS runs each, medians; $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
go build -o "$tmp/stubgen" ./bench/stubgen
"$tmp/stubgen" -size "$STUB_SIZE" > "$tmp/stub.xml"
gzip -6 -c "$tmp/stub.xml" > "$tmp/stub.xml.gz"
stub_bytes=$(stat -c %s "$tmp/stub.xml")
gz_bytes=$(stat -c %s "$tmp/stub.xml.gz")
printf 'stub dump: %s bytes plain, %s bytes gzip\n' "$stub_bytes" "$gz_bytes"

# 1. parser alone
gobench ./ingest/mediawiki BenchmarkFile "REVISIT_BENCH_XML=$tmp/stub.xml" "$stub_bytes" > "$tmp/p1"
printf '1. parser alone, stub-style XML:      %5.0f MB/s wall, %5.0f MB/s per CPU second (goal ≥ 500 per core)\n' "$(col 1 < "$tmp/p1")" "$(col 2 < "$tmp/p1")"
real=${REVISIT_REAL_DATA:-../shared/data/real}
large="$real/wikipedia/maribelacosta__wikiwho/large.xml.lzma"
if [ -f "$large" ]; then
  xz --format=lzma -dc "$large" > "$tmp/large.xml"
  gobench ./ingest/mediawiki BenchmarkFile "REVISIT_BENCH_XML=$tmp/large.xml" "$(stat -c %s "$tmp/large.xml")" > "$tmp/p2"
  printf '   parser alone, real 1 GB full text: %5.0f MB/s wall, %5.0f MB/s per CPU second (goal ≥ 1000 per core)\n' "$(col 1 < "$tmp/p2")" "$(col 2 < "$tmp/p2")"
  rm -f "$tmp/large.xml"
else
  echo "   (real data not found at $real: large.xml.lzma skipped)"
fi
unz=$stub_bytes
for d in Pgzip Klauspost Stdlib; do
  gobench ./internal/decompress "BenchmarkGzip$d" "REVISIT_BENCH_GZ=$tmp/stub.xml.gz" "$unz" > "$tmp/g$d"
done
printf '   gzip decoders, MB/s wall (per CPU s): pgzip %.0f (%.0f), klauspost %.0f (%.0f), stdlib %.0f (%.0f)\n' \
  "$(col 1 < "$tmp/gPgzip")" "$(col 2 < "$tmp/gPgzip")" "$(col 1 < "$tmp/gKlauspost")" "$(col 2 < "$tmp/gKlauspost")" \
  "$(col 1 < "$tmp/gStdlib")" "$(col 2 < "$tmp/gStdlib")"

# 2. end to end against gzip -dc, interleaved so load changes hit both
: > "$tmp/gz.t"; : > "$tmp/ing.t"
for i in $(seq "$RUNS"); do
  walltime sh -c "gzip -dc '$tmp/stub.xml.gz' > /dev/null" >> "$tmp/gz.t"
  walltime "$BIN" -q ingest "$tmp/stub.xml.gz" -o "$tmp/ds" >> "$tmp/ing.t"
done
t_gz=$(median < "$tmp/gz.t")
t_ing=$(median < "$tmp/ing.t")
awk -v g="$t_gz" -v i="$t_ing" -v b="$stub_bytes" 'BEGIN {
  printf "2. end to end, gzip stub dump:  gzip -dc %.3f s (%.0f MB/s), revisit ingest %.3f s (%.0f MB/s): ratio %.2f (goal ≤ 1.3)\n",
    g, b / g / 1e6, i, b / i / 1e6, i / g }'

# 3. peak RSS on a big plain dump
if [ "${SKIP_RSS:-0}" = 1 ]; then
  echo "3. peak RSS: skipped (SKIP_RSS=1)"
elif [ ! -x /usr/bin/time ]; then
  echo "3. peak RSS: /usr/bin/time missing (apt-get install -y time)"
else
  "$tmp/stubgen" -size "$BIG_SIZE" > "$tmp/big.xml"
  /usr/bin/time -v "$BIN" -q ingest "$tmp/big.xml" -o "$tmp/ds-big" 2> "$tmp/rss.log" >/dev/null
  awk -v b="$(stat -c %s "$tmp/big.xml")" '/Maximum resident set size/ {kb = $NF} /Elapsed \(wall clock\)/ {w = $NF}
    END { printf "3. peak RSS, %.2f GB plain XML dump: %.0f MiB (goal ≤ 256), wall %s\n", b / 1e9, kb / 1024, w }' "$tmp/rss.log"
fi
