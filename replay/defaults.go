package replay

import (
	"fmt"
	"slices"
	"strings"

	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// Defaults that follow each page's timescale. One place defines them;
// replay, analyze and run (and whatever orchestrates them) all call
// DefaultsFor, so they cannot drift. A fixed x_max or h of hours is wrong
// for pages whose E[U] is months (git histories: E[U] ≈ 4,000 h, where
// x_max = 1000 h covers only a quarter of G_U), and a fixed λ = 2/h is
// wasteful there and too coarse for pages edited every minute.
const (
	// XMaxQuantile sets the automatic x_max of a page: the 0.99 quantile
	// of its exact G_U (transform.AgeQuantile), so that the comparison
	// covers 99 % of the page's age distribution whatever its timescale.
	XMaxQuantile = 0.99
	// HPerMean sets the automatic bin width h of a page: E[U]/HPerMean,
	// never finer than the source's time resolution (bins finer than the
	// timestamps split pairs the data cannot tell apart, so M6 gets
	// noisier without getting finer: on the real Yelp tips, 1-day
	// resolution, M6's mean KS was 0.40 with h = 0.05 d and 0.09 with
	// h = 1 d) and never so fine that x_max/h exceeds MaxAutoGrid.
	HPerMean = 100
	// MaxAutoGrid bounds the grid x_max/h of an automatic h (the old
	// fixed defaults had 1000/0.05 = 20,000 points; a heavy-tailed page
	// whose 0.99 quantile of G_U is 10⁴·E[U] would otherwise need 10⁶).
	MaxAutoGrid = estimator.MaxAutoGrid
	// VisitsPerMean is k of the default samplers exp:kx and const:(1/k)x:
	// k visits per mean interval E[U] on every page. G_U has slope
	// 1/E[U] at 0 and curvature −f_U/E[U], so a step estimate on the grid
	// x_n = nE[U]/k, interpolated linearly, is off by at most about
	// max f_U·E[U]/(8k²) (1/(8k²) = 0.03 % for exponential intervals at
	// k = 20, the floor of M4/M5/M6's KS distance); M6's bins of
	// h = E[U]/100 receive λh = k/100 = 0.2 pairs per visit each; and the
	// work, k visits per interval and k²·x_max/E[U] M6 pairs per interval,
	// does not depend on the timescale. (The old λ = 2/h gave the
	// Anarchism page, E[U] = 4.8 h, about 10 visits per mean interval, and
	// a git history 8,000.)
	VisitsPerMean = 20
)

// DefaultSamplers are the samplers when none is given: exponential delays
// at λ = VisitsPerMean/E[U] and constant delays Δ = E[U]/VisitsPerMean.
var DefaultSamplers = []string{fmt.Sprintf("exp:%dx", VisitsPerMean), fmt.Sprintf("const:%gx", 1.0/VisitsPerMean)}

// Choice is what the user fixed: a positive XMax or H is used for every
// page as given; 0 means automatic, per page (DefaultsFor).
type Choice struct {
	XMax float64
	H    float64
}

// Auto reports whether anything is chosen per page.
func (c Choice) Auto() bool { return c.XMax == 0 || c.H == 0 }

// PageDefaults are the replay parameters of one page, in units.
type PageDefaults struct {
	MeanU float64 // E[U] of the page's intervals; relative samplers scale with it
	XMax  float64 // the given x_max, or the 0.99 quantile of G_U (at least H)
	H     float64 // the given h, or max(E[U]/100, resolution, x_max/MaxAutoGrid)
}

// DefaultsFor is the page's parameters in unit (seconds per unit) under
// the user's choice c (DefaultsOf on its intervals and time resolution).
func DefaultsFor(p *series.Page, unit float64, c Choice) PageDefaults {
	return DefaultsOf(transform.Intervals(p.Updates, unit), float64(p.Resolution)/unit, c)
}

// DefaultsOf is DefaultsFor on a page's intervals u (in units) and its
// source's time resolution (in units; 0 if unknown):
//
//	x_max = c.XMax if given, else max(Q_{0.99}(G_U), h)
//	h     = c.H if given, else max(E[U]/100, resolution, x_max/MaxAutoGrid)
//
// where Q_{0.99}(G_U) is the 0.99 quantile of the page's exact G_U
// (transform.AgeQuantile). x_max ≥ h keeps the grid non-empty on pages
// whose intervals all equal the resolution.
func DefaultsOf(u []float64, resolution float64, c Choice) PageDefaults {
	d := PageDefaults{MeanU: transform.MeanInterval(u), XMax: c.XMax, H: c.H}
	q := c.XMax
	if q == 0 {
		q = transform.AgeQuantile(u, XMaxQuantile)
	}
	if d.H == 0 {
		d.H = max(d.MeanU/HPerMean, resolution, q/MaxAutoGrid)
		if !(d.H > 0) { // no positive interval
			d.H = max(resolution, 1)
		}
	}
	if d.XMax == 0 {
		d.XMax = max(q, d.H)
	}
	return d
}

// Spread summarises a per-page parameter over the pages replayed.
type Spread struct {
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
}

// SpreadOf is the median, smallest and largest of v (the zero Spread for
// none).
func SpreadOf(v []float64) Spread {
	if len(v) == 0 {
		return Spread{}
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return Spread{Median: estimator.MedianSorted(s), Min: s[0], Max: s[len(s)-1]}
}

// String prints the spread as plain numbers: "median 5, range 1–12"
// (one number when every page has the same value); In prints it with a
// unit.
func (s Spread) String() string {
	if s.Min == s.Max {
		return human.Plain(s.Min)
	}
	return fmt.Sprintf("median %s, range %s–%s", human.Plain(s.Median), human.Plain(s.Min), human.Plain(s.Max))
}

// In prints the spread of durations in unit (a --unit name, as
// Meta.UnitName) in one unit chosen from its median
// (human.DisplayUnit: the largest of y, d, h, min and s of which the
// median is at least 1), never in e-notation: x_max of a slow source
// computed in hours, median 13,540 h, reads "median 1.545 y, range
// 0.1141–3.1 y", not "median 1.354e+04, range …". A unit that is not a
// time prints the plain numbers and the unit.
func (s Spread) In(unit string) string {
	per, ok := tables.UnitSeconds(unit)
	if !ok {
		return s.String() + " " + unit
	}
	name, sec := human.DisplayUnit(s.Median * per)
	if s.Min == s.Max {
		name, sec = human.DisplayUnit(s.Min * per)
		return human.DurationIn(s.Min*per, name, sec)
	}
	return fmt.Sprintf("median %s %s, range %s–%s %s", human.Plain(s.Median*per/sec), name, human.Plain(s.Min*per/sec), human.Plain(s.Max*per/sec), name)
}

// Choices records how a replay chose x_max, h and its samplers, and the
// values chosen over the pages (replay.json's "choices").
type Choices struct {
	XMaxRule    string `json:"x_max_rule"`
	HRule       string `json:"h_rule"`
	SamplerRule string `json:"sampler_rule"`
	MeanU       Spread `json:"mean_u"` // E[U] of the pages
	XMax        Spread `json:"x_max"`
	H           Spread `json:"h"`
}

// Rules of the choices, as printed and recorded.
const (
	RuleXMaxAuto = "per page = 0.99 quantile of the page's G_U"
	RuleHAuto    = "per page = E[U]/100, never finer than the source's time resolution"
	RuleGiven    = "given"
)

// newChoices states the rules for c and samplers (given says whether the
// user named the samplers).
func newChoices(c Choice, samplers []string, given bool) Choices {
	ch := Choices{XMaxRule: RuleGiven, HRule: RuleGiven}
	if c.XMax == 0 {
		ch.XMaxRule = RuleXMaxAuto
	}
	if c.H == 0 {
		ch.HRule = RuleHAuto
	}
	ch.SamplerRule = "given: " + strings.Join(samplers, ", ")
	if !given {
		ch.SamplerRule = fmt.Sprintf("default: %s (λ = %d/E[U] and Δ = E[U]/%d: %d visits per mean interval on every page)",
			strings.Join(samplers, ", "), VisitsPerMean, VisitsPerMean, VisitsPerMean)
	}
	return ch
}

// Describe is the one-line account of the choices, whose values are in
// the unit named u, each shown in a unit chosen from its values (Spread.In):
// "x_max per page = 0.99 quantile of the page's G_U (median 564.2 d,
// range 12.03–3,010 d); h = 2 h (given); …".
func (c Choices) Describe(u string) string {
	return fmt.Sprintf("%s; %s; samplers %s", XMaxText(c.XMaxRule, c.XMax, u), choiceText("h", c.HRule, c.H, u), c.SamplerRule)
}

// XMaxText states x_max as the replay chose it (rule RuleXMaxAuto or
// RuleGiven) with its values over the pages s in unit u: "x_max per page
// = 0.99 quantile of the page's G_U (median 80.09 d, range 9.652–207.7
// d)", or "x_max = 1,000 h (given)". It is the one way x_max is written:
// the replay's Source line and analysis' evidence of the errors use it.
func XMaxText(rule string, s Spread, u string) string { return choiceText("x_max", rule, s, u) }

// choiceText states one choice (x_max or h) by its rule and values.
func choiceText(name, rule string, s Spread, u string) string {
	if rule == RuleGiven {
		return fmt.Sprintf("%s = %s (given)", name, Spread{Median: s.Max, Min: s.Max, Max: s.Max}.In(u))
	}
	return fmt.Sprintf("%s %s (%s)", name, rule, s.In(u))
}

// Describe is the provenance line of a replay output: its samplers, the
// choices of x_max and h (or the fixed values of replays older than the
// choices), seed, unit and pages, and the page selection if any.
func (m *Meta) Describe() string {
	var xh string
	if m.Choices != nil {
		xh = m.Choices.Describe(m.UnitName)
	} else {
		one := func(v float64) string { return Spread{Median: v, Min: v, Max: v}.In(m.UnitName) }
		xh = fmt.Sprintf("samplers %s, h %s, x_max %s", strings.Join(m.Samplers, " "), one(m.H), one(m.XMax))
	}
	d := fmt.Sprintf("%s; seed %d, unit %s, %d pages", xh, m.Seed, m.UnitName, m.Pages)
	if s := m.SampleText(); s != "" {
		d += ": " + s
	}
	if m.Selection != nil {
		d += "; " + m.Selection.Describe()
	}
	return d
}

// SampleText says what page set a replay of a sample rests on: "a random
// sample (seed 1) of the 352 pages with ≥ 99 intervals", or "every page
// with ≥ 99 intervals (40, no more than --sample 50)" when there were no
// more than the sample's size; "" for a replay without a sample.
func (m *Meta) SampleText() string {
	if m.Sample <= 0 {
		return ""
	}
	eligible := int64(m.SampleEligible)
	if m.Skipped[SkipNotInSample] == 0 {
		return fmt.Sprintf("every page with ≥ %s intervals (%s, no more than --sample %d)", human.Comma(int64(m.SampleIntervals)), human.Comma(eligible), m.Sample)
	}
	return fmt.Sprintf("a random sample (seed %d) of the %s with ≥ %s intervals", m.Seed, human.Count(eligible, "page", "pages"), human.Comma(int64(m.SampleIntervals)))
}
