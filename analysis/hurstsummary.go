package analysis

import (
	"fmt"
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/revisit-dev/revisit/internal/pq"
	"github.com/revisit-dev/revisit/internal/tables"
)

// HurstSummary is one relied Hurst estimator (DFA-1 or local Whittle)
// over every screened page, read back from page_stats: how many pages have
// an H (N; the others have too few intervals or an H outside [0, 1]), its
// quartiles over those pages, and on how many its test finds long memory
// (Above): for local Whittle its 95 % interval H ± 1.96/(2√m) lies above
// 0.5 (Poisson's value), and Below and Around count the intervals below
// 0.5 (anti-persistent) and containing it; for DFA-1 its H lies above
// its shuffled surrogates at p < LRDLevel (the one-sided test has no
// "below": OneSided, Below and Around are 0).
type HurstSummary struct {
	Method               string
	N                    int64
	Q1, Median, Q3       float64 // NaN when N = 0
	Above, Below, Around int64
	OneSided             bool
}

// LRDSummary counts the long-memory verdicts (LongMemory) over every
// screened page, read back from page_stats: the pages with a verdict
// (Pages: at least MinHurstLen intervals) and each verdict.
type LRDSummary struct {
	Screened, Pages                int64
	Claimed, None, Trend, Disagree int64
	Invalid                        int64 // enough intervals, an H outside [0, 1]
	// Rescaled are the pages of Claimed whose rate changes along the
	// window: long memory found in both time-rescaled halves. TrendShort
	// are the pages of Trend too short to judge the halves (fewer than
	// 2·lrdHalfMin intervals).
	Rescaled, TrendShort int64
}

// ScreenCounts are the screen's tests counted over every screened page,
// whatever its coefficient of variation (parallel counts, beside the
// sequence of the screen: band, then KS, then Ljung–Box), read back from
// page_stats.
type ScreenCounts struct {
	KS, LjungBox, Both int64 // p ≥ 0.05 by KS, by Ljung–Box, by both
}

// countScreened reads page_stats.parquet (name) and counts the pages
// passing each of the screen's tests (ks_p, ljung_box_p ≥ Significance); pages
// not screened have null p-values and count for none.
func countScreened(name string) (ScreenCounts, error) {
	var c ScreenCounts
	err := scanColumns(name, []string{"ks_p", "ljung_box_p"}, func(v []float64) {
		ks, lb := v[0] >= Significance, v[1] >= Significance
		if ks {
			c.KS++
		}
		if lb {
			c.LjungBox++
		}
		if ks && lb {
			c.Both++
		}
	})
	return c, err
}

// quantileProbs are the quartiles of HurstSummary.
var quantileProbs = [3]float64{0.25, 0.5, 0.75}

// hurstSummaryKeep is the largest number of values summarizeHurst holds at
// once (selectRanks' maxKeep): 64 Ki values, 512 KiB.
const hurstSummaryKeep = 1 << 16

// summarizeHurst reads page_stats.parquet (name) and returns the
// HurstSummary of DFA-1 (columns h_dfa, h_dfa_lo, h_dfa_hi) and of local
// Whittle (h_lw…). The quartiles are exact (the order statistics of
// every page's H, as a sort of the column gives) with bounded memory: one
// pass counts, then selectRanks finds the order statistics Quantile
// interpolates between, in one more pass when a column has at most
// hurstSummaryKeep values, and at most four more otherwise.
func summarizeHurst(name string) ([]HurstSummary, error) {
	var out []HurstSummary
	for _, m := range []struct{ method, col string }{{HurstDFA, "h_dfa"}, {HurstLW, "h_lw"}} {
		s := HurstSummary{Method: m.method, OneSided: m.method == HurstDFA}
		cols := []string{m.col, m.col + "_lo", m.col + "_hi"}
		if s.OneSided {
			cols = []string{m.col, "h_dfa_p"}
		}
		err := scanColumns(name, cols, func(v []float64) {
			if math.IsNaN(v[0]) {
				return
			}
			s.N++
			switch {
			case s.OneSided:
				if v[1] < LRDLevel {
					s.Above++
				}
			case v[1] > 0.5:
				s.Above++
			case v[2] < 0.5:
				s.Below++
			default:
				s.Around++
			}
		})
		if err != nil {
			return nil, err
		}
		qs, err := quantilesOf(func(fn func(float64)) error {
			return scanColumns(name, []string{m.col}, func(v []float64) {
				if !math.IsNaN(v[0]) {
					fn(v[0])
				}
			})
		}, s.N, quantileProbs[:], hurstSummaryKeep)
		if err != nil {
			return nil, err
		}
		s.Q1, s.Median, s.Q3 = qs[0], qs[1], qs[2]
		out = append(out, s)
	}
	return out, nil
}

// summarizeLRD reads page_stats.parquet (name) and counts the verdicts
// of its lrd column over the screened pages (those with a KS p-value:
// every screened page has one).
func summarizeLRD(name string) (LRDSummary, error) {
	var s LRDSummary
	idx, err := columnIndexes(name, []string{"ks_p", "lrd", "lrd_halves"})
	if err != nil {
		return s, err
	}
	err = pq.EachRecordOf(name, 1<<14, idx, func(rec arrow.RecordBatch) error {
		ks, ok1 := rec.Column(0).(*array.Float64)
		lrd, ok2 := rec.Column(1).(*array.String)
		halves, ok3 := rec.Column(2).(*array.Float64)
		if !ok1 || !ok2 || !ok3 {
			return fmt.Errorf("columns ks_p, lrd, lrd_halves of types %s, %s, %s", rec.Column(0).DataType(), rec.Column(1).DataType(), rec.Column(2).DataType())
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			if ks.IsNull(i) { // not screened
				continue
			}
			s.Screened++
			v := ""
			if !lrd.IsNull(i) {
				v = lrd.Value(i)
			}
			if v == "" {
				continue
			}
			s.Pages++
			switch v {
			case LRDClaimed:
				s.Claimed++
				if !halves.IsNull(i) {
					s.Rescaled++
				}
			case LRDNone:
				s.None++
			case LRDTrend:
				s.Trend++
				if halves.IsNull(i) {
					s.TrendShort++
				}
			case LRDDisagree:
				s.Disagree++
			case LRDInvalid:
				s.Invalid++
			}
		}
		return nil
	})
	if err != nil {
		return s, fmt.Errorf("%s: %w", name, err)
	}
	return s, nil
}

// quantilesOf returns the p-quantiles (each p of ps) of the n values scan
// streams, in any order, by linear interpolation between order statistics
// (Hyndman & Fan type 7, numpy's and R's default): with x_(0) ≤ … ≤
// x_(n−1) and h = (n − 1)·p, Q(p) = x_(⌊h⌋) + (h − ⌊h⌋)·(x_(⌊h⌋+1) − x_(⌊h⌋));
// NaN for n = 0. The order statistics come from selectRanks.
func quantilesOf(scan func(fn func(float64)) error, n int64, ps []float64, maxKeep int) ([]float64, error) {
	out := make([]float64, len(ps))
	if n == 0 {
		for i := range out {
			out[i] = math.NaN()
		}
		return out, nil
	}
	var ranks []int64
	for _, p := range ps {
		lo := int64(math.Floor(float64(n-1) * p))
		ranks = append(ranks, lo, min(lo+1, n-1))
	}
	x, err := selectRanks(scan, n, ranks, maxKeep)
	if err != nil {
		return nil, err
	}
	for i, p := range ps {
		h := float64(n-1) * p
		lo := math.Floor(h)
		a, b := x[2*i], x[2*i+1]
		out[i] = a + (h-lo)*(b-a)
	}
	return out, nil
}

// floatKey maps a float64 to a uint64 with the same order (for non-NaN
// values; −0 just below +0): the sign bit set for positives, every bit
// flipped for negatives.
func floatKey(f float64) uint64 {
	b := math.Float64bits(f)
	if b>>63 == 1 {
		return ^b
	}
	return b | 1<<63
}

func keyFloat(k uint64) float64 {
	if k>>63 == 1 {
		return math.Float64frombits(k &^ (1 << 63))
	}
	return math.Float64frombits(^k)
}

// selectRanks returns the order statistics x_(r) (0-based ranks r < n,
// in the order of ranks) of the n non-NaN values scan streams, exactly, by
// radix selection on their order-preserving keys (floatKey) 16 bits at a
// time: each pass either collects the values that share the known leading
// bits of a rank's key, when there are at most maxKeep of them in all,
// and sorts them, or counts the next 16 bits of those values (one 2¹⁶
// histogram per distinct prefix) to fix 16 more bits of the key and the
// rank inside them. Memory: maxKeep values and 512 KiB per pending
// prefix; passes: one when n ≤ maxKeep, at most five in all (64 bits).
// scan must stream the same values on every call.
func selectRanks(scan func(fn func(float64)) error, n int64, ranks []int64, maxKeep int) ([]float64, error) {
	type target struct {
		prefix uint64 // the key's leading bits found so far (the rest 0)
		bits   uint   // how many
		count  int64  // values with this prefix
		rank   int64  // rank among them
		done   bool
		v      float64
	}
	ts := make([]target, len(ranks))
	for i, r := range ranks {
		if r < 0 || r >= n {
			return nil, fmt.Errorf("select: rank %d of %d values", r, n)
		}
		ts[i] = target{count: n, rank: r}
	}
	for pass := 0; ; pass++ {
		// Distinct pending prefixes, collected when they are small.
		type group struct {
			prefix uint64
			bits   uint
			count  int64
			keys   []uint64 // collect
			hist   []int64  // or count the next 16 bits
		}
		var gs []*group
		var kept int64
		for i := range ts {
			t := &ts[i]
			if t.done {
				continue
			}
			if t.bits == 64 { // every value with this key is equal
				t.v, t.done = keyFloat(t.prefix), true
				continue
			}
			if !slices.ContainsFunc(gs, func(g *group) bool { return g.prefix == t.prefix && g.bits == t.bits }) {
				gs = append(gs, &group{prefix: t.prefix, bits: t.bits, count: t.count})
				kept += t.count
			}
		}
		if len(gs) == 0 {
			break
		}
		collect := kept <= int64(maxKeep)
		for _, g := range gs {
			if collect {
				g.keys = make([]uint64, 0, g.count)
			} else {
				g.hist = make([]int64, 1<<16)
			}
		}
		seen := int64(0)
		err := scan(func(v float64) {
			seen++
			k := floatKey(v)
			for _, g := range gs {
				if g.bits > 0 && k>>(64-g.bits) != g.prefix>>(64-g.bits) {
					continue
				}
				if collect {
					g.keys = append(g.keys, k)
				} else {
					g.hist[(k<<g.bits)>>48]++
				}
			}
		})
		if err != nil {
			return nil, err
		}
		if seen != n {
			return nil, fmt.Errorf("select: pass %d saw %d values, the first %d", pass+1, seen, n)
		}
		for i := range ts {
			t := &ts[i]
			if t.done {
				continue
			}
			gi := slices.IndexFunc(gs, func(g *group) bool { return g.prefix == t.prefix && g.bits == t.bits })
			g := gs[gi]
			if collect {
				if int64(len(g.keys)) != g.count {
					return nil, fmt.Errorf("select: pass %d found %d values with a prefix counted %d times", pass+1, len(g.keys), g.count)
				}
				if !slices.IsSorted(g.keys) {
					slices.Sort(g.keys)
				}
				t.v, t.done = keyFloat(g.keys[t.rank]), true
				continue
			}
			r := t.rank
			for d, c := range g.hist {
				if r < c {
					t.prefix |= uint64(d) << (48 - t.bits)
					t.bits += 16
					t.count, t.rank = c, r
					break
				}
				r -= c
			}
		}
	}
	out := make([]float64, len(ts))
	for i, t := range ts {
		out[i] = t.v
	}
	return out, nil
}

// scanColumns calls fn with the values of the named float columns of the
// Parquet file name, row by row (NaN for null), reading only those
// columns.
func scanColumns(name string, cols []string, fn func([]float64)) error {
	idx, err := columnIndexes(name, cols)
	if err != nil {
		return err
	}
	row := make([]float64, len(cols))
	err = pq.EachRecordOf(name, 1<<14, idx, func(rec arrow.RecordBatch) error {
		arrs := make([]*array.Float64, len(cols))
		for j, c := range cols {
			f := rec.Schema().FieldIndices(c)
			if len(f) != 1 {
				return fmt.Errorf("no column %s", c)
			}
			a, ok := rec.Column(f[0]).(*array.Float64)
			if !ok {
				return fmt.Errorf("column %s is %s, not float64", c, rec.Column(f[0]).DataType())
			}
			arrs[j] = a
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			for j, a := range arrs {
				if a.IsNull(i) {
					row[j] = math.NaN()
				} else {
					row[j] = a.Value(i)
				}
			}
			fn(row)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// columnIndexes are the positions of cols among page_stats' columns.
func columnIndexes(name string, cols []string) ([]int, error) {
	all := pageStatsColumns("")
	var idx []int
	for _, c := range cols {
		i := slices.IndexFunc(all, func(a tables.Column) bool { return a.Name == c })
		if i < 0 {
			return nil, fmt.Errorf("%s: page_stats has no column %s", name, c)
		}
		idx = append(idx, i)
	}
	return idx, nil
}
