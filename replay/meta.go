package replay

import (
	"time"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/estimator"
)

// File names inside a replay output directory.
const (
	EstimatesFile = "estimates.parquet"
	MetaFile      = "replay.json"
)

// Meta is replay.json: what a replay output was made from, so that analysis
// and reports can state its provenance.
type Meta struct {
	Tool     string    `json:"tool"`
	Version  string    `json:"version"`
	Created  time.Time `json:"created"`
	Dataset  string    `json:"dataset"`   // dataset directory replayed ("" for a simulation)
	Unit     float64   `json:"unit"`      // seconds per unit
	UnitName string    `json:"unit_name"` // "h", "d", …
	Samplers []string  `json:"samplers"`
	Methods  []string  `json:"methods"`
	Seed     uint64    `json:"seed"`
	// Seeds is R, the independent crawls of every page × sampler
	// (Options.Seeds); absent with one.
	Seeds int     `json:"seeds,omitempty"`
	H     float64 `json:"h"`     // bin width h for random delays; 0: per page (Choices)
	XMax  float64 `json:"x_max"` // largest grid point; 0: per page (Choices)
	Top   int     `json:"top"`   // 0: every page
	// Sample is the size of the random sample of pages with at least
	// SampleIntervals intervals (Options.Sample); absent without one.
	Sample          int   `json:"sample,omitempty"`
	SampleIntervals int   `json:"sample_intervals,omitempty"`
	SampleEligible  int   `json:"sample_eligible,omitempty"` // the pages with at least SampleIntervals intervals
	MinUpdates      int   `json:"min_updates"`
	Pages           int   `json:"pages"` // pages replayed (with at least one sampler)
	Rows            int64 `json:"rows"`  // rows of estimates.parquet
	// Choices says how x_max, h and the samplers were chosen and the
	// values chosen over the pages (absent in replays that predate it).
	Choices *Choices `json:"choices,omitempty"`
	// Grid is the grid step of each sampler: Δ for constant delays, h
	// otherwise; absent for a sampler whose step is chosen per page
	// (relative samplers, or random delays with h per page).
	Grid map[string]float64 `json:"grid"`
	// Skipped counts pages left out, by reason ("min_updates",
	// "fewer_than_2_updates", "not_in_top", SkipFewIntervals,
	// SkipNotInSample), and page × sampler jobs left
	// out by the work limits ("over_max_visits", "over_max_pairs").
	Skipped map[string]int64 `json:"skipped,omitempty"`
	// MaxVisits and MaxPairs are the work limits of one page × sampler job.
	MaxVisits int64 `json:"max_visits"`
	MaxPairs  int64 `json:"max_pairs"`
	// NotApplicable lists method×sampler pairs that were not run (M3, M4,
	// M5, cho and matloff need constant delays).
	NotApplicable []string                 `json:"not_applicable,omitempty"`
	Recover       bool                     `json:"recover"`
	Derivative    estimator.RecoverOptions `json:"derivative"`
	Summary       []MethodSummary          `json:"summary"`
	// Observations are the visit logs written (--write-observations):
	// their format and, per sampler, the file under the output directory.
	Observations *ObservationFiles `json:"observations,omitempty"`
	// Curves is what curve the rows keep (estimates.Curves: "compact" or
	// "full"); with compact, the FullCurves busiest pages keep theirs
	// whole. Absent in replays that predate compact curves (full).
	Curves     string `json:"curves,omitempty"`
	FullCurves int    `json:"full_curves,omitempty"`
	// Selection is the page selection (--pages, --match, --in-group) and
	// what it selected over the whole dataset; absent without one. Pages
	// it did not select are not counted in Skipped.
	Selection *dataset.SelectionSummary `json:"selection,omitempty"`
	ElapsedS  float64                   `json:"elapsed_s"`
}

// MethodSummary is the mean error of one method (and kind) over the pages
// for one sampler, against the page's true G_U (Kind G) or F_U (Kind F),
// with SPEC §5's WMRD and KS as analysis computes them by default (each
// page's grid, step estimates interpolated against the exact G_U:
// estimator.StoreErrors).
type MethodSummary struct {
	Sampler   string   `json:"sampler"`
	Method    string   `json:"method"`
	Kind      string   `json:"kind"`
	Pages     int      `json:"pages"`          // pages with a defined estimate
	Undefined int      `json:"undefined"`      // pages where it was undefined (NaN)
	WMRD      *float64 `json:"wmrd,omitempty"` // mean over pages with a defined estimate; absent when none
	KS        *float64 `json:"ks,omitempty"`
}

// ReadMeta reads dir/replay.json.
func ReadMeta(dir string) (*Meta, error) {
	return estimates.ReadJSON[Meta](dir, MetaFile, "replay output", "")
}

// ReadEstimates reads a replay output directory into memory.
func ReadEstimates(dir string) (*Meta, []estimator.Estimate, error) {
	m, err := ReadMeta(dir)
	if err != nil {
		return nil, nil, err
	}
	var out []estimator.Estimate
	err = estimates.Each(dir, func(e *estimator.Estimate) error {
		out = append(out, *e)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return m, out, nil
}

// writeMeta writes m as dir/replay.json.
func writeMeta(dir string, m *Meta) error { return estimates.WriteJSON(dir, MetaFile, m, true) }
