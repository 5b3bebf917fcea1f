package schedule

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/series"
)

func TestParseRate(t *testing.T) {
	for _, c := range []struct {
		s    string
		want float64
	}{{"100", 100.0 / 86400}, {"100/d", 100.0 / 86400}, {"24/h", 24.0 / 3600}, {" 3 / s ", 3}, {"0", 0}} {
		got, err := ParseRate(c.s)
		if err != nil || math.Abs(got-c.want) > 1e-15 {
			t.Errorf("ParseRate(%q) = %g, %v; want %g", c.s, got, err, c.want)
		}
	}
	for _, s := range []string{"", "-1/d", "5/x", "abc", "NaN", "Inf/d"} {
		if _, err := ParseRate(s); err == nil {
			t.Errorf("ParseRate(%q): no error", s)
		}
	}
}

// Importance files: the Bing layout (tab), CSV with a header, comments;
// errors name the file and line.
func TestReadImportance(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	m, err := ReadImportance(write("imp.txt", "17\t0.5\n# comment\n\n18\t2\n"))
	if err != nil || len(m) != 2 || m["17"] != 0.5 || m["18"] != 2 {
		t.Errorf("tab file: %v, %v", m, err)
	}
	m, err = ReadImportance(write("imp.csv", "id,weight\nhttps://a.example/x,3\n"))
	if err != nil || len(m) != 1 || m["https://a.example/x"] != 3 {
		t.Errorf("csv with header: %v, %v", m, err)
	}
	var pe *ParseError
	if _, err := ReadImportance(write("bad.csv", "id,weight\na,1\nb,-2\n")); !errors.As(err, &pe) || pe.Line != 3 || !strings.Contains(err.Error(), "bad.csv:3") {
		t.Errorf("negative weight: %v", err)
	}
	if _, err := ReadImportance(write("dup.csv", "a,1\na,2\n")); !errors.As(err, &pe) || pe.Line != 2 {
		t.Errorf("duplicate: %v", err)
	}
	if _, err := ReadImportance(write("nosep.csv", "a,1\nb\n")); !errors.As(err, &pe) || pe.Line != 2 {
		t.Errorf("no separator: %v", err)
	}
	l, err := ReadHostLimits(write("hosts.csv", "a.example,48/d\nb.example,2/h\n"))
	if err != nil || math.Abs(l["a.example"]-48.0/86400) > 1e-18 || math.Abs(l["b.example"]-2.0/3600) > 1e-18 {
		t.Errorf("host limits: %v, %v", l, err)
	}
	for title, want := range map[string]string{"https://A.example:8080/p?q": "a.example", "Main Page": "", "http://b.example": "b.example"} {
		if got := Host(title); got != want {
			t.Errorf("Host(%q) = %q, want %q", title, got, want)
		}
	}
}

// ReadTruth: a page updated at 0, 1 h, 3 h, 6 h has intervals 1, 2, 3 h,
// so G_U(1) = (1+1+1)/6, G_U(2) = (1+2+2)/6, G_U(3) = 1 and λ = 3/6 per
// hour; a page with one update has no interval.
func TestReadTruth(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ds")
	w, err := dataset.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	t0 := int64(1_600_000_000)
	pages := []series.Page{
		{ID: 1, Source: "test", Title: "a", Resolution: 1, Updates: []int64{t0, t0 + 3600, t0 + 3*3600, t0 + 6*3600}},
		{ID: 2, Source: "test", Title: "b", Resolution: 1, Updates: []int64{t0}},
	}
	for i := range pages {
		if err := w.Write(&pages[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(&dataset.Manifest{}); err != nil {
		t.Fatal(err)
	}
	in, err := ReadTruth(dir, 3600)
	if err != nil {
		t.Fatal(err)
	}
	if len(in.IDs) != 2 || in.Lambda[0] != 0.5 || in.Lambda[1] != 0 || in.Note[1] == "" || in.Note[0] != "" {
		t.Fatalf("input: %+v", in)
	}
	x, g := in.Curves.knots(0)
	wantX, wantG := []float64{1, 2, 3}, []float64{0.5, 5.0 / 6, 1}
	for k := range wantX {
		if x[k] != wantX[k] || math.Abs(g[k]-wantG[k]) > 1e-15 {
			t.Errorf("knot %d: (%g, %g), want (%g, %g)", k, x[k], g[k], wantX[k], wantG[k])
		}
	}
	// One grid shared so far: the page without interval gets Ĝ ≡ 0 on it.
	if _, g := in.Curves.knots(1); len(g) != 3 || g[0] != 0 || g[1] != 0 || g[2] != 0 {
		t.Errorf("page with one update: Ĝ %v, want zeros", g)
	}
}
