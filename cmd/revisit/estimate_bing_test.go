package main

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/internal/units"
)

// revisit estimate on the Bing change trace as the data set ships it
// (ingest/visits/testdata/bing: urlid_offset_history.txt with its
// importance and URL files given as inputs), in days. The rates are
// worked out by hand from the rows:
//
//	URL 7, [[1,0],[1,1],[1,0]] from offset 0: one change in 3 days, naive
//	1/3 per day; poisson-mle solves Σ_changed d/(e^{λd} − 1) = Σ_unchanged d,
//	1/(e^λ − 1) = 2, λ = ln 1.5 ≈ 0.405 per day.
//	URL 5, the README's row 5<TAB>5.5143…<TAB>[[1.10396990740741, 0],
//	[1.47311342592593, 1]]: delays of 95383 s unchanged and 127277 s
//	changed (whole seconds), naive 1/((95383 + 127277)/86400) per day;
//	d₂/(e^{λd₂} − 1) = d₁, λ = ln(1 + d₂/d₁)/d₂.
//
// Without the offset column the first pair would be dropped: 0.5 and
// ln 2 ≈ 0.693 per day for URL 7.
func TestEstimateBingTrace(t *testing.T) {
	dir := filepath.Join("..", "..", "ingest", "visits", "testdata", "bing")
	out := filepath.Join(t.TempDir(), "est")
	if code := execute([]string{"-q", "estimate", filepath.Join(dir, "urlid_imp.txt"), filepath.Join(dir, "url_urlid_hostid.txt"),
		filepath.Join(dir, "urlid_offset_history.txt"), "--unit", "d", "--methods", "naive,poisson-mle", "-o", out}); code != exitOK {
		t.Fatalf("estimate: exit %d", code)
	}
	d1, d2 := 95383.0/units.Day, 127277.0/units.Day
	want := map[[2]string]float64{
		{"https://example.com/", "naive"}:                     1.0 / 3,
		{"https://example.com/", "poisson-mle"}:               math.Log(1.5),
		{"http://www.example.org/events/2017", "naive"}:       1 / (d1 + d2),
		{"http://www.example.org/events/2017", "poisson-mle"}: math.Log(1+d2/d1) / d2,
	}
	got := map[[2]string]float64{}
	if err := estimates.Each(out, func(e *estimator.Estimate) error {
		got[[2]string{e.Title, e.Method}] = e.Rate // one rate per method, on its G and F rows
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for k, w := range want {
		g, ok := got[k]
		if !ok || math.Abs(g-w) > 1e-9*w {
			t.Errorf("%s %s: rate %v (present %v), want %v", k[0], k[1], g, ok, w)
		}
	}
	if math.Abs(want[[2]string{"https://example.com/", "poisson-mle"}]-0.405465) > 1e-6 {
		t.Error("ln 1.5")
	}
}
