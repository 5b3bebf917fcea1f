package main

import (
	"fmt"
	"math"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/memlimit"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/schedule"
)

func newScheduleCmd(g *globals) *cobra.Command {
	var (
		budget, minRate, importance, hostLimits, method, sampler, unit, out string
		plans                                                               []string
		missing                                                             float64
		validate, trainWindow                                               string
		seeds, origins, boot                                                int
		seed                                                                uint64
		train, target                                                       float64
		sweep                                                               []float64
		noSweep, noCSV                                                      bool
	)
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
			if budget == "" {
				return usagef("--budget is required (visits per day, or B/h)")
			}
			var opt schedule.Options
			var err error
			if opt.Budget, err = schedule.ParseRate(budget); err != nil {
				return usagef("--budget: %v", err)
			}
			if !(opt.Budget > 0) {
				return usagef("--budget %q: want a rate > 0 such as 5000/d or 200/h", budget)
			}
			if minRate == "prior" {
				opt.Prior = true
			} else if opt.MinRate, err = schedule.ParseRate(minRate); err != nil {
				return usagef("--min-rate: %v (or prior)", err)
			}
			if opt.Plans, err = schedule.ParsePlans(plans); err != nil {
				return usagef("--plans: %v", err)
			}
			if !(missing >= 0) || math.IsInf(missing, 1) {
				return usagef("--missing-importance %g: want a finite number ≥ 0, as the file's importances", missing)
			}
			opt.MissingWeight = missing
			for _, m := range sweep {
				if !(m > 0) || math.IsInf(m, 0) {
					return usagef("--sweep %g: want multiples of the budget > 0", m)
				}
			}
			opt.Sweep = sweep
			if noSweep {
				opt.Sweep = []float64{}
			}
			u, err := units.ParseUnit(unit)
			if err != nil {
				return usagef("--unit: %v", err)
			}
			if (validate == "") == (len(args) == 0) {
				return usagef("give INPUT, or --validate DATASET (not both)")
			}
			if validate != "" && sampler == "" {
				return usagef("--validate needs --sampler SPEC (the blind crawler)")
			}
			if !(target >= 0 && target < 1) {
				return usagef("--target-freshness %g: want in (0, 1)", target)
			}
			if target > 0 && validate == "" {
				return usagef("--target-freshness needs --validate (it is measured on the true updates)")
			}
			if !(train > 0 && train < 1) || seeds < 1 {
				return usagef("--train must be in (0, 1) and --seeds ≥ 1")
			}
			if origins < 1 || boot < 100 {
				return usagef("--origins must be ≥ 1 and --boot ≥ 100")
			}
			if err := schedule.CheckWindow(trainWindow); err != nil {
				return usagef("--train-window: %v", err)
			}
			if validate != "" {
				if err := schedule.CheckCrawler(sampler, method); err != nil {
					return usagef("--sampler, --method: %v", err)
				}
			} else if method, err = scheduleMethod(method, sampler); err != nil {
				return err
			}
			if out != "" {
				if err := checkResults("schedule", out, "schedule"); err != nil {
					return err
				}
			}
			opt.Importance = importance
			if hostLimits != "" {
				if opt.HostLimits, err = schedule.ReadHostLimits(hostLimits); err != nil {
					return fmt.Errorf("--host-limits: %w", err)
				}
			}
			if validate != "" {
				return runValidation(cmd, g, validate, out, schedule.ValidateOptions{
					Options: opt, Sampler: sampler, Method: method, Train: train, Unit: u, Dataset: validate,
					Seeds: seedList(seed, seeds), Target: target, Origins: origins, Window: trainWindow, Boot: boot,
				})
			}
			var src *schedule.Source
			if schedule.IsEstimates(args[0]) {
				src, err = schedule.OpenEstimates(args[0], method, sampler)
			} else {
				if method != "" || sampler != "" {
					return usagef("--method and --sampler apply to a replay or estimate output; %s is read as a dataset", args[0])
				}
				src, err = schedule.OpenTruth(args[0], u)
			}
			if err != nil {
				return err
			}
			src.Ctx = cmd.Context() // Ctrl-C stops the reading, the plans and the writing
			if !g.quiet {
				fmt.Fprintf(os.Stderr, "schedule: reading %s…\n", human.Path(args[0]))
			}
			grew, restore := memlimit.SetStore()
			defer restore()
			opt.StoreGrew = grew
			res, err := schedule.PlanSource(src, opt)
			if err != nil {
				return err
			}
			if !g.quiet {
				fmt.Fprintf(os.Stderr, "schedule: %s, %s; store %.1f MiB\n", human.Count(int64(res.N), "page", "pages"), human.Text(res.In.Source), float64(res.StoreBytes())/(1<<20))
				if s := res.ImportanceStats.Summary(); s != "" {
					fmt.Fprintf(os.Stderr, "schedule: %s\n", s)
				}
			}
			if s := res.HostStats.Summary(); s != "" && (!g.quiet || res.HostStats.NUnused > 0) {
				// hosts that name no page are said even with -q: a misspelt
				// host is a limit not applied
				fmt.Fprintf(os.Stderr, "schedule: %s\n", s)
			}
			b := res.Bundle()
			w := cmd.OutOrStdout()
			for _, t := range b.Tables {
				if g.console(cmd).PrintsTables(out) {
					tables.Fprint(w, t) // a failed write is standard output's, reported at exit (stdoutError)
				}
			}
			if len(b.Tables) > 0 && g.console(cmd).PrintsTables(out) {
				fmt.Fprintln(w, human.Text("Source: "+b.Tables[0].Source))
			}
			if out == "" {
				return nil
			}
			err = tables.WriteResults(cmd.Context(), out, "schedule", func(tmp string) error {
				if err := res.Write(tmp, !noCSV); err != nil {
					return fmt.Errorf("schedule: %w", err)
				}
				return nil
			})
			if err != nil {
				return err
			}
			if !g.quiet {
				if noCSV {
					fmt.Fprintf(os.Stderr, "schedule: wrote %s under %s\n", schedule.ParquetFile, human.Path(out))
				} else {
					fmt.Fprintf(os.Stderr, "schedule: wrote %s and %s under %s\n", schedule.ParquetFile, schedule.CSVFile, human.Path(out))
				}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&budget, "budget", "", "total visit rate B: visits per day, or B/h, B/d (required)")
	f.StringSliceVar(&plans, "plans", nil, "plans to compute (comma-separated; default all: "+strings.Join(schedule.PlanNames, ",")+")")
	f.StringVar(&minRate, "min-rate", "prior", "pages without a usable estimate or with no change seen: prior (the corpus's prior, see PRIOR) or a fixed rate (visits per day, or R/h; 0: never visited)")
	f.StringVar(&importance, "importance", "", "page importances: KEY<TAB>IMPORTANCE or KEY,IMPORTANCE lines, KEY a page's title or id (see IMPORTANCE; default: 1 for every page)")
	f.Float64Var(&missing, "missing-importance", 1, "importance of pages the --importance file does not name")
	f.StringVar(&hostLimits, "host-limits", "", "per-host limits: host,RATE lines (RATE as --budget; see HOST LIMITS)")
	f.StringVar(&method, "method", "", "estimation method whose Ĝ is planned on (default: the scenario's recommended method; truth: the replay's true G_U; with --validate: M4 for constant delays, M6 otherwise)")
	f.StringVar(&sampler, "sampler", "", "sampler of the replay or estimate output (default: the first in the file); with --validate, the blind crawler's (replay's syntax, required)")
	f.StringVar(&unit, "unit", "h", "time unit of the intervals when INPUT is a dataset (s, min, h, d, w, y)")
	f.Float64SliceVar(&sweep, "sweep", nil, "multiples of the budget for the freshness-vs-budget table; none given: 0.125,0.25,0.5,1,2,4,8 (with --validate: none)")
	f.BoolVar(&noCSV, "no-csv", false, "write schedule.parquet only, not schedule.csv")
	f.BoolVar(&noSweep, "no-sweep", false, "skip the freshness-vs-budget table (each point solves every plan again)")
	f.StringVar(&validate, "validate", "", "validate the plans on this dataset's true updates (see VALIDATION)")
	f.IntVar(&seeds, "seeds", 1, "validation: number of replicate crawler seeds")
	f.Uint64Var(&seed, "seed", 1, "validation: first seed (seeds are seed, seed+1, …)")
	f.Float64Var(&train, "train", 0.5, "validation: fraction of the dataset's span used for training (the first split)")
	f.IntVar(&origins, "origins", 3, "validation: splits (rolling origins): the one at --train and the later ones, evenly spaced to the end")
	f.StringVar(&trainWindow, "train-window", "all", "validation: training window of the estimated plans: all, the last fraction F of the training span, or auto (chosen per plan by back-testing inside the training window)")
	f.IntVar(&boot, "boot", schedule.DefaultBoot, "validation: bootstrap resamples of the pages for the paired differences")
	f.Float64Var(&target, "target-freshness", 0, "validation: find each plan's budget to reach this realised freshness, in (0, 1) (0: none)")
	f.StringVarP(&out, "output", "o", "", "write schedule.parquet, schedule.csv (unless --no-csv) and tables under this directory (replaces earlier schedule results there; refuses any other non-empty directory)")
	return cmd
}

// scheduleMethod checks --method and --sampler for a replay or estimate
// input before it is read, and returns the method's canonical name ("m4"
// is M4): a name that is no method (or several) and a sampler label no
// estimating stage writes are bad usage; one the input does not hold is
// found when it is read (bad input).
func scheduleMethod(method, sampler string) (string, error) {
	if sampler != "" {
		if err := estimator.CheckSamplerLabel(sampler); err != nil {
			return "", usagef("--sampler: %v", err)
		}
	}
	if method == "" || method == estimator.MethodTruth {
		return method, nil
	}
	ms, err := estimator.ParseMethods([]string{method})
	if err != nil {
		return "", usagef("--method: %v", err)
	}
	if len(ms) != 1 {
		return "", usagef("--method %q: want one method (or %s)", method, estimator.MethodTruth)
	}
	return ms[0], nil
}

func seedList(first uint64, n int) []uint64 {
	s := make([]uint64, n)
	for i := range s {
		s[i] = first + uint64(i)
	}
	return s
}

// runValidation is schedule --validate.
func runValidation(cmd *cobra.Command, g *globals, dir, out string, opt schedule.ValidateOptions) error {
	ds, err := dataset.Open(dir)
	if err != nil {
		return err
	}
	pages, err := ds.All()
	if err != nil {
		return err
	}
	if !g.quiet {
		fmt.Fprintf(os.Stderr, "schedule: validating on %s, %d seeds…\n", human.Count(int64(len(pages)), "page", "pages"), len(opt.Seeds))
	}
	v, err := schedule.Validate(cmd.Context(), pages, opt)
	if err != nil {
		return err
	}
	b := v.Bundle()
	w := cmd.OutOrStdout()
	for _, t := range b.Tables {
		if g.console(cmd).PrintsTables(out) {
			tables.Fprint(w, t) // a failed write is standard output's, reported at exit (stdoutError)
			fmt.Fprintln(w, human.Text("Source: "+t.Source))
		}
	}
	if v.Verdict != "" && g.console(cmd).PrintsTables(out) {
		fmt.Fprintln(w, "Verdict:", v.Verdict)
	}
	if out == "" {
		return nil
	}
	return tables.WriteResults(cmd.Context(), out, "schedule", func(tmp string) error {
		if err := b.Write(tmp); err != nil {
			return fmt.Errorf("schedule: %w", err)
		}
		return nil
	})
}
