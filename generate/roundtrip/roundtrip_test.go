package roundtrip

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/generate"
	"github.com/revisit-dev/revisit/ingest"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/series"
)

func options(t *testing.T, format, out string) generate.Options {
	t.Helper()
	ms, err := generate.ParseModels([]string{"0.5*pareto:1.8,{lognormal:1,1}", "0.2*onoff:2,(pareto:1.5,1),(pareto:1.3,50)",
		"0.2*nhpp:0.2,0.5,0.9,0.5", "0.1*lrd:0.8,(weibull:0.6,3)", "0.05*mix:0.7*exp:0.2+0.3*uniform:0,0.0005"}, 3600)
	if err != nil {
		t.Fatal(err)
	}
	return generate.Options{
		Config: generate.Config{Pages: 80, Models: ms, Start: time.Date(2012, 6, 1, 0, 0, 0, 0, time.UTC), Span: 120 * units.Day,
			UnitName: "h", Unit: 3600, Seed: 11, TalkFraction: 0.25, MaxUpdates: 1_000_000},
		Format: format, Out: out, Version: "test",
	}
}

// check compares the ingested dataset with truth.json page by page: the
// same ids, titles, namespaces and groups, and exactly the generated
// updates (count, hash of the times, first, last) and collapsed counts.
func check(t *testing.T, dir string, tr *generate.Truth) {
	t.Helper()
	checkBy(t, dir, tr, func(p *series.Page) string { return strconv.FormatInt(p.ID, 10) },
		func(pt *generate.PageTruth) string { return strconv.FormatInt(pt.ID, 10) })
}

// checkBy is check with pages matched by a key (the page id for MediaWiki,
// the business name for Yelp, whose page ids are hashes of business_id).
func checkBy(t *testing.T, dir string, tr *generate.Truth, key func(*series.Page) string, tkey func(*generate.PageTruth) string) {
	t.Helper()
	r, err := dataset.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*series.Page{}
	if err := r.Each(func(p *series.Page) error { got[key(p)] = p; return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(tr.Pages) {
		t.Fatalf("dataset has %d pages, truth %d", len(got), len(tr.Pages))
	}
	var collapsed int64
	for _, pt := range tr.Pages {
		p := got[tkey(&pt)]
		if p == nil {
			t.Fatalf("page %d %q missing", pt.ID, pt.Title)
		}
		if p.Title != pt.Title || p.Namespace != pt.Namespace || p.Group != pt.Group {
			t.Errorf("page %d: %q ns %d group %q, truth %q ns %d group %q", pt.ID, p.Title, p.Namespace, p.Group, pt.Title, pt.Namespace, pt.Group)
		}
		if int64(len(p.Updates)) != pt.Updates || generate.UpdatesHash(p.Updates) != pt.UpdatesHash ||
			p.Updates[0] != pt.First || p.Updates[len(p.Updates)-1] != pt.Last || p.Collapsed != pt.Collapsed {
			t.Errorf("page %d: %d updates (hash %s, %d collapsed), truth %d (hash %s, %d collapsed)",
				pt.ID, len(p.Updates), generate.UpdatesHash(p.Updates), p.Collapsed, pt.Updates, pt.UpdatesHash, pt.Collapsed)
		}
		collapsed += p.Collapsed
	}
	c := r.Manifest.Counts
	injected := tr.Totals.InjectedReverts + tr.Totals.InjectedReverted + tr.Totals.InjectedBots
	if c.RevisionsRead != tr.Totals.Revisions+injected || c.Updates != tr.Totals.Updates || c.Collapsed != tr.Totals.Collapsed {
		t.Errorf("manifest counts %+v, truth totals %+v", c, tr.Totals)
	}
	if tr.Totals.Collapsed == 0 {
		t.Error("the corpus has no same-second revisions: the collapse path is untested")
	}
}

// TestMediaWikiFile: a gzip dump on disk through ingest.Run.
func TestMediaWikiFile(t *testing.T) {
	dir := t.TempDir()
	opt := options(t, generate.FormatMediaWiki, filepath.Join(dir, "gen-stub-meta-history.xml.gz"))
	if _, err := generate.Run(opt); err != nil {
		t.Fatal(err)
	}
	tr, err := generate.ReadTruth(generate.DefaultTruthPath(opt.Format, opt.Out))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "ds")
	if _, err := ingest.Run(context.Background(), ingest.Options{Inputs: []string{opt.Out}, Output: out, AllNamespaces: true}); err != nil {
		t.Fatal(err)
	}
	check(t, out, tr)
}

// TestMediaWikiPipe: `revisit generate -o - | revisit ingest -` in one
// process: generate writes plain XML into a pipe that ingest reads as its
// standard input.
func TestMediaWikiPipe(t *testing.T) {
	dir := t.TempDir()
	opt := options(t, generate.FormatMediaWiki, "-")
	opt.Truth = filepath.Join(dir, "truth.json")
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	opt.Stdout = pw
	done := make(chan error, 1)
	go func() {
		_, err := generate.Run(opt)
		pw.Close()
		done <- err
	}()
	stdin := os.Stdin
	os.Stdin = pr
	defer func() { os.Stdin = stdin }()
	out := filepath.Join(dir, "ds")
	_, ierr := ingest.Run(context.Background(), ingest.Options{Inputs: []string{"-"}, Output: out, AllNamespaces: true})
	pr.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if ierr != nil {
		t.Fatal(ierr)
	}
	tr, err := generate.ReadTruth(opt.Truth)
	if err != nil {
		t.Fatal(err)
	}
	check(t, out, tr)
}

// TestYelp: generated review and business files through ingest.Run: every
// business is a page titled by its name, grouped by its city, holding
// exactly the generated review times (1-second dates).
func TestYelp(t *testing.T) {
	dir := t.TempDir()
	opt := options(t, generate.FormatYelp, filepath.Join(dir, "yelp"))
	if _, err := generate.Run(opt); err != nil {
		t.Fatal(err)
	}
	tr, err := generate.ReadTruth(filepath.Join(opt.Out, generate.TruthFile))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "ds")
	in := []string{filepath.Join(opt.Out, generate.YelpReviewFile), filepath.Join(opt.Out, generate.YelpBusinessFile)}
	if _, err := ingest.Run(context.Background(), ingest.Options{Inputs: in, Output: out}); err != nil {
		t.Fatal(err)
	}
	checkBy(t, out, tr, func(p *series.Page) string { return p.Title }, func(pt *generate.PageTruth) string { return pt.Title })
}
