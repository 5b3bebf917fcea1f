package nhpp

import (
	"context"
	"fmt"
	"testing"

	"github.com/revisit-dev/revisit/internal/realdata"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/policy/traces"
	"github.com/revisit-dev/revisit/series"
)

// On a page whose rate rises (β = 3) then falls (β = 0.5, see
// TestWindowsSplitAtDirectionChange), Analyze produces rows for both window
// types, and in each the power-law fits rebuild the times better than the
// homogeneous Poisson MLE (which cannot follow a trend).
func TestAnalyzeTrendBeatsPoisson(t *testing.T) {
	rng := model.NewRand(3, 99)
	times := []float64{0}
	times = append(times, powerLaw(rng, 300, 3, 100)...)
	t1 := times[300]
	for _, x := range powerLaw(rng, 300, 0.5, 10*t1/300) {
		times = append(times, t1+x)
	}
	p := series.Page{ID: 1, Title: "trend"}
	for _, x := range times {
		p.Updates = append(p.Updates, 1_000_000_000+int64(x*3600))
	}
	b, err := Analyze(context.Background(), []series.Page{p}, 3600, Options{Dataset: "generated"})
	if err != nil {
		t.Fatal(err)
	}
	var mse tables.Table
	for _, tb := range b.Tables {
		if tb.ID == "nhpp_mse" {
			mse = tb
		}
		if tb.Section != 7 {
			t.Errorf("%s: section %d", tb.ID, tb.Section)
		}
	}
	got := map[string]float64{}
	for _, r := range mse.Rows {
		got[r[0].(string)+"/"+r[1].(string)] = r[5].(float64)
	}
	for _, st := range []string{"increasing", "decreasing"} {
		w, c, po := got[st+"/Weibull MLE"], got[st+"/Weibull corrected"], got[st+"/Poisson MLE"]
		if !(w < po && c < po) {
			t.Errorf("%s windows: MSE Weibull %.4g, corrected %.4g, Poisson %.4g: want power law below Poisson", st, w, c, po)
		}
	}
	if err := b.Write(t.TempDir()); err != nil {
		t.Fatal(err)
	}
}

// TestRealTraces runs the NHPP analysis on the real traces and logs the
// prediction scores (go test -v -run RealTraces).
func TestRealTraces(t *testing.T) {
	for _, s := range []struct {
		name, path string
		read       func(string) ([]series.Page, error)
	}{
		{"wikipedia revision_timestamps", traces.RevisionTimestamps, traces.Revisions},
		{"COVID-19 editions", traces.CovidEditions, traces.Covid},
		{"ca-fires files", traces.CAFires, traces.GitFiles},
		{"Kevinisagirl 1000 articles", traces.Kevinisagirl, traces.Kevin},
		{"help-scraper files", traces.HelpScraper, traces.GitFiles},
	} {
		if testing.Short() && (s.path == traces.Kevinisagirl || s.path == traces.HelpScraper) {
			continue
		}
		pages, err := s.read(realdata.Path(t, s.path))
		if err != nil {
			t.Fatal(err)
		}
		var res []*PageResult
		for i := range pages {
			if len(pages[i].Updates) < 100 {
				continue
			}
			r, err := AnalyzePage(context.Background(), &pages[i], 3600, Options{})
			if err != nil {
				t.Fatal(err)
			}
			res = append(res, r)
		}
		var cnt [3]int
		for _, r := range res {
			for _, w := range r.Windows {
				cnt[w.State]++
			}
		}
		msg := ""
		for e, est := range Predictors {
			var p Prediction
			for _, r := range res {
				p.Add(r.Pred[e])
			}
			if p.Visits == 0 || p.Detected > p.Updates {
				t.Errorf("%s %s: %+v", s.name, est.Name, p)
			}
			msg += " " + est.Name + ": precision " + pct(p.Precision()) + " recall " + pct(p.Recall()) + ";"
		}
		t.Logf("%s: %d pages ≥100 updates, windows inc/dec/const %d/%d/%d;%s", s.name, len(res), cnt[Increasing], cnt[Decreasing], cnt[Constant], msg)
		b, err := Analyze(context.Background(), pages, 3600, Options{MinUpdates: 100, Dataset: s.name})
		if err != nil {
			t.Fatal(err)
		}
		for _, tb := range b.Tables {
			if tb.ID == "nhpp_mse" {
				for _, r := range tb.Rows {
					t.Logf("  %-10s %-18s windows %5d  relative RMSE %8.2f%%  median per window %6.2f%%", r[0], r[1], r[2], 100*r[7].(float64), 100*r[8].(float64))
				}
			}
		}
	}
}

func pct(x float64) string {
	return fmt.Sprintf("%.1f%%", 100*x)
}
