#!/usr/bin/env bash
# bench/analyze-huge.sh — analyze on a dataset with one huge page (issue
# 20: the busiest pages kept for NHPP and staleness, bounded in bytes).
#
# bench/bombgen writes BEFORE (default 2,000,000) revisions in pages of
# 1,000, then one page of PAGE_REVS (default 5,000,000) revisions; it is
# ingested with --max-revisions-per-page raised to PAGE_REVS and analysed
# (staleness on, the default) under /usr/bin/time -v. The 2,000 busiest
# pages then hold 56 MB of update times, above the 48 MiB budget: the huge
# page (40 MB, a giant above 6 MiB) is passed over and named in
# staleness_skipped, the 2,000 ordinary pages after it kept. Printed:
# wall, CPU, peak RSS, and the skipped table. BASE=path/to/older/revisit
# analyses the same dataset with that binary too, for a comparison. The peak RSS is mostly the huge page's own
# analysis (its intervals and the screen's ACF by FFT, about 16 bytes per
# value of the series padded to a power of two ≥ 2n), which the byte
# bound does not touch. HEAP=1 also measures the heap high-water of that
# analysis alone, per update (TestHugePageMemory with REVISIT_HUGE_N =
# PAGE_REVS, GOGC=5 so that the figure is nearly the live heap).
# About 0.5 GB in TMPDIR; 1–3 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
PAGE_REVS=${PAGE_REVS:-5000000}
BEFORE=${BEFORE:-2000000}
BIN=${BIN:-bin/revisit}
[ -x "$BIN" ] || go build -o "$BIN" ./cmd/revisit
[ -x /usr/bin/time ] || { echo "analyze-huge: /usr/bin/time missing (apt-get install -y time)" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/revisit-bench-huge.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/bombgen" ./bench/bombgen

echo "analyze-huge benchmark: $BEFORE revisions in pages of 1,000, then a page of $PAGE_REVS; $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
"$tmp/bombgen" -kind page -revisions "$PAGE_REVS" -before "$BEFORE" | gzip -1 >"$tmp/huge.xml.gz"
"$BIN" -q ingest "$tmp/huge.xml.gz" --max-revisions-per-page "$PAGE_REVS" -o "$tmp/ds"
rm -f "$tmp/huge.xml.gz"

# timed NAME BIN: analyze the dataset with BIN; one line of results.
timed() {
  rm -rf "$tmp/out"
  /usr/bin/time -v -o "$tmp/tv" "$2" -q analyze "$tmp/ds" -o "$tmp/out" >"$tmp/log" 2>&1 || { tail -5 "$tmp/log" >&2; exit 1; }
  awk -v n="$1" -F': ' '/Elapsed \(wall clock\)/ {k = split($2, t, ":"); w = 0; for (i = 1; i <= k; i++) w = 60 * w + t[i]}
    /User time/ {u = $2} /System time/ {s = $2} /Maximum resident/ {r = $2}
    END {printf "%-8s %8.2f s wall %8.2f CPU-s %6.0f MiB peak RSS\n", n, w, u + s, r / 1024}' "$tmp/tv"
  local sk="$tmp/out/csv/staleness_skipped.csv"
  if [ -f "$sk" ]; then
    echo "  staleness_skipped: $(($(wc -l <"$sk") - 1)) pages"
    sed 's/^/    /' "$sk"
  else
    echo "  staleness_skipped: none (the busiest pages were all kept)"
  fi
  grep -o '"source": "[^;]*; [^;]*' "$tmp/out/tables/staleness_summary.json" | sed 's/^"source": "/  staleness on: /'
}
timed this "$BIN"
if [ -n "${BASE:-}" ]; then
  timed BASE "$BASE"
fi
if [ -n "${HEAP:-}" ]; then
  GOGC=5 REVISIT_HUGE_N="$PAGE_REVS" go test ./analysis/ -run '^TestHugePageMemory$' -count=1 -v | sed -n 's/^ *hugemem_test.go:[0-9]*: /  heap: /p'
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
