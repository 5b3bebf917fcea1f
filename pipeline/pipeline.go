// Package pipeline is revisit run as a library: ingest → replay → analyze
// (with NHPP windows and staleness) → download policies → report, into one
// output directory, with the defaults of Defaults. The command line only
// binds its flags to a Config and calls Command, which checks them and
// prints what Run did.
package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"time"

	"github.com/revisit-dev/revisit/analysis"
	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/ingest"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/memlimit"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/internal/usage"
	"github.com/revisit-dev/revisit/policy"
	"github.com/revisit-dev/revisit/replay"
	"github.com/revisit-dev/revisit/reports"
	"github.com/revisit-dev/revisit/series"
)

// Config is one run. Zero values of Unit, Rate, H, XMax, Samplers and
// Cycle mean automatic (Defaults); the others take DefaultConfig's values
// from the caller.
type Config struct {
	Inputs []string // dumps and logs, as ingest reads them
	Out    string   // the run's directory (OpenRunDir's rules)
	// Ingest holds ingest's filters and generic-log options; Inputs,
	// Output and Version are set by Run. Progress and OnBad are passed on.
	Ingest ingest.Options

	Unit          float64  // seconds per unit; 0: h, or d for date-only sources
	Rate, H, XMax float64  // 0: automatic (see Defaults)
	Samplers      []string // replay sampler specs; nil: from Rate or replay.DefaultSamplers
	Methods       []string // replay methods ("all")
	// Sample is the size of the seeded random sample of the pages with
	// at least analysis.MinEvidenceIntervals intervals on which the
	// methods are compared (replay.Options.Sample); Top > 0 replays the
	// Top busiest pages instead, whatever Sample. With both 0 every page
	// is replayed.
	Sample        int
	Top           int
	NHPPPages     int // busiest pages for NHPP windows and staleness
	Seed          uint64
	Seeds         int // R ≥ 1, the replay's independent seeds
	Reps          int // Monte-Carlo replicates of the Poisson screen
	Workers       int // replay and analysis workers (0: all cores)
	ScreenUpdates int // K of the Poisson screen
	Cycle, Budget string
	PolicyMax     int64 // skip the policies above this many updates
	MaxVisits     int64
	MaxPairs      int64
	Include       []string // other results directories for the report (each holding tables or figures)
	Title         string   // report title ("" → from the inputs)
	Version       string   // recorded in every output

	// Log receives the stage lines, the ingest summary and the stages' log
	// lines; nil: quiet.
	Log io.Writer
	// OnStage, if set, is called as the run enters each stage (1 ingest …
	// 7 report); tests cancel a run there.
	OnStage func(n int)

	// Select keeps only the pages it selects (--pages, --match,
	// --in-group) in every stage after ingest: replay, analysis, NHPP,
	// staleness and policies; nil keeps every page.
	Select *dataset.Selection
}

// readIncluded reads the results directories of --include (Config.Include)
// for the report, before any work: one that holds no table or figure is
// refused, naming it, as revisit report refuses it (a typo would
// otherwise leave the report silently without what it was to include).
func readIncluded(dirs []string) ([]*tables.Bundle, error) {
	var bs []*tables.Bundle
	for _, d := range dirs {
		b, err := tables.Read(d)
		if err != nil {
			return nil, fmt.Errorf("run: --include %s: %w", d, err)
		}
		if len(b.Tables)+len(b.Figures) == 0 {
			return nil, fmt.Errorf("run: --include: no tables or figures under %s (expected tables/*.json or figures/*.json, as analyze and simulate write)", d)
		}
		bs = append(bs, b)
	}
	return bs, nil
}

// Stages is the number of stages a run goes through (OnStage's n).
const Stages = 7

// Result is what a finished run wrote.
type Result struct {
	Report   string         // the report directory (index.html inside)
	Bundle   *tables.Bundle // the report's tables and figures (reports.Headline)
	Defaults Defaults       // what the run chose
}

// UsageError is a run refused for its options or its output directory
// (usage.Error: the command line's exit code 2), before or instead of any
// work.
type UsageError = usage.Error

func usagef(format string, a ...any) error { return usage.Errorf(format, a...) }

// stageLog prints one line per stage (the whole run's progress display
// between the ingest bar and the report's path), nothing when quiet.
type stageLog struct {
	w       io.Writer // nil: quiet
	start   time.Time
	n       int
	onStage func(n int) // Config.OnStage
}

func (s *stageLog) stage(name string) {
	s.n++
	if s.onStage != nil {
		s.onStage(s.n)
	}
	if s.w != nil {
		fmt.Fprintf(s.w, "revisit run: [%d/%d] %s (%s elapsed)\n", s.n, Stages, name, time.Since(s.start).Round(100*time.Millisecond))
	}
}

func (s *stageLog) logf(format string, a ...any) {
	if s.w != nil {
		fmt.Fprintf(s.w, "  "+format+"\n", a...)
	}
}

// Run does the whole job of c under c.Out: dataset/ (unless the input is
// a dataset already, DatasetInput), ingest/, replay/,
// analysis/, nhpp/, staleness/, policies/ (when the corpus has at least
// MinPolicyPages pages and at most c.PolicyMax updates) and report/. Each
// is written atomically; OUT follows OpenRunDir's rules (an earlier run's
// stage directories are replaced, nothing else is touched, a new OUT is
// removed after a failure before the dataset is written; later failures
// keep the finished stages). Cancelling ctx stops the running stage, which
// leaves nothing behind. Options that cannot work are *UsageError
// (Validate, before any work).
func Run(ctx context.Context, c Config) (res *Result, err error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	st := &stageLog{w: c.Log, start: time.Now(), onStage: c.OnStage}
	included, err := readIncluded(c.Include)
	if err != nil {
		return nil, err
	}
	given, err := DatasetInput(c.Inputs)
	if err != nil {
		return nil, err
	}
	if given != "" {
		if err := checkDatasetOutside(given, c.Out); err != nil {
			return nil, err
		}
	}
	out, err := OpenRunDir(c.Out)
	if err != nil {
		return nil, err
	}
	defer func() { out.Close(err == nil) }()
	dir := out.Sub
	dsDir := dir("dataset")

	// 1. Ingest, or the dataset given.
	var sum *ingest.Summary
	if given != "" {
		st.stage("dataset " + given + " (given as input: ingest skipped)")
		if sum, err = givenDataset(given, out); err != nil {
			return nil, err
		}
		dsDir = given
	} else {
		st.stage("ingest " + inputsLabel(c.Inputs))
		iopt := c.Ingest
		iopt.Inputs, iopt.Output, iopt.Version = c.Inputs, dir("dataset"), c.Version
		restoreLimit := memlimit.Set()
		sum, err = ingest.Run(ctx, iopt)
		restoreLimit()
		if err != nil {
			var oe *ingest.OptionError
			if errors.As(err, &oe) {
				return nil, usagef("run: %v", oe.Err) // "ingest: …"
			}
			return nil, fmt.Errorf("run: ingest: %w", err)
		}
		if c.Log != nil {
			fmt.Fprint(c.Log, sum.String())
		}
	}
	// The dataset now holds the new corpus: the results and the report of
	// an earlier run at OUT describe another one and must not survive a
	// failure further down next to it (SPEC §1.3: nothing half-written
	// where a finished output is expected).
	for _, sub := range stageDirs {
		if err := out.RemoveStage(sub); err != nil {
			return nil, err
		}
	}
	// SPEC §7.1: the report says what was filtered and why.
	it := IngestTable(sum)
	if given != "" {
		it.Notes = append(it.Notes, fmt.Sprintf("the dataset %s was run's input: ingest was skipped, and these counts are those of its manifest", given))
	}
	if err := tables.WriteBundle(ctx, &tables.Bundle{Tables: []tables.Table{it}}, dir("ingest"), "ingest"); err != nil {
		return nil, err
	}

	// The unit and the policy cycle follow the source's resolution (SPEC §3).
	ds, err := dataset.Open(dsDir)
	if err != nil {
		return nil, fmt.Errorf("run: %w", err)
	}
	var first *series.Page
	var nPages, nUpdates int64
	groups := map[string]bool{}
	tally := c.Select.Tally()
	if err := ds.Each(func(p *series.Page) error {
		if !tally.Keep(p) {
			return ctx.Err()
		}
		if first == nil {
			c := *p
			first = &c
		}
		nPages++
		nUpdates += int64(len(p.Updates))
		if len(groups) < 2 {
			groups[p.Group] = true
		}
		return ctx.Err()
	}); err != nil {
		return nil, fmt.Errorf("run: reading %s: %w", dsDir, err)
	}
	if sel := tally.Summary(); sel != nil {
		st.logf("%s", sel.Describe())
		if first == nil {
			return nil, usagef("run: no page of the dataset %s is selected (%s)", dsDir, sel.Describe())
		}
	}
	if first == nil {
		return nil, fmt.Errorf("run: the dataset %s has no pages (every page was filtered out: see the ingest summary)", dsDir)
	}
	def := DefaultsOf(&c, first, len(groups) > 1)
	// x_max, h and the samplers: replay's defaults (replay.DefaultsFor),
	// per page unless given; replay prints what it chose.
	st.logf("unit %s, %s, seed %d", def.UnitName, pagesText(&c), c.Seed)

	// 2. Replay.
	st.stage("replay")
	ropt := replay.Options{Dataset: dsDir, Out: dir("replay"), Samplers: def.Samplers, Unit: def.Unit, H: def.Choice.H, XMax: def.Choice.XMax,
		Top: c.Top, Sample: sampleOf(&c), SampleIntervals: analysis.MinEvidenceIntervals,
		Seed: c.Seed, Seeds: c.Seeds, Workers: c.Workers, Recover: true, Version: c.Version, Log: st.logf,
		MaxVisits: c.MaxVisits, MaxPairs: c.MaxPairs, Curves: estimates.CurvesCompact, FullCurves: max(c.Top, DefaultTop),
		Select: c.Select}
	ropt.RecoverOpt.K, ropt.RecoverOpt.Extra = recoverK, recoverExt
	ropt.Methods = c.Methods
	if _, err := replay.Run(ctx, ropt); err != nil {
		var oe *replay.OptionError
		if errors.As(err, &oe) { // e.g. --x-max/h too many grid points
			return nil, usagef("run: replay: %v", oe.Err)
		}
		return nil, fmt.Errorf("run: replay: %w", err)
	}

	// 3. Analysis, with 4. localized rates (NHPP) and 5. staleness on the
	// busiest pages, each written as a results directory of its own.
	st.stage("analyze")
	aopt := analysis.Options{Dataset: dsDir, Replay: dir("replay"), Out: dir("analysis"), Unit: def.Unit, Top: max(c.Top, DefaultTop),
		XMax: def.Choice.XMax, Seed: c.Seed, Reps: c.Reps, MinUpdates: c.ScreenUpdates, Workers: c.Workers, LocalizedApart: true}
	aopt.Log, aopt.Select = c.Log, c.Select
	aopt.Localized = analysis.LocalizedOptions{NHPP: true, Staleness: true, SelectMax: c.NHPPPages,
		Start: func(kind string, pages int) {
			what := map[string]string{"nhpp": "NHPP windows", "staleness": "staleness"}[kind]
			st.stage(fmt.Sprintf("%s on %s pages", what, human.Comma(int64(pages))))
		}}
	ares, err := analysis.Run(ctx, aopt)
	if err != nil {
		return nil, analyzeError(err)
	}
	for _, lb := range ares.Localized {
		if err := tables.WriteBundle(ctx, lb.Bundle, dir(lb.Kind), lb.Kind); err != nil {
			return nil, err
		}
	}

	// 6. Download policies, when the corpus supports them. When they are
	// skipped there is no policies/ of an earlier run left: every stage
	// directory was removed after ingest.
	dirs := []string{dir("ingest"), dir("analysis"), dir("nhpp"), dir("staleness")}
	switch {
	case nPages < MinPolicyPages:
		st.stage(fmt.Sprintf("download policies skipped: %s pages (need at least %d)", human.Comma(nPages), MinPolicyPages))
	case budgetOverPages(c.Budget, nPages):
		st.stage(fmt.Sprintf("download policies skipped: --budget %s is more than the %s pages", c.Budget, human.Comma(nPages)))
	case nUpdates > c.PolicyMax:
		st.stage(fmt.Sprintf("download policies skipped: %s updates > --policy-max-updates %s", human.Comma(nUpdates), human.Comma(c.PolicyMax)))
	default:
		st.stage(fmt.Sprintf("download policies on %s pages", human.Comma(nPages)))
		pb, err := runPolicies(ctx, ds, &c, def)
		if err != nil {
			return nil, fmt.Errorf("run: policies: %w", err)
		}
		if err := tables.WriteBundle(ctx, pb, dir("policies"), "policies"); err != nil {
			return nil, err
		}
		dirs = append(dirs, dir("policies"))
	}

	// 7. Report.
	st.stage("report")
	var bs []*tables.Bundle
	for _, d := range dirs {
		b, err := tables.Read(d)
		if err != nil {
			return nil, fmt.Errorf("run: report: %w", err)
		}
		bs = append(bs, b)
	}
	bs = append(bs, included...)
	title := c.Title
	if title == "" {
		title = "revisit report: " + filepath.Base(c.Inputs[0])
		if len(c.Inputs) > 1 {
			title += fmt.Sprintf(" and %d more", len(c.Inputs)-1)
		}
	}
	b := reports.Merge(bs...)
	ropts := reports.Options{Title: title, Inputs: dirs, Version: c.Version, Context: ctx}
	if c.Log != nil {
		ropts.Log = st.logf
	}
	if err := reports.Write(b, dir("report"), ropts); err != nil {
		return nil, fmt.Errorf("run: %w", err)
	}
	return &Result{Report: dir("report"), Bundle: b, Defaults: def}, nil
}

// sampleOf is the replay's sample size: none when Top picks the pages.
func sampleOf(c *Config) int {
	if c.Top > 0 {
		return 0
	}
	return c.Sample
}

// pagesText says which pages the replay compares the methods on.
func pagesText(c *Config) string {
	switch {
	case sampleOf(c) > 0:
		return fmt.Sprintf("a random sample of %d pages with ≥ %d intervals", c.Sample, analysis.MinEvidenceIntervals)
	case c.Top > 0:
		return fmt.Sprintf("the %d busiest pages", c.Top)
	}
	return "every page"
}

// budgetOverPages reports whether budget is a count of downloads per cycle
// larger than the pages (policy.Budget.Exceeds; the command line checks
// the form before ingest, the count can only be checked after).
func budgetOverPages(budget string, pages int64) bool {
	b, err := policy.ParseBudget(budget)
	return err == nil && b.Exceeds(pages)
}

// runPolicies replays the download policies of SPEC §4.5 on every page:
// cycles of def.Cycle, a budget of c.Budget, sites by def.Grouping.
func runPolicies(ctx context.Context, ds *dataset.Reader, c *Config, def Defaults) (*tables.Bundle, error) {
	pages, err := ds.All()
	if err != nil {
		return nil, err
	}
	tally := c.Select.Tally()
	pages = slices.DeleteFunc(pages, func(p series.Page) bool { return !tally.Keep(&p) })
	cyc, err := units.ParseDuration(def.Cycle)
	if err != nil {
		return nil, err
	}
	b, err := policy.ParseBudget(c.Budget)
	if err != nil {
		return nil, err
	}
	r, err := b.Downloads(len(pages))
	if err != nil {
		return nil, err
	}
	return policy.Run(ctx, pages, policy.Options{Cycle: cyc, Budget: r, Grouping: def.Grouping, Seed: c.Seed, Dataset: ds.Dir, Log: (&stageLog{w: c.Log}).logf})
}

// analyzeError is run's error for err from analysis.Run: "run: analyze: "
// before it, once — the analysis's own errors (*analysis.StageError, its
// NHPP and staleness ones too) name the stage already.
func analyzeError(err error) error {
	var ae *analysis.StageError
	if errors.As(err, &ae) {
		return fmt.Errorf("run: %w", err)
	}
	return fmt.Errorf("run: analyze: %w", err)
}
