package crawllog

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/ingest/generic"
	"github.com/revisit-dev/revisit/ingest/visits"
	"github.com/revisit-dev/revisit/transform"
)

// writeTrace writes a change-bit trace of n URLs in both line forms (with
// and without the first crawl's offset), daily crawls with a few longer
// gaps, jittered delays on odd URLs, some URLs of 1–3 crawls, and
// Poisson changes of a rate per URL, from a seeded source.
func writeTrace(t testing.TB, path string, n int, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	var sb strings.Builder
	for u := range n {
		rate := math.Exp(math.Log(0.01) + rng.Float64()*math.Log(200))
		if u%3 == 0 {
			fmt.Fprintf(&sb, "%d\t%.6f\t[", u, rng.Float64())
		} else {
			fmt.Fprintf(&sb, "%d\t[", u)
		}
		k := 98
		if u%11 == 0 {
			k = 1 + rng.IntN(3)
		}
		for j := range k {
			d := 1.0
			if rng.Float64() < 0.05 {
				d = float64(2 + rng.IntN(3))
			}
			if u%2 == 1 {
				d += (rng.Float64() - 0.5) * 0.02
			}
			c := 0
			if rng.Float64() < -math.Expm1(-rate*d) {
				c = 1
			}
			if j > 0 {
				sb.WriteString(", ")
			}
			fmt.Fprintf(&sb, "[%.6f, %d]", d, c)
		}
		sb.WriteString("]\n")
	}
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// outputFiles are the bytes of every file of an estimate output but
// estimate.json (whose times differ) and the entries list (its sizes).
func outputFiles(t *testing.T, dir string) map[string][]byte {
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == EstimateMetaFile || strings.HasPrefix(rel, ".revisit") {
			return nil
		}
		b, err := os.ReadFile(p)
		files[rel] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// The URLs are estimated by parallel workers and written in read order:
// the output is the same, byte for byte, for 1, 2 and 5 workers, and its
// rows are those of EstimateObserved called on each URL in turn (the
// reference: the plain loop), compacted as the writer does.
func TestEstimateLogsWorkersSameOutput(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "trace.txt")
	writeTrace(t, trace, 300, 3)
	for _, c := range []struct {
		name    string
		methods []string
		curves  estimates.Curves
	}{
		{"naive", []string{"naive"}, estimates.CurvesCompact},
		{"all", nil, estimates.CurvesFull},
	} {
		var first map[string][]byte
		var firstMeta *EstimateMeta
		for _, workers := range []int{1, 2, 5} {
			out := filepath.Join(dir, fmt.Sprintf("%s-%d", c.name, workers))
			m, err := EstimateLogs(context.Background(), EstimateOptions{Inputs: []string{trace}, Out: out,
				Read: visits.Options{Format: "trace"}, Unit: transform.Day, Methods: c.methods, Curves: c.curves,
				Recover: c.name == "all", Workers: workers})
			if err != nil {
				t.Fatal(err)
			}
			m.Created, m.ElapsedS = time.Time{}, 0
			files := outputFiles(t, out)
			if first == nil {
				first, firstMeta = files, m
				checkRowsAsLoop(t, trace, out, c.methods, c.name == "all", c.curves)
				continue
			}
			if !reflect.DeepEqual(m, firstMeta) {
				t.Errorf("%s: %d workers: estimate.json %+v, 1 worker %+v", c.name, workers, m, firstMeta)
			}
			for name, b := range first {
				if !bytes.Equal(files[name], b) {
					t.Errorf("%s: %d workers: %s differs from 1 worker's", c.name, workers, name)
				}
			}
			if len(files) != len(first) {
				t.Errorf("%s: %d workers: %d files, 1 worker %d", c.name, workers, len(files), len(first))
			}
		}
	}
}

// checkRowsAsLoop compares the rows of out/estimates.parquet with those
// of EstimateObserved called on each URL of trace in read order.
func checkRowsAsLoop(t *testing.T, trace, out string, methods []string, recover bool, curves estimates.Curves) {
	t.Helper()
	cfg := estimator.ObservedConfig{Config: estimator.Config{Methods: methods, Recover: recover}, Unit: transform.Day,
		ConstTol: estimator.DefaultConstTolerance, CountEmpty: true}
	var want []estimator.Estimate
	_, err := visits.Read(context.Background(), []string{trace}, visits.Options{Format: "trace"}, func(o *visits.Observed) error {
		est, _, err := estimator.EstimateObserved(context.Background(), o, cfg)
		if err != nil {
			return nil // left out: fewer than 2 visits
		}
		if curves == estimates.CurvesCompact {
			estimates.Compact(est, estimates.Knots)
		}
		for i := range est {
			est[i].PageID, est[i].Title = generic.PageID(o.ID), o.ID
			want = append(want, est[i])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []estimator.Estimate
	if err := estimates.Each(out, func(e *estimator.Estimate) error { got = append(got, *e); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) || len(want) == 0 {
		t.Fatalf("%d rows written, the loop gives %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.PageID != w.PageID || g.Method != w.Method || g.Kind != w.Kind || g.Sampler != w.Sampler ||
			!sameFloats(g.CDF.X, w.CDF.X) || !sameFloats(g.CDF.P, w.CDF.P) || !sameFloats([]float64{g.Rate}, []float64{w.Rate}) {
			t.Fatalf("row %d: %s %s %s %v, the loop gives %s %s %s %v", i, g.Title, g.Method, g.Kind, g.CDF.P, w.Title, w.Method, w.Kind, w.CDF.P)
		}
	}
}

// sameFloats: equal bit for bit (NaN equals NaN).
func sameFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// keepTop, fed the URLs in read order, keeps the first n of them sorted
// stably by visits (what the report's table showed when every URL's line
// was held and sorted).
func TestKeepTopAsStableSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for range 200 {
		all := make([]URLSummary, rng.IntN(60))
		for i := range all {
			all[i] = URLSummary{URL: fmt.Sprint(i), Visits: rng.IntN(8)}
		}
		n := 1 + rng.IntN(12)
		var tops []URLSummary
		for _, s := range all {
			tops = keepTop(tops, s, n)
		}
		want := slices.Clone(all)
		sort.SliceStable(want, func(i, j int) bool { return want[i].Visits > want[j].Visits })
		want = want[:min(n, len(want))]
		if !reflect.DeepEqual(tops, want) && len(want) > 0 {
			t.Fatalf("n %d: %v, stable sort %v", n, tops, want)
		}
	}
}

// Through the workers, a bad line still stops the estimate with the
// error naming its file and line, and a cancelled context with the
// context's error; neither leaves an output.
func TestEstimateLogsWorkersErrors(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "trace.txt")
	writeTrace(t, trace, 300, 5)
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	lines[149] = "149\t[[1, 0], [x, 1]]\n"
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 2} {
		out := filepath.Join(dir, fmt.Sprint("bad", workers))
		_, err := EstimateLogs(context.Background(), EstimateOptions{Inputs: []string{bad}, Out: out,
			Read: visits.Options{Format: "trace"}, Unit: transform.Day, Methods: []string{"naive"}, Workers: workers})
		var be *visits.BadRecordError
		if !errors.As(err, &be) || be.Line != 150 || be.File != bad {
			t.Errorf("%d workers: %v, want a bad record at %s line 150", workers, err, bad)
		}
		if _, serr := os.Stat(out); !os.IsNotExist(serr) {
			t.Errorf("%d workers: failed estimate left %s", workers, out)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		out = filepath.Join(dir, fmt.Sprint("cancelled", workers))
		_, err = EstimateLogs(ctx, EstimateOptions{Inputs: []string{trace}, Out: out,
			Read: visits.Options{Format: "trace"}, Unit: transform.Day, Methods: []string{"naive"}, Workers: workers})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%d workers, cancelled: %v", workers, err)
		}
		if _, serr := os.Stat(out); !os.IsNotExist(serr) {
			t.Errorf("%d workers: cancelled estimate left %s", workers, out)
		}
	}
}

// Leaving methods out changes nothing of the others: the naive and poisson-mle
// rows of `--methods naive,poisson-mle` are those of every method, bit for bit
// (curves, rates, notes, grids), and so are each URL's grid, empty bins and
// changes in urls.csv; only what needs the methods left out (the reference,
// its median age, the KS distance and the verdict) is not there, and urls.csv
// names no reference and says which is missing. Work is skipped, never results
// changed.
func TestEstimateFewerMethodsSameRows(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "trace.tsv")
	writeTrace(t, trace, 120, 26)
	run := func(name string, methods []string) (map[string][]estimator.Estimate, map[int64]URLSummary) {
		t.Helper()
		out := filepath.Join(dir, name)
		if _, err := EstimateLogs(context.Background(), EstimateOptions{Inputs: []string{trace}, Out: out, Read: visits.Options{Format: "trace"},
			Unit: transform.Day, Methods: methods, Recover: true, MinChanges: 20}); err != nil {
			t.Fatal(err)
		}
		rows := map[string][]estimator.Estimate{}
		if err := estimates.Each(out, func(e *estimator.Estimate) error {
			if e.Method == estimator.MethodNaive || e.Method == estimator.MethodPoissonMLE {
				rows[e.Title] = append(rows[e.Title], *e)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return rows, readURLsCSV(t, out)
	}
	all, allURLs := run("all", nil)
	few, fewURLs := run("few", []string{"naive", "poisson-mle"})
	if len(all) == 0 || len(all) != len(few) || len(allURLs) != len(fewURLs) {
		t.Fatalf("%d and %d URLs with rows, %d and %d in urls.csv", len(all), len(few), len(allURLs), len(fewURLs))
	}
	decided := 0
	for url, want := range all {
		got := few[url]
		if len(got) != len(want) {
			t.Fatalf("%s: %d rows, %d with every method", url, len(got), len(want))
		}
		for i := range want {
			g, w := got[i], want[i]
			if g.Method != w.Method || g.Kind != w.Kind || g.Sampler != w.Sampler || g.Note != w.Note || g.Visits != w.Visits ||
				!sameFloats(g.CDF.X, w.CDF.X) || !sameFloats(g.CDF.P, w.CDF.P) || !sameFloats([]float64{g.Rate, g.H}, []float64{w.Rate, w.H}) {
				t.Errorf("%s %s %s: rate %v, %d points; with every method %v, %d points", url, g.Method, g.Kind, g.Rate, len(g.CDF.P), w.Rate, len(w.CDF.P))
			}
		}
	}
	for id, w := range allURLs {
		g := fewURLs[id]
		if g.URL != w.URL || g.Visits != w.Visits || g.Detections != w.Detections || g.Delays != w.Delays || g.Bins != w.Bins || g.EmptyBins != w.EmptyBins ||
			!sameFloats([]float64{g.H, g.XMax}, []float64{w.H, w.XMax}) {
			t.Errorf("URL %s: urls.csv %+v, with every method %+v", w.URL, g, w)
		}
		if !math.IsNaN(w.KS) {
			decided++
		}
		if !math.IsNaN(g.KS) || g.Verdict != VerdictUndecided || g.Reference != "" ||
			g.Detections >= 20 && g.VerdictNote != w.Reference+" not among --methods" {
			t.Errorf("URL %s without its reference method: reference %q, KS %g, verdict %q", g.URL, g.Reference, g.KS, g.VerdictText())
		}
	}
	if decided == 0 {
		t.Error("no URL with a KS distance among every method's: the comparison is empty")
	}
}

// readURLsCSV reads out/urls.csv into URLSummary values by page id (KS
// NaN when empty; the verdict's note parsed back from its text).
func readURLsCSV(t *testing.T, out string) map[int64]URLSummary {
	t.Helper()
	f, err := os.Open(filepath.Join(out, URLsFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil || len(recs) == 0 || !slices.Equal(recs[0], URLsColumns) {
		t.Fatalf("%s: %v, header %v", URLsFile, err, recs[:min(len(recs), 1)])
	}
	col := map[string]int{}
	for i, c := range recs[0] {
		col[c] = i
	}
	num := func(r []string, c string) float64 {
		if r[col[c]] == "" {
			return math.NaN()
		}
		v, err := strconv.ParseFloat(r[col[c]], 64)
		if err != nil {
			t.Fatalf("%s: %s %q: %v", URLsFile, c, r[col[c]], err)
		}
		return v
	}
	sums := map[int64]URLSummary{}
	for _, r := range recs[1:] {
		s := URLSummary{URL: r[col["url"]], Delays: r[col["delays"]], Reference: r[col["reference"]], Verdict: r[col["verdict"]],
			PageID: int64(num(r, "page_id")), Visits: int(num(r, "visits")), Detections: int(num(r, "changes")), H: num(r, "h"), XMax: num(r, "x_max"),
			Bins: int(num(r, "bins")), EmptyBins: int(num(r, "empty_bins")), KS: num(r, "ks")}
		if i := strings.Index(s.Verdict, " ("); i >= 0 {
			s.Verdict, s.VerdictNote = s.Verdict[:i], strings.TrimSuffix(s.Verdict[i+2:], ")")
		}
		id, err := strconv.ParseInt(r[col["page_id"]], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		s.PageID = id
		sums[id] = s
	}
	return sums
}
