#!/usr/bin/env bash
# bench/decoders.sh — ingest of .7z, .xz and .bz2 against the C decoders,
# run by `make bench`. A synthetic stub-meta-history dump (bench/stubgen,
# STUB_SIZE, default 300MB) is packed three ways (7z a -mx=6, xz -6 -T0,
# lbzip2 -9); then, in RUNS pairs (default 3) taken in turn so that load
# changes hit both, the reference decoder writing to /dev/null and
# `revisit ingest` of the same file, and once more `ingest
# --builtin-decoders` (the pure-Go fallback) for .7z and .xz. Prints the
# medians of wall and CPU seconds (user + sys, the decoder child included)
# and of peak RSS (the largest process: revisit or its decoder), and the
# medians of the pair ratios ingest ÷ reference, of wall time (goal ≤ 1.3)
# and of CPU time.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
STUB_SIZE=${STUB_SIZE:-300MB}
BIN=${BIN:-bin/revisit}
for t in 7z xz lbzip2 /usr/bin/time; do
  command -v "$t" >/dev/null || { echo "decoders.sh: $t missing (apt-get install -y p7zip-full xz-utils lbzip2 time)" >&2; exit 1; }
done
[ -x "$BIN" ] || go build -o "$BIN" ./cmd/revisit
tmp=$(mktemp -d "${TMPDIR:-/tmp}/revisit-bench-decoders.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cpus=$(nproc)

. bench/lib.sh
# measure FILE CMD...: appends "wall cpu maxrss_kb" of one run to FILE.
measure() {
  local out=$1; shift
  /usr/bin/time -f '%e %U %S %M' -o "$tmp/t" "$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
  awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' "$tmp/t" >> "$out"
}
col() { awk -v k="$1" '{print $k}' "$2" | median; }
mib() { col 3 "$1" | awk '{printf "%.0f", $1 / 1024}'; }

echo "decoder benchmarks: $RUNS pairs each, medians; $cpus CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "tools: $(xz --version | head -1); $(7z | grep -m1 '^7-Zip' | cut -d: -f1); $(lbzip2 -V 2>&1 | head -1 | cut -d' ' -f1,3)"
go build -o "$tmp/stubgen" ./bench/stubgen
"$tmp/stubgen" -size "$STUB_SIZE" > "$tmp/stub.xml"
(cd "$tmp" && 7z a -bd -bso0 -bsp0 -mx=6 stub.xml.7z stub.xml)
xz -6 -T0 -k -c "$tmp/stub.xml" > "$tmp/stub.xml.xz"
lbzip2 -9 -n "$cpus" -k -c "$tmp/stub.xml" > "$tmp/stub.xml.bz2"
printf 'stub dump: %s bytes plain; %s .7z, %s .xz, %s .bz2\n' "$(stat -c %s "$tmp/stub.xml")" \
  "$(stat -c %s "$tmp/stub.xml.7z")" "$(stat -c %s "$tmp/stub.xml.xz")" "$(stat -c %s "$tmp/stub.xml.bz2")"
rm "$tmp/stub.xml"

# bench NAME FILE REFERENCE...: RUNS pairs of the reference decoder and
# ingest (and ingest --builtin-decoders when NAME is 7z or xz).
bench() {
  local name=$1 file=$2; shift 2
  : > "$tmp/ref"; : > "$tmp/ing"; : > "$tmp/go"; : > "$tmp/ratio"; : > "$tmp/goratio"
  local decoder=""
  for _ in $(seq "$RUNS"); do
    measure "$tmp/ref" sh -c "$* '$file' > /dev/null"
    measure "$tmp/ing" "$BIN" -q ingest "$file" -o "$tmp/ds"
    decoder=$(grep -o '"decoder": *"[^"]*"' "$tmp/ds/manifest.json" | cut -d'"' -f4)
    paste "$tmp/ing" "$tmp/ref" | tail -1 | awk '{print $1 / $4, $2 / $5}' >> "$tmp/ratio"
    if [ "$name" != bz2 ]; then
      measure "$tmp/go" "$BIN" -q ingest --builtin-decoders "$file" -o "$tmp/ds"
      paste "$tmp/go" "$tmp/ref" | tail -1 | awk '{print $1 / $4, $2 / $5}' >> "$tmp/goratio"
    fi
  done
  printf '%-3s %-17s %6.2f s %6.2f CPU-s %4s MiB | ingest, %-10s %6.2f s %6.2f CPU-s %4s MiB | ratio wall %.2f (goal ≤ 1.3), CPU %.2f\n' \
    "$name" "$*" "$(col 1 "$tmp/ref")" "$(col 2 "$tmp/ref")" "$(mib "$tmp/ref")" \
    "$decoder" "$(col 1 "$tmp/ing")" "$(col 2 "$tmp/ing")" "$(mib "$tmp/ing")" "$(col 1 "$tmp/ratio")" "$(col 2 "$tmp/ratio")"
  if [ "$name" != bz2 ]; then
    printf '%-3s %-17s %34s | ingest, %-10s %6.2f s %6.2f CPU-s %4s MiB | ratio wall %.2f, CPU %.2f\n' "" "" "" "builtin" \
      "$(col 1 "$tmp/go")" "$(col 2 "$tmp/go")" "$(mib "$tmp/go")" "$(col 1 "$tmp/goratio")" "$(col 2 "$tmp/goratio")"
  fi
}
bench 7z "$tmp/stub.xml.7z" 7z x -so
bench xz "$tmp/stub.xml.xz" xz -dc -T0
bench bz2 "$tmp/stub.xml.bz2" lbzip2 -dc -n "$cpus"
