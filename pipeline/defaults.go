package pipeline

import (
	"strconv"

	"github.com/revisit-dev/revisit/analysis"
	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/ingest"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/replay"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// Defaults of a run that the flags start from (DefaultConfig). The
// per-page replay defaults (x_max, h, samplers) are replay's
// (replay.DefaultsFor, replay.DefaultSamplers): run, replay and analyze
// share one definition.
const (
	DefaultTop           = 10                            // busiest pages of the top-pages table, and of the replay's full curves
	DefaultSample        = 50                            // pages of the method comparison: a seeded random sample of those with enough intervals
	DefaultSeed          = 1                             // seed of every random draw
	DefaultReps          = analysis.DefaultReps          // Monte-Carlo replicates of the Poisson screen's KS test
	DefaultNHPPPages     = 200                           // busiest pages for NHPP windows and staleness
	DefaultScreenUpdates = analysis.DefaultScreenUpdates // K of the Poisson screen
	DefaultMinUpdates    = 2                             // --min-updates of ingest and run, one page set (an interval needs two updates)
	DefaultBudget        = "10%"                         // download-policy budget per cycle
	DefaultPolicyMax     = 50_000_000                    // updates above which the policies (all pages in memory) are skipped
	DefaultCycle         = "7d"                          // download-policy cycle, sources with 1-second timestamps
	DateOnlyCycle        = "30d"                         // download-policy cycle, date-only sources (resolution ≥ 1 d)
	HashedSites          = "hash:10"                     // policy grouping when the dataset has a single group
	MinPolicyPages       = 20                            // fewer pages: the policies are skipped
	dateOnlyResolution   = units.Day                     // seconds: a source this coarse is date-only
	defaultGrouping      = "group"                       // policy grouping by the dataset's group column
	recoverK, recoverExt = 5, 9                          // replay's recovery options in run (RecoverOpt.K, .Extra)
)

// DefaultConfig is a Config holding every default (cmd binds its flags to
// these values); Inputs and Out are left empty.
func DefaultConfig() Config {
	return Config{
		Sample: DefaultSample, Seed: DefaultSeed, Seeds: 1, Reps: DefaultReps, NHPPPages: DefaultNHPPPages,
		ScreenUpdates: DefaultScreenUpdates, Budget: DefaultBudget, PolicyMax: DefaultPolicyMax,
		MaxVisits: estimator.DefaultMaxVisits, MaxPairs: estimator.DefaultMaxPairs,
		Methods: []string{"all"},
		// Articles only, and pages with at least one interval.
		Ingest: ingest.Options{Namespaces: []int32{0}, MinUpdates: DefaultMinUpdates},
	}
}

// Defaults are what a run chose for what the user left open, from the
// dataset's first page (its source's time resolution) and group count:
//
//	unit      = the given --unit, else transform.DefaultUnit (h; d for date-only sources)
//	samplers  = the given ones, else exp:λ and const:1/λ for --rate λ, else
//	            nil: replay.DefaultSamplers relative to each page
//	x_max, h  = the given values, else per page (replay.DefaultsFor: the 0.99
//	            quantile of G_U and E[U]/100, never finer than the resolution)
//	cycle     = the given --cycle, else 7d (30d for date-only sources)
//	grouping  = the group column, or 10 hashed sites for a single group
type Defaults struct {
	Unit     float64 // seconds per unit
	UnitName string  // "h", "d", … (or "N s")
	DateOnly bool    // the source's resolution is a day or coarser
	Samplers []string
	Choice   replay.Choice // 0 = per page (replay.DefaultsFor)
	Cycle    string
	Grouping string
}

// DefaultsOf composes the defaults of a run of c on a dataset whose first
// page is first and that has more than one group when manyGroups.
func DefaultsOf(c *Config, first *series.Page, manyGroups bool) Defaults {
	d := Defaults{Unit: c.Unit, DateOnly: first.Resolution >= dateOnlyResolution,
		Samplers: c.Samplers, Choice: replay.Choice{XMax: c.XMax, H: c.H}, Cycle: c.Cycle, Grouping: defaultGrouping}
	if d.Unit == 0 {
		d.Unit = transform.DefaultUnit(first)
	}
	d.UnitName = units.Label(d.Unit)
	if len(d.Samplers) == 0 && c.Rate > 0 {
		d.Samplers = []string{"exp:" + fnum(c.Rate), "const:" + fnum(1/c.Rate)}
	}
	if d.Cycle == "" {
		d.Cycle = DefaultCycle
		if d.DateOnly {
			d.Cycle = DateOnlyCycle
		}
	}
	if !manyGroups {
		d.Grouping = HashedSites
	}
	return d
}

// Page is replay's parameters for page p under these defaults
// (replay.DefaultsFor in the run's unit).
func (d Defaults) Page(p *series.Page) replay.PageDefaults {
	return replay.DefaultsFor(p, d.Unit, d.Choice)
}

func fnum(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
