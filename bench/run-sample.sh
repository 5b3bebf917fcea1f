#!/usr/bin/env bash
# bench/run-sample.sh: what `revisit run`'s default comparison on a random
# sample of pages costs against the 10 busiest pages it replaced.
#
# On the real 1,000-article enwiki sample (../shared/data/real, SOURCES.md
# §4; REAL overrides the folder), ingested once: `revisit run DATASET`
# (the default: a random sample of 50 of the pages with ≥ 99 intervals)
# and `revisit run DATASET --top 10`, in turn, RUNS times each; prints
# the median wall and CPU seconds and peak RSS of each (/usr/bin/time -v)
# and the median of the ratios sample/top-10 taken run by run.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
REAL=${REAL:-../shared/data/real}
IN=$REAL/wikipedia/Kevinisagirl__Wikipedia-Revisions-1000-articleid-sample/articlesthatareoldenough.txt.gz
if [ ! -f "$IN" ]; then
  echo "run-sample: $IN not found (set REAL to the real-data folder); skipped"
  exit 0
fi
. bench/lib.sh
bench_work

"$BIN" -q ingest "$IN" --id 0 --time 2 --title-column 1 -o "$WORK/ds" >/dev/null
# one: wall s, CPU s, peak KiB of a command, from /usr/bin/time -v
one() {
  /usr/bin/time -v "$@" >/dev/null 2>"$WORK/time.txt"
  awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); w = 0; for (i = 1; i <= n; i++) w = w * 60 + p[i] }
    /User time/ { u = $2 } /System time/ { s = $2 } /Maximum resident/ { m = $2 }
    END { printf "%.3f %.3f %d\n", w, u + s, m }' "$WORK/time.txt"
}
for i in $(seq "$RUNS"); do
  one "$BIN" -q run "$WORK/ds" -o "$WORK/sample" >>"$WORK/sample.txt"
  one "$BIN" -q run "$WORK/ds" --top 10 -o "$WORK/top" >>"$WORK/top.txt"
done
paste "$WORK/sample.txt" "$WORK/top.txt" >"$WORK/pairs.txt"
col() { cut -d' ' -f"$1" "$WORK/$2.txt" | median; }
echo "run on the enwiki sample (1,000 articles), $RUNS runs each in turn, medians; load now: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "  --sample 50 (default): wall %.2f s, CPU %.2f s, peak RSS %d MiB\n" "$(col 1 sample)" "$(col 2 sample)" "$(( $(col 3 sample) / 1024 ))"
printf "  --top 10:              wall %.2f s, CPU %.2f s, peak RSS %d MiB\n" "$(col 1 top)" "$(col 2 top)" "$(( $(col 3 top) / 1024 ))"
printf "  sample / top 10: wall %.2f, CPU %.2f (medians of the run-by-run ratios)\n" \
  "$(awk '{print $1 / $4}' "$WORK/pairs.txt" | median)" "$(awk '{print $2 / $5}' "$WORK/pairs.txt" | median)"
