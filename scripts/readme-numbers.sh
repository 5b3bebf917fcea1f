#!/usr/bin/env bash
# readme-numbers.sh BIN REAL_DATA_DIR [FIGURE_DIR]
#
# Computes every result README.md and docs/methods.md quote (each marked
# there with <!-- num:KEY --> right after the number) by running the
# revisit binary BIN on the real data, and prints one "KEY VALUE" line
# each, VALUE in the unit and scale the text quotes (percentages as
# percent). TestReadmeNumbers (readme_numbers_test.go) runs it and checks
# each marked number against it, so the quoted numbers cannot go stale.
# With FIGURE_DIR it also writes there the README's figure,
# anarchism-g-m3-m4.svg, drawn by the same run as the Anarchism numbers;
# the test checks that docs/anarchism-g-m3-m4.svg is that figure. To
# redraw it: scripts/readme-numbers.sh bin/revisit ../shared/data/real docs
# Measured timings of benchmarks are not here: bench/ scripts give them.
set -euo pipefail
bin=$1
real=$2
figdir=${3:-}
if [ -n "$figdir" ] && [ ! -d "$figdir" ]; then
	echo "readme-numbers: $figdir is not a directory" >&2
	exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
anarchism=$real/wikipedia/maribelacosta__wikiwho/large.xml.lzma

# csv_field FILE MATCH COLUMN: column COLUMN (1-based) of the first line of
# FILE that starts with MATCH.
csv_field() { awk -F, -v m="$2" -v c="$3" 'index($0, m) == 1 { print $c; exit }' "$1"; }
pct() { awk -v v="$1" 'BEGIN { printf "%.10g\n", 100 * v }'; }

# 1. revisit run on Anarchism with run's defaults (samplers exp:20x and
# const:0.05x, x_max per page = the 0.99 quantile of its G_U).
"$bin" -q run "$anarchism" -o "$tmp/run" >/dev/null
me=$tmp/run/analysis/csv/method_errors.csv
# method_errors: sampler,kind,method,pages,mean WMRD,median WMRD,mean KS,…
echo "anarchism-m3-wmrd $(pct "$(csv_field "$me" const:0.05x,G,M3, 5)")"
echo "anarchism-m4-wmrd $(pct "$(csv_field "$me" const:0.05x,G,M4, 5)")"
echo "anarchism-m3-ks $(pct "$(csv_field "$me" const:0.05x,G,M3, 7)")"
echo "anarchism-m4-ks $(pct "$(csv_field "$me" const:0.05x,G,M4, 7)")"
# top_pages: rank,page_id,title,updates,E[U]_h,v,T_h; Δ = E[U]/20.
top=$tmp/run/analysis/csv/top_pages.csv
echo "anarchism-const-delta-h $(awk -v e="$(csv_field "$top" 1, 5)" 'BEGIN { printf "%.10g\n", e / 20 }')"

# x_max of the method errors (page_errors: the end of the compared grid,
# the 0.99 quantile of the page's G_U), and the figure top_g_m3_m4 of the
# same run: its curves (truth, M3, M4; 1 − G at x > 0) must end there.
pe=$tmp/run/analysis/page_errors.csv
xmax=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["sampler"] == "const:0.05x" && $c["kind"] == "G" && $c["method"] == "M4" { print $c["x_max_h"]; exit }' "$pe")
fig=$tmp/run/report/figures/top_g_m3_m4
for curve in truth M4; do
	end=$(awk -F, -v m="$curve" '$1 == m { x = $2 } END { print x }' "$fig.csv")
	if ! awk -v a="$end" -v b="$xmax" 'BEGIN { exit !(a == b) }'; then
		echo "readme-numbers: the figure's $curve ends at x = $end, not at x_max = $xmax of the method errors" >&2
		exit 1
	fi
done
echo "anarchism-xmax-h $xmax"
echo "anarchism-xmax-d $(awk -v x="$xmax" 'BEGIN { printf "%.10g\n", x / 24 }')"
if [ -n "$figdir" ]; then
	cp "$fig.svg" "$figdir/anarchism-g-m3-m4.svg"
fi

# 2. The first interval U_1 and its share of the lifetime T (page_stats,
# and the first two update times of the dataset run ingested).
ps=$tmp/run/analysis/page_stats.csv
lifetime=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "lifetime_h") c = i } NR == 2 { print $c }' "$ps")
first=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "first") c = i } NR == 2 { print $c }' "$ps")
# U_1 from the revision timestamps of the same file (SOURCES.md's golden list).
read -r t1 t2 < <(awk -F, '$1 == "maribelacosta__wikiwho/large.xml.lzma" { t[n++] = $6 } n == 2 { print t[0], t[1]; exit }' "$real/wikipedia/_derived/revision_timestamps.csv")
if [ "$(date -u -d "$t1" +%Y-%m-%dT%H:%M:%SZ)" != "$first" ]; then
	echo "readme-numbers: first update $first of the run is not the first revision $t1" >&2
	exit 1
fi
u1=$(( $(date -u -d "$t2" +%s) - $(date -u -d "$t1" +%s) ))
echo "anarchism-u1-h $(awk -v s="$u1" 'BEGIN { printf "%.10g\n", s / 3600 }')"
echo "anarchism-u1-share $(awk -v s="$u1" -v t="$lifetime" 'BEGIN { printf "%.10g\n", 100 * s / 3600 / t }')"

# 3. ingest --drop-reverts on Anarchism: revisions read, reverts, reverted.
"$bin" -q ingest --drop-reverts -o "$tmp/reverts" "$anarchism" >/dev/null 2>&1
m=$tmp/reverts/manifest.json
count() { grep -o "\"$1\": *[0-9]*" "$m" | grep -o '[0-9]*$'; }
echo "anarchism-revisions $(count revisions_read)"
echo "anarchism-reverts $(count revisions_identity_revert)"
echo "anarchism-reverted $(count revisions_identity_reverted)"

# 4. schedule --validate on the two real samples (as in the small setting
# of docs/schedule-results.md, one seed): realised freshness of the plans
# and of the oracle, and the paired differences of gu with their 95 %
# intervals over the pages, from the validation's tables (as CSV through
# revisit report).
validate() { # NAME DATASET SAMPLER BUDGET
	"$bin" -q schedule --validate "$2" --sampler "$3" --budget "$4" -o "$tmp/val-$1" >/dev/null
	"$bin" -q report "$tmp/val-$1" -o "$tmp/rep-$1" >/dev/null
}
"$bin" -q ingest "$real/wikipedia/Kevinisagirl__Wikipedia-Revisions-1000-articleid-sample/articlesthatareoldenough.txt.gz" --id 0 --title-column 1 --time 2 --min-updates 1 -o "$tmp/enwiki" >/dev/null
"$bin" -q ingest "$real/wikipedia/_derived/covid19_editions.csv.gz" --id edition --time timestamp --min-updates 1 -o "$tmp/covid" >/dev/null
validate enwiki "$tmp/enwiki" const:24 500/d
validate covid "$tmp/covid" const:1 100/d
neg() { awk -v v="$1" 'BEGIN { printf "%.10g\n", -v }'; }
for c in enwiki covid; do
	v=$tmp/rep-$c/tables/schedule_validation.csv
	# schedule_validation: plan,realised,low,high,predicted,…
	for plan in gu uniform lambdacrawl oracle; do
		echo "$c-$plan $(pct "$(csv_field "$v" "$plan," 2)")"
	done
	echo "$c-oracle-predicted $(pct "$(csv_field "$v" oracle, 5)")"
done
# schedule_validation_pairs: plan,gu − plan (points),low,high,…
p=$tmp/rep-enwiki/tables/schedule_validation_pairs.csv
echo "enwiki-gu-uniform $(csv_field "$p" uniform, 2)"
echo "enwiki-gu-uniform-lo $(csv_field "$p" uniform, 3)"
echo "enwiki-gu-uniform-hi $(csv_field "$p" uniform, 4)"
# On COVID-19 gu is behind: quoted as lambdacrawl − gu and uniform − gu,
# the interval of uniform − gu as how far below and above 0 it reaches.
p=$tmp/rep-covid/tables/schedule_validation_pairs.csv
echo "covid-lambdacrawl-gu $(neg "$(csv_field "$p" lambdacrawl, 2)")"
echo "covid-lambdacrawl-gu-lo $(neg "$(csv_field "$p" lambdacrawl, 4)")"
echo "covid-lambdacrawl-gu-hi $(neg "$(csv_field "$p" lambdacrawl, 3)")"
echo "covid-uniform-gu $(neg "$(csv_field "$p" uniform, 2)")"
echo "covid-uniform-gu-below $(csv_field "$p" uniform, 4)"
echo "covid-uniform-gu-above $(neg "$(csv_field "$p" uniform, 3)")"
# The part of gu − lambdacrawl on the editions whose update rate fell more
# than 4× between the windows (schedule_validation_where: pages,count,
# weight,gu,lambdacrawl,gu − lambdacrawl), as lambdacrawl − gu, their count
# and the two plans' realised freshness on them.
w=$tmp/rep-covid/tables/schedule_validation_where.csv
echo "covid-fell-pages $(csv_field "$w" "rate fell more than 4×," 2)"
echo "covid-fell-part $(neg "$(csv_field "$w" "rate fell more than 4×," 6)")"
echo "covid-fell-gu $(pct "$(csv_field "$w" "rate fell more than 4×," 4)")"
echo "covid-fell-lambdacrawl $(pct "$(csv_field "$w" "rate fell more than 4×," 5)")"
