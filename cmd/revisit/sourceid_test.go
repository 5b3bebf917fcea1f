package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/dataset"
)

// The source's own page ids are kept, so that results join back to the
// source: a generic log's integer ids (hashed into page_id) are the
// source_id of the dataset and of page_stats, and a MediaWiki page's id
// is its source_id.
func TestSourceIDsJoinBack(t *testing.T) {
	dir := t.TempDir()
	var sb strings.Builder
	sb.WriteString("article_id,ts\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&sb, "1001,%d\n2002,%d\n", 1600000000+i*3600+i*i*60, 1600000100+i*7200)
	}
	log := filepath.Join(dir, "log.csv")
	os.WriteFile(log, []byte(sb.String()), 0o644)
	out := filepath.Join(dir, "run")
	if code, msg := stderrOf(t, "-q", "run", log, "--id", "article_id", "--time", "ts", "--reps", "19", "-o", out); code != exitOK {
		t.Fatalf("run: exit %d\n%s", code, msg)
	}
	rows := readCSV(t, filepath.Join(out, "analysis", "page_stats.csv"))
	col, pid := slices.Index(rows[0], "source_id"), slices.Index(rows[0], "page_id")
	if col < 0 {
		t.Fatalf("page_stats.csv has no source_id column: %q", rows[0])
	}
	var ids []string
	for _, r := range rows[1:] {
		ids = append(ids, r[col])
		if r[pid] == r[col] {
			t.Errorf("page_id %s is the source id: the test needs hashed ids", r[pid])
		}
	}
	slices.Sort(ids)
	if want := []string{"1001", "2002"}; !slices.Equal(ids, want) {
		t.Errorf("page_stats source_id %q, want %q", ids, want)
	}

	dump := filepath.Join(dir, "gen.xml")
	ds := filepath.Join(dir, "ds")
	for _, args := range [][]string{
		{"generate", "--page-count", "5", "--span", "60d", "-o", dump},
		{"ingest", dump, "--all-namespaces", "--min-updates", "1", "-o", ds},
	} {
		if code, msg := stderrOf(t, append([]string{"-q"}, args...)...); code != exitOK {
			t.Fatalf("%s: exit %d\n%s", args[0], code, msg)
		}
	}
	r, err := dataset.Open(ds)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := r.All()
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) == 0 {
		t.Fatal("no pages")
	}
	b, _ := os.ReadFile(dump)
	for _, p := range ps {
		if p.SourceID != strconv.FormatInt(p.ID, 10) || !strings.Contains(string(b), "<id>"+p.SourceID+"</id>") {
			t.Errorf("MediaWiki page %d (%s): source_id %q, want its <id>", p.ID, p.Title, p.SourceID)
		}
	}
}
