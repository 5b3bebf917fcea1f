package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/series"
)

// splitDump cuts a MediaWiki XML dump into n dumps of whole pages, each
// with the dump's header and footer: the parts of one wiki, disjoint pages.
func splitDump(t *testing.T, xml []byte, n int, dir string) []string {
	t.Helper()
	first := bytes.Index(xml, []byte("<page>"))
	end := bytes.LastIndex(xml, []byte("</mediawiki>"))
	if first < 0 || end < 0 {
		t.Fatal("not a MediaWiki dump")
	}
	head, body, foot := xml[:first], xml[first:end], xml[end:]
	pages := bytes.SplitAfter(body, []byte("</page>"))
	var files []string
	for k := 0; k < n; k++ {
		var b bytes.Buffer
		b.Write(head)
		for i := k * len(pages) / n; i < (k+1)*len(pages)/n; i++ {
			b.Write(pages[i])
		}
		b.Write(foot)
		f := filepath.Join(dir, fmt.Sprintf("part%d.xml", k))
		if err := os.WriteFile(f, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// generatedParts writes a generated dump of the given number of pages
// (30 days, seed 4) to dir/g.xml and cuts it into n parts with splitDump.
func generatedParts(t *testing.T, dir string, pages, n int) []string {
	t.Helper()
	dump := filepath.Join(dir, "g.xml")
	if code := execute([]string{"-q", "generate", "--pages", strconv.Itoa(pages), "--span", "30d", "--seed", "4", "-o", dump}); code != exitOK {
		t.Fatalf("generate: exit %d", code)
	}
	xml, err := os.ReadFile(dump)
	if err != nil {
		t.Fatal(err)
	}
	return splitDump(t, xml, n, dir)
}

func pagesOf(t *testing.T, dir string) []series.Page {
	t.Helper()
	r, err := dataset.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ps []series.Page
	if err := r.Each(func(p *series.Page) error { ps = append(ps, *p); return nil }); err != nil {
		t.Fatal(err)
	}
	return ps
}

// ingest --jobs K reads the inputs in K child processes and joins their
// datasets: the same pages, in the same order, with the same counts as one
// process reading them one after another; overlapping inputs, standard
// input, --parts and a user's directory are refused, and nothing is left.
func TestIngestJobsEqualsSequential(t *testing.T) {
	t.Setenv("REVISIT_TEST_AS_MAIN", "1") // children: this binary as revisit
	dir := t.TempDir()
	parts := generatedParts(t, dir, 60, 3)
	seq, par := filepath.Join(dir, "seq"), filepath.Join(dir, "par")
	if code := execute(append([]string{"-q", "ingest", "--all-namespaces", "-o", seq}, parts...)); code != exitOK {
		t.Fatalf("sequential ingest: exit %d", code)
	}
	if code := execute(append([]string{"-q", "ingest", "--all-namespaces", "--jobs", "2", "-o", par}, parts...)); code != exitOK {
		t.Fatalf("ingest --jobs 2: exit %d", code)
	}
	a, b := pagesOf(t, seq), pagesOf(t, par)
	if len(a) == 0 || !reflect.DeepEqual(a, b) {
		t.Fatalf("--jobs 2 gave %d pages, one process %d (or different ones)", len(b), len(a))
	}
	ra, _ := dataset.Open(seq)
	rb, _ := dataset.Open(par)
	if ra.Manifest.Counts.PagesKept != rb.Manifest.Counts.PagesKept || ra.Manifest.Counts.RevisionsRead != rb.Manifest.Counts.RevisionsRead ||
		ra.Manifest.Counts.Updates != rb.Manifest.Counts.Updates || len(rb.Manifest.Inputs) != 3 {
		t.Errorf("counts: one process %+v, --jobs %+v (%d inputs)", ra.Manifest.Counts, rb.Manifest.Counts, len(rb.Manifest.Inputs))
	}

	// Overlapping inputs (the same dump twice) cannot form one dataset.
	ov := filepath.Join(dir, "ov")
	if code := execute([]string{"-q", "ingest", "--jobs", "2", "-o", ov, parts[0], parts[0]}); code == exitOK {
		t.Error("overlapping inputs were joined")
	}
	for _, c := range [][]string{
		{"-q", "ingest", "--jobs", "2", "-o", ov, parts[0], "-"},
		{"-q", "ingest", "--jobs", "2", "--parts", "2", "-o", ov, parts[0], parts[1]},
		{"-q", "ingest", "--jobs", "0", "-o", ov, parts[0], parts[1]},
	} {
		if code := execute(c); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", c, code, exitUsage)
		}
	}
	mine := filepath.Join(dir, "mine")
	os.Mkdir(mine, 0o755)
	os.WriteFile(filepath.Join(mine, "notes.txt"), []byte("x"), 0o644)
	if code := execute(append([]string{"-q", "ingest", "--jobs", "2", "-o", mine}, parts...)); code != exitUsage {
		t.Errorf("--jobs into a user's directory: exit %d, want %d", code, exitUsage)
	}
	// Nothing but the datasets asked for: no temporary directory, no ov.
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.IsDir() && e.Name() != "seq" && e.Name() != "par" && e.Name() != "mine" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// A working directory of ingest --jobs that a killed run left (kill -9 of
// the process group, a reboot: every part read so far) is removed by the
// next ingest --jobs of the same output, as README promises for every
// temporary directory; one that another path's run uses is not touched.
func TestIngestJobsRemovesKilledRunsWorkDir(t *testing.T) {
	t.Setenv("REVISIT_TEST_AS_MAIN", "1")
	dir := t.TempDir()
	parts := generatedParts(t, dir, 10, 2)
	stale := filepath.Join(dir, ".ds.jobs-123456", "part-00000")
	other := filepath.Join(dir, ".dsx.jobs-123456")
	for _, d := range []string{stale, other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(stale, "pages.parquet"), []byte("partial"), 0o644)
	if code := execute(append([]string{"-q", "ingest", "--all-namespaces", "--jobs", "2", "-o", filepath.Join(dir, "ds")}, parts...)); code != exitOK {
		t.Fatalf("ingest --jobs 2: exit %d", code)
	}
	if _, err := os.Stat(filepath.Dir(stale)); !os.IsNotExist(err) {
		t.Errorf("the killed run's working directory is still there (%v)", err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("another output's working directory was removed: %v", err)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".ds.") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// ingest --jobs says what it left out, like one ingest does: the skip
// counts of the joined dataset are printed, not only kept in the manifest.
func TestIngestJobsPrintsSkips(t *testing.T) {
	t.Setenv("REVISIT_TEST_AS_MAIN", "1")
	dir := t.TempDir()
	parts := generatedParts(t, dir, 10, 2)
	out := filepath.Join(dir, "ds")
	cmd := newRoot()
	var stdout bytes.Buffer
	cmd.SetOut(&stdout)
	cmd.SetArgs(append([]string{"ingest", "--all-namespaces", "--min-updates", "100000", "--jobs", "2", "-o", out}, parts...))
	if err := cmd.Execute(); err == nil {
		t.Log("every page dropped, and no error")
	}
	m, err := dataset.ReadManifest(out)
	if err != nil {
		t.Skipf("no dataset written when every page is dropped: %v", err)
	}
	n := m.Counts.Skipped["min_updates"]
	if n != 10 {
		t.Fatalf("manifest counts %d pages below --min-updates, want all 10 (counts %+v)", n, m.Counts)
	}
	if !strings.Contains(stdout.String(), "min_updates") && !strings.Contains(stdout.String(), "min-updates") {
		t.Errorf("ingest --jobs left out 10 pages below --min-updates without saying so:\n%s", stdout.String())
	}
}

// An input whose name starts with '-' (given after --) is an input in the
// child processes too, not a flag.
func TestIngestJobsDashInput(t *testing.T) {
	t.Setenv("REVISIT_TEST_AS_MAIN", "1")
	dir := t.TempDir()
	parts := generatedParts(t, dir, 10, 2)
	dash := filepath.Join(dir, "-p0.xml")
	if err := os.Rename(parts[0], dash); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	if code := execute([]string{"-q", "ingest", "--all-namespaces", "--jobs", "2", "-o", "ds", "--", "-p0.xml", filepath.Base(parts[1])}); code != exitOK {
		t.Fatalf("ingest --jobs 2 -- -p0.xml …: exit %d", code)
	}
	if n := len(pagesOf(t, filepath.Join(dir, "ds"))); n != 10 {
		t.Errorf("%d pages, want 10", n)
	}
}

// A child that the Go runtime ended (exit 2: out of memory) makes ingest
// --jobs exit 3, as README's exit codes say, not 2 (bad usage) or 1.
func TestIngestJobsChildRuntimeDeathExits3(t *testing.T) {
	dir := t.TempDir()
	var ins []string
	for i := range 2 {
		p := filepath.Join(dir, fmt.Sprintf("in%d.csv", i))
		os.WriteFile(p, []byte("id,time\na,2021-01-01T00:00:00Z\n"), 0o644)
		ins = append(ins, p)
	}
	t.Setenv("REVISIT_TEST_AS_MAIN", "1")
	t.Setenv("REVISIT_TEST_RUNTIME_DEATH", "1")
	code := execute(append([]string{"-q", "ingest", "--id", "id", "--time", "time", "--jobs", "2", "-o", filepath.Join(dir, "ds")}, ins...))
	if code != exitInternal {
		t.Errorf("exit %d, want %d", code, exitInternal)
	}
}
