package reports

import (
	"fmt"

	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/tables"
)

// Intervals in the findings (docs/methods.md#seeds). A mean error
// carries its 95% interval, and each sentence says which variation the
// interval covers: over pages (analysis' bootstrap of the pages, each
// page's error its mean over the replay's seeds) wherever two pages or
// more carry it, else over the seeds of the one page (the crawl's
// randomness only), else none. A paired difference is always written
// subject − other (κ_A − κ_B: negative means A's error is lower), and a
// method beats another only where analysis' verdict says so (the
// decisive interval lies below 0 by more than 0.01 percentage points of
// κ); otherwise the two are indistinguishable, or differ negligibly.

// rangeMean is analysis' second range of the errors, as its column names
// spell it.
const rangeMean = "x ≤ 10·E[U]"

// Verdicts as analysis writes them (analysis.VerdictBetter …): the
// paired difference κ_method − κ_compared lies below 0, above it,
// contains it, or excludes it by less than 0.01 percentage points.
const (
	verdictBetter     = "better"
	verdictWorse      = "worse"
	verdictSame       = "indistinguishable"
	verdictNegligible = "negligible"
)

// rowCtx reads one row of a table and says its intervals, the first of
// a sentence in full (which variation it covers, how it was obtained),
// the later ones briefly.
type rowCtx struct {
	t    *tables.Table
	r    []any
	said *bool // shared by the rows one sentence reads
}

// sentence returns a function that makes the rowCtx of a row of t, all
// of them sharing one sentence's state.
func sentence() func(t *tables.Table, r []any) *rowCtx {
	said := new(bool)
	return func(t *tables.Table, r []any) *rowCtx { return &rowCtx{t: t, r: r, said: said} }
}

func (c *rowCtx) f(name string) float64 { return cellFloat(c.r, col(c.t, name)) }
func (c *rowCtx) s(name string) string  { return cellString(c.r, col(c.t, name)) }
func (c *rowCtx) n(name string) int64 {
	v, _ := cellInt(c.r, col(c.t, name))
	return v
}

// seeds is R of the row (0 when the table predates seeds).
func (c *rowCtx) seeds() int64 { return c.n("seeds") }

// over says what variation an interval covers: "over pages (bootstrap,
// 2,000 resamples of the 50 pages, each averaged over 5 seeds)", or
// "over 5 seeds (one page: the crawl's randomness only)", in full the
// first time in a sentence.
func (c *rowCtx) over(basis string) string {
	full := !*c.said
	*c.said = true
	switch basis {
	case "pages":
		if !full {
			return "over pages"
		}
		s := fmt.Sprintf("over pages (bootstrap, %s resamples of the %s", human.Comma(c.n("resamples")), human.Count(c.n("pages"), "page", "pages"))
		if r := c.seeds(); r > 1 {
			s += fmt.Sprintf(", each averaged over %d seeds", r)
		} else if r == 1 {
			s += ", one seed each"
		}
		return s + ")"
	case "seeds":
		if !full {
			return fmt.Sprintf("over %d seeds", c.seeds())
		}
		return fmt.Sprintf("over %d seeds (one page: the crawl's randomness only)", c.seeds())
	}
	return ""
}

// interval is " (95% interval lo to hi over …)" of a mean whose interval
// over seeds is in the columns name+" lo"/" hi" and over pages in
// name+" lo over pages"/" hi over pages" (suffix after each: the range),
// the one over pages where it exists; " (no interval: …)" when neither
// does in a table with seeds; "" in a table without.
func (c *rowCtx) interval(name, suffix string) string {
	if lo, hi := c.f(name+" lo over pages"+suffix), c.f(name+" hi over pages"+suffix); finite(lo) && finite(hi) {
		return fmt.Sprintf(" (95%% interval %s to %s %s)", tables.ErrPercent(lo), tables.ErrPercent(hi), c.over("pages"))
	}
	if lo, hi := c.f(name+" lo"+suffix), c.f(name+" hi"+suffix); finite(lo) && finite(hi) && c.seeds() > 1 {
		return fmt.Sprintf(" (95%% interval %s to %s %s)", tables.ErrPercent(lo), tables.ErrPercent(hi), c.over("seeds"))
	}
	if c.seeds() >= 1 {
		return " (" + noInterval + ")"
	}
	return ""
}

// noInterval is what a sentence says of an error from one page and one
// seed.
const noInterval = "no interval: one page and one seed (--seeds R gives one over seeds)"

// pair says how the row's method compares with the method in its
// "compared with" column on one range (suffix "" or " (x ≤ 10·E[U])"),
// by analysis' verdict and its decisive interval ("interval over"),
// always as subject − other: "M2 beats M6 (κ_M2 − κ_M6 = −1.3%, 95%
// interval −1.4% to −1.2% over pages)", with the rival as the subject
// when it is the better one. ok is false when there is no verdict (no
// rival, or no interval).
func (c *rowCtx) pair(method, suffix string) (s string, ok bool) {
	rival, verdict, basis := c.s("compared with"+suffix), c.s("verdict"+suffix), c.s("interval over"+suffix)
	if rival == "" || verdict == "" {
		return "", false
	}
	d, lo, hi := c.f("Δ KS over pages"+suffix), c.f("Δ KS lo over pages"+suffix), c.f("Δ KS hi over pages"+suffix)
	if basis == "seeds" {
		d, lo, hi = c.f("Δ KS"+suffix), c.f("Δ KS lo"+suffix), c.f("Δ KS hi"+suffix)
	}
	a, b := method, rival
	if verdict == verdictWorse { // the rival is the better one: it is the subject
		a, b, d, lo, hi = rival, method, -d, -hi, -lo
	}
	if d == 0 && lo == 0 && hi == 0 {
		return fmt.Sprintf("%s and %s give the same κ on every page and seed", a, b), true
	}
	iv := fmt.Sprintf("κ_%s − κ_%s = %s, 95%% interval %s to %s %s", a, b, tables.ErrPercent(d), tables.ErrPercent(lo), tables.ErrPercent(hi), c.over(basis))
	switch verdict {
	case verdictBetter, verdictWorse:
		return fmt.Sprintf("%s beats %s (%s)", a, b, iv), true
	case verdictNegligible:
		return fmt.Sprintf("%s and %s differ consistently but negligibly (%s: under 0.01 percentage points of κ)", a, b, iv), true
	}
	return fmt.Sprintf("%s is indistinguishable from %s (%s, which includes 0)", a, b, iv), true
}

// cost is the mean paired difference of the row's comparison on the
// default range, in the interval judged (what keeping a method costs
// against the compared one).
func (c *rowCtx) cost() float64 {
	if c.s("interval over") == "seeds" {
		return c.f("Δ KS")
	}
	return c.f("Δ KS over pages")
}

// winShare is "the lowest mean κ in 1,990 of the 2,000 resamples" from
// the row's count of resamples won on one range, "" without one.
func (c *rowCtx) winShare(suffix string) string {
	won, ok := cellInt(c.r, col(c.t, "lowest KS in resamples"+suffix))
	if !ok || c.n("resamples") == 0 {
		return ""
	}
	return fmt.Sprintf("the lowest mean κ in %s of the %s resamples", human.Comma(won), human.Comma(c.n("resamples")))
}
