package analysis

import (
	"context"
	"fmt"

	"github.com/revisit-dev/revisit/analysis/staleness"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/replay/nhpp"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// DefaultSelectMax bounds the pages kept in memory for the localized-rate
// (NHPP, SPEC §4.4) and staleness analyses: the busiest pages, so memory
// does not grow with the corpus.
const DefaultSelectMax = 2000

// LocalizedOptions switch on the analyses that need whole update series of
// a selection of pages rather than one streaming pass: localized rates
// (replay/nhpp) and the cost of assuming Poisson (analysis/staleness).
type LocalizedOptions struct {
	NHPP      bool    // SPEC §4.4 windows, Weibull/Duane fits, prediction
	Theta     float64 // consistency threshold of the NHPP windows (0 → 0.1)
	Staleness bool    // exact staleness vs the Poisson prediction
	Delta     float64 // revisit interval Δ in the unit (0 → each page's E[U])
	Epsilon   float64 // staleness target ε (0 → 0.1)
	SelectMax int     // at most this many pages, the busiest (0 → DefaultSelectMax)

	// Start, if set, is called before each enabled analysis with its kind
	// ("nhpp", then "staleness") and the number of pages it covers.
	Start func(kind string, pages int) `json:"-"`
	// Separate, if set, receives each analysis's bundle, by kind, instead
	// of the analysis bundle taking its tables and figures (revisit run
	// writes them as results directories of their own); an error stops
	// the analysis.
	Separate func(kind string, b *tables.Bundle) error `json:"-"`
}

func (o LocalizedOptions) enabled() bool { return o.NHPP || o.Staleness }

// localizedBundle runs the enabled analyses on the kept pages and returns
// their tables and figures (SPEC §7 item 7).
func localizedBundle(ctx context.Context, pages []series.Page, unit float64, opt *Options) (*tables.Bundle, error) {
	b := &tables.Bundle{}
	lo := opt.Localized
	add := func(kind string, kb *tables.Bundle) error {
		if lo.Separate != nil {
			return lo.Separate(kind, kb)
		}
		b.Tables = append(b.Tables, kb.Tables...)
		b.Figures = append(b.Figures, kb.Figures...)
		return nil
	}
	start := func(kind string) {
		if lo.Start != nil {
			lo.Start(kind, len(pages))
		}
	}
	if lo.NHPP {
		start("nhpp")
		nb, err := nhpp.Analyze(ctx, pages, unit, nhpp.Options{Theta: lo.Theta, Dataset: opt.Dataset})
		if err != nil {
			return nil, fmt.Errorf("nhpp: %w", err)
		}
		if err := add("nhpp", nb); err != nil {
			return nil, err
		}
	}
	if lo.Staleness {
		start("staleness")
		sb, err := staleness.Analyze(ctx, pages, unit, staleness.Options{Delta: lo.Delta, Epsilon: lo.Epsilon, Seed: opt.Seed, Dataset: opt.Dataset})
		if err != nil {
			return nil, fmt.Errorf("staleness: %w", err)
		}
		if err := add("staleness", sb); err != nil {
			return nil, err
		}
	}
	return b, nil
}

func newLocalizedKeeper(opt *Options) *transform.TopKeeper {
	if !opt.Localized.enabled() {
		return nil
	}
	n := opt.Localized.SelectMax
	if n <= 0 {
		n = DefaultSelectMax
	}
	return transform.NewTopKeeper(n)
}
