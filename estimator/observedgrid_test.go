package estimator

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/revisit-dev/revisit/ingest/visits"
	"github.com/revisit-dev/revisit/internal/realdata"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/transform"
)

// naiveEmpty counts the bins n = 1 … N (N = ⌈x_max/h⌉) holding no pair
// i < j with ⌈(s_j − s_i)/h⌉ = n, over all pairs, with big-rational-free
// but exact integer arithmetic when h is a whole number of seconds and a
// 10⁻⁹ tolerance otherwise.
func naiveEmpty(ts []int64, hs, xs float64) (bins, empty int) {
	bins = max(1, int(math.Ceil(xs/hs-1e-9)))
	hit := make([]bool, bins+1)
	for j := range ts {
		for i := 0; i < j; i++ {
			n := int(math.Ceil(float64(ts[j]-ts[i])/hs - 1e-9))
			if n >= 1 && n <= bins {
				hit[n] = true
			}
		}
	}
	for n := 1; n <= bins; n++ {
		if !hit[n] {
			empty++
		}
	}
	return bins, empty
}

// bursts is an archive capturing a URL in bursts: 10 captures 2 to 8
// minutes apart, the bursts 30 to 90 days apart (seeded), the page
// changed before each burst after the first.
func bursts(seed uint64, n int) *visits.Observed {
	r := rand.New(rand.NewPCG(seed, 17))
	o := &visits.Observed{ID: "bursts"}
	t := int64(1_400_000_000)
	for b := range n {
		for k := range 10 {
			o.Visits = append(o.Visits, visits.Visit{T: t, Changed: b > 0 && k == 0})
			t += 120 + r.Int64N(361)
		}
		t += units.Day * (30 + r.Int64N(61))
	}
	return o
}

// On bursts of captures minutes apart with the bursts months apart, the
// per-URL grid chosen from the changes alone (x_max from the times since
// the last change, h = Ê[U]/100) left most of M6's bins without a pair.
// The grid is now chosen from the capture delays: at most MaxEmptyShare
// of its bins are empty, counted here over all pairs, and the count
// reported (ObservedInfo.EmptyBins, from M6's W) is that count.
func TestObservedGridClusteredCaptures(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		o := bursts(seed, 30)
		_, info, err := EstimateObserved(context.Background(), o, ObservedConfig{Unit: transform.Day})
		if err != nil {
			t.Fatal(err)
		}
		ts := visitTimes(o)
		bins, empty := naiveEmpty(ts, info.H*transform.Day, info.XMax*transform.Day)
		if share := float64(empty) / float64(bins); share > MaxEmptyShare {
			t.Errorf("seed %d: h %g d, x_max %g d: %d of %d bins without a pair (%.0f%%), want at most %.0f%%",
				seed, info.H, info.XMax, empty, bins, 100*share, 100*MaxEmptyShare)
		}
		if info.Bins != bins || info.EmptyBins != empty {
			t.Errorf("seed %d: reported %d of %d bins empty, counted %d of %d", seed, info.EmptyBins, info.Bins, empty, bins)
		}
		// x_max within the 0.99 quantile of the pair spans (sorted here)
		var spans []int64
		for j := range ts {
			for i := 0; i < j; i++ {
				spans = append(spans, ts[j]-ts[i])
			}
		}
		sort.Slice(spans, func(a, b int) bool { return spans[a] < spans[b] })
		q := spans[int(math.Ceil(0.99*float64(len(spans))))-1]
		if info.XMax*transform.Day > float64(q)*(1+1e-12) {
			t.Errorf("seed %d: x_max %g s beyond the 0.99 quantile %d s of the pair spans", seed, info.XMax*transform.Day, q)
		}
		if n := info.XMax / info.H; n > ObservedMaxBins*(1+1e-9) {
			t.Errorf("seed %d: %g bins, more than %d", seed, n, ObservedMaxBins)
		}
	}
}

// EmptyBins (pointers) agrees with the count over all pairs, on random
// clustered times and bin widths, whole seconds (pairs on the edges) or
// not.
func TestEmptyBinsNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for k := range 300 {
		m := 2 + r.IntN(40)
		ts := make([]int64, m)
		tt := int64(0)
		for j := range ts {
			tt += 1 + r.Int64N(20)
			if r.IntN(5) == 0 {
				tt += r.Int64N(2000)
			}
			ts[j] = tt
		}
		hs := float64(1 + r.IntN(60))
		if k%2 == 1 {
			hs *= 1 + r.Float64()
		}
		xs := hs * float64(1+r.IntN(200))
		bins, want := naiveEmpty(ts, hs, xs)
		work := int64(gridWork)
		if got := EmptyBins(ts, hs, bins, &work); got != want {
			t.Fatalf("times %v, h %g s, %d bins: EmptyBins %d, over all pairs %d", ts, hs, bins, got, want)
		}
	}
}

// The pair-span quantile and the resolution against sorting all pairs and
// a gcd by hand.
func TestPairSpanQuantileResolution(t *testing.T) {
	ts := []int64{0, 10, 30, 60, 100} // spans 10 20 30 30 40 50 60 70 90 100
	for _, c := range []struct {
		q    float64
		want int64
	}{{0.1, 10}, {0.3, 30}, {0.4, 30}, {0.5, 40}, {0.99, 100}, {1, 100}} {
		if got := pairSpanQuantile(ts, c.q); got != c.want {
			t.Errorf("q %g: %d, want %d", c.q, got, c.want)
		}
	}
	if g := resolution([]int64{0, units.Day, 3 * units.Day, 10 * units.Day}); g != units.Day {
		t.Errorf("resolution of daily visits %d, want 86400", g)
	}
	if g := resolution([]int64{5, 11, 20}); g != 3 {
		t.Errorf("resolution of delays 6, 9: %d, want 3", g)
	}
}

// The Wayback CDX of pywb's iana.org crawl: captures seconds to minutes
// apart over a few minutes. The grid follows the delays, not the span
// (h = span/100 would be about 4 s: 96 of 100 bins empty on a URL of 16
// captures): h at least the 0.1 quantile of the delays between captures and
// at most their median, x_max within the span, at most half the bins
// empty (counted here over all pairs).
func TestObservedGridIana(t *testing.T) {
	path := realdata.Path(t, "crawl/webrecorder__pywb/iana.cdx")
	var urls []*visits.Observed
	if _, err := visits.Read(context.Background(), []string{path}, visits.Options{}, func(o *visits.Observed) error {
		c := *o
		urls = append(urls, &c)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, o := range urls {
		if len(o.Visits) < 5 {
			continue
		}
		checked++
		_, info, err := EstimateObserved(context.Background(), o, ObservedConfig{Unit: transform.Minute})
		if err != nil {
			t.Fatalf("%s: %v", o.ID, err)
		}
		ts := visitTimes(o)
		var d []float64
		for j := 1; j < len(ts); j++ {
			d = append(d, float64(ts[j]-ts[j-1]))
		}
		sort.Float64s(d)
		hs, xs := info.H*transform.Minute, info.XMax*transform.Minute
		q10, med := d[int(math.Ceil(0.1*float64(len(d))))-1], d[len(d)/2]
		if hs < q10-1e-9 || hs > med || hs < 1 {
			t.Errorf("%s: h %g s, want between the 0.1 quantile %g s and the median %g s of the delays", o.ID, hs, q10, med)
		}
		if xs > float64(ts[len(ts)-1]-ts[0]) {
			t.Errorf("%s: x_max %g s beyond the span %d s", o.ID, xs, ts[len(ts)-1]-ts[0])
		}
		bins, empty := naiveEmpty(ts, hs, xs)
		if 2*empty > bins || info.Bins != bins || info.EmptyBins != empty {
			t.Errorf("%s: %d of %d bins empty (reported %d of %d), want at most half", o.ID, empty, bins, info.EmptyBins, info.Bins)
		}
	}
	if checked < 5 {
		t.Fatalf("only %d URLs with 5 or more captures: not the file the test expects", checked)
	}
}

// With Last-Modified, M2 sees ages beyond the spans between captures:
// x_max stays the 0.99 quantile of the ages (not capped by the pair
// spans), at most ObservedMaxBins bins.
func TestObservedGridAges(t *testing.T) {
	o := &visits.Observed{ID: "ages", Ages: true}
	for j := range 50 { // hourly visits of a page last modified 30 days before the first
		o.Visits = append(o.Visits, visits.Visit{T: 1_600_000_000 + int64(j)*3600 + int64(j%3), LastMod: 1_600_000_000 - 30*units.Day})
	}
	_, info, err := EstimateObserved(context.Background(), o, ObservedConfig{Unit: transform.Hour})
	if err != nil {
		t.Fatal(err)
	}
	// ages 720 h + j h (+ j%3 s): the 0.99 quantile is the largest, 769 h + 1 s
	want := 720 + 49 + 1.0/3600
	if math.Abs(info.XMax-want) > 1e-9 || info.XMax/info.H > ObservedMaxBins*(1+1e-9) {
		t.Errorf("x_max %g h (want %g), %g bins", info.XMax, want, info.XMax/info.H)
	}
}

// The two ways to the pair-span quantile (listing the largest spans,
// bisection) against sorting all the pairs, on random times with ties
// among the spans (lattice times) and without; and the selection of the
// k-th smallest against sorting.
func TestPairSpanQuantileAgainstSort(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for k := range 200 {
		m := 2 + r.IntN(60)
		ts := make([]int64, m)
		tt := int64(0)
		for j := range ts {
			if k%2 == 0 {
				tt += units.Day * (1 + r.Int64N(3)) // daily lattice: many equal spans
			} else {
				tt += 1 + r.Int64N(100000)
			}
			ts[j] = tt
		}
		var spans []int64
		for j := range ts {
			for i := range j {
				spans = append(spans, ts[j]-ts[i])
			}
		}
		slices.Sort(spans)
		for l := range len(spans) {
			if got, want := largestPairSpan(ts, l), spans[len(spans)-1-l]; got != want {
				t.Fatalf("times %v: %d-th largest span %d, sorted %d", ts, l+1, got, want)
			}
			need := int64(len(spans) - l)
			if got, want := pairSpanBisect(ts, need), spans[need-1]; got != want {
				t.Fatalf("times %v: smallest span with %d pairs within %d, sorted %d", ts, need, got, want)
			}
		}
		for _, q := range []float64{0.01, 0.5, 0.9, 0.99, 1} {
			want := spans[max(0, int(math.Ceil(q*float64(len(spans))))-1)]
			if got := pairSpanQuantile(ts, q); got != want {
				t.Fatalf("times %v: q %g span %d, sorted %d", ts, q, got, want)
			}
		}
		a := make([]int64, 1+r.IntN(200))
		for i := range a {
			a[i] = r.Int64N(int64(1 + k)) // ties when k is small
		}
		sorted := slices.Sorted(slices.Values(a))
		for _, kk := range []int{0, len(a) / 10, len(a) / 2, len(a) - 1, r.IntN(len(a))} {
			b := slices.Clone(a)
			if got := nthInt64(b, kk); got != sorted[kk] {
				t.Fatalf("%v: %d-th smallest %d, sorted %d", a, kk, got, sorted[kk])
			}
		}
	}
}
