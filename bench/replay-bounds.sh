#!/usr/bin/env bash
# bench/replay-bounds.sh: `revisit replay` on samplers whose crawls would
# be unbounded without the work limits, and its response to SIGTERM. Each case
# prints wall time, peak RSS (GNU time's maximum resident set size) and
# the outcome; the goal is "refused or bounded, never > 2 GiB", and a stop
# within a second of SIGTERM.
#
#   1. exp:1e6 on a 6-revision page (833 h): 8·10⁸ visits, M6 window 10⁹
#   2. the absolute samplers exp:1 and const:1 on a page spanning 10¹⁵ s
#      (2.8·10¹¹ visits); the default samplers
#      are relative (20 visits per mean interval) and replay it at once
#   3. const:1e-5 --x-max 0.01 --h 0.001 on the 6-revision page (8·10⁷
#      visits: inside the default limits, so it runs, in bounded memory)
#   4. case 1 with the limits raised out of the way (--max-visits 1e13
#      --max-pairs 1e18), SIGTERM after 2 s: time from signal to exit,
#      exit status, and whether an output directory was left
#
# Guards: every run is under `timeout` (TIMEOUT s, default 120) and
# `ulimit -v` (VMEM_KB, default 8 GiB of address space). Uses bin/revisit
# (built from the work tree first unless BIN names a binary).
set -euo pipefail
cd "$(dirname "$0")/.."
TIMEOUT=${TIMEOUT:-120}
VMEM_KB=${VMEM_KB:-8388608}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
BIN=${BIN:-}
if [ -z "$BIN" ]; then
  go build -o bin/revisit ./cmd/revisit
  BIN=bin/revisit
fi
BIN=$(realpath "$BIN")

printf 'id,time\np,1600000000\np,1600100000\np,1600500000\np,1601000000\np,1602000000\np,1603000000\n' >"$WORK/six.csv"
printf 'id,time\nq,0\nq,1000\nq,200000000000000\nq,500000000000000\nq,900000000000000\nq,1000000000000000\n' >"$WORK/huge.csv"
"$BIN" ingest -q "$WORK/six.csv" --id id --time time --time-layout epoch -o "$WORK/six"
"$BIN" ingest -q "$WORK/huge.csv" --id id --time time --time-layout epoch -o "$WORK/huge"

# run NAME ARGS...: replay under the guards; prints wall, peak RSS, exit
# status and the first line of the message or summary.
run() {
  local name=$1
  shift
  rm -rf "$WORK/out"
  set +e
  (
    ulimit -v "$VMEM_KB"
    /usr/bin/time -f '%e %M %x' -o "$WORK/time.txt" timeout "$TIMEOUT" "$BIN" replay "$@" -o "$WORK/out" >"$WORK/stdout.txt" 2>"$WORK/stderr.txt"
  )
  set -e
  read -r wall rss code < <(tail -1 "$WORK/time.txt")
  local what
  if [ "$code" = 0 ]; then
    what="ran: $(head -1 "$WORK/stdout.txt" | sed 's/ → .*//')$(grep 'left out' "$WORK/stdout.txt" | sed 's/^ */; /' | tr -d '\n' || true)"
  elif [ "$code" = 124 ]; then
    what="TIMED OUT after ${TIMEOUT} s"
  else
    what="exit $code: $( (grep "^revisit:" "$WORK/stderr.txt" || head -1 "$WORK/stderr.txt") | head -1 | cut -c1-200)"
  fi
  printf '%-44s wall %7.2f s  peak RSS %7.1f MiB  %s\n' "$name" "$wall" "$(awk -v k="$rss" 'BEGIN {print k/1024}')" "$what"
  awk -v k="$rss" 'BEGIN {exit !(k > 2*1024*1024)}' && echo "  FAIL: peak RSS above 2 GiB" || true
}

echo "replay bounds ($(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); limits: defaults unless stated)"
run "1. exp:1e6, 6-revision page" "$WORK/six" --sampler exp:1e6
run "2. exp:1 + const:1, page spanning 1e15 s" "$WORK/huge" --sampler exp:1 --sampler const:1
run "3. const:1e-5 --x-max 0.01 --h 0.001" "$WORK/six" --sampler const:1e-5 --x-max 0.01 --h 0.001

# 4. SIGTERM to an unbounded replay.
rm -rf "$WORK/out"
set +e
(
  ulimit -v "$VMEM_KB"
  exec /usr/bin/time -f '%e %M %x' -o "$WORK/time.txt" timeout "$TIMEOUT" "$BIN" replay -q "$WORK/six" --sampler exp:1e6 \
    --max-visits 1e13 --max-pairs 1e18 -o "$WORK/out" >/dev/null 2>"$WORK/stderr.txt"
) &
tpid=$!
sleep 2
# The replay process is the child of timeout, itself the child of time.
rpid=$(pgrep -P "$(pgrep -P "$tpid")")
t0=$(date +%s.%N)
kill -TERM "$rpid"
wait "$tpid"
t1=$(date +%s.%N)
set -e
read -r wall rss code < <(tail -1 "$WORK/time.txt")
left=none
if ls -A "$WORK" | grep -q '^\.out\|^out$'; then left=$(ls -A "$WORK" | grep '^\.out\|^out$' | tr '\n' ' '); fi
printf '%-44s wall %7.2f s  peak RSS %7.1f MiB  SIGTERM after 2 s: stopped %.3f s later, exit %s, output left: %s (%s)\n' \
  "4. exp:1e6 limits raised, SIGTERM" "$wall" "$(awk -v k="$rss" 'BEGIN {print k/1024}')" \
  "$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')" "$code" "$left" "$(head -1 "$WORK/stderr.txt" | cut -c1-80)"
