#!/usr/bin/env bash
# make demo: the main job end to end on generated data, then on the real
# Anarchism history when the real data is there.
#
#   bash scripts/demo.sh BIN OUT      (make demo: bin/revisit demo-out)
#
# 1. revisit generate: a Wikipedia-like corpus (gzip MediaWiki stub dump) of
#    1,000 pages over 3 years with heavy-tailed page sizes (rates and scales
#    drawn per page from lognormals): Pareto, Weibull and exponential
#    (Poisson) pages, pages with long-range dependence (H = 0.8) and ON/OFF
#    bursts; 10 % are talk pages, which ingest filters out (counted).
# 2. revisit simulate: convergence of every estimator on Pareto renewal
#    processes, T = 10²…10⁴ (SPEC §6.2), for the report's Simulation part.
# 3. revisit run: ingest → replay → analyze → NHPP → staleness → policies
#    → report, on the generated dump, with the simulation folded in:
#    OUT/generated/{dataset,replay,analysis,…,report/index.html}.
# 4. The same on the real Anarchism history (15,180 revisions, 2001–2010)
#    when ../shared/data/real (or $REVISIT_REAL_DATA) exists:
#    OUT/anarchism/report/index.html.
#
# Everything is seeded: the same command gives the same report.
set -euo pipefail
bin=${1:?usage: demo.sh BIN OUT}
out=${2:?usage: demo.sh BIN OUT}
here=$(cd "$(dirname "$0")/.." && pwd)
seed=${SEED:-1}
start=$(date +%s)
mkdir -p "$out"

step() { printf '\n== %s (%ss)\n' "$1" $(( $(date +%s) - start )) >&2; }

step "1/4 generate a Wikipedia-like corpus"
"$bin" generate --pages 1000 --span 3y --unit h --seed "$seed" \
  --model '0.35*pareto:1.5,{lognormal:4,1.2}' \
  --model '0.25*weibull:0.5,{lognormal:3.5,1.2}' \
  --model '0.2*exp:{lognormal:-4.5,1.5}' \
  --model '0.1*lrd:0.8,(exp:{lognormal:-4,1})' \
  --model '0.1*onoff:1,(pareto:1.5,2),(pareto:1.2,200)' \
  -o "$out/corpus/enwiki-gen-stub-meta-history.xml.gz"

step "2/4 simulate: estimator convergence on Pareto renewal processes"
"$bin" simulate --update pareto:3,1 --sampler const:1 --sampler exp:1 \
  --T 1e2..1e4 --paths 10 --seed "$seed" -o "$out/simulate" >"$out/simulate.txt"

step "3/4 run: ingest → replay → analyze → report"
"$bin" run "$out/corpus/enwiki-gen-stub-meta-history.xml.gz" -o "$out/generated" \
  --seed "$seed" --reps 199 --include "$out/simulate" \
  --title "revisit demo: generated Wikipedia-like corpus" >/dev/null

real=${REVISIT_REAL_DATA:-$here/../shared/data/real}
anarchism=$real/wikipedia/maribelacosta__wikiwho/large.xml.lzma
if [ -f "$anarchism" ]; then
  step "4/4 run on the real Anarchism history"
  "$bin" run "$anarchism" -o "$out/anarchism" --seed "$seed" \
    --title "revisit: the real Anarchism history (enwiki, 2001–2010)" >/dev/null
else
  step "4/4 real data not found at $real: skipped"
fi

printf '\ndemo done in %ss.\n' $(( $(date +%s) - start ))
echo "Report (generated corpus): $out/generated/report/index.html"
if [ -f "$anarchism" ]; then
  echo "Report (real Anarchism history): $out/anarchism/report/index.html"
fi
