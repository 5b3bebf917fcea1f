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
#
# Then sharding (SHARDS, default 4; 0 skips it): the trace, and a CDX
# sorted by urlkey (BENCH_CDX_URLS URLs, default 20,000, of 1–40 captures
# each), estimated as SHARDS separate `--shard i/N` processes with
# --shard-by hash (every shard reads every input) and auto (each reads its
# byte range): bytes read per shard (the kernel's rchar of the process,
# from /proc/PID/io of a shell around it), peak RSS of the shards and of
# the merge, and `merge estimate`
# of the shards compared with the unsharded estimate (cmp of
# estimates.parquet, urls.csv, tables/ and figures/). ONLY_SHARDS=1 runs
# only this part.
#
# BENCH_COMPANIONS=sorted (or shuffled) gives the trace its companion
# files, as Bing's: urlid_imp.txt and url_urlid_hostid.txt, one line per
# URL_ID (9 in 10 of the trace's, and ids the trace lacks), in increasing
# URL_ID order (or shuffled), passed with --importance and --urls to every
# run of the trace and its shards.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
urls=${BENCH_URLS:-100000}
crawls=${BENCH_CRAWLS:-98}
. bench/lib.sh
bench_work

# Then the two Poisson baselines together with every other default
# (`estimate --format trace --methods naive,poisson-mle --unit d`:
# compact curves, recovery on): median wall and CPU seconds (user + sys,
# GNU time) against the Python loop's, as revisit ÷ python (the goal is
# ≤ 0.1), and the peak RSS. BENCH_URLS=18000000 measures the real trace's
# size (BENCH_CRAWLS=8 keeps the file at 2.4 GB); BENCH_ONLY_DEFAULTS=1
# runs only the Python loop and this command.
#
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
comp=()
if [ -n "${BENCH_COMPANIONS:-}" ]; then
  awk -v n="$urls" 'BEGIN { srand(11); for (u = 0; u < n + n / 10; u++) if (u % 10 != 3) printf "%d\t%.6g\n", u, rand() * 100 }' > "$WORK/imp.txt"
  awk -v n="$urls" 'BEGIN { for (u = 0; u < n + n / 10; u++) if (u % 10 != 7) printf "https://www.host%d.example.com/articles/%d/page-%d.html\t%d\t%d\n", u % 5000, int(u / 7), u, u, u % 5000 }' > "$WORK/urls.txt"
  if [ "$BENCH_COMPANIONS" = shuffled ]; then
    for c in imp urls; do
      awk 'BEGIN { srand(13) } { printf "%.12f\t%s\n", rand(), $0 }' "$WORK/$c.txt" | sort -k1,1 -T "$WORK" | cut -f2- > "$WORK/$c.shuf"
      mv "$WORK/$c.shuf" "$WORK/$c.txt"
    done
  fi
  comp=(--importance "$WORK/imp.txt" --urls "$WORK/urls.txt")
  printf "companions (%s): %d + %d bytes\n" "$BENCH_COMPANIONS" "$(stat -c %s "$WORK/imp.txt")" "$(stat -c %s "$WORK/urls.txt")"
fi

shards() {
  local n=${SHARDS:-4} f fmtargs by i out r0 r1 in size tot
  [ "$n" -gt 0 ] || return 0
  awk -v n="${BENCH_CDX_URLS:-20000}" 'BEGIN {
    srand(3)
    for (u = 0; u < n; u++) {
      k = 1 + int(rand() * 40); d = 0
      for (j = 0; j < k; j++) {
        if (rand() < 0.3) d++
        printf "com,example)/p%07d %04d%02d%02d000000 http://example.com/p%07d text/html 200 D%d 1000\n", u, 2000 + int(j / 12), 1 + j % 12, 1 + int(rand() * 28), u, d
      }
    }
  }' > "$WORK/sorted.cdx"
  for f in trace sorted; do
    if [ "$f" = trace ]; then in="$WORK/trace.txt"; fmtargs=(--format trace --unit d ${comp[@]+"${comp[@]}"}); else in="$WORK/sorted.cdx"; fmtargs=(--sorted --unit d); fi
    size=$(stat -c %s "$in")
    rm -rf "$WORK/one"
    "$BIN" -q estimate "$in" "${fmtargs[@]}" --methods naive,poisson-mle --no-recover -o "$WORK/one" >/dev/null
    printf "shards of %s (%d bytes), N = %d:\n" "$(basename "$in")" "$size" "$n"
    bys="hash auto" byflag=(--shard-by)
    case "$("$BIN" estimate --help 2>&1 || true)" in
      *--shard-by*) ;;
      *) bys=hash byflag=() ;; # an older revisit: every shard reads every input
    esac
    for by in $bys; do
      tot=0
      for i in $(seq 0 $((n - 1))); do
        out="$WORK/s-$by-$i"
        rm -rf "$out"
        # rchar of a shell that runs the shard: the shard's, added when it is reaped
        read -r r0 r1 rss < <(bash -c 'rc() { local k v; while read -r k v; do [ "$k" = rchar: ] && echo "$v"; done < /proc/$$/io; }
          a=$(rc); /usr/bin/time -o "$0.rss" -f %M "$@" >/dev/null; b=$(rc); echo "$a $b $(cat "$0.rss")"' "$WORK/t" \
          "$BIN" -q estimate "$in" "${fmtargs[@]}" --methods naive,poisson-mle --no-recover --shard "$i/$n" ${byflag[@]+"${byflag[@]}"} ${byflag[@]+"$by"} -o "$out")
        tot=$((tot + r1 - r0))
        printf "  --shard-by %-4s shard %d/%d: read %11d bytes = %5.3f of the input; peak RSS %4d MiB\n" "$by" "$i" "$n" $((r1 - r0)) "$(echo "($r1 - $r0) / $size" | bc -l)" $((rss / 1024))
      done
      rm -rf "$WORK/m-$by"
      /usr/bin/time -o "$WORK/merge.rss" -f %M "$BIN" -q merge estimate "$WORK"/s-"$by"-* -o "$WORK/m-$by" >/dev/null
      same=identical
      for x in estimates.parquet urls.csv; do cmp -s "$WORK/one/$x" "$WORK/m-$by/$x" || same="DIFFERENT ($x)"; done
      diff -rq "$WORK/one/tables" "$WORK/m-$by/tables" >/dev/null && diff -rq "$WORK/one/figures" "$WORK/m-$by/figures" >/dev/null || same="DIFFERENT (tables or figures)"
      printf "  --shard-by %-4s all shards read %d bytes = %.3f × the input; merge peak RSS %d MiB; merged vs unsharded: %s\n" "$by" "$tot" "$(echo "$tot / $size" | bc -l)" $(($(cat "$WORK/merge.rss") / 1024)) "$same"
    done
  done
}
if [ -n "${ONLY_SHARDS:-}" ]; then
  shards
  exit 0
fi

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
TIMEFORMAT='%R %U %S'
py="" pycpu=""
if command -v python3 >/dev/null; then
  for i in $(seq "$RUNS"); do { time python3 "$WORK/lambdacrawl.py" "$WORK/trace.txt" >/dev/null; } 2>>"$WORK/py.txt"; done
  py=$(awk '{print $1}' "$WORK/py.txt" | median)
  pycpu=$(awk '{print $2 + $3}' "$WORK/py.txt" | median)
  echo "  python LambdaCrawl loop: median $py s wall, $pycpu s CPU"
fi
# peak RSS with GNU time when there is one
gtime=""
[ -x /usr/bin/time ] && /usr/bin/time -f %M true 2>/dev/null && gtime=/usr/bin/time
methods="naive poisson-mle"
[ -n "${BENCH_ONLY_DEFAULTS:-}" ] && methods=""
for m in $methods; do
  for c in full compact; do
    rm -f "$WORK/t.txt" "$WORK/rss.txt"
    for i in $(seq "$RUNS"); do
      rm -rf "$WORK/out"
      if [ -n "$gtime" ]; then
        { time $gtime -o "$WORK/rss1.txt" -f %M "$BIN" -q estimate "$WORK/trace.txt" --format trace --methods "$m" --no-recover --unit d --curves "$c" ${comp[@]+"${comp[@]}"} -o "$WORK/out" >/dev/null; } 2>>"$WORK/t.txt"
        cat "$WORK/rss1.txt" >>"$WORK/rss.txt"
      else
        { time "$BIN" -q estimate "$WORK/trace.txt" --format trace --methods "$m" --no-recover --unit d --curves "$c" ${comp[@]+"${comp[@]}"} -o "$WORK/out" >/dev/null; } 2>>"$WORK/t.txt"
      fi
    done
    t=$(awk '{print $1}' "$WORK/t.txt" | median)
    b=$(stat -c %s "$WORK/out/estimates.parquet")
    printf "  %-11s --curves %-7s median %6.2f s, %9d bytes = %6.0f bytes per URL; 18 M URLs ≈ %5.0f s" \
      "$m" "$c" "$t" "$b" "$(echo "$b / $urls" | bc -l)" "$(echo "$t * 18000000 / $urls" | bc -l)"
    [ -n "$py" ] && printf "; python/revisit = %.2f×" "$(echo "$py / $t" | bc -l)"
    [ -s "$WORK/rss.txt" ] && printf "; peak RSS %.0f MiB" "$(echo "$(sort -g "$WORK/rss.txt" | tail -1) / 1024" | bc -l)"
    echo
  done
done
# the issue's command: both baselines, every other option at its default
rm -f "$WORK/t.txt" "$WORK/rss.txt"
for i in $(seq "$RUNS"); do
  rm -rf "$WORK/out"
  if [ -n "$gtime" ]; then
    { time $gtime -o "$WORK/rss1.txt" -f %M "$BIN" -q estimate "$WORK/trace.txt" --format trace --methods naive,poisson-mle --unit d ${comp[@]+"${comp[@]}"} -o "$WORK/out" >/dev/null; } 2>>"$WORK/t.txt"
    cat "$WORK/rss1.txt" >>"$WORK/rss.txt"
  else
    { time "$BIN" -q estimate "$WORK/trace.txt" --format trace --methods naive,poisson-mle --unit d ${comp[@]+"${comp[@]}"} -o "$WORK/out" >/dev/null; } 2>>"$WORK/t.txt"
  fi
done
t=$(awk '{print $1}' "$WORK/t.txt" | median)
tcpu=$(awk '{print $2 + $3}' "$WORK/t.txt" | median)
printf "  naive,poisson-mle (defaults): median %.2f s wall, %.2f s CPU" "$t" "$tcpu"
[ -n "$py" ] && printf "; revisit ÷ python = %.3f wall, %.3f CPU (goal ≤ 0.1)" "$(echo "$t / $py" | bc -l)" "$(echo "$tcpu / $pycpu" | bc -l)"
[ -s "$WORK/rss.txt" ] && printf "; peak RSS %.0f MiB" "$(echo "$(sort -g "$WORK/rss.txt" | tail -1) / 1024" | bc -l)"
echo
shards
