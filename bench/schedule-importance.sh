#!/usr/bin/env bash
# bench/schedule-importance.sh: the memory of `revisit schedule
# --importance` with an importance file far larger than the estimate, as
# Bing's: an estimate of BENCH_URLS URLs (default 300,000; a trace shaped
# like Bing's, URL_IDs 0, 60, 120, …, BENCH_CRAWLS daily crawls, default
# 20) and an importance file of BENCH_IMP lines (default 18,000,000: every
# URL_ID below BENCH_IMP, as urlid_imp.txt names every URL of the trace),
# in increasing URL_ID order and shuffled. Prints, for each of RUNS runs
# (default 3), wall, CPU and peak RSS (/usr/bin/time -v) of the schedule
# without --importance and with each file, and the medians. BIN runs a
# given binary (another build, to compare).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
urls=${BENCH_URLS:-300000}
crawls=${BENCH_CRAWLS:-20}
nimp=${BENCH_IMP:-18000000}
. bench/lib.sh
bench_work

awk -v n="$urls" -v k="$crawls" 'BEGIN {
  srand(1)
  for (u = 0; u < n; u++) {
    rate = exp(log(0.01) + rand() * log(200))
    printf "%d\t%.6f\t[", u * 60, rand()
    for (j = 0; j < k; j++) {
      d = 1 + (rand() - 0.5) * 0.02
      printf "%s[%.6f, %d]", (j ? ", " : ""), d, (rand() < 1 - exp(-rate * d))
    }
    print "]"
  }
}' >"$WORK/trace.txt"
"$BIN" -q estimate "$WORK/trace.txt" --format trace --methods naive,poisson-mle,M6 -o "$WORK/est"
awk -v n="$nimp" 'BEGIN { srand(2); for (u = 0; u < n; u++) printf "%d\t%.6g\n", u, rand() * 100 }' >"$WORK/imp-sorted.txt"
shuf --random-source=<(yes) "$WORK/imp-sorted.txt" >"$WORK/imp-shuffled.txt"
printf "estimate: %d URLs; importance files: %d lines, %d bytes\n" "$urls" "$nimp" "$(stat -c %s "$WORK/imp-sorted.txt")"

declare -A rss cpu
for name in none sorted shuffled; do
  args=()
  [ "$name" = none ] || args=(--importance "$WORK/imp-$name.txt")
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -v -o "$WORK/time" "$BIN" -q schedule "$WORK/est" --budget "$((urls / 10))/d" --no-sweep "${args[@]}" >/dev/null
    read -r w c r < <(awk '/User time/ {u=$NF} /System time/ {s=$NF} /Elapsed/ {w=$NF} /Maximum resident/ {r=$NF}
      END {printf "%s %.1f %d\n", w, u+s, r/1024}' "$WORK/time")
    printf "%-9s wall %s, CPU %s s, peak RSS %d MiB\n" "$name" "$w" "$c" "$r"
    rss[$name]+="$r "
    cpu[$name]+="$c "
  done
done
for name in none sorted shuffled; do
  printf "median %-9s CPU %s s, peak RSS %s MiB\n" "$name" \
    "$(tr ' ' '\n' <<<"${cpu[$name]}" | grep . | median)" "$(tr ' ' '\n' <<<"${rss[$name]}" | grep . | median)"
done
