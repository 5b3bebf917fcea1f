#!/usr/bin/env bash
# bench/estimate-memory.sh: memory of `revisit estimate` against
# --max-observations. Generates (awk) a CDX of BENCH_CAPTURES captures
# (default 2,000,000) of URLs of BENCH_PER_URL captures each (default 100),
# unsorted (every URL is held until the end), and a Bing trace line of
# BENCH_PAIRS pairs (default 4,000,000); runs `revisit estimate --methods
# naive` (the reader's memory, not the estimators') and prints the peak
# RSS (/usr/bin/time -v), the peak less that of a one-URL log, and that
# per capture held. The trace line is also run under a cap below its
# pairs, which must refuse it (exit 1) at a peak RSS about the line's bytes.
#
# Then memory against the number of URLs of a trace: for each count in
# BENCH_TRACE_URLS (default "100000 1000000"; the real Bing trace has 18 M),
# a trace of that many URLs (URL_IDs in increasing order, as Bing's) of
# BENCH_TRACE_CRAWLS crawls each (default 8, to keep the files small) is
# estimated with naive, compact curves; peak RSS and its growth per URL
# over the first count. BENCH_ONLY_URLS=1 runs only this part. BIN runs a
# given binary (e.g. an older build, for a before/after).
#
# BENCH_COMPANIONS=sorted (or shuffled) gives each trace its companion
# files, as Bing's: urlid_imp.txt and url_urlid_hostid.txt of one line per
# URL_ID (URLs of about 60 bytes), in increasing URL_ID order (or shuffled),
# passed with --importance and --urls. BENCH_ARGS are more arguments of
# every run (e.g. --max-observations 100000000 for a build that holds the
# companion files in memory under the cap).
#
# Then trace ids out of order: BENCH_LONG_IDS ids (default 200,000) of
# BENCH_ID_BYTES bytes each (default 3,000: 600 MB of ids), shuffled, two
# crawls each, estimated under the default cap: peak RSS and exit status
# (the ids held to refuse a duplicate are 128-bit hashes counted under
# --max-observations, not the ids). BENCH_ONLY_LONG_IDS=1 runs only this
# part.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${BENCH_CAPTURES:-2000000}
per=${BENCH_PER_URL:-100}
pairs=${BENCH_PAIRS:-4000000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -n "${BIN:-}" ]; then cp "$BIN" "$tmp/revisit"; else go build -o "$tmp/revisit" ./cmd/revisit; fi

# peak FILE ARGS…: peak RSS in KiB of revisit estimate FILE ARGS… (and its exit status)
peak() {
  local f=$1; shift
  rm -rf "$tmp/out"
  set +e
  /usr/bin/time -v -o "$tmp/time" "$tmp/revisit" -q estimate "$f" --methods naive -o "$tmp/out" "$@" 2>"$tmp/err"
  local rc=$?
  set -e
  echo "$(awk '/Maximum resident set size/ {print $NF}' "$tmp/time") $rc"
}

by_urls() {
  local first="" firstn=0 k p rc f
  for k in ${BENCH_TRACE_URLS:-100000 1000000}; do
    f="$tmp/urls-$k.tsv"
    awk -v n="$k" -v c="${BENCH_TRACE_CRAWLS:-8}" 'BEGIN {
      srand(7)
      for (u = 1; u <= n; u++) {
        printf "%d\t%.6f\t[", u, rand()
        for (j = 0; j < c; j++) printf "%s[%.6f, %d]", (j ? ", " : ""), 1 + (rand() - 0.5) * 0.02, (rand() < 0.3)
        print "]"
      }
    }' > "$f"
    comp=() label=""
    if [ -n "${BENCH_COMPANIONS:-}" ]; then
      awk -v n="$k" 'BEGIN { srand(11); for (u = 1; u <= n; u++) printf "%d\t%.6g\n", u, rand() * 100 }' > "$tmp/imp-$k.txt"
      awk -v n="$k" 'BEGIN { for (u = 1; u <= n; u++) printf "https://www.host%d.example.com/articles/%d/page-%d.html\t%d\t%d\n", u % 50000, int(u / 7), u, u, u % 50000 }' > "$tmp/urls-$k.txt"
      if [ "$BENCH_COMPANIONS" = shuffled ]; then
        for c in imp urls; do
          awk 'BEGIN { srand(13) } { printf "%.12f\t%s\n", rand(), $0 }' "$tmp/$c-$k.txt" | sort -k1,1 -T "$tmp" | cut -f2- > "$tmp/$c-$k.shuf"
          mv "$tmp/$c-$k.shuf" "$tmp/$c-$k.txt"
        done
      fi
      comp=(--importance "$tmp/imp-$k.txt" --urls "$tmp/urls-$k.txt")
      label=" + companions ($BENCH_COMPANIONS, $(stat -c %s "$tmp/imp-$k.txt") + $(stat -c %s "$tmp/urls-$k.txt") B)"
    fi
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086
    read -r p rc < <(GODEBUG=gctrace=1 peak "$f" --format trace --unit d --no-recover --curves compact "${comp[@]}" ${BENCH_ARGS:-})
    t1=$(date +%s.%N)
    # the largest live heap the collector marked (gctrace's "a->b->LIVE MB")
    live=$(grep -o '[0-9]*->[0-9]*->[0-9]* MB' "$tmp/err" | sed 's/.*->//; s/ MB//' | sort -n | tail -1)
    printf "trace of %9d URLs × %s crawls (%d B)%s: %6.1f s, peak RSS %4d MiB, largest live heap %s MB (exit %s)" "$k" "${BENCH_TRACE_CRAWLS:-8}" "$(stat -c %s "$f")" "$label" "$(echo "$t1 - $t0" | bc -l)" $((p / 1024)) "${live:-?}" "$rc"
    if [ "$rc" != 0 ]; then printf " [%s]" "$(grep -v '^gc \|^GC\|scvg' "$tmp/err" | tail -1 | cut -c1-160)"; fi
    rm -f "$f" "$tmp/imp-$k.txt" "$tmp/urls-$k.txt"
    if [ -z "$first" ]; then
      first=$p firstn=$k
      echo
    else
      awk -v p="$p" -v f="$first" -v k="$k" -v n="$firstn" 'BEGIN { printf "; %+.1f B per URL over %d URLs\n", (p - f) * 1024 / (k - n), n }'
    fi
  done
}
long_ids() {
  local k=${BENCH_LONG_IDS:-200000} b=${BENCH_ID_BYTES:-3000} f="$tmp/long-ids.tsv" p rc
  awk -v n="$k" 'BEGIN { srand(17); for (u = 1; u <= n; u++) printf "%.12f\t%d\n", rand(), u }' | sort -k1,1 -T "$tmp" | cut -f2 |
    awk -v w="$b" '{ printf "%0" w "d\t[[1, 0], [1, 1]]\n", $1 }' > "$f"
  read -r p rc < <(peak "$f" --format trace --unit d --no-recover --curves compact)
  printf "trace of %d ids of %d bytes out of order (%d B): peak RSS %d MiB (exit %s)" "$k" "$b" "$(stat -c %s "$f")" $((p / 1024)) "$rc"
  if [ "$rc" != 0 ]; then printf " [%s]" "$(tail -1 "$tmp/err" | cut -c1-200)"; fi
  echo
  rm -f "$f"
}
if [ -n "${BENCH_ONLY_URLS:-}" ]; then
  by_urls
  exit 0
fi
if [ -n "${BENCH_ONLY_LONG_IDS:-}" ]; then
  long_ids
  exit 0
fi

awk -v n="$n" -v per="$per" 'BEGIN {
  urls = int(n / per)
  for (k = 0; k < per; k++) for (u = 0; u < urls; u++) {
    t = 1400000000 + k * 3600 + u % 60
    printf "com,example)/page/%07d %s http://example.com/page/%07d text/html 200 D%07dX%d 1000\n", u, strftime("%Y%m%d%H%M%S", t, 1), u, u, int(k / 7)
  }
}' > "$tmp/big.cdx"
head -3 "$tmp/big.cdx" > "$tmp/small.cdx"
awk -v n="$pairs" 'BEGIN { printf "1\t0.5\t["; for (i = 0; i < n; i++) { if (i) printf ", "; printf "[1.0%05d, %d]", i % 100000, (i % 3 == 0) } print "]" }' > "$tmp/trace.txt"

read -r base _ < <(peak "$tmp/small.cdx")
read -r big rc < <(peak "$tmp/big.cdx")
echo "cdx: $n captures of $((n / per)) URLs ($(stat -c %s "$tmp/big.cdx") B): peak RSS $((big / 1024)) MiB (exit $rc), one-URL log $((base / 1024)) MiB"
awk -v b="$big" -v s="$base" -v n="$n" 'BEGIN { printf "cdx: %.1f B per capture held ((peak - one-URL peak) / captures)\n", (b - s) * 1024 / n }'
read -r tr rc < <(peak "$tmp/trace.txt" --unit d)
echo "trace: one line of $pairs pairs ($(stat -c %s "$tmp/trace.txt") B): peak RSS $((tr / 1024)) MiB (exit $rc)"
awk -v b="$tr" -v s="$base" -v n="$pairs" 'BEGIN { printf "trace: %.1f B per pair ((peak - one-URL peak) / pairs)\n", (b - s) * 1024 / n }'
read -r cap rc < <(peak "$tmp/trace.txt" --unit d --max-observations $((pairs / 4)))
echo "trace under --max-observations $((pairs / 4)): peak RSS $((cap / 1024)) MiB (exit $rc, want 1: refused)"
by_urls
long_ids
