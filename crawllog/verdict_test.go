package crawllog

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/tables"
)

// urlTable reads the URL, changes seen, KS and verdict columns of the top
// URLs table an estimate wrote into URLSummary values (VerdictNote parsed
// back from the verdict's text, KS NaN where the table has none).
func urlTable(t *testing.T, out string) []URLSummary {
	t.Helper()
	b, err := tables.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, tab := range b.Tables {
		if tab.ID != "estimate_urls" {
			continue
		}
		col := map[string]int{}
		for i, c := range tab.Columns {
			col[c.Name] = i
		}
		var sums []URLSummary
		for _, r := range tab.Rows {
			v := r[col["verdict"]].(string)
			s := URLSummary{URL: r[col["URL"]].(string), Detections: int(r[col["changes seen"]].(int64)), Verdict: v, KS: math.NaN()}
			if ks, ok := r[col["KS to exponential"]].(float64); ok {
				s.KS = ks
			}
			if i := strings.Index(v, " ("); i >= 0 {
				s.Verdict, s.VerdictNote = v[:i], strings.TrimSuffix(v[i+2:], ")")
			}
			sums = append(sums, s)
		}
		return sums
	}
	t.Fatalf("%s: no estimate_urls table", out)
	return nil
}

// DefaultMinChanges is the sample size at which the asymptotic one-sample
// KS critical value at level 5 %, c = √(ln(2/α)/2) (Smirnov), shrinks to
// the verdict threshold: ⌈(c/0.1)²⌉, computed here from the formula.
func TestDefaultMinChangesFromKSCriticalValue(t *testing.T) {
	c := math.Sqrt(math.Log(2/0.05) / 2) // 1.3581
	if k := int(math.Ceil(math.Pow(c/PoissonVerdictKS, 2))); k != DefaultMinChanges {
		t.Errorf("(c(0.05)/%g)² rounds up to %d, DefaultMinChanges is %d", PoissonVerdictKS, k, DefaultMinChanges)
	}
}

// writeVerdictLog writes a change-bit log of three URLs with irregular
// delays (exponential, mean 1 h, seeded): "zero" never changes (its
// rate is 0 and its KS distance 0: it was called Poisson), "few" changes
// 5 times, "many" changes at Poisson rate 0.5/h over 600 visits (about
// 200 changes seen).
func writeVerdictLog(t *testing.T, dir string) (string, map[string]int) {
	t.Helper()
	r := rand.New(rand.NewPCG(17, 1))
	var b strings.Builder
	b.WriteString("url,time,changed\n")
	changes := map[string]int{}
	for _, u := range []struct {
		url    string
		visits int
		change func(j int, tau float64) bool
	}{
		{"zero", 60, func(int, float64) bool { return false }},
		{"few", 60, func(j int, _ float64) bool { return j%10 == 5 && j < 55 }},
		{"many", 600, func(_ int, tau float64) bool { return r.Float64() < 1-math.Exp(-0.5*tau/3600) }},
	} {
		t0 := int64(1_600_000_000)
		for j := range u.visits {
			tau := 0.0
			if j > 0 {
				tau = math.Max(1, math.Round(r.ExpFloat64()*3600))
				t0 += int64(tau)
			}
			c := j > 0 && u.change(j, tau)
			if c {
				changes[u.url]++
			}
			fmt.Fprintf(&b, "%s,%d,%d\n", u.url, t0, map[bool]int{false: 0, true: 1}[c])
		}
	}
	p := filepath.Join(dir, "v.csv")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p, changes
}

// No verdict without evidence: every "Poisson" verdict of the real runs was a
// URL with no change seen (rate 0, KS 0). A URL with fewer than K changes seen
// (--min-changes, DefaultMinChanges by default) is undecided, with the count
// and K in its note and in the table, and its KS distance, which no verdict
// can use, is not computed.
func TestVerdictNeedsMinChanges(t *testing.T) {
	dir := t.TempDir()
	log, changes := writeVerdictLog(t, dir)
	if changes["zero"] != 0 || changes["few"] != 5 || changes["many"] < DefaultMinChanges {
		t.Fatalf("log has changes %v, want 0, 5 and ≥ %d", changes, DefaultMinChanges)
	}
	for _, c := range []struct {
		k       int // MinChanges given
		wantK   int
		decided map[string]bool
	}{
		{0, DefaultMinChanges, map[string]bool{"zero": false, "few": false, "many": true}},
		{1, 1, map[string]bool{"zero": false, "few": true, "many": true}},
		{6, 6, map[string]bool{"zero": false, "few": false, "many": true}},
		{changes["many"] + 1, changes["many"] + 1, map[string]bool{"zero": false, "few": false, "many": false}},
	} {
		out := filepath.Join(dir, fmt.Sprintf("k%d", c.k))
		m, err := EstimateLogs(context.Background(), EstimateOptions{Inputs: []string{log}, Out: out, MinChanges: c.k})
		if err != nil {
			t.Fatal(err)
		}
		sums := urlTable(t, out)
		if len(sums) != 3 {
			t.Fatalf("K %d: %d URLs in the table, want 3", c.k, len(sums))
		}
		if m.MinChanges != c.wantK {
			t.Errorf("K %d: estimate.json min_changes %d, want %d", c.k, m.MinChanges, c.wantK)
		}
		few := 0
		for _, s := range sums {
			n := changes[s.URL]
			if s.Detections != n {
				t.Errorf("K %d: %s: %d changes seen, the log has %d", c.k, s.URL, s.Detections, n)
			}
			if n == 0 && s.Verdict != VerdictUndecided {
				t.Errorf("K %d: %s with no change seen: verdict %q", c.k, s.URL, s.Verdict)
			}
			if got := s.Verdict != VerdictUndecided; got != c.decided[s.URL] {
				t.Errorf("K %d: %s (%d changes): verdict %q", c.k, s.URL, n, s.VerdictText())
			}
			if decided := n >= c.wantK; decided == math.IsNaN(s.KS) {
				t.Errorf("K %d: %s (%d changes): KS %g", c.k, s.URL, n, s.KS)
			}
			if n < c.wantK {
				few++
				if want := fmt.Sprintf("undecided (%d change%s, need %d)", n, map[bool]string{true: "", false: "s"}[n == 1], c.wantK); s.VerdictText() != want {
					t.Errorf("K %d: %s: %q, want %q", c.k, s.URL, s.VerdictText(), want)
				}
			}
		}
		if m.FewChanges != few || m.Verdicts[VerdictUndecided] < few {
			t.Errorf("K %d: undecided_few_changes %d, verdicts %v; want %d", c.k, m.FewChanges, m.Verdicts, few)
		}
	}
	if _, err := EstimateLogs(context.Background(), EstimateOptions{Inputs: []string{log}, Out: filepath.Join(dir, "neg"), MinChanges: -1}); err == nil {
		t.Error("MinChanges −1: no error")
	}
}
