package crawllog

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/transform"
)

// The share of empty bins reaches every output: per URL in urls.csv
// (checked against a count over all pairs of the URL's captures on the
// grid urls.csv gives), in total in estimate.json (the sums), and per URL
// in the table of the top URLs.
func TestEstimateEmptyBins(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(5, 6))
	times := map[string][]int64{}
	var b strings.Builder
	b.WriteString("url,time,changed\n")
	for _, u := range []string{"a", "b", "c"} {
		tt := int64(1_500_000_000)
		for burst := range 8 + r.IntN(20) {
			for k := range 2 + r.IntN(8) {
				fmt.Fprintf(&b, "%s,%d,%d\n", u, tt, map[bool]int{true: 1}[burst > 0 && k == 0])
				times[u] = append(times[u], tt)
				tt += 60 + r.Int64N(600)
			}
			tt += units.Day * (10 + r.Int64N(80))
		}
	}
	log := filepath.Join(dir, "v.csv")
	if err := os.WriteFile(log, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// with M6 the counts are its W(y_n) = 0; without, EmptyBins's
	for k, methods := range [][]string{nil, {"G-M4", "naive"}} {
		checkEmptyBins(t, log, filepath.Join(dir, fmt.Sprint("o", k)), methods, times)
	}
}

func checkEmptyBins(t *testing.T, log, out string, methods []string, times map[string][]int64) {
	t.Helper()
	m, err := EstimateLogs(context.Background(), EstimateOptions{Inputs: []string{log}, Out: out, Unit: transform.Day, Methods: methods})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(out, URLsFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil || len(recs) != 4 {
		t.Fatalf("urls.csv: %v, %d lines, want a header and 3 URLs", err, len(recs))
	}
	col := map[string]int{}
	for i, c := range recs[0] {
		col[c] = i
	}
	var bins, empty int64
	share := map[string]float64{}
	for _, rec := range recs[1:] {
		u := rec[col["url"]]
		h, _ := strconv.ParseFloat(rec[col["h"]], 64)
		xmax, _ := strconv.ParseFloat(rec[col["x_max"]], 64)
		nb, _ := strconv.Atoi(rec[col["bins"]])
		ne, _ := strconv.Atoi(rec[col["empty_bins"]])
		// over all pairs: bin ⌈(s_j − s_i)/h⌉ in 1 … ⌈x_max/h⌉
		hs, ts := h*transform.Day, times[u]
		wantBins := int(math.Ceil(xmax/h - 1e-9))
		hit := map[int]bool{}
		for j := range ts {
			for i := range j {
				if n := int(math.Ceil(float64(ts[j]-ts[i])/hs - 1e-9)); n >= 1 && n <= wantBins {
					hit[n] = true
				}
			}
		}
		if nb != wantBins || ne != wantBins-len(hit) {
			t.Errorf("methods %v, %s: urls.csv %d of %d bins empty, counted %d of %d", methods, u, ne, nb, wantBins-len(hit), wantBins)
		}
		bins += int64(nb)
		empty += int64(ne)
		share[u] = float64(ne) / float64(nb)
	}
	if empty == 0 {
		t.Errorf("methods %v: no empty bin at all: the bursts do not exercise the count", methods)
	}
	if m.Bins != bins || m.EmptyBins != empty || m.EmptyShare != float64(empty)/float64(bins) {
		t.Errorf("estimate.json: %d of %d bins empty (share %g), urls.csv sums %d of %d", m.EmptyBins, m.Bins, m.EmptyShare, empty, bins)
	}
	var tab tables.Table
	raw, err := os.ReadFile(filepath.Join(out, "tables", "estimate_urls.json"))
	if err == nil {
		err = json.Unmarshal(raw, &tab)
	}
	if err != nil {
		t.Fatal(err)
	}
	k := len(tab.Columns) - 1
	if tab.Columns[k].Name != "empty bins" {
		t.Fatalf("the last column of the top URLs is %q, want empty bins", tab.Columns[k].Name)
	}
	for _, row := range tab.Rows {
		if v, ok := row[k].(float64); !ok || v != share[row[0].(string)] {
			t.Errorf("%v: empty bins %v in the table, %g in urls.csv", row[0], row[k], share[row[0].(string)])
		}
	}
}
