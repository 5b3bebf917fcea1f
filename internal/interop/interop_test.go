package interop

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/ingest"
	"github.com/revisit-dev/revisit/internal/realdata"
)

// duckRow is what read.mjs prints per page (BIGINTs come back as strings).
type duckRow struct {
	PageID       string `json:"page_id"`
	Source       string `json:"source"`
	Title        string `json:"title"`
	Namespace    int32  `json:"namespace"`
	Group        string `json:"group"`
	NUpdates     string `json:"n_updates"`
	NCollapsed   string `json:"n_collapsed"`
	Resolution   int32  `json:"resolution_s"`
	ListLen      string `json:"list_len"`
	FirstType    string `json:"first_type"`
	UpdateType   string `json:"update_type"`
	FirstS       string `json:"first_s"`
	LastS        string `json:"last_s"`
	FirstMatches bool   `json:"first_matches"`
	LastMatches  bool   `json:"last_matches"`
	Sorted       bool   `json:"sorted"`
	UniqueTimes  bool   `json:"unique_times"`
}

func needDuckDB(t *testing.T) string {
	dir, _ := filepath.Abs(".")
	msg := ""
	if _, err := exec.LookPath("node"); err != nil {
		msg = "node not found"
	} else if _, err := os.Stat(filepath.Join(dir, "node_modules", "@duckdb", "node-api")); err != nil {
		msg = "@duckdb/node-api not installed (run scripts/test-deps.d/duckdb.sh or make test-deps)"
	}
	if msg != "" {
		if os.Getenv("CI") == "true" {
			t.Fatal(msg + "; CI=true requires the DuckDB interop test")
		}
		t.Skip(msg + "; skipping the DuckDB interop test")
	}
	return dir
}

func i64(t *testing.T, s string) int64 {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("DuckDB BIGINT %q: %v", s, err)
	}
	return n
}

// DuckDB reads pages.parquet written from real dumps and sees the same
// pages, update counts and times as revisit; the updates list has
// n_updates timestamps, sorted and unique, that come back as timestamps.
func TestDuckDBReadsDataset(t *testing.T) {
	dir := needDuckDB(t)
	root := realdata.Dir(t)
	var inputs []string
	for _, f := range []string{
		"wikipedia/snukky__wikiedits/enwiki-20140102.tiny.xml.gz",
		"wikipedia/snukky__wikiedits/hiwiki.tar.gz",
		"wikipedia/Schuwi__wikiwho_rs/Hallo.xml",
		"wikipedia/Schuwi__wikiwho_rs/Anontalkpagetext.xml",
		"wikipedia/wikimedia__pywikibot/pair-0.10.xml",
	} {
		inputs = append(inputs, filepath.Join(root, f))
	}
	out := filepath.Join(t.TempDir(), "ds")
	sum, err := ingest.Run(context.Background(), ingest.Options{Inputs: inputs, Output: out, AllNamespaces: true})
	if err != nil {
		t.Fatal(err)
	}
	r, err := dataset.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	pages, err := r.All()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", filepath.Join(dir, "read.mjs"), out)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		t.Fatalf("node read.mjs: %v\n%s", err, stderr.String())
	}
	var rows []duckRow
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	for sc.Scan() {
		var row duckRow
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatalf("%q: %v", sc.Text(), err)
		}
		rows = append(rows, row)
	}
	if int64(len(rows)) != sum.Counts.PagesKept || len(rows) != len(pages) {
		t.Fatalf("DuckDB sees %d pages, revisit reports %d kept and reads back %d", len(rows), sum.Counts.PagesKept, len(pages))
	}
	byID := map[int64]int{}
	for i, p := range pages {
		byID[p.ID] = i
	}
	var updates int64
	for _, row := range rows {
		id := i64(t, row.PageID)
		i, ok := byID[id]
		if !ok {
			t.Fatalf("DuckDB page id %d unknown to revisit", id)
		}
		p := pages[i]
		n := i64(t, row.NUpdates)
		updates += n
		if row.Title != p.Title || row.Source != p.Source || row.Namespace != p.Namespace || row.Group != p.Group || row.Resolution != p.Resolution {
			t.Errorf("page %d: DuckDB %+v, revisit %q %q ns %d %q", id, row, p.Title, p.Source, p.Namespace, p.Group)
		}
		if n != int64(p.NUpdates()) || i64(t, row.ListLen) != n || i64(t, row.NCollapsed) != p.Collapsed {
			t.Errorf("page %q: DuckDB n_updates %s list %s collapsed %s; revisit %d, %d", p.Title, row.NUpdates, row.ListLen, row.NCollapsed, p.NUpdates(), p.Collapsed)
		}
		if i64(t, row.FirstS) != p.Updates[0] || i64(t, row.LastS) != p.Updates[len(p.Updates)-1] {
			t.Errorf("page %q: DuckDB first/last %s/%s, revisit %d/%d", p.Title, row.FirstS, row.LastS, p.Updates[0], p.Updates[len(p.Updates)-1])
		}
		if row.FirstType != "TIMESTAMP WITH TIME ZONE" || row.UpdateType != "TIMESTAMP WITH TIME ZONE" {
			t.Errorf("page %q: DuckDB types %s / %s, want timestamps", p.Title, row.FirstType, row.UpdateType)
		}
		if !row.FirstMatches || !row.LastMatches || !row.Sorted || !row.UniqueTimes {
			t.Errorf("page %q: updates list inconsistent in DuckDB: %+v", p.Title, row)
		}
	}
	if updates != sum.Counts.Updates {
		t.Errorf("DuckDB sums %d updates, revisit reports %d", updates, sum.Counts.Updates)
	}
	t.Logf("DuckDB read %d pages, %d updates", len(rows), updates)
}
