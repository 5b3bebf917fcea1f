#!/usr/bin/env bash
# Compares what two revisit binaries say, command by command: standard
# output, standard error and the exit code of every command a user runs
# (without -q, so that every summary, log line and table is printed) and
# of bad invocations (bad flag values, refused outputs, bad input), on a
# small generated corpus. scripts/compare-outputs.sh compares the files
# the commands write; this compares what they print.
#
#   bash scripts/compare-messages.sh OLD_BIN NEW_BIN [WORKDIR]
#
# Both binaries run every command in the same directory (messages name
# paths), one after the other. Before comparing, what says how fast a
# command ran is replaced by a placeholder: durations after "in", "done
# in", "(… elapsed)" and simulate's first line, byte and record rates;
# progress lines ("… jobs done (N/s)", printed every few seconds) are
# dropped.
# Prints a unified diff per differing command and exits 1 when any
# differs; prints "N commands, all identical" otherwise. What OLD said is
# kept in WORKDIR/said/NAME.txt.
set -uo pipefail
old=$(realpath "${1:?usage: compare-messages.sh OLD_BIN NEW_BIN [WORKDIR]}")
new=$(realpath "${2:?usage: compare-messages.sh OLD_BIN NEW_BIN [WORKDIR]}")
work=${3:-$(mktemp -d "${TMPDIR:-/tmp}/revisit-messages.XXXXXX")}
mkdir -p "$work/said"
cd "$work" || exit 2

# norm: what a command printed, without its timings.
norm() {
  sed -E \
    -e '/ done \([0-9.,]+\/s\)$/d' \
    -e 's/(in|after|took) [0-9][0-9.,]* ?(ns|µs|ms|s|min|h)\b/\1 <T>/g' \
    -e 's/(in|after|took) ([0-9]+h)?([0-9]+m)?[0-9.]+(s|ms|µs)\b/\1 <T>/g' \
    -e 's/\(([0-9]+h)?([0-9]+m)?[0-9.]+(s|ms|µs) elapsed\)/(<T> elapsed)/g' \
    -e 's/[0-9][0-9.,]* ?[kMGT]?i?B\/s/<R>B\/s/g' \
    -e 's/[0-9][0-9.,]* ([a-z]+)\/s\b/<R> \1\/s/g' \
    -e '1s/^(simulate: .*), [0-9.]+ ?(µs|ms|s|[0-9hm.]+s)$/\1, <T>/' \
    "$1"
}

n=0 bad=0
# c NAME ARGS...: run one command with both binaries and compare.
c() {
  local name=$1
  shift
  n=$((n + 1))
  for side in old new; do
    local bin=$old
    [ "$side" = new ] && bin=$new
    rm -rf "$work/out"
    mkdir -p "$work/out"
    (cd "$work" && "$bin" "$@" >"$work/$side.stdout" 2>"$work/$side.stderr" </dev/null)
    echo "exit $?" >"$work/$side.code"
    rm -rf "$work/out"
    { norm "$work/$side.stdout"; echo "--- stderr"; norm "$work/$side.stderr"; cat "$work/$side.code"; } >"$work/$side.all"
  done
  cp "$work/old.all" "$work/said/$name.txt"
  if ! diff -u "$work/old.all" "$work/new.all" >"$work/diff"; then
    bad=$((bad + 1))
    echo "== $name: revisit $*"
    cat "$work/diff"
  fi
}

# The corpus and the outputs later commands read, written once by OLD.
rm -rf corpus && mkdir corpus
"$old" -q generate --format parquet --page-count 60 --span 1y --seed 3 -o corpus/gen || exit 2
"$old" -q generate --page-count 40 --span 1y --seed 4 -o corpus/dump.xml.gz || exit 2
head -c 300000 corpus/dump.xml.gz >corpus/cut.xml.gz
"$old" -q replay corpus/gen --top 6 -o corpus/replay || exit 2
"$old" -q replay corpus/gen --top 3 --write-observations cdx -o corpus/observed || exit 2
for i in 0 1; do
  "$old" -q replay corpus/gen --top 0 --shard "$i/2" -o "corpus/replay-$i" || exit 2
  "$old" -q analyze corpus/gen --shard "$i/2" --reps 99 -o "corpus/analysis-$i" || exit 2
  "$old" -q estimate corpus/observed/observations/*.cdx --shard "$i/2" -o "corpus/estimate-$i" || exit 2
done
"$old" -q analyze corpus/gen corpus/replay --reps 99 -o corpus/analysis || exit 2
mkdir -p corpus/user && echo mine >corpus/user/notes.txt
printf 'Page 1\nno such page\n' >corpus/pages.txt

# What a user runs, summaries and tables printed.
c generate-parquet generate --format parquet --page-count 20 --span 1y --seed 5 -o out/g
c generate-dump generate --page-count 20 --span 1y --seed 5 -o out/d.xml.gz
c ingest ingest corpus/dump.xml.gz -o out/ds
c ingest-filters ingest corpus/dump.xml.gz --all-namespaces --min-updates 50 --since 2020-03-01 --drop-reverts --drop-bots -o out/ds
c ingest-cut ingest corpus/cut.xml.gz -o out/ds
c ingest-cut-skip ingest corpus/cut.xml.gz --skip-bad -o out/ds
c replay replay corpus/gen --top 4 -o out/r
c replay-select replay corpus/gen --pages corpus/pages.txt --top 0 -o out/r
c replay-seeds replay corpus/gen --top 2 --seeds 2 --sampler exp:1 --sampler const:1 -o out/r
c simulate simulate --update exp:1 --sampler const:1 --T 1e2..1e3 --paths 3
c simulate-o simulate --update pareto:3,1 --sampler exp:1 --T 100,300 --paths 2 -o out/s
c analyze analyze corpus/gen corpus/replay --reps 99 -o out/a
c analyze-recommend analyze --recommend corpus/replay
c analyze-recommend-age analyze --recommend --age yes --sampler constant
c analyze-recommend-full analyze --recommend corpus/gen corpus/replay --reps 99 -o out/a
c analyze-shard analyze corpus/gen --shard 1/2 --reps 99 -o out/a
c estimate estimate corpus/observed/observations/*.cdx -o out/e
c estimate-shard estimate corpus/observed/observations/*.cdx --shard 1/2 -o out/e
c merge-replay merge replay corpus/replay-0 corpus/replay-1 -o out/m
c merge-analysis merge analysis corpus/analysis-0 corpus/analysis-1 -o out/m
c merge-estimate merge estimate corpus/estimate-0 corpus/estimate-1 -o out/m
c schedule schedule corpus/replay --budget 100/d
c schedule-o schedule corpus/replay --budget 100/d --plans gu,cho-gm -o out/sch
c schedule-truth schedule corpus/gen --budget 100/d --no-sweep
c schedule-validate schedule --validate corpus/gen --sampler const:1 --budget 100/d --seeds 2 --boot 200
c policies policies corpus/gen --budget 10 --cycle 7d
c policies-o policies corpus/gen --budget 5% --cycle 30d --no-sweeps -o out/p
c report report corpus/analysis -o out/rep
c run run corpus/dump.xml.gz --top 3 --reps 99 -o out/run
c run-dataset run corpus/gen --top 3 --reps 99 -o out/run

# Bad usage, refused outputs, bad input.
c no-command
c bad-command bogus
c ingest-no-o ingest corpus/dump.xml.gz
c ingest-ns ingest corpus/dump.xml.gz --namespaces x -o out/ds
c ingest-since ingest corpus/dump.xml.gz --since yesterday -o out/ds
c ingest-radius ingest corpus/dump.xml.gz --revert-radius 3 -o out/ds
c ingest-title ingest corpus/dump.xml.gz --title 1 -o out/ds
c ingest-missing ingest corpus/none.xml -o out/ds
c ingest-user ingest corpus/dump.xml.gz -o corpus/user
c replay-h replay corpus/gen --h -1 -o out/r
c replay-unit replay corpus/gen --unit fortnight -o out/r
c replay-sampler replay corpus/gen --sampler foo:1 -o out/r
c replay-shard replay corpus/gen --shard 3/2 -o out/r
c replay-curves replay corpus/gen --curves half -o out/r
c replay-top-sample replay corpus/gen --top 2 --sample 3 -o out/r
c replay-user replay corpus/gen -o corpus/user
c simulate-T simulate --T 10..1
c simulate-user simulate -o corpus/user
c analyze-band analyze corpus/gen --band 0 -o out/a
c analyze-theta analyze corpus/gen --nhpp-theta 2 -o out/a
c analyze-no-o analyze corpus/gen
c analyze-age analyze corpus/gen --age yes -o out/a
c analyze-renamed analyze corpus/gen --min-updates 5 -o out/a
c analyze-user analyze corpus/gen -o corpus/user
c estimate-top estimate corpus/observed/observations/*.cdx --top 0 -o out/e
c estimate-format estimate corpus/observed/observations/*.cdx --format xml -o out/e
c estimate-no-o estimate corpus/observed/observations/*.cdx
c estimate-user estimate corpus/observed/observations/*.cdx -o corpus/user
c merge-kind merge bogus corpus/replay-0 -o out/m
c merge-inside merge replay corpus/replay-0 corpus/replay-1 -o corpus/replay-0/x
c merge-mixed merge replay corpus/replay-0 corpus/replay -o out/m
c schedule-budget schedule corpus/replay --budget 0/d
c schedule-no-budget schedule corpus/replay
c schedule-plans schedule corpus/replay --budget 10/d --plans best
c schedule-method schedule corpus/replay --budget 10/d --method M9
c schedule-both schedule corpus/replay --validate corpus/gen --budget 10/d
c schedule-target schedule corpus/replay --budget 10/d --target-freshness 0.9
c schedule-user schedule corpus/replay --budget 10/d -o corpus/user
c policies-budget policies corpus/gen --budget 0
c policies-cycle policies corpus/gen --budget 10 --cycle soon
c policies-group policies corpus/gen --budget 10 --group hash:3
c policies-name policies corpus/gen --budget 10 --policies best
c generate-format generate --format csv -o out/g
c generate-model generate --model bogus:1 -o out/g.xml
c generate-pages generate --pages many -o out/g.xml
c report-user report corpus/analysis -o corpus/user
c run-title run corpus/dump.xml.gz --title 1 -o out/run
c run-ingest-on-ds run corpus/gen --drop-bots -o out/run
c run-select run corpus/gen --match '(' -o out/run

if [ "$bad" -gt 0 ]; then
  echo "$bad of $n commands differ"
  exit 1
fi
echo "$n commands, all identical"
