package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/revisit-dev/revisit/schedule"
)

func newScheduleCmd(g *globals) *cobra.Command {
	var opt schedule.CommandOptions
	cmd := &cobra.Command{
		Use:   "schedule (INPUT | --validate DATASET --sampler SPEC) --budget B[/d|/h] [-o OUT]",
		Short: "Plan revisit rates from estimated update distributions under a visit budget",
		Long: `schedule turns per-page update distributions into revisit rates f_i
(visits per day) that maximise the importance-weighted freshness under a
total budget Σ f_i ≤ B (docs/methods.md#schedule). A page visited every
Δ = 1/f is fresh a fraction φ(Δ) = (1/Δ)∫₀^Δ (1 − G_U(t)) dt of the time.

INPUT is
  a replay or estimate output   Ĝ of each page from --method (default: the
                                scenario's recommended method: M2 with ages,
                                M4 for constant delays, M6 otherwise) for
                                --sampler (default: the first in the file);
                                a replay of several seeds is pooled (the
                                mean of their Ĝ and of their λ̂)
  a dataset                     each page's exact age distribution over the
                                dataset's span (quiet time included): the
                                oracle plan of that span

PLANS (--plans, default all):
` + schedule.PlanHelp() + `
PRIOR (--min-rate prior, the default): a page with no usable estimate,
or whose estimate saw no change (Ĝ ≡ 0), is planned on the corpus's
prior: the mean Ĝ of the pages with estimates, stretched in time to the
rate λ̃ = m/(1 + mE) (m their mean λ̂; E how long the page was watched
without a change, 0 for a page never watched): the mean rate for a page
nothing is known of, about one change per watched time for one watched
long. The tables say how much of each plan's budget these pages get.
--min-rate R gives them the fixed rate R instead (0: never visited).

IMPORTANCE (--importance FILE): KEY<TAB>IMPORTANCE lines (the Bing
trace's urlid_imp.txt) or KEY,IMPORTANCE CSV records (quote a key that
holds a comma); KEY is a page's title (its URL, or the trace's URL_ID when
estimated without a URL file) or its decimal page id, the title's match
first; an importance is a finite number ≥ 0. A first line naming the
columns (URL_ID, url, title, id, page_id or key, then Importance_score,
importance or weight) is a header; any other line is used or refused with
its file and line, and a key given twice is refused. The file is sorted on
disk (temporary files, unlinked at once) and merged with the pages' keys,
never held in memory. It must name at least one page; pages it does not
name get --missing-importance; stderr says how many were named.

HOST LIMITS (--host-limits FILE): host,RATE lines (RATE as --budget;
header host,limit) cap Σ f_i over the pages of each host (the host name
of a title that is a URL or a SURT key, as estimate names the URLs of a
CDX or CDXJ log — archives drop a leading "www." from those keys; a URL
in the file counts by its host). Hosts
compare case-insensitively and without a trailing dot, as DNS names do.
stderr says how many limits applied to how many pages; a limit naming no
page's host is not applied and named there even with -q, and a file of
which no limit applies is an error.

OUT holds schedule.parquet (one row per page and plan: visits per day, Δ,
predicted freshness under Ĝ and under the Poisson model), schedule.csv (one
row per page: id, title, importance, λ̂ per day, note and a column
visits_per_day_PLAN per plan; --no-csv: none) and tables for revisit
report (section "Revisit schedule").

MEMORY: the input is read as a stream and each page keeps only what the
solver needs, in float32 (at most 64 knots of Ĝ, after its concave
projection; more are thinned, log-spaced), about 8 bytes per knot and 40
per page (49 with --importance); the plans are solved one at a time and
their rates computed again when written; ids and titles are read again
from the input when writing.

VALIDATION (--validate DATASET): the span of the dataset is cut at --train;
for each of --seeds seeds a blind crawler (--sampler, replay's syntax;
--method, default M4 for constant delays, M6 otherwise) replays every page's
training window, from its first update to the split (the quiet time after
its last update is evidence: the crawler sees it), the plans are computed
from its estimates, and each plan's realised freshness is measured exactly
on the true updates of the later window (uniform visit phase), with a 95 %
interval over the seeds, next to the oracles: gu on the exact age
distributions of each page's training window (oracle-train) and of the
evaluation window (oracle: the optimum of every constant-rate plan, its
prediction its realisation). The paired differences of gu against every
plan come with a 95 % interval over the pages (--boot resamples) and at
--origins splits (the one at --train and later ones to the end), and a
verdict: which plan wins, by how many points, against which it is
undecided. --train-window F plans from the last fraction F of the
training span only; auto chooses it per plan by back-testing inside the
training window. With --target-freshness F, each plan's budget to reach
realised freshness F is found by bisection (each plan solved again at each
budget from the same estimates, scored as above); with --sweep, each plan's
realised freshness at those multiples of the budget (a table and a figure;
none by default).`,
		Example: `  revisit schedule out/replay --budget 5000/d -o out/schedule
  revisit schedule out/estimate --budget 200/h --importance urlid_imp.txt --min-rate 0.1/d -o out/schedule
  revisit schedule ds --budget 5000/d --plans gu,cho-gm -o out/oracle
  revisit schedule --validate ds --sampler const:24 --budget 500/d --seeds 5 -o out/validation
  revisit schedule --validate ds --sampler const:24 --budget 500/d --seeds 5 --target-freshness 0.9 --sweep 0.25,0.5,1,2,4`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opt.Inputs = args
			return schedule.Command(cmd.Context(), opt, g.console(cmd))
		},
	}
	f := cmd.Flags()
	f.StringVar(&opt.BudgetText, "budget", "", "total visit rate B: visits per day, or B/h, B/d (required)")
	f.StringSliceVar(&opt.Plans, "plans", nil, "plans to compute (comma-separated; default all: "+strings.Join(schedule.PlanNames, ",")+")")
	f.StringVar(&opt.MinRateText, "min-rate", "prior", "pages without a usable estimate or with no change seen: prior (the corpus's prior, see PRIOR) or a fixed rate (visits per day, or R/h; 0: never visited)")
	f.StringVar(&opt.Importance, "importance", "", "page importances: KEY<TAB>IMPORTANCE or KEY,IMPORTANCE lines, KEY a page's title or id (see IMPORTANCE; default: 1 for every page)")
	f.Float64Var(&opt.MissingWeight, "missing-importance", 1, "importance of pages the --importance file does not name")
	f.StringVar(&opt.HostLimitsFile, "host-limits", "", "per-host limits: host,RATE lines (RATE as --budget; see HOST LIMITS)")
	f.StringVar(&opt.Method, "method", "", "estimation method whose Ĝ is planned on (default: the scenario's recommended method; truth: the replay's true G_U; with --validate: M4 for constant delays, M6 otherwise)")
	f.StringVar(&opt.Sampler, "sampler", "", "sampler of the replay or estimate output (default: the first in the file); with --validate, the blind crawler's (replay's syntax, required)")
	f.StringVar(&opt.UnitText, "unit", "h", "time unit of the intervals when INPUT is a dataset (s, min, h, d, w, y)")
	f.Float64SliceVar(&opt.Sweep, "sweep", nil, "multiples of the budget for the freshness-vs-budget table; none given: 0.125,0.25,0.5,1,2,4,8 (with --validate: none)")
	f.BoolVar(&opt.NoCSV, "no-csv", false, "write schedule.parquet only, not schedule.csv")
	f.BoolVar(&opt.NoSweep, "no-sweep", false, "skip the freshness-vs-budget table (each point solves every plan again)")
	f.StringVar(&opt.Dataset, "validate", "", "validate the plans on this dataset's true updates (see VALIDATION)")
	f.IntVar(&opt.SeedCount, "seeds", 1, "validation: number of replicate crawler seeds")
	f.Uint64Var(&opt.FirstSeed, "seed", 1, "validation: first seed (seeds are seed, seed+1, …)")
	f.Float64Var(&opt.Train, "train", 0.5, "validation: fraction of the dataset's span used for training (the first split)")
	f.IntVar(&opt.Origins, "origins", 3, "validation: splits (rolling origins): the one at --train and the later ones, evenly spaced to the end")
	f.StringVar(&opt.Window, "train-window", "all", "validation: training window of the estimated plans: all, the last fraction F of the training span, or auto (chosen per plan by back-testing inside the training window)")
	f.IntVar(&opt.Boot, "boot", schedule.DefaultBoot, "validation: bootstrap resamples of the pages for the paired differences")
	f.Float64Var(&opt.Target, "target-freshness", 0, "validation: find each plan's budget to reach this realised freshness, in (0, 1) (0: none)")
	f.StringVarP(&opt.Out, "output", "o", "", "write schedule.parquet, schedule.csv (unless --no-csv) and tables under this directory (replaces earlier schedule results there; refuses any other non-empty directory)")
	return cmd
}
