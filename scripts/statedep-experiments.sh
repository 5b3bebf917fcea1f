#!/usr/bin/env bash
# statedep-experiments.sh: the state-dependent revisit-timing experiment
# (docs/methods.md#schedule-statedep) on the five corpora of
# scripts/schedule-experiments.sh's small setting, as a Markdown section
# with the exact command before each table. schedule-experiments.sh
# appends it to docs/schedule-results.md in its full setting.
#
# Usage: scripts/statedep-experiments.sh [-o FILE]
#
#   -o FILE   write the section there (default: standard output)
#
# Environment: REVISIT (the binary; default: built from this checkout into
# the work directory), STATEDEP (the experiment's command, likewise from
# scripts/statedep), REVISIT_REAL_DATA (the real data; default
# ../shared/data/real beside the repository), WORK (a scratch directory to
# keep; default a new temporary one, removed at the end).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=
while [ $# -gt 0 ]; do
	case $1 in
	-o) out=$2; shift ;;
	*) echo "usage: $0 [-o FILE]" >&2; exit 2 ;;
	esac
	shift
done
case $out in '' | /*) ;; *) out=$PWD/$out ;; esac

. "$root/scripts/experiments-lib.sh"
experiments_setup statedep.md
if [ -z "${STATEDEP:-}" ]; then
	STATEDEP=$WORK/statedep
	(cd "$root" && go build -o "$STATEDEP" ./scripts/statedep)
fi

cat >>"$doc" <<'DOC'
## State-dependent timing (experiment)

The state-dependent policy of
[methods: state-dependent timing](methods.md#schedule-statedep), run by
`go run ./scripts/statedep` (not a plan of `revisit schedule`: the
methods section says why). Every page gets, for each visit rate, the
best rule under its estimated `Ĝ` among constant timing, the back-off rules and the
threshold rules (`--rules backoff,threshold`), the budget is spent on
those frontiers by the Lagrangian, and the plan is simulated on the true
updates of the evaluation window; every constant-rate plan is then solved
again from the same estimates at the budget the policy really spent
there, so the pairs compare equal realised budgets. The training is the
training window's replay only, as for the constant-rate plans;
`statedep-oracle` is the same policy planned on the evaluation window's
own exact `Ĝ`, against the `oracle` at its realised budget (what the
policy could do with the distributions known). Intervals: over the
pages (bootstrap) at the first split, and the difference at each of three
splits; the policy wins only where the interval is above 0 and it is
ahead at every split. The corpora are those of the small setting above
(200 generated pages each, the two real corpora), 5 seeds.

Written by `scripts/statedep-experiments.sh` (also run by
`scripts/schedule-experiments.sh` in its full setting); the numbers are
what that script prints, and are not re-run by the tests (the simulator
is tested against closed forms in `schedule/statedep_test.go`).

DOC
{
	echo "revisit -q generate --format parquet --pages 200 --span 2y --model 'pareto:1.5,{lognormal:3,1.5}' --seed 1 -o gen/pareto"
	echo "revisit -q generate --format parquet --pages 200 --span 2y --model 'onoff:2,(pareto:1.5,1),(pareto:1.2,100)' --seed 1 -o gen/onoff"
	echo "revisit -q generate --format parquet --pages 200 --span 2y --model 'lrd:0.8,(exp:{lognormal:-3,1})' --seed 1 -o gen/lrd"
	echo "revisit -q ingest \$REAL/wikipedia/Kevinisagirl__Wikipedia-Revisions-1000-articleid-sample/articlesthatareoldenough.txt.gz --id 0 --title-column 1 --time 2 -o real/enwiki1000"
	echo "revisit -q ingest \$REAL/wikipedia/_derived/covid19_editions.csv.gz --id edition --time timestamp -o real/covid19"
} | run
common="--seeds 5 --origins 3 --rules backoff,threshold"
for c in pareto onoff lrd; do
	echo "### $c (200 pages)" >>"$doc"
	echo >>"$doc"
	echo "statedep --sampler const:1 --budget 100/d $common gen/$c" | run
done
echo "### enwiki1000 (1,000 real enwiki articles, 2001–2008)" >>"$doc"
echo >>"$doc"
echo "statedep --sampler const:24 --budget 500/d $common real/enwiki1000" | run
echo "### covid19 (the COVID-19 article in 118 Wikipedia editions, 2020-01 – 2020-07)" >>"$doc"
echo >>"$doc"
echo "statedep --sampler const:1 --budget 100/d $common real/covid19" | run

if [ -n "$out" ]; then
	cp "$doc" "$out"
	echo "wrote $out" >&2
else
	cat "$doc"
fi
