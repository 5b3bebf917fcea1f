package main

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/spf13/cobra"

	"github.com/revisit-dev/revisit/analysis"
	"github.com/revisit-dev/revisit/analysis/staleness"
	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/generate"
	"github.com/revisit-dev/revisit/ingest"
	"github.com/revisit-dev/revisit/internal/progress"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/replay"
	"github.com/revisit-dev/revisit/replay/nhpp"
	"github.com/revisit-dev/revisit/replay/policy"
	"github.com/revisit-dev/revisit/reports"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// runFlags are the knobs of `revisit run`; everything else takes the
// stages' defaults.
type runFlags struct {
	out, unit, title string
	rate, h, xmax    float64
	samplers         []string
	methods          []string
	include          []string
	top, nhppPages   int
	seed             uint64
	reps, workers    int
	screenUpdates    int
	cycle, budget    string
	policyMax        int64
	maxVisits        int64
	maxPairs         int64
	ingest           ingest.Options
	nsList           string
	since, until     string
	allNS            bool
}

func newRunCmd(g *globals) *cobra.Command {
	var rf runFlags
	cmd := &cobra.Command{
		Use:   "run INPUT... -o OUT",
		Short: "Ingest → replay → analyze → report in one go, with sensible defaults",
		Long: `run does the whole job on edit histories (Wikipedia dumps, Yelp files, update
logs — anything 'revisit ingest' reads, with the same filters and the same
--id/--time/--format options for CSV/JSON logs) and writes, under OUT:

  dataset/    the Parquet dataset of update series (revisit ingest)
  replay/     estimates of every method by virtual crawlers (revisit replay)
  analysis/   statistics, tail fits, method errors (revisit analyze)
  nhpp/       localized-rate (NHPP) results for the top pages
  staleness/  staleness of a crawler's copy, exact vs Poisson
  policies/   download policies under a budget (when the corpus has at
              least 20 pages and at most --policy-max-updates updates)
  report/     the report: open report/index.html (revisit report)

Defaults follow each page's timescale, as in 'revisit replay' and
'revisit analyze': the top --top pages are replayed with two crawlers at ` + fmt.Sprint(replay.VisitsPerMean) + ` visits per mean interval E[U]
of the page, exponential and constant delays (` + strings.Join(replay.DefaultSamplers, ", ") + `);
x_max per page is the 0.99 quantile of its G_U, and h per page E[U]/100
but never finer than the source's time resolution (bins finer than the
timestamps only add noise to M6). The unit is hours for sources with
1-second timestamps and days for date-only ones. --rate λ replaces the
crawlers by exp:λ and const:1/λ; --x-max and --h fix those values for
every page. Policies replay weekly cycles (monthly for date-only sources) with
a budget of 10 % of the pages, grouping pages into sites by the dataset's
group column, or into 10 hashed sites when it has one group only.

Every random draw comes from --seed: the same seed gives the same report.
--include adds other results directories (e.g. from 'revisit simulate')
to the report.`,
		Example: `  revisit run enwiki-latest-stub-meta-history.xml.gz -o out
  revisit run yelp_academic_dataset_review.json -o yelp-out --top 20
  revisit run file_commits.csv.gz --id path --time commit_time_utc -o git-out
  revisit run dump.xml.bz2 -o out --rate 0.5 --seed 7 --include sim-out
  revisit run large.xml.lzma -o anarchism --sampler const:0.25 --sampler exp:4`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("run: no INPUT given")
			}
			if rf.out == "" {
				return usagef("run: -o OUT is required")
			}
			if !(rf.rate >= 0) || !(rf.h >= 0) || !(rf.xmax >= 0) || rf.top < 1 {
				return usagef("run: --rate, --h and --x-max must be ≥ 0 (0: automatic), --top ≥ 1")
			}
			if rf.maxVisits < 1 || rf.maxPairs < 1 {
				return usagef("run: --max-visits and --max-pairs must be ≥ 1")
			}
			if rf.allNS && cmd.Flags().Changed("namespaces") {
				return usagef("run: --namespaces and --all-namespaces exclude each other")
			}
			if rf.screenUpdates < 1 || rf.reps < 1 {
				return usagef("run: --screen-updates and --reps must be at least 1")
			}
			ns, err := parseNamespaces(rf.nsList)
			if err != nil {
				return usagef("run: --namespaces: %v", err)
			}
			rf.ingest.Namespaces, rf.ingest.AllNamespaces = ns, rf.allNS
			if err := revisionFilterFlags(cmd, &rf.ingest); err != nil {
				return err
			}
			if rf.ingest.Since, err = parseWhen(rf.since); err != nil {
				return usagef("run: --since: %v", err)
			}
			if rf.ingest.Until, err = parseWhen(rf.until); err != nil {
				return usagef("run: --until: %v", err)
			}
			for _, s := range rf.samplers {
				if _, err := replay.ParseSampler(s); err != nil {
					return usagef("run: --sampler %q: %v", s, err)
				}
			}
			// Checked here, not after an ingest that may take an hour.
			if _, err := replay.ParseMethods(rf.methods); err != nil {
				return usagef("run: --methods: %v", err)
			}
			for _, d := range rf.include {
				if st, err := os.Stat(d); err != nil {
					return fmt.Errorf("run: --include: %w", err)
				} else if !st.IsDir() {
					return fmt.Errorf("run: --include %s is not a directory (give a results directory, e.g. what revisit simulate -o wrote)", d)
				}
			}
			if rf.cycle != "" {
				if _, err := generate.ParseDuration(rf.cycle); err != nil {
					return usagef("run: --cycle: %v", err)
				}
			}
			if _, err := parseBudget(rf.budget, 1000); err != nil {
				return usagef("run: --budget: %v", err)
			}
			var unitS float64
			if rf.unit != "" {
				if unitS, err = transform.ParseUnit(rf.unit); err != nil {
					return usagef("run: --unit: %v", err)
				}
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			return runAll(ctx, g, &rf, args, unitS)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&rf.out, "output", "o", "", "output directory (dataset/, replay/, analysis/, report/ … are made inside)")
	f.IntVar(&rf.top, "top", 10, "replay and analyse the N pages with the most updates")
	f.Float64Var(&rf.rate, "rate", 0, "crawler rate λ per --unit: samplers exp:λ and const:1/λ (0: relative to each page, "+strings.Join(replay.DefaultSamplers, " and ")+")")
	f.StringArrayVar(&rf.samplers, "sampler", nil, "crawler `SPEC` instead of the defaults, repeatable; a rate or delay ending in x is relative to each page (see revisit replay --help)")
	f.StringSliceVar(&rf.methods, "methods", []string{"all"}, "methods: all or a list of "+strings.Join(replay.AllMethods, ",")+" (as revisit replay)")
	f.StringVar(&rf.unit, "unit", "", "time unit of λ, h, x_max and the report: s, min, h, d, w, y (default h, or d for date-only sources)")
	f.Float64Var(&rf.h, "h", 0, "bin width h for random delays, in units (0: per page, E[U]/100 but never finer than the source's time resolution)")
	f.Float64Var(&rf.xmax, "x-max", 0, "errors and estimates on [0, x_max], in units (0: per page, the 0.99 quantile of its G_U)")
	f.Uint64Var(&rf.seed, "seed", 1, "seed of every random draw")
	f.IntVar(&rf.reps, "reps", 999, "Monte-Carlo replicates of the Poisson screen's KS test")
	f.IntVar(&rf.nhppPages, "nhpp-pages", 200, "pages (most updates first) analysed for NHPP windows and staleness")
	f.StringVar(&rf.cycle, "cycle", "", "download-policy cycle (e.g. 7d; default 7d, or 30d for date-only sources)")
	f.StringVar(&rf.budget, "budget", "10%", "download-policy budget per cycle: pages, or a percentage of the pages")
	f.Int64Var(&rf.policyMax, "policy-max-updates", 50_000_000, "skip the download policies above this many updates (they hold every page in memory)")
	f.IntVar(&rf.workers, "workers", 0, "parallel replay workers (0: all cores)")
	rf.maxVisits, rf.maxPairs = replay.DefaultMaxVisits, replay.DefaultMaxPairs
	f.Var((*countFlag)(&rf.maxVisits), "max-visits", maxVisitsHelp)
	f.Var((*countFlag)(&rf.maxPairs), "max-pairs", maxPairsHelp)
	f.StringArrayVar(&rf.include, "include", nil, "another results `DIR` to render in the report (e.g. from revisit simulate), repeatable")
	f.StringVar(&rf.title, "title", "", "report title (default: revisit report on the inputs' names)")
	f.StringVar(&rf.nsList, "namespaces", "0", "MediaWiki namespaces to keep, comma-separated")
	f.BoolVar(&rf.allNS, "all-namespaces", false, "keep pages of every namespace")
	f.IntVar(&rf.ingest.MinUpdates, "min-updates", 2, "drop pages with fewer updates at ingest")
	f.IntVar(&rf.screenUpdates, "screen-updates", 100, "K: pages with at least K updates enter the Poisson screen (analyze's --screen-updates)")
	f.BoolVar(&rf.ingest.SkipBad, "skip-bad", false, "count and skip bad records instead of failing")
	f.Int64Var(&rf.ingest.MaxRevisionsPerPage, "max-revisions-per-page", ingest.DefaultMaxRevisionsPerPage, "a page with more revisions is bad input at ingest (bounds memory)")
	// The rest of ingest's filters and generic-log options, so that
	// anything 'revisit ingest' reads 'revisit run' reads too.
	f.StringVar(&rf.since, "since", "", "keep revisions at or after this time (RFC 3339 or YYYY-MM-DD, UTC)")
	f.StringVar(&rf.until, "until", "", "keep revisions before this time (RFC 3339 or YYYY-MM-DD, UTC)")
	f.BoolVar(&rf.ingest.NoRedirects, "no-redirects", false, "drop MediaWiki redirect pages")
	addRevisionFilterFlags(f, &rf.ingest)
	f.StringVar(&rf.ingest.Source, "source", "", "source name of MediaWiki pages (default: the dump's dbname) and of generic logs (default: generic)")
	f.StringVar(&rf.ingest.Generic.Format, "format", "auto", formatHelp)
	f.StringVar(&rf.ingest.Generic.ID, "id", "", idHelp)
	f.StringVar(&rf.ingest.Generic.Title, "title-column", "", titleHelp+" (--title is the report's title here)")
	f.StringVar(&rf.ingest.Generic.Time, "time", "", "generic log: column (name or 0-based index) holding the timestamp")
	f.StringVar(&rf.ingest.Generic.Group, "group", "", "generic log: optional column holding the object's group (site)")
	f.BoolVar(&rf.ingest.Generic.IDFromFileName, "id-from-filename", false, "generic log: the whole file is one object named after the file")
	f.BoolVar(&rf.ingest.Generic.IDFromDir, "id-from-dir", false, "with --id-from-filename: name the object after the file's directory")
	f.StringVar(&rf.ingest.Generic.TimeLayout, "time-layout", "auto", "generic log timestamps: auto, rfc3339, date, datetime, epoch, epochms or a Go layout")
	f.IntVar(&rf.ingest.Generic.SkipLines, "skip-lines", 0, "generic log: lines to skip before the header")
	return cmd
}

// stageLog prints one line per stage (the whole run's progress display
// between the ingest bar and the report's path), nothing when quiet.
type stageLog struct {
	quiet   bool
	start   time.Time
	n       int
	onStage func(n int) // globals.onStage
}

func (s *stageLog) stage(name string) {
	s.n++
	if s.onStage != nil {
		s.onStage(s.n)
	}
	if !s.quiet {
		fmt.Fprintf(os.Stderr, "revisit run: [%d/7] %s (%s elapsed)\n", s.n, name, time.Since(s.start).Round(100*time.Millisecond))
	}
}

func (s *stageLog) logf(format string, a ...any) {
	if !s.quiet {
		fmt.Fprintf(os.Stderr, "  "+format+"\n", a...)
	}
}

func runAll(ctx context.Context, g *globals, rf *runFlags, inputs []string, unitS float64) (err error) {
	st := &stageLog{quiet: g.quiet, start: time.Now(), onStage: g.onStage}
	out, err := openRunDir(rf.out)
	if err != nil {
		return err
	}
	defer func() { out.close(err == nil) }()
	dir := out.sub

	// 1. Ingest.
	st.stage("ingest " + inputsLabel(inputs))
	iopt := rf.ingest
	iopt.Inputs, iopt.Output, iopt.Version = inputs, dir("dataset"), version
	disp := progress.New(os.Stderr, "ingest", g.quiet)
	iopt.Progress = disp
	iopt.OnBad = badRecordPrinter(g.quiet)
	restoreLimit := setIngestMemoryLimit()
	sum, err := ingest.Run(ctx, iopt)
	restoreLimit()
	if err != nil {
		var oe *ingest.OptionError
		if errors.As(err, &oe) {
			return usagef("run: ingest: %v", oe.Err)
		}
		return fmt.Errorf("run: ingest: %w", err)
	}
	if !g.quiet {
		fmt.Fprint(os.Stderr, sum.String())
	}
	// The dataset now holds the new corpus: the results and the report of
	// an earlier run at OUT describe another one and must not survive a
	// failure further down next to it (SPEC §1.3: nothing half-written
	// where a finished output is expected).
	for _, sub := range runOutputs {
		if err := out.removeStage(sub); err != nil {
			return err
		}
	}
	// SPEC §7.1: the report says what was filtered and why.
	if err := replaceBundle(&tables.Bundle{Tables: []tables.Table{ingestTable(sum)}}, dir("ingest"), "ingest"); err != nil {
		return err
	}

	// The unit and λ follow the source's resolution (SPEC §3); the top
	// pages for NHPP and staleness are kept in the same pass.
	ds, err := dataset.Open(dir("dataset"))
	if err != nil {
		return fmt.Errorf("run: %w", err)
	}
	keep := transform.NewTopKeeper(rf.nhppPages)
	var first *series.Page
	var nPages, nUpdates int64
	groups := map[string]bool{}
	if err := ds.Each(func(p *series.Page) error {
		if first == nil {
			c := *p
			first = &c
		}
		nPages++
		nUpdates += int64(len(p.Updates))
		if len(groups) < 2 {
			groups[p.Group] = true
		}
		keep.Offer(p)
		return ctx.Err()
	}); err != nil {
		return fmt.Errorf("run: reading %s: %w", dir("dataset"), err)
	}
	if first == nil {
		return fmt.Errorf("run: the dataset %s has no pages (every page was filtered out: see the ingest summary above)", dir("dataset"))
	}
	dateOnly := first.Resolution >= 86400
	if unitS == 0 {
		unitS = transform.DefaultUnit(first)
	}
	unitName := unitLabel(unitS)
	// x_max, h and the samplers: replay's defaults (replay.DefaultsFor),
	// per page unless given; replay prints what it chose.
	samplers := rf.samplers
	if len(samplers) == 0 && rf.rate > 0 {
		samplers = []string{"exp:" + fnum(rf.rate), "const:" + fnum(1/rf.rate)}
	}
	st.logf("unit %s, top %d, seed %d", unitName, rf.top, rf.seed)

	// 2. Replay.
	st.stage("replay")
	ropt := replay.Options{Dataset: dir("dataset"), Out: dir("replay"), Samplers: samplers, Unit: unitS, H: rf.h, XMax: rf.xmax,
		Top: rf.top, Seed: rf.seed, Workers: rf.workers, Recover: true, Version: version, Log: st.logf,
		MaxVisits: rf.maxVisits, MaxPairs: rf.maxPairs}
	ropt.RecoverOpt.K, ropt.RecoverOpt.Extra = 5, 9
	ropt.Methods = rf.methods
	if _, err := replay.Run(ctx, ropt); err != nil {
		var oe *replay.OptionError
		if errors.As(err, &oe) { // e.g. --x-max/h too many grid points
			return usagef("run: replay: %v", oe.Err)
		}
		return fmt.Errorf("run: replay: %w", err)
	}

	// 3. Analysis.
	st.stage("analyze")
	aopt := analysis.Options{Dataset: dir("dataset"), Replay: dir("replay"), Out: dir("analysis"), Unit: unitS, Top: rf.top,
		XMax: rf.xmax, Seed: rf.seed, Reps: rf.reps, MinUpdates: rf.screenUpdates, Estimates: readReplay}
	if !g.quiet {
		aopt.Log = os.Stderr
	}
	if _, err := analysis.Run(ctx, aopt); err != nil {
		return fmt.Errorf("run: analyze: %w", err)
	}

	// 4. Localized rates (NHPP) and 5. staleness on the top pages.
	pages := keep.Pages()
	st.stage(fmt.Sprintf("NHPP windows on %s pages", humanize.Comma(int64(len(pages)))))
	nb, err := nhpp.Analyze(ctx, pages, unitS, nhpp.Options{Dataset: dir("dataset")})
	if err != nil {
		return fmt.Errorf("run: nhpp: %w", err)
	}
	if err := replaceBundle(nb, dir("nhpp"), "nhpp"); err != nil {
		return err
	}
	st.stage(fmt.Sprintf("staleness on %s pages", humanize.Comma(int64(len(pages)))))
	sb, err := staleness.Analyze(ctx, pages, unitS, staleness.Options{Seed: rf.seed, Dataset: dir("dataset")})
	if err != nil {
		return fmt.Errorf("run: staleness: %w", err)
	}
	if err := replaceBundle(sb, dir("staleness"), "staleness"); err != nil {
		return err
	}

	// 6. Download policies, when the corpus supports them.
	dirs := []string{dir("ingest"), dir("analysis"), dir("nhpp"), dir("staleness")}
	switch {
	case nPages < 20:
		st.stage(fmt.Sprintf("download policies skipped: %s pages (need at least 20)", humanize.Comma(nPages)))
		if err := out.removeStage("policies"); err != nil {
			return err
		}
	case nUpdates > rf.policyMax:
		st.stage(fmt.Sprintf("download policies skipped: %s updates > --policy-max-updates %s", humanize.Comma(nUpdates), humanize.Comma(rf.policyMax)))
		if err := out.removeStage("policies"); err != nil {
			return err
		}
	default:
		st.stage(fmt.Sprintf("download policies on %s pages", humanize.Comma(nPages)))
		pb, err := runPolicies(ctx, ds, rf, dateOnly, len(groups) > 1)
		if err != nil {
			return fmt.Errorf("run: policies: %w", err)
		}
		if err := replaceBundle(pb, dir("policies"), "policies"); err != nil {
			return err
		}
		dirs = append(dirs, dir("policies"))
	}

	// 7. Report.
	st.stage("report")
	dirs = append(dirs, rf.include...)
	var bs []*tables.Bundle
	for _, d := range dirs {
		b, err := tables.Read(d)
		if err != nil {
			return fmt.Errorf("run: report: %w", err)
		}
		bs = append(bs, b)
	}
	title := rf.title
	if title == "" {
		title = "revisit report: " + filepath.Base(inputs[0])
		if len(inputs) > 1 {
			title += fmt.Sprintf(" and %d more", len(inputs)-1)
		}
	}
	b := reports.Merge(bs...)
	ropts := reports.Options{Title: title, Inputs: dirs, Version: version}
	if !g.quiet {
		ropts.Log = st.logf
	}
	if err := reports.Write(b, dir("report"), ropts); err != nil {
		return fmt.Errorf("run: %w", err)
	}
	if !g.quiet {
		printFindings(os.Stderr, b)
		fmt.Fprintf(os.Stderr, "revisit run: done in %s: %d tables, %d figures\n", time.Since(st.start).Round(100*time.Millisecond), len(b.Tables), len(b.Figures))
	}
	fmt.Fprintln(os.Stdout, filepath.Join(dir("report"), "index.html"))
	return nil
}

// inputsLabel names the inputs on one line: all of them up to three,
// else the first two and how many more (a shell glob may give hundreds).
func inputsLabel(inputs []string) string {
	if len(inputs) <= 3 {
		return strings.Join(inputs, " ")
	}
	return fmt.Sprintf("%s %s and %d more inputs", inputs[0], inputs[1], len(inputs)-2)
}

// ingestTable is the report's account of ingest (SPEC §7.1: what was
// filtered and why): pages and revisions read and kept, same-second
// revisions collapsed, and every count of pages or records left out, by
// reason, as the manifest records them; the filters in force are notes.
func ingestTable(sum *ingest.Summary) tables.Table {
	c := sum.Counts
	rows := [][]any{
		{"pages read", c.PagesRead},
		{"pages kept", c.PagesKept},
		{"revisions read", c.RevisionsRead},
		{"revisions kept (of kept pages, in the time range)", c.RevisionsKept},
		{"same-second revisions collapsed", c.Collapsed},
		{"updates (after collapsing)", c.Updates},
	}
	for _, k := range slices.Sorted(maps.Keys(c.Skipped)) {
		if v := c.Skipped[k]; v != 0 {
			rows = append(rows, []any{skipLabel(k, sum.Filters.MinUpdates), v})
		}
	}
	f := sum.Filters
	var notes []string
	ns := "all namespaces"
	if len(f.Namespaces) > 0 {
		ns = fmt.Sprint(f.Namespaces)
	}
	notes = append(notes, fmt.Sprintf("filters: MediaWiki namespaces %s; at least %d updates per page; redirects %s; bad records %s",
		ns, f.MinUpdates, map[bool]string{true: "dropped", false: "kept"}[f.NoRedirects], map[bool]string{true: "counted and skipped (--skip-bad)", false: "fatal"}[f.SkipBad]))
	if r := sum.RevisionFilters; len(r.Order) > 0 {
		notes = append(notes, fmt.Sprintf("what counts as an update: identity reverts and the revisions they undo %s; bot edits %s; minor edits %s",
			map[bool]string{true: "left out", false: "kept"}[r.DropReverts], map[bool]string{true: "left out", false: "kept"}[r.DropBots],
			map[bool]string{true: "left out", false: "kept"}[r.DropMinor]))
	}
	if f.Since != nil || f.Until != nil {
		var from, to string = "the start", "the end"
		if f.Since != nil {
			from = f.Since.Format(time.RFC3339)
		}
		if f.Until != nil {
			to = f.Until.Format(time.RFC3339)
		}
		notes = append(notes, fmt.Sprintf("time range: revisions in [%s, %s) kept", from, to))
	}
	var names []string
	for _, in := range sum.Inputs {
		names = append(names, filepath.Base(in.Name))
	}
	return tables.Table{
		ID: "ingest_counts", Title: "Ingest: read, kept and left out", Section: 1, Order: 1,
		Source:  fmt.Sprintf("%s (%s, %s) → %s", inputsLabel(names), plural(len(sum.Inputs), "input"), humanize.Bytes(uint64(sum.Bytes)), sum.Output),
		Notes:   notes,
		Columns: []tables.Column{{Name: "what", Kind: tables.String}, {Name: "count", Kind: tables.Int}},
		Rows:    rows,
	}
}

// skipLabel says in words what a manifest's skip reason counts.
func skipLabel(reason string, minUpdates int) string {
	switch reason {
	case "namespace":
		return "left out: pages outside the namespaces"
	case "redirect":
		return "left out: redirect pages"
	case "time_range":
		return "left out: pages with no revision in the time range"
	case "min_updates":
		return fmt.Sprintf("left out: pages with fewer than %d updates", minUpdates)
	case "revisions_of_skipped_pages":
		return "left out: revisions of the pages left out"
	case "revisions_outside_time_range":
		return "left out: revisions outside the time range"
	case "revisions_identity_revert":
		return "left out: identity reverts (--drop-reverts)"
	case "revisions_identity_reverted":
		return "left out: revisions undone by an identity revert (--drop-reverts)"
	case "revisions_bot":
		return "left out: revisions by bots (--drop-bots)"
	case "revisions_minor":
		return "left out: minor revisions (--drop-minor)"
	case "revision_filters":
		return "left out: pages with no revision left by --drop-reverts/--drop-bots/--drop-minor"
	case "revisions_without_page_id":
		return "left out: mediawiki_history revisions without a page id"
	case "archive_members_unknown_format":
		return "left out: archive members of unknown format"
	case "archive_members_symlink", "archive_members_hardlink", "archive_members_device", "archive_members_fifo":
		return "left out: archive members that are " + map[string]string{
			"archive_members_symlink": "symbolic links", "archive_members_hardlink": "hard links",
			"archive_members_device": "devices", "archive_members_fifo": "FIFOs"}[reason] + " (not files)"
	case "archive_members_other_type":
		return "left out: archive members that are not regular files"
	}
	if r, ok := strings.CutPrefix(reason, "bad_"); ok {
		return "skipped bad records: " + strings.ReplaceAll(r, "_", " ")
	}
	return "left out: " + strings.ReplaceAll(reason, "_", " ")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// runOutputs are the directories run writes under OUT after the dataset.
var runOutputs = []string{"ingest", "replay", "analysis", "nhpp", "staleness", "policies", "report"}

// runPolicies replays the download policies of SPEC §4.5 on every page:
// cycles of --cycle, a budget of --budget, sites from the group column (or
// 10 hashed sites when there is a single group).
func runPolicies(ctx context.Context, ds *dataset.Reader, rf *runFlags, dateOnly, manyGroups bool) (*tables.Bundle, error) {
	pages, err := ds.All()
	if err != nil {
		return nil, err
	}
	cycle := rf.cycle
	if cycle == "" {
		cycle = "7d"
		if dateOnly {
			cycle = "30d"
		}
	}
	c, err := generate.ParseDuration(cycle)
	if err != nil {
		return nil, err
	}
	r, err := parseBudget(rf.budget, len(pages))
	if err != nil {
		return nil, err
	}
	grouping := "group"
	if !manyGroups {
		grouping = "hash:10"
	}
	return policy.Run(ctx, pages, policy.Options{Cycle: c, Budget: r, Grouping: grouping, Seed: rf.seed, Dataset: ds.Dir})
}

// replaceBundle writes b as a results directory of the given kind at dir
// (atomically, replacing only an earlier one of that kind).
func replaceBundle(b *tables.Bundle, dir, kind string) error {
	return analysis.WriteResults(dir, kind, func(tmp string) error {
		if err := b.Write(tmp); err != nil {
			return fmt.Errorf("%s %s: %w", kind, dir, err)
		}
		return nil
	})
}

// unitLabel names a unit length in seconds.
func unitLabel(s float64) string {
	for _, u := range []struct {
		name string
		s    float64
	}{{"s", 1}, {"min", 60}, {"h", 3600}, {"d", 86400}, {"w", 7 * 86400}, {"y", 365.25 * 86400}} {
		if s == u.s {
			return u.name
		}
	}
	return fnum(s) + " s"
}

func fnum(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
