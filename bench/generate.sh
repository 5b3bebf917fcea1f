#!/usr/bin/env bash
# bench/generate.sh: speed of `revisit generate` (MediaWiki XML), median of
# 3 runs each, as MB/s of uncompressed XML — by wall clock (process start
# included) and by CPU time (user+sys, which a loaded shared box disturbs
# less): plain XML, gzip with pgzip (parallel, the default) and with
# klauspost/compress gzip (one goroutine); then `revisit ingest` on the
# same dump, for the ratio generate / ingest (generation must not be the
# slow side of `revisit generate | revisit ingest -`).
# BENCH_PAGES (default 100, about 120 MB of XML) sets the size.
set -euo pipefail
cd "$(dirname "$0")/.."
pages=${BENCH_PAGES:-100}
. bench/lib.sh
BIN="" # the code as it is now, always built
bench_work
tmp=$WORK
gen=("$BIN" generate -q --pages "$pages" --span 2y --model 'pareto:2,{lognormal:2,0.5}' --seed 1)

"${gen[@]}" -o "$tmp/warm.xml" # warm-up, and the uncompressed size every run writes
bytes=$(stat -c %s "$tmp/warm.xml")
mv "$tmp/warm.xml" "$tmp/g.xml"

# measure NAME CMD…: runs CMD 3 times; prints "wall_median cpu_median" (MB/s).
measure() {
  local name=$1; shift
  local walls=() cpus=()
  for i in 1 2 3; do
    rm -rf "$tmp"/out* "$tmp/ds" # out.xml, out.xml.gz and their truth out.truth.json
    /usr/bin/time -f "%e %U %S" -o "$tmp/time" "$@"
    read -r e u s < "$tmp/time"
    walls+=("$(echo "$bytes / $e / 1000000" | bc -l)")
    cpus+=("$(echo "$bytes / ($u + $s + 0.001) / 1000000" | bc -l)")
  done
  local w c
  w=$(printf '%s\n' "${walls[@]}" | median)
  c=$(printf '%s\n' "${cpus[@]}" | median)
  printf '%-24s wall %7.1f MB/s (runs %s)  cpu %7.1f MB/s\n' "$name" "$w" "$(printf '%.0f ' "${walls[@]}")" "$c" >&2
  echo "$w $c"
}
read -r xw xc < <(measure "generate xml" "${gen[@]}" -o "$tmp/out.xml")
read -r pw pc < <(measure "generate gzip (pgzip)" "${gen[@]}" -o "$tmp/out.xml.gz")
read -r kw kc < <(measure "generate gzip (klauspost)" "${gen[@]}" -o "$tmp/out.xml.gz" --gzip-impl gzip)
"${gen[@]}" -o "$tmp/g.xml.gz"
zsize=$(stat -c %s "$tmp/g.xml.gz")
read -r iw ic < <(measure "ingest xml" "$BIN" -q ingest "$tmp/g.xml" -o "$tmp/ds" --all-namespaces)
read -r jw jc < <(measure "ingest xml.gz" "$BIN" -q ingest "$tmp/g.xml.gz" -o "$tmp/ds" --all-namespaces)

echo "uncompressed XML: $bytes bytes, $pages pages; gzip (pgzip BestSpeed) ratio $(printf '%.2f' "$(echo "$bytes / $zsize" | bc -l)")"
printf 'median MB/s (wall | cpu): xml %.0f | %.0f, pgzip %.0f | %.0f, klauspost gzip %.0f | %.0f (target ≥ 200 for XML)\n' "$xw" "$xc" "$pw" "$pc" "$kw" "$kc"
printf 'ratio pgzip / klauspost gzip (wall): %.2f\n' "$(echo "$pw / $kw" | bc -l)"
printf 'ratio generate / ingest (wall): plain XML %.2f, gzip %.2f\n' "$(echo "$xw / $iw" | bc -l)" "$(echo "$pw / $jw" | bc -l)"
printf 'ratio generate / ingest (cpu):  plain XML %.2f, gzip %.2f\n' "$(echo "$xc / $ic" | bc -l)" "$(echo "$pc / $jc" | bc -l)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
