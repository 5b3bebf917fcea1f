package series

import (
	"errors"
	"fmt"
)

// Visit is one capture of a URL with content.
type Visit struct {
	T       int64 // visit time, Unix seconds
	Changed bool  // Q_{j−1,j}: changed since the previous visit (the first visit: see Observed.FirstChanged)
	LastMod int64 // Last-Modified, Unix seconds ≤ T (only when Observed.Ages)
}

// Observed is what a crawler saw of one URL: its visits with content,
// ascending and at most one per second. The crawl-log readers
// (crawllog/logs) and replay's virtual crawlers produce it; the estimators
// (estimator.EstimateObserved) consume it.
type Observed struct {
	ID     string
	Visits []Visit
	// Ages: every visit carries a Last-Modified time (LastMod), so the
	// age T − LastMod is known at every visit, and Changed is derived
	// from it (LastMod_j > T_{j−1}).
	Ages bool
	// HasPrev: the crawler visited the URL at Prev < Visits[0].T before
	// its first visit with content, and FirstChanged is Q_{0,1}, whether
	// the page changed (or was created) between them: a capture that saw
	// no page, or the first delay of a change-bit trace.
	HasPrev      bool
	Prev         int64
	FirstChanged bool
	// Source is the id in the log when ID is the URL a companion file
	// gave it (a Bing trace's URL_ID, crawllog/logs' Options.URLs); "" otherwise.
	Source string
	// Importance is the URL's importance score (crawllog/logs' Options.Importance), when
	// HasImportance.
	Importance    float64
	HasImportance bool
	// Originals is the number of distinct original URLs whose captures
	// were grouped under ID when there were more than one (0 otherwise,
	// and for formats without the original URL): the SURT key merged
	// variants (http/https, www.) that may be different pages
	// (crawllog/logs' Options.Key).
	Originals int
}

// Check reports the first inconsistency of o: visits not strictly
// ascending, a Last-Modified after its visit, Prev not before the first
// visit.
func (o *Observed) Check() error {
	if len(o.Visits) == 0 {
		return errors.New("no visit")
	}
	for j, v := range o.Visits {
		if j > 0 && v.T <= o.Visits[j-1].T {
			return fmt.Errorf("visit %d at %d s is not after visit %d at %d s", j, v.T, j-1, o.Visits[j-1].T)
		}
		if o.Ages && v.LastMod > v.T {
			return fmt.Errorf("visit %d at %d s: Last-Modified %d s is after the visit", j, v.T, v.LastMod)
		}
	}
	if o.HasPrev && o.Prev >= o.Visits[0].T {
		return fmt.Errorf("previous visit at %d s is not before the first at %d s", o.Prev, o.Visits[0].T)
	}
	return nil
}

// Q is Q_{j−1,j} of visit j ≥ 1: from the Last-Modified times when o has
// ages (an update after the previous visit), else the Changed bit; for
// j = 0 it is FirstChanged when HasPrev, else false (a reference).
func (o *Observed) Q(j int) bool {
	if j == 0 {
		return o.HasPrev && o.FirstChanged
	}
	if o.Ages {
		return o.Visits[j].LastMod > o.Visits[j-1].T
	}
	return o.Visits[j].Changed
}
