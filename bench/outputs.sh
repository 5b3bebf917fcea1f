#!/usr/bin/env bash
# bench/outputs.sh: what recording and checking an output's content costs
# (internal/atomicdir: each file's SHA-256 and stamp in
# .revisit-entries.json). On a generated dataset (BENCH_PAGES pages,
# default 100,000, over 1 year, exp:0.05: about 200 MB), medians of RUNS
# runs (default 3), each step timed with /usr/bin/time -v in one run:
#   read     cat of the dataset's files to /dev/null (the bytes a hash reads)
#   merge    'revisit merge dataset DS -o NEW': hard links, then the hash of
#            every file at Commit (the worst case: nothing else to do; DS
#            was linked before, so its list no longer vouches for its files)
#   fresh    the same from an input whose list still vouches for its files
#            (written just before, never linked: the first merge of freshly
#            ingested parts), whose hashes the output takes over unread
#   replace  the same into the existing output: the check of the earlier
#            output (untouched: its stamps, no file read), then the merge
#   copied   the same into a copy of that output (cp -a: other inodes and
#            times, so the check hashes every file)
# and the ratios merge ÷ read, fresh ÷ merge, replace ÷ merge and copied ÷ merge, plus
# SHA-256 against the other standard-library hashes (go test -bench).
set -euo pipefail
cd "$(dirname "$0")/.."
pages=${BENCH_PAGES:-100000}
runs=${RUNS:-3}
. bench/lib.sh
bench_work
"$BIN" -q generate --pages "$pages" --span 1y --format parquet --model exp:0.05 --seed 1 -o "$WORK/ds"
bytes=$(du -sb "$WORK/ds" | cut -f1)

# wall seconds of a command (GNU time's "Elapsed" as seconds)
wall() {
  /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Elapsed \(wall clock\)/ {
    n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }'
}

: >"$WORK/read" ; : >"$WORK/merge" ; : >"$WORK/fresh" ; : >"$WORK/replace" ; : >"$WORK/copied"
"$BIN" -q merge dataset "$WORK/ds" -o "$WORK/m0" # DS linked once
for r in $(seq "$runs"); do
  rm -rf "$WORK/f" "$WORK/g" "$WORK/h"
  cp -a "$WORK/ds" "$WORK/f"
  "$BIN" -q merge dataset "$WORK/f" -o "$WORK/g" # g's list vouches for its files
  wall "$BIN" -q merge dataset "$WORK/g" -o "$WORK/h" >>"$WORK/fresh"
  wall sh -c "cat '$WORK'/ds/* >/dev/null" >>"$WORK/read"
  rm -rf "$WORK/m"
  wall "$BIN" -q merge dataset "$WORK/ds" -o "$WORK/m" >>"$WORK/merge"
  wall "$BIN" -q merge dataset "$WORK/ds" -o "$WORK/m" >>"$WORK/replace"
  rm -rf "$WORK/c"
  cp -a "$WORK/m" "$WORK/c"
  wall "$BIN" -q merge dataset "$WORK/ds" -o "$WORK/c" >>"$WORK/copied"
done
read=$(median <"$WORK/read"); merge=$(median <"$WORK/merge"); fresh=$(median <"$WORK/fresh")
replace=$(median <"$WORK/replace"); copied=$(median <"$WORK/copied")
printf "dataset %d bytes (%d pages), medians of %d runs (wall s)\n" "$bytes" "$pages" "$runs"
printf "  read %.3f  merge %.3f  fresh %.3f  replace %.3f  copied %.3f\n" "$read" "$merge" "$fresh" "$replace" "$copied"
printf "  merge ÷ read %.2f  fresh ÷ merge %.2f  replace ÷ merge %.2f  copied ÷ merge %.2f  hash rate at commit %.0f MB/s\n" \
  "$(echo "$merge / $read" | bc -l)" "$(echo "$fresh / $merge" | bc -l)" "$(echo "$replace / $merge" | bc -l)" "$(echo "$copied / $merge" | bc -l)" \
  "$(echo "$bytes / $merge / 1000000" | bc -l)"
go test -run '^$' -bench 'ContentHash|Check' ./internal/atomicdir | grep -E '^Benchmark'
