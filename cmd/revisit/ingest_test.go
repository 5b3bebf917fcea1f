package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/dataset"
)

// Exit codes of `revisit ingest` (SPEC §8): 0 success, 1 bad input, 2 bad
// usage; no dataset is left behind on failure.
func TestIngestExitCodes(t *testing.T) {
	dir := t.TempDir()
	fixture := "../../testdata/mediawiki/filters.xml"
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	truncated := filepath.Join(dir, "cut.xml")
	os.WriteFile(truncated, data[:len(data)/2], 0o644)
	junk := filepath.Join(dir, "junk.bin")
	os.WriteFile(junk, []byte{0, 1, 2, 3, 0xff, 0xfe}, 0o644)
	out := filepath.Join(dir, "ds")
	for _, c := range []struct {
		name string
		args []string
		code int
	}{
		{"no output", []string{"ingest", fixture}, exitUsage},
		{"no input", []string{"ingest", "-o", out}, exitUsage},
		{"bad since", []string{"ingest", fixture, "-o", out, "--since", "last week"}, exitUsage},
		{"bad namespaces", []string{"ingest", fixture, "-o", out, "--namespaces", "talk"}, exitUsage},
		{"both namespace flags", []string{"ingest", fixture, "-o", out, "--namespaces", "1", "--all-namespaces"}, exitUsage},
		{"unknown flag", []string{"ingest", fixture, "-o", out, "--frobnicate"}, exitUsage},
		{"bad generic format", []string{"ingest", junk, "-o", out, "--format", "parquet", "--id", "a", "--time", "b"}, exitUsage},
		{"missing file", []string{"ingest", filepath.Join(dir, "nope.xml"), "-o", out}, exitBadInput},
		{"truncated", []string{"-q", "ingest", truncated, "-o", out}, exitBadInput},
		{"unknown format", []string{"-q", "ingest", junk, "-o", out}, exitBadInput},
		{"truncated, skip bad", []string{"-q", "ingest", truncated, "-o", out, "--skip-bad"}, exitOK},
		{"ok", []string{"-q", "ingest", fixture, "-o", out, "--all-namespaces", "--since", "2001-01-02", "--until", "2011-01-01T00:00:00Z", "--min-updates", "1"}, exitOK},
	} {
		os.RemoveAll(out)
		if got := execute(c.args); got != c.code {
			t.Errorf("%s: exit %d, want %d", c.name, got, c.code)
		}
		_, err := os.Stat(out)
		if c.code != exitOK && !os.IsNotExist(err) {
			t.Errorf("%s: output left behind", c.name)
		}
		if c.code == exitOK && err != nil {
			t.Errorf("%s: no dataset written", c.name)
		}
	}
	// The last run: since 2001-01-02, until 2011, pages with one update
	// kept: Alpha keeps 2010-01-01, Talk:Alpha its 2001-01-02, Old name
	// both, Beta its 2009-12-31, Single its one.
	r, err := dataset.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := r.NumPages(); n != 5 || r.Manifest.Counts.Skipped["revisions_outside_time_range"] != 3 {
		t.Errorf("%d pages, counts %+v", n, r.Manifest.Counts)
	}
}

// "-" reads standard input (here a gzip file put in its place).
func TestIngestStdin(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("../../testdata/mediawiki/filters.xml")
	if err != nil {
		t.Fatal(err)
	}
	gz := filepath.Join(dir, "in.gz")
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(data)
	zw.Close()
	os.WriteFile(gz, buf.Bytes(), 0o644)
	f, err := os.Open(gz)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	old := os.Stdin
	os.Stdin = f
	defer func() { os.Stdin = old }()
	out := filepath.Join(dir, "ds")
	if code := execute([]string{"-q", "ingest", "-", "-o", out, "--min-updates", "1"}); code != exitOK {
		t.Fatalf("exit %d", code)
	}
	r, err := dataset.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	in := r.Manifest.Inputs
	// filters.xml: 3 pages in namespace 0 (Alpha, Old name, Single; Single
	// has one update, kept by --min-updates 1).
	if n, _ := r.NumPages(); n != 3 || len(in) != 1 || in[0].Name != "<stdin>" || in[0].Format != "mediawiki+gzip" || in[0].Size != int64(buf.Len()) {
		t.Fatalf("%d pages, inputs %+v", n, in)
	}
}

// --id with several columns and --title-column reach the
// generic reader, in ingest and in run: en/X and de/X are two pages, the
// title comes from the name column (de/X has none, so its id names it).
func TestIngestSeveralIDsAndTitle(t *testing.T) {
	dir := t.TempDir()
	var sb strings.Builder
	sb.WriteString("lang,article,name,ts\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&sb, "en,X,Xylophone,%d\nde,X,,%d\nen,Y,Yak,%d\n", 1_600_000_000+3600*i, 1_600_000_100+3600*i, 1_600_000_200+3600*i)
	}
	in := filepath.Join(dir, "log.csv")
	os.WriteFile(in, []byte(sb.String()), 0o644)
	titles := func(ds string) []string {
		t.Helper()
		r, err := dataset.Open(ds)
		if err != nil {
			t.Fatal(err)
		}
		ps, err := r.All()
		if err != nil {
			t.Fatal(err)
		}
		var ts []string
		for _, p := range ps {
			ts = append(ts, p.Title)
		}
		slices.Sort(ts)
		return ts
	}
	want := []string{"Xylophone", "Yak", "de/X"}
	if code := execute([]string{"-q", "ingest", in, "--id", "lang,article", "--time", "ts", "--title-column", "name", "-o", filepath.Join(dir, "ds")}); code != exitOK {
		t.Fatalf("ingest --title-column: exit %d", code)
	}
	if got := titles(filepath.Join(dir, "ds")); !slices.Equal(got, want) {
		t.Errorf("ingest --title-column: titles %q, want %q", got, want)
	}
	if code := execute([]string{"-q", "ingest", in, "--id", "lang,,article", "--time", "ts", "-o", filepath.Join(dir, "x")}); code != exitUsage {
		t.Errorf("--id lang,,article: exit %d, want %d", code, exitUsage)
	}
	out := filepath.Join(dir, "run")
	if code := execute([]string{"-q", "run", in, "--id", "lang,article", "--time", "ts", "--title-column", "name", "-o", out,
		"--top", "3", "--reps", "19", "--x-max", "10"}); code != exitOK {
		t.Fatalf("run: exit %d", code)
	}
	if got := titles(filepath.Join(out, "dataset")); !slices.Equal(got, want) {
		t.Errorf("run: titles %q, want %q", got, want)
	}
}

// The revision filter flags: bad combinations are usage errors (exit 2);
// --bot-list is read, implies --drop-bots and is recorded in the manifest.
func TestIngestRevisionFilterFlags(t *testing.T) {
	dir := t.TempDir()
	fixture := "../../testdata/mediawiki/filters.xml"
	out := filepath.Join(dir, "ds")
	list := filepath.Join(dir, "bots.txt")
	os.WriteFile(list, []byte("# bots\nSome_Bot_Name\n"), 0o644)
	for _, c := range []struct {
		name string
		args []string
		code int
	}{
		{"pattern without drop-bots", []string{"ingest", fixture, "-o", out, "--bot-pattern", "bot$"}, exitUsage},
		{"bad pattern", []string{"ingest", fixture, "-o", out, "--drop-bots", "--bot-pattern", "(["}, exitUsage},
		{"pattern and no pattern", []string{"ingest", fixture, "-o", out, "--drop-bots", "--bot-pattern", "x", "--no-bot-pattern"}, exitUsage},
		{"no pattern, no list", []string{"ingest", fixture, "-o", out, "--drop-bots", "--no-bot-pattern"}, exitUsage},
		{"radius without drop-reverts", []string{"ingest", fixture, "-o", out, "--revert-radius", "3"}, exitUsage},
		{"radius 0", []string{"ingest", fixture, "-o", out, "--drop-reverts", "--revert-radius", "0"}, exitUsage},
		{"missing list", []string{"ingest", fixture, "-o", out, "--bot-list", filepath.Join(dir, "none.txt")}, exitUsage},
		{"ok", []string{"-q", "ingest", fixture, "-o", out, "--drop-reverts", "--bot-list", list, "--no-bot-pattern", "--drop-minor"}, exitOK},
	} {
		os.RemoveAll(out)
		if got := execute(c.args); got != c.code {
			t.Errorf("%s: exit %d, want %d", c.name, got, c.code)
		}
	}
	m, err := dataset.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := m.Extra["revision_filters"].(map[string]any)
	if f["drop_bots"] != true || f["bot_list"] != list || f["bot_names"] != float64(1) || f["bot_pattern"] != nil || f["drop_minor"] != true {
		t.Errorf("revision_filters %v", f)
	}
}

// --time-origin and INPUT:skip=N from the command line: a relative log
// behind a title line is placed at the origin (2014-10-29 = 1414540800 s,
// worked by hand); a bad origin or a non-numeric layout is bad usage.
func TestIngestTimeOriginAndSkip(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "rel.csv")
	os.WriteFile(in, []byte("Data pulled on 10/29/2014\nid,t\na,0\na,60\n"), 0o644)
	out := filepath.Join(dir, "ds")
	for _, c := range []struct {
		name string
		args []string
		code int
	}{
		{"bad origin", []string{"-q", "ingest", in + ":skip=1", "-o", out, "--id", "id", "--time", "t", "--time-origin", "yesterday"}, exitUsage},
		{"date layout", []string{"-q", "ingest", in + ":skip=1", "-o", out, "--id", "id", "--time", "t", "--time-origin", "2014-10-29", "--time-layout", "date"}, exitUsage},
		{"ok", []string{"-q", "ingest", in + ":skip=1", "-o", out, "--id", "id", "--time", "t", "--time-origin", "2014-10-29"}, exitOK},
	} {
		os.RemoveAll(out)
		if got := execute(c.args); got != c.code {
			t.Errorf("%s: exit %d, want %d", c.name, got, c.code)
		}
	}
	r, err := dataset.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := r.All()
	if err != nil || len(ps) != 1 || !slices.Equal(ps[0].Updates, []int64{1414540800, 1414540860}) {
		t.Fatalf("pages %+v (%v)", ps, err)
	}
	if r.Manifest.Inputs[0].Name != in || r.Manifest.Inputs[0].SkipLines != 1 || r.Manifest.Extra["time_origin"] != "2014-10-29T00:00:00Z" {
		t.Errorf("manifest inputs %+v extra %v", r.Manifest.Inputs, r.Manifest.Extra)
	}
}
