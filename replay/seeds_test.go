package replay

import (
	"bytes"
	"context"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/estimator"
)

// Seed 0's stream is the hash of the page id (8 bytes, little-endian) and
// the sampler spec, so that a replay of one seed draws what it drew
// without --seeds; other seeds differ from it
// and from each other.
func TestStreamOfSeedZeroUnchanged(t *testing.T) {
	h := fnv.New64a()
	h.Write([]byte{0x39, 0x30, 0, 0, 0, 0, 0, 0}) // 12345
	h.Write([]byte("exp:2"))
	if got, want := streamOf(12345, "exp:2", 0), h.Sum64(); got != want {
		t.Fatalf("streamOf(…, 0) = %#x, want the pre-seed stream %#x", got, want)
	}
	seen := map[uint64]int{}
	for r := range 50 {
		s := streamOf(12345, "exp:2", r)
		if q, ok := seen[s]; ok {
			t.Fatalf("seeds %d and %d share stream %#x", q, r, s)
		}
		seen[s] = r
	}
}

func readRows(t *testing.T, dir string) []estimator.Estimate {
	t.Helper()
	var out []estimator.Estimate
	if err := estimates.Each(dir, func(e *estimator.Estimate) error { out = append(out, *e); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// --seeds 3 writes 3× the rows of --seeds 1, tagged 0, 1, 2; seed 0's
// rows are those of --seeds 1 (and of a replay without --seeds); the
// other seeds' crawls differ.
func TestRunSeeds(t *testing.T) {
	ds, _ := writeDataset(t, 4)
	tmp := t.TempDir()
	run := func(name string, seeds int) ([]estimator.Estimate, *Meta) {
		o := Options{Dataset: ds, Out: filepath.Join(tmp, name), Samplers: []string{"exp:2", "const:0.5"}, H: 0.1, XMax: 20,
			Seed: 5, Workers: 2, Seeds: seeds, Curves: estimates.CurvesCompact}
		m, err := Run(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		return readRows(t, o.Out), m
	}
	none, m0 := run("none", 0)
	one, m1 := run("one", 1)
	three, m3 := run("three", 3)
	a, errA := os.ReadFile(filepath.Join(tmp, "none", EstimatesFile))
	b, errB := os.ReadFile(filepath.Join(tmp, "one", EstimatesFile))
	if errA != nil || errB != nil || !bytes.Equal(a, b) || len(none) != len(one) || m0.Seeds != 0 || m1.Seeds != 0 {
		t.Fatalf("--seeds 1 differs from no --seeds (meta seeds %d, %d)", m0.Seeds, m1.Seeds)
	}
	if m3.Seeds != 3 || len(three) != 3*len(one) || m3.Rows != 3*m1.Rows {
		t.Fatalf("--seeds 3: %d rows (meta %d, seeds %d), want 3 × %d", len(three), m3.Rows, m3.Seeds, len(one))
	}
	bySeed := map[int][]estimator.Estimate{}
	for _, e := range three {
		bySeed[e.Seed] = append(bySeed[e.Seed], e)
	}
	if len(bySeed) != 3 || len(bySeed[0]) != len(one) || len(bySeed[1]) != len(one) || len(bySeed[2]) != len(one) {
		t.Fatalf("seeds of the rows: %d groups (want 0, 1, 2 with %d rows each)", len(bySeed), len(one))
	}
	nan := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
	same := func(a, b estimator.Estimate) bool {
		return reflect.DeepEqual(a.CDF, b.CDF) && a.Visits == b.Visits && nan(a.Rate, b.Rate) &&
			nan(a.Err.KS, b.Err.KS) && nan(a.Err.WMRD, b.Err.WMRD) && nan(a.ErrMean.KS, b.ErrMean.KS)
	}
	for i, e := range bySeed[0] {
		o := one[i]
		if e.PageID != o.PageID || e.Sampler != o.Sampler || e.Method != o.Method || e.Kind != o.Kind || !same(e, o) {
			t.Fatalf("seed 0 row %d (%d %s %s %s) differs from --seeds 1's", i, e.PageID, e.Sampler, e.Method, e.Kind)
		}
	}
	differ := 0
	for i, e := range bySeed[1] {
		if e.Method != estimator.MethodTruth && e.Visits != bySeed[0][i].Visits {
			differ++
		}
		if e.Method == estimator.MethodTruth && !reflect.DeepEqual(e.CDF.P, bySeed[0][i].CDF.P) {
			t.Fatalf("page %d %s: the truth differs between seeds", e.PageID, e.Sampler)
		}
	}
	if differ == 0 {
		t.Fatal("seed 1 crawled exactly as seed 0: not an independent stream")
	}
	// rows are in page, sampler, seed order
	last := map[string]int{}
	for _, e := range three {
		k := strconv.FormatInt(e.PageID, 10) + e.Sampler
		if e.Seed < last[k] {
			t.Fatalf("page %d %s: seed %d after seed %d", e.PageID, e.Sampler, e.Seed, last[k])
		}
		last[k] = e.Seed
	}
}

// --seeds is refused below 1 and with --write-observations.
func TestSeedsOptions(t *testing.T) {
	for _, o := range []Options{{Out: "x", Seeds: -1}, {Out: "x", Seeds: 2, WriteObservations: "cdx"}} {
		if _, _, err := o.Validate(); err == nil {
			t.Errorf("Validate(seeds %d, observations %q) accepted", o.Seeds, o.WriteObservations)
		}
	}
}
