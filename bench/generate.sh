#!/usr/bin/env bash
# bench/generate.sh: speed of `revisit generate` (MediaWiki XML), median of
# 3 runs each, as MB/s of uncompressed XML (wall clock, process start
# included): plain XML, gzip with pgzip (parallel, the default) and with
# klauspost/compress gzip (one goroutine), and the ratios between them;
# then `revisit ingest` on the same dump, for the ratio generate / ingest.
# BENCH_PAGES (default 100, about 120 MB of XML) sets the size.
set -euo pipefail
cd "$(dirname "$0")/.."
pages=${BENCH_PAGES:-100}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/revisit" ./cmd/revisit
gen() { "$tmp/revisit" generate -q --pages "$pages" --span 2y --model 'pareto:2,{lognormal:2,0.5}' --seed 1 "$@"; }
now() { date +%s.%N; }
median() { sort -g | sed -n 2p; }

gen -o "$tmp/warm.xml" # warm-up, and the uncompressed size every run writes
bytes=$(stat -c %s "$tmp/warm.xml")
rm -f "$tmp/warm.xml"
run() { # name, output, extra flags…
  local name=$1 out=$2; shift 2
  local rates=()
  for i in 1 2 3; do
    rm -f "$out"
    local t0 t1
    t0=$(now); gen -o "$out" "$@"; t1=$(now)
    rates+=("$(echo "$bytes / ($t1 - $t0) / 1000000" | bc -l)")
  done
  local m; m=$(printf '%s\n' "${rates[@]}" | median)
  printf '%-22s median %7.1f MB/s  (runs: %s)\n' "$name" "$m" "$(printf '%.1f ' "${rates[@]}")" >&2
  echo "$m"
}
xml=$(run "xml (no compression)" "$tmp/g.xml")
echo "uncompressed XML: $bytes bytes, $pages pages" >&2
pg=$(run "gzip: pgzip" "$tmp/g.xml.gz")
kg=$(run "gzip: klauspost" "$tmp/k.xml.gz" --gzip-impl gzip)
zsize=$(stat -c %s "$tmp/g.xml.gz")
# ingest reading the same dump (plain and gzip): generation should not be
# the slower side of `revisit generate | revisit ingest -`.
ing() { # name, input
  local rates=()
  for i in 1 2 3; do
    rm -rf "$tmp/ds"
    local t0 t1
    t0=$(now); "$tmp/revisit" -q ingest "$2" -o "$tmp/ds" --all-namespaces; t1=$(now)
    rates+=("$(echo "$bytes / ($t1 - $t0) / 1000000" | bc -l)")
  done
  local m; m=$(printf '%s\n' "${rates[@]}" | median)
  printf '%-22s median %7.1f MB/s  (runs: %s)\n' "$1" "$m" "$(printf '%.1f ' "${rates[@]}")" >&2
  echo "$m"
}
ixml=$(ing "ingest xml" "$tmp/g.xml")
igz=$(ing "ingest xml.gz" "$tmp/g.xml.gz")
printf 'compression ratio (pgzip BestSpeed): %.2f\n' "$(echo "$bytes / $zsize" | bc -l)"
printf 'ratio pgzip / klauspost gzip: %.2f\n' "$(echo "$pg / $kg" | bc -l)"
printf 'ratio pgzip / plain XML:      %.2f\n' "$(echo "$pg / $xml" | bc -l)"
printf 'ratio generate / ingest, plain XML: %.2f; gzip: %.2f\n' "$(echo "$xml / $ixml" | bc -l)" "$(echo "$pg / $igz" | bc -l)"
printf 'median MB/s: xml %.1f, pgzip %.1f, klauspost gzip %.1f (target ≥ 200 for XML)\n' "$xml" "$pg" "$kg"
echo "load average during the run: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
