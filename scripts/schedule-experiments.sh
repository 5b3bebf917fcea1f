#!/usr/bin/env bash
# schedule-experiments.sh: the validation results of `revisit schedule
# --validate`, written to docs/schedule-results.md with the exact command
# before each table.
#
# Usage: scripts/schedule-experiments.sh [--small] [-o FILE]
#
#   --small   only the small setting (the one TestScheduleResultsDoc re-runs
#             and compares with the doc): no full setting, no figures, no
#             tables read from the runs' JSON with jq (the Poisson sanity
#             check against the training window, five corpora of 2,000
#             pages up to 16 years; the training windows and the prior on
#             the real corpora; the state-dependent timing experiment,
#             scripts/statedep-experiments.sh)
#   -o FILE   the Markdown to write (default docs/schedule-results.md); its
#             figures go to FILE's directory under schedule-results/
#
# Environment: REVISIT (the binary; default: built from this checkout into
# the work directory), REVISIT_REAL_DATA (the real data; default
# ../shared/data/real beside the repository), WORK (a scratch directory to
# keep; default a new temporary one, removed at the end).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/docs/schedule-results.md
small_only=0
while [ $# -gt 0 ]; do
	case $1 in
	--small) small_only=1 ;;
	-o) out=$2; shift ;;
	*) echo "usage: $0 [--small] [-o FILE]" >&2; exit 2 ;;
	esac
	shift
done
case $out in /*) ;; *) out=$PWD/$out ;; esac

. "$root/scripts/experiments-lib.sh"
experiments_setup doc.md

# setting NAME PAGES SEEDS: every corpus and dataset of one setting.
# The real datasets keep every page (--min-updates 1, not ingest's default
# 2): a plan covers every page the crawler knows, also one seen to change
# once, which gets the --min-rate prior.
setting() {
	local s=$1 pages=$2 seeds=$3 budget=$(($2 / 2))
	local common="--seeds $seeds --target-freshness 0.9 --sweep 0.25,0.5,1,2,4"
	{
		echo "revisit -q generate --format parquet --pages $pages --span 2y --model 'exp:{lognormal:-3,1}' --seed 1 -o gen-$s/poisson"
		echo "revisit -q generate --format parquet --pages $pages --span 2y --model 'pareto:1.5,{lognormal:3,1.5}' --seed 1 -o gen-$s/pareto"
		echo "revisit -q generate --format parquet --pages $pages --span 2y --model 'onoff:2,(pareto:1.5,1),(pareto:1.2,100)' --seed 1 -o gen-$s/onoff"
		echo "revisit -q generate --format parquet --pages $pages --span 2y --model 'lrd:0.8,(exp:{lognormal:-3,1})' --seed 1 -o gen-$s/lrd"
		echo "revisit -q ingest \$REAL/wikipedia/Kevinisagirl__Wikipedia-Revisions-1000-articleid-sample/articlesthatareoldenough.txt.gz --id 0 --title-column 1 --time 2 --min-updates 1 -o real-$s/enwiki1000"
		echo "revisit -q ingest \$REAL/wikipedia/_derived/covid19_editions.csv.gz --id edition --time timestamp --min-updates 1 -o real-$s/covid19"
	} | run
	for c in poisson pareto onoff lrd; do
		echo "### $c ($pages pages)" >>"$doc"
		echo >>"$doc"
		echo "revisit schedule --validate gen-$s/$c --sampler const:1 --budget $budget/d $common -o res-$s/$c" | run
	done
	echo "### enwiki1000 (1,000 real enwiki articles, 2001–2008)" >>"$doc"
	echo >>"$doc"
	echo "revisit schedule --validate real-$s/enwiki1000 --sampler const:24 --budget 500/d $common -o res-$s/enwiki1000" | run
	echo "### covid19 (the COVID-19 article in 118 Wikipedia editions, 2020-01 – 2020-07)" >>"$doc"
	echo >>"$doc"
	echo "revisit schedule --validate real-$s/covid19 --sampler const:1 --budget 100/d $common -o res-$s/covid19" | run
}

# jqrow FILE PLAN COLUMN: column COLUMN of PLAN's row of a tables/*.json.
jqrow() { jq -r --arg p "$2" --argjson c "$3" '.rows[] | select(.[0] == $p) | .[$c]' "$1"; }
pct() { awk -v v="$1" 'BEGIN { printf "%.2f %%", 100 * v }'; }

# choices_table: what the training window (--train-window) and the prior
# (--min-rate) change, on the two real corpora and the ON/OFF one (full
# setting's corpora, 5 seeds): gu's realised freshness and that of the
# best baselines, per setting, from each run's schedule_validation.json.
choices_table() {
	local cmds=$WORK/choice-cmds c w
	: >"$cmds"
	for c in enwiki1000 covid19 onoff; do
		local ds=real-full/$c sampler="const:1" budget=100
		[ $c = onoff ] && ds=gen-full/onoff budget=1000
		[ $c = enwiki1000 ] && sampler="const:24" budget=500
		for w in all auto 0.5 0.25; do
			echo "revisit schedule --validate $ds --sampler $sampler --budget $budget/d --seeds 5 --origins 1 --plans gu,cho-gm,lambdacrawl,uniform --train-window $w -o choice/$c-window-$w" >>"$cmds"
		done
		echo "revisit schedule --validate $ds --sampler $sampler --budget $budget/d --seeds 5 --origins 1 --plans gu,cho-gm,lambdacrawl,uniform --min-rate 0 -o choice/$c-minrate-0" >>"$cmds"
	done
	{
		echo "## Training windows and the prior"
		echo
		echo "What the choices of [methods: schedule](methods.md#schedule-windows)"
		echo "change on the real corpora and on ON/OFF pages (the full setting's"
		echo "datasets, 5 seeds, the first split only): the estimated plans from the"
		echo "whole training window (\`all\`, the default), from its last half or"
		echo "quarter, or from the window each plan does best with in a back-test"
		echo "inside the training window (\`auto\`); and the pages without an estimate"
		echo "on the corpus's prior (the default) or never visited (\`--min-rate 0\`,"
		echo "the default before). The commands:"
		echo
		echo '```console'
		sed 's/^/$ /' "$cmds"
		echo '```'
		echo
		echo "| corpus | setting | gu | cho-gm | lambdacrawl | uniform | gu's budget to the prior's pages |"
		echo "|---|---|---:|---:|---:|---:|---:|"
	} >>"$doc"
	while IFS= read -r line; do
		eval "\"\$REVISIT\" ${line#revisit }" >/dev/null
	done <"$cmds"
	for c in enwiki1000 covid19 onoff; do
		for s in window-all window-auto window-0.5 window-0.25 minrate-0; do
			local f=choice/$c-$s/tables/schedule_validation.json
			echo "| $c | ${s/-/ } | $(pct "$(jqrow "$f" gu 1)") | $(pct "$(jqrow "$f" cho-gm 1)") | $(pct "$(jqrow "$f" lambdacrawl 1)") | $(pct "$(jqrow "$f" uniform 1)") | $(pct "$(jqrow "$f" gu 6)") |" >>"$doc"
		done
	done
	echo >>"$doc"
}

# window_table: the Poisson sanity check against the length of the
# training window. gu and cho-gm are both optimal for Poisson pages; from
# estimates their per-page rates differ by the estimation noise of M4's Ĝ
# and of λ̂, which should shrink like 1/√n with n visits per page. One
# generated Poisson corpus per span (the training window is its first
# half), 2,000 pages, 5 seeds; the numbers are read from each run's
# tables/schedule_validation.json.
window_table() {
	local y cmds=$WORK/window-cmds
	: >"$cmds"
	for y in 1 2 4 8 16; do
		echo "revisit -q generate --format parquet --pages 2000 --span ${y}y --model 'exp:{lognormal:-3,1}' --seed 1 -o win/poisson-${y}y" >>"$cmds"
		echo "revisit schedule --validate win/poisson-${y}y --sampler const:1 --budget 1000/d --seeds 5 --origins 1 --plans gu,cho-gm -o win/res-${y}y" >>"$cmds"
	done
	{
		echo "## Poisson sanity check against the training window"
		echo
		echo "On Poisson pages \`gu\` and \`cho-gm\` are the same optimum; planned from"
		echo "estimates, each page's two rates differ by the noise of two different"
		echo "estimates of it (M4's \`Ĝ\`, the \`cho\` baseline's \`λ̂\`), which should"
		echo "shrink like 1/√n with the n visits per page of the training window"
		echo "(docs/methods.md#schedule-sanity measures every other source). One"
		echo "generated Poisson corpus per span (rates lognormal, median 0.05/h as"
		echo "above), 2,000 pages, 5 seeds, the training window its first half,"
		echo "crawled every hour; the commands:"
		echo
		echo '```console'
		sed 's/^/$ /' "$cmds"
		echo '```'
		echo
		echo "| training window | visits per page | median \\|f_cho/f_gu − 1\\| | × √(visits/4,380) | realised freshness gu | cho-gm | cho-gm − gu | 95 % half-widths gu, cho-gm |"
		echo "|---|---:|---:|---:|---:|---:|---:|---:|"
	} >>"$doc"
	while IFS= read -r line; do
		eval "\"\$REVISIT\" ${line#revisit }" >/dev/null
	done <"$cmds"
	for y in 1 2 4 8 16; do
		jq -r --arg y "$y" '
			def pct: . * 10000 | round / 100 | tostring + " %";
			def pts: . * 100000 | round / 1000 | tostring;
			def hw: . * 1e6 | round / 1e4 | tostring;
			(.rows | map({key: .[0], value: .}) | from_entries) as $r
			| ($y | tonumber * 8760 / 2) as $n
			| "| \($y | tonumber / 2) y | \($n | round) | \($r["cho-gm"][5] * 10000 | round / 100) % | \($r["cho-gm"][5] * ($n / 4380 | sqrt) * 10000 | round / 100) % | \($r.gu[1] | pct) | \($r["cho-gm"][1] | pct) | \($r["cho-gm"][1] - $r.gu[1] | pts) points | \(($r.gu[3] - $r.gu[2]) / 2 | hw), \(($r["cho-gm"][3] - $r["cho-gm"][2]) / 2 | hw) points |"
		' "win/res-${y}y/tables/schedule_validation.json" >>"$doc"
	done
	echo >>"$doc"
}

{
	cat <<'EOF'
# Revisit schedules: validation results

<!-- Written by scripts/schedule-experiments.sh; do not edit by hand: run the script again. -->

What `revisit schedule --validate` measures is in
[methods: schedule validation](methods.md#schedule-validation): for each
seed a blind crawler (`--sampler`) replays every page's history from its
first update to the split (the middle of the span; the quiet time after
its last update included), every plan is computed from its estimates at
the same budget (the pages without one on the corpus's prior), and each
plan's **realised freshness** is measured exactly on the true updates of
the second half (uniform visit phase), with a 95 % Student-t interval over
the seeds (which only move a constant crawler's phase). `oracle-train` is
the `gu` plan on the exact age distributions of each page's training
window (no estimation error, planned on the past); `oracle` is `gu` on
those of the evaluation window itself, the optimum of every constant-rate
plan, whose prediction is its realisation. "rates vs gu" is the median
over pages of `|f/f_gu − 1|`. The second table is the paired difference
of `gu` and every other plan, with a 95 % bootstrap interval over the
pages and the difference at three splits (rolling origins), and the
verdict; the third says where `gu` gains or loses against the best other
plan, by how the pages' update rates changed between the windows; the
fourth is the budget each plan needs to reach a realised freshness of 0.9
(bisection on the budget, each plan solved again from the same
estimates), the fifth the realised freshness at ¼ … 4 times the budget.

Every block below is a command run from a scratch directory, `$REAL`
standing for the real-data root (`../shared/data/real`), followed by what
it printed. The generated corpora are one model each (`revisit generate
--help`): `poisson` — exponential intervals with lognormal rates per page
(median 0.05/h); `pareto` — Lomax intervals, α = 1.5, lognormal scale;
`onoff` — Poisson bursts during Pareto ON periods, Pareto OFF periods
(α = 1.2, heavy); `lrd` — exponential marginals with long-range dependence
(Hurst 0.8).

## Small setting

Re-run and compared number for number with this section by
`TestScheduleResultsDoc` (cmd/revisit): 200 generated pages per corpus,
5 seeds.

<!-- small setting: begin -->
EOF
} >>"$doc"
setting small 200 5
echo "<!-- small setting: end -->" >>"$doc"

if [ $small_only = 0 ]; then
	figdir=$(dirname "$out")/schedule-results
	mkdir -p "$figdir"
	{
		echo
		echo "## Full setting"
		echo
		echo "2,000 generated pages per corpus, 10 seeds."
		echo
	} >>"$doc"
	setting full 2000 10
	choices_table
	window_table
	WORK=$WORK/statedep REVISIT=$REVISIT REVISIT_REAL_DATA=$REAL "$root/scripts/statedep-experiments.sh" >>"$doc"
	{
		echo "## Figures"
		echo
		echo "Realised freshness against the budget, per plan (full setting; from \`revisit report res-full/NAME\`)."
		echo
	} >>"$doc"
	for c in poisson pareto onoff lrd enwiki1000 covid19; do
		"$REVISIT" -q report "res-full/$c" -o "rep/$c"
		cp "rep/$c/figures/schedule_validation_budget.svg" "$figdir/$c.svg"
		echo "![$c: realised freshness against budget](schedule-results/$c.svg)" >>"$doc"
		echo >>"$doc"
	done
fi
cp "$doc" "$out"
echo "wrote $out" >&2
