#!/usr/bin/env bash
# bench/trace-estimate.sh: `revisit estimate` on a synthetic trace shaped
# like Bing's (BENCH_URLS URLs, default 100,000, × BENCH_CRAWLS daily
# crawls, default 98; URL_ID<TAB>first crawl offset<TAB>[[delay_days,
# changed], …]), with naive and poisson-mle, --no-recover, --curves full
# and compact: median wall time of RUNS runs and bytes of estimates.parquet
# per URL; against a plain Python loop doing LambdaCrawl's per-URL
# bisection MLE of the Poisson rate (the reference; skipped without
# python3), the time extrapolated to the real trace's 18 M URLs
# (linearly: per URL the work is the same), and the largest peak RSS of
# the runs (with GNU time). BIN runs a given binary; `revisit estimate`
# uses every core (--workers).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
urls=${BENCH_URLS:-100000}
crawls=${BENCH_CRAWLS:-98}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
BIN=${BIN:-}
if [ -z "$BIN" ]; then
  BIN="$WORK/revisit"
  go build -o "$BIN" ./cmd/revisit
fi
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# Each URL changes as a Poisson process of its own rate (log-uniform over
# 0.01–2 per day); crawls are daily, with a few longer gaps.
awk -v n="$urls" -v k="$crawls" 'BEGIN {
  srand(1)
  for (u = 0; u < n; u++) {
    rate = exp(log(0.01) + rand() * log(200))
    printf "%d\t%.6f\t[", u, rand()
    for (j = 0; j < k; j++) {
      d = (rand() < 0.05) ? 2 + int(rand() * 3) : 1
      d += (rand() - 0.5) * 0.02
      printf "%s[%.6f, %d]", (j ? ", " : ""), d, (rand() < 1 - exp(-rate * d))
    }
    print "]"
  }
}' > "$WORK/trace.txt"
printf "trace: %d URLs × %d crawls, %d bytes\n" "$urls" "$crawls" "$(stat -c %s "$WORK/trace.txt")"

cat > "$WORK/lambdacrawl.py" <<'PY'
import json, math, sys

def mle(pairs):
    # LambdaCrawl's MLE of a Poisson change rate from change bits over
    # delays tau: solve sum_changed tau e^{-l tau}/(1-e^{-l tau}) = sum_unchanged tau by bisection.
    ch = [t for t, c in pairs if c]
    un = sum(t for t, c in pairs if not c)
    if not ch:
        return 0.0
    if un == 0:
        return math.inf
    lo, hi = 1e-9, 1e3
    for _ in range(60):
        mid = (lo + hi) / 2
        f = sum(t * math.exp(-mid * t) / -math.expm1(-mid * t) for t in ch) - un
        if f > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2

n = 0
with open(sys.argv[1]) as f:
    for line in f:
        _, _, js = line.rstrip("\n").split("\t", 2)
        mle(json.loads(js))
        n += 1
print(n)
PY
TIMEFORMAT='%R'
py=""
if command -v python3 >/dev/null; then
  for i in $(seq "$RUNS"); do { time python3 "$WORK/lambdacrawl.py" "$WORK/trace.txt" >/dev/null; } 2>>"$WORK/py.txt"; done
  py=$(median <"$WORK/py.txt")
  echo "  python LambdaCrawl loop: median $py s"
fi
# peak RSS with GNU time when there is one
gtime=""
[ -x /usr/bin/time ] && /usr/bin/time -f %M true 2>/dev/null && gtime=/usr/bin/time
for m in naive poisson-mle; do
  for c in full compact; do
    rm -f "$WORK/t.txt" "$WORK/rss.txt"
    for i in $(seq "$RUNS"); do
      rm -rf "$WORK/out"
      if [ -n "$gtime" ]; then
        { time $gtime -o "$WORK/rss1.txt" -f %M "$BIN" -q estimate "$WORK/trace.txt" --format trace --methods "$m" --no-recover --unit d --curves "$c" -o "$WORK/out" >/dev/null; } 2>>"$WORK/t.txt"
        cat "$WORK/rss1.txt" >>"$WORK/rss.txt"
      else
        { time "$BIN" -q estimate "$WORK/trace.txt" --format trace --methods "$m" --no-recover --unit d --curves "$c" -o "$WORK/out" >/dev/null; } 2>>"$WORK/t.txt"
      fi
    done
    t=$(median <"$WORK/t.txt")
    b=$(stat -c %s "$WORK/out/estimates.parquet")
    printf "  %-11s --curves %-7s median %6.2f s, %9d bytes = %6.0f bytes per URL; 18 M URLs ≈ %5.0f s" \
      "$m" "$c" "$t" "$b" "$(echo "$b / $urls" | bc -l)" "$(echo "$t * 18000000 / $urls" | bc -l)"
    [ -n "$py" ] && printf "; python/revisit = %.2f×" "$(echo "$py / $t" | bc -l)"
    [ -s "$WORK/rss.txt" ] && printf "; peak RSS %.0f MiB" "$(echo "$(sort -g "$WORK/rss.txt" | tail -1) / 1024" | bc -l)"
    echo
  done
done
