#!/usr/bin/env bash
# bench/ingest-bombs.sh — peak RSS of `revisit ingest` on adversarial inputs
# memory must not grow with one page or one line. Inputs
# are generated on the fly in TMPDIR by bench/bombgen (and removed at the end):
#   repeat   a gzip of REPEAT_REVS (default 20M) identical <revision> blocks of
#            one page (a few MB compressed, GB decompressed), with --skip-bad;
#   page16m  one page of PAGE_REVS (default 16M) distinct revisions, without
#            and with --skip-bad;
#   atcap    the worst case the caps allow: 4.19M revisions in small pages
#            (a full row group of the dataset writer) then one page of exactly
#            --max-revisions-per-page revisions (kept), also with the
#            revision filters (--drop-reverts keeps 8 more bytes per revision);
#   jsonline a Yelp review line of LINE_BYTES (default 1 GiB), without and
#            with --skip-bad;
#   csvfield a CSV record with a quoted field of LINE_BYTES, with --id/--time.
# Each run is guarded by `ulimit -v` (VMEM_KB, default 4 GiB) and `timeout`
# (TIMEOUT, default 300 s); it prints the outcome (exit code and the first
# line of the error, or the counts), the wall time and the peak RSS from
# /usr/bin/time -v. Goal: peak RSS ≤ 256 MiB on every input.
set -euo pipefail
cd "$(dirname "$0")/.."
REPEAT_REVS=${REPEAT_REVS:-20000000}
PAGE_REVS=${PAGE_REVS:-16000000}
LINE_BYTES=${LINE_BYTES:-1073741824}
VMEM_KB=${VMEM_KB:-4194304}
TIMEOUT=${TIMEOUT:-300}
BIN=${BIN:-bin/revisit}
[ -x /usr/bin/time ] || { echo "ingest-bombs: /usr/bin/time missing (apt-get install -y time)" >&2; exit 1; }
go build -o "$BIN" ./cmd/revisit
tmp=$(mktemp -d "${TMPDIR:-/tmp}/revisit-bombs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/bombgen" ./bench/bombgen
cap=$("$BIN" ingest --help | sed -n 's/.*--max-revisions-per-page int .*(default \([0-9]*\)).*/\1/p')

# run NAME ARGS...: revisit ingest ARGS under the guards; one line of results.
run() {
  local name=$1; shift
  rm -rf "$tmp/ds"
  set +e
  ( ulimit -v "$VMEM_KB"; timeout "$TIMEOUT" /usr/bin/time -v -o "$tmp/time.log" "$BIN" ingest "$@" -o "$tmp/ds" > "$tmp/out.log" 2> "$tmp/err.log" )
  local rc=$?
  set -e
  local what
  if [ "$rc" = 0 ]; then
    what=$(grep -E '^(revisions|bad records)' "$tmp/out.log" | tr '\n' ';' | sed 's/;$//')
  else
    what=$(grep -v '^revisit: skipped' "$tmp/err.log" | head -1 | cut -c1-200)
  fi
  awk -v n="$name" -v rc="$rc" -v w="$what" '/Maximum resident set size/ {kb = $NF} /Elapsed \(wall clock\)/ {t = $NF}
    END { printf "%-22s peak RSS %4.0f MiB  wall %8s  exit %s  %s\n", n, kb / 1024, t, rc, w }' "$tmp/time.log"
}

echo "ingest bombs: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); --max-revisions-per-page default $cap; goal: peak RSS ≤ 256 MiB"
"$tmp/bombgen" -kind repeat -revisions "$REPEAT_REVS" | gzip -6 > "$tmp/repeat.xml.gz"
printf 'repeat:   %s revisions, %s bytes gzip\n' "$REPEAT_REVS" "$(stat -c %s "$tmp/repeat.xml.gz")"
run repeat,skip-bad "$tmp/repeat.xml.gz" --skip-bad
rm -f "$tmp/repeat.xml.gz"

"$tmp/bombgen" -kind page -revisions "$PAGE_REVS" | gzip -1 > "$tmp/page.xml.gz"
printf 'page16m:  %s revisions, %s bytes gzip\n' "$PAGE_REVS" "$(stat -c %s "$tmp/page.xml.gz")"
run page16m "$tmp/page.xml.gz"
run page16m,skip-bad "$tmp/page.xml.gz" --skip-bad
run page16m,cap=0.5x "$tmp/page.xml.gz" --skip-bad --max-revisions-per-page $((cap / 2))
rm -f "$tmp/page.xml.gz"

"$tmp/bombgen" -kind page -revisions "$cap" -before 4190000 | gzip -1 > "$tmp/atcap.xml.gz"
printf 'atcap:    4,190,000 revisions in pages of 1000, then a page of %s\n' "$cap"
run atcap "$tmp/atcap.xml.gz"
run atcap,drop-all "$tmp/atcap.xml.gz" --drop-reverts --drop-bots --drop-minor
rm -f "$tmp/atcap.xml.gz"

"$tmp/bombgen" -kind jsonline -bytes "$LINE_BYTES" | gzip -1 > "$tmp/review.json.gz"
printf 'jsonline: a line of %s bytes, %s bytes gzip\n' "$LINE_BYTES" "$(stat -c %s "$tmp/review.json.gz")"
run jsonline "$tmp/review.json.gz"
run jsonline,skip-bad "$tmp/review.json.gz" --skip-bad
rm -f "$tmp/review.json.gz"

"$tmp/bombgen" -kind csvfield -bytes "$LINE_BYTES" | gzip -1 > "$tmp/log.csv.gz"
printf 'csvfield: a field of %s bytes, %s bytes gzip\n' "$LINE_BYTES" "$(stat -c %s "$tmp/log.csv.gz")"
run csvfield "$tmp/log.csv.gz" --id id --time time
run csvfield,skip-bad "$tmp/log.csv.gz" --id id --time time --skip-bad
rm -f "$tmp/log.csv.gz"
