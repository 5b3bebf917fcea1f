package schedule

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/series"
)

// writeDataset writes pages with random update times (seeded): page i
// has 2 + i%9 updates of Lomax-like intervals, titles URLs of three
// hosts; page 5 has one update (no interval).
func writeDataset(t *testing.T, n int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ds")
	w, err := dataset.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 11))
	t0 := int64(1_600_000_000)
	for i := range n {
		k := 2 + i%9
		if i == 5 {
			k = 1
		}
		ups := []int64{t0}
		scale := 3600 * math.Exp(3*r.Float64())
		for len(ups) < k {
			u := scale * (math.Pow(1-r.Float64(), -1/1.5) - 1)
			ups = append(ups, ups[len(ups)-1]+1+int64(u))
		}
		p := series.Page{ID: int64(100 + i), Source: "test", Title: fmt.Sprintf("https://h%d.example/p%d", i%3, i), Resolution: 1, Updates: ups}
		if err := w.Write(&p); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(&dataset.Manifest{}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// PlanSource (streamed, float32 store, rates not kept) gives the plans of
// the unchanged in-memory solver (Problem on float64 Curves, Prepare,
// Solve) within a relative 10⁻⁶ (float32 storage of knots and D), with
// importances, host limits and a min rate; and Plan's table values.
func TestPlanSourceMatchesSolver(t *testing.T) {
	dir := writeDataset(t, 300)
	const unit = 3600
	opt := Options{
		Budget:        200.0 / units.Day,
		MinRate:       0.5 / units.Day,
		Importance:    writeFile(t, "imp.csv", "title,importance\nhttps://h1.example/p1,5\n107,0\nhttps://h2.example/p8,2\nnot-a-page,7\n"),
		MissingWeight: 1,
		HostLimits:    &HostLimitSet{File: "hosts", Limit: map[string]float64{"h0.example": 30.0 / units.Day}},
		Sweep:         []float64{0.5, 2},
	}
	src, err := OpenTruth(dir, unit)
	if err != nil {
		t.Fatal(err)
	}
	res, err := PlanSource(src, opt)
	if err != nil {
		t.Fatal(err)
	}
	// The reference: the input read into memory (ReadTruth) and the solver.
	in, err := ReadTruth(dir, unit)
	if err != nil {
		t.Fatal(err)
	}
	n := len(in.IDs)
	w := make([]float64, n)
	host := make([]int32, n)
	for i := range n {
		w[i] = map[string]float64{"https://h1.example/p1": 5, "https://h2.example/p8": 2}[in.Titles[i]]
		switch {
		case in.IDs[i] == 107:
			w[i] = 0
		case w[i] == 0:
			w[i] = 1
		}
		host[i] = -1
		if Host(in.Titles[i]) == "h0.example" {
			host[i] = 0
		}
	}
	if res.N != n || !slices.Equal(res.W, w) {
		t.Fatalf("%d pages, weights %v; want %d, %v", res.N, res.W, n, w)
	}
	ref := &Problem{Curves: &in.Curves, Lambda: in.Lambda, W: w, Budget: opt.Budget * unit, MinRate: opt.MinRate * unit,
		Limits: &Limits{Host: host, Limit: []float64{30.0 / units.Day * unit}}}
	if err := ref.Prepare(); err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for _, pr := range res.Plans {
		want, err := ref.Solve(pr.Name)
		if err != nil {
			t.Fatal(err)
		}
		if pr.F != nil {
			t.Errorf("%s: rates kept", pr.Name)
		}
		visited := int64(0)
		for i := range n {
			got, f := pr.Rate(i), want.F[i]
			if f > 0 {
				visited++
			}
			d := math.Abs(got - f)
			if d > 1e-6*f+1e-15 {
				t.Errorf("%s page %d: rate %g, solver %g", pr.Name, i, got, f)
			}
			if f > 0 {
				worst = math.Max(worst, d/f)
			}
		}
		if pr.Visited != visited || math.Abs(pr.Used-want.Used) > 1e-9*want.Used {
			t.Errorf("%s: %d visited, used %g; want %d, %g", pr.Name, pr.Visited, pr.Used, visited, want.Used)
		}
	}
	t.Logf("largest relative rate difference: %.2g", worst)
	// The table values against Plan on the in-memory input (read again:
	// Prepare turned the curves into D).
	if in, err = ReadTruth(dir, unit); err != nil {
		t.Fatal(err)
	}
	mem, err := Plan(in, opt)
	if err != nil {
		t.Fatal(err)
	}
	if mem.Unchanged != res.Unchanged {
		t.Errorf("unchanged %d, Plan %d", res.Unchanged, mem.Unchanged)
	}
	for k, pr := range res.Plans {
		m := mem.Plans[k]
		for _, c := range [][2]float64{{pr.MeanG, m.MeanG}, {pr.MeanPoisson, m.MeanPoisson}, {pr.FastShare, m.FastShare}} {
			if math.Abs(c[0]-c[1]) > 1e-6 {
				t.Errorf("%s: %v, Plan %v", pr.Name, c[0], c[1])
			}
		}
	}
	for k := range res.Sweep {
		for j, v := range res.Sweep[k].Fresh {
			if math.Abs(v-mem.Sweep[k].Fresh[j]) > 1e-6 {
				t.Errorf("sweep %d plan %d: %g, Plan %g", k, j, v, mem.Sweep[k].Fresh[j])
			}
		}
	}
}

// fastCut selects the pages fastest does, ties by index included.
func TestFastCut(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 7, 10, 100, 1001} {
		l := make([]float64, n)
		for i := range l {
			l[i] = float64(r.IntN(5)) * 0.25 // many ties
			if i%7 == 0 {
				l[i] = r.Float64()
			}
		}
		for _, q := range []float64{0.1, 0.5, 1} {
			want := make([]bool, n)
			for _, i := range fastest(l, q) {
				want[i] = true
			}
			cut, tie := fastCut(l, q)
			for i, v := range l {
				if got := v > cut || (v == cut && i < tie); got != want[i] {
					t.Fatalf("n=%d q=%g page %d (λ %g): in %v, fastest says %v (cut %g, tie %d)", n, q, i, v, got, want[i], cut, tie)
				}
			}
		}
	}
}

// thin keeps the first and last knots and log-spaced ones between, a
// subset in order; short curves stay whole.
func TestThin(t *testing.T) {
	x := make([]float64, 1000)
	g := make([]float64, 1000)
	for i := range x {
		x[i] = float64(i + 1)
		g[i] = -math.Expm1(-x[i] / 100)
	}
	tx, tg := thin(slices.Clone(x), slices.Clone(g), 8)
	if len(tx) != 8 || tx[0] != 1 || tx[7] != 1000 {
		t.Fatalf("thinned knots %v", tx)
	}
	for k := range tx {
		if k > 0 && tx[k] <= tx[k-1] {
			t.Errorf("knots not ascending: %v", tx)
		}
		// log-spaced targets 1000^(k/7), the first knot at or beyond
		if want := math.Ceil(math.Pow(1000, float64(k)/7) - 1e-9); tx[k] != want {
			t.Errorf("knot %d = %g, want %g", k, tx[k], want)
		}
		if tg[k] != g[int(tx[k])-1] {
			t.Errorf("value at %g changed", tx[k])
		}
	}
	sx, _ := thin([]float64{1, 2, 3}, []float64{0.1, 0.2, 0.3}, 8)
	if len(sx) != 3 {
		t.Errorf("short curve thinned: %v", sx)
	}
}

// StoreBytes counts what the store holds: a 1 MiB block of the knot pool
// (the 300 pages' knots fit in one) and 27 bytes of columns per page
// (two uint32 addresses, a knot count, D(∞), λ̂ and a note code) by
// their capacity, at least the length and less than twice it; StoreGrew
// is called with the final size once reading ends (the store stays
// under its 16 MiB step here).
func TestStoreBytes(t *testing.T) {
	dir := writeDataset(t, 300)
	src, err := OpenTruth(dir, 3600)
	if err != nil {
		t.Fatal(err)
	}
	var calls []int64
	res, err := PlanSource(src, Options{Budget: 1, Sweep: []float64{}, StoreGrew: func(b int64) { calls = append(calls, b) }})
	if err != nil {
		t.Fatal(err)
	}
	got := res.StoreBytes()
	lo := int64(poolBlock*4 + 27*300)
	if got < lo || got >= poolBlock*4+2*27*300 {
		t.Errorf("store %d bytes, want in [%d, %d)", got, lo, poolBlock*4+2*27*300)
	}
	if !slices.Equal(calls, []int64{got}) {
		t.Errorf("StoreGrew calls %v, want [%d]", calls, got)
	}
	if b := (&Result{}).StoreBytes(); b != 0 {
		t.Errorf("no store: %d bytes", b)
	}
}

// Row groups of schedule.parquet: 16 Ki rows until there would be more
// than 1,024 of them, then 1,024 (18 M pages × 6 plans: 105,469 rows).
func TestGroupRows(t *testing.T) {
	for _, c := range []struct{ rows, want int }{{0, 1 << 14}, {6_000_000, 1 << 14}, {1 << 24, 1 << 14}, {1<<24 + 1, 1<<14 + 1}, {108_000_000, 105_469}} {
		if got := groupRows(c.rows); got != c.want {
			t.Errorf("groupRows(%d) = %d, want %d", c.rows, got, c.want)
		}
		if groups := (c.rows + groupRows(c.rows) - 1) / groupRows(c.rows); groups > maxGroups {
			t.Errorf("%d rows: %d groups", c.rows, groups)
		}
	}
}
