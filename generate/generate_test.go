package generate

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/internal/stagetest"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/model"
	"github.com/revisit-dev/revisit/series"
)

func testOptions(t *testing.T, format, out string, models ...string) Options {
	t.Helper()
	if len(models) == 0 {
		models = []string{"0.4*pareto:2.5,{lognormal:2,1}", "0.2*weibull:0.6,10", "0.2*onoff:1,(pareto:1.5,2),(pareto:1.3,100)",
			"0.1*nhpp:0.05,1,0.8,0.5", "0.1*lrd:0.8,(exp:0.1)"}
	}
	ms, err := ParseModels(models, 3600)
	if err != nil {
		t.Fatal(err)
	}
	return Options{
		Config: Config{Pages: 60, Models: ms, Start: time.Date(2015, 3, 1, 0, 0, 0, 0, time.UTC), Span: 30 * units.Day,
			UnitName: "h", Unit: 3600, Seed: 42, TalkFraction: 0.2, MaxUpdates: 1_000_000},
		Format: format, Out: out, Version: "test",
	}
}

// pages regenerates the pages of opt independently of any writer.
func pages(t *testing.T, opt Options) []Page {
	t.Helper()
	g, err := NewGenerator(opt.Config)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]Page, opt.Pages)
	for i := range out {
		if err := g.Page(i, &out[i]); err != nil {
			t.Fatal(err)
		}
		out[i].Revisions = slices.Clone(out[i].Revisions)
		out[i].Updates = slices.Clone(out[i].Updates)
	}
	return out
}

func run(t *testing.T, opt Options) *Summary {
	t.Helper()
	s, err := Run(opt)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// xmlDump is an independent reading of a MediaWiki export with
// encoding/xml, namespace-qualified so a wrong xmlns fails.
type xmlDump struct {
	XMLName xml.Name `xml:"http://www.mediawiki.org/xml/export-0.11/ mediawiki"`
	Version string   `xml:"version,attr"`
	Site    struct {
		DBName     string `xml:"dbname"`
		Namespaces []struct {
			Key  int32  `xml:"key,attr"`
			Name string `xml:",chardata"`
		} `xml:"namespaces>namespace"`
	} `xml:"siteinfo"`
	Pages []struct {
		Title     string `xml:"title"`
		NS        int32  `xml:"ns"`
		ID        int64  `xml:"id"`
		Revisions []struct {
			ID        int64     `xml:"id"`
			ParentID  int64     `xml:"parentid"`
			Timestamp string    `xml:"timestamp"`
			Username  string    `xml:"contributor>username"`
			UserID    int64     `xml:"contributor>id"`
			IP        string    `xml:"contributor>ip"`
			Minor     *struct{} `xml:"minor"`
			Model     string    `xml:"model"`
			Format    string    `xml:"format"`
			Text      struct {
				Bytes string `xml:"bytes,attr"`
				ID    string `xml:"id,attr"`
			} `xml:"text"`
			SHA1 string `xml:"sha1"`
		} `xml:"revision"`
	} `xml:"page"`
}

// TestMediaWikiDump reads a generated dump with encoding/xml and checks it
// against the generator's pages and truth.json: schema 0.11 with siteinfo
// and namespaces, every page's title/ns/id, revision ids increasing through
// the dump with parentid chains, timestamps in YYYY-MM-DDTHH:MM:SSZ equal
// to the generated times, contributors (usernames and IPs), minor flags,
// sha1 and text stubs present.
func TestMediaWikiDump(t *testing.T) {
	dir := t.TempDir()
	opt := testOptions(t, FormatMediaWiki, filepath.Join(dir, "gen-stub-meta-history.xml.gz"))
	sum := run(t, opt)
	want := pages(t, opt)
	f, err := os.Open(opt.Out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(raw)) != sum.Bytes {
		t.Errorf("summary says %d bytes, the gzip holds %d", sum.Bytes, len(raw))
	}
	var d xmlDump
	if err := xml.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	if d.Version != "0.11" || d.Site.DBName != DBName || len(d.Site.Namespaces) < 4 {
		t.Fatalf("header: version %q dbname %q, %d namespaces", d.Version, d.Site.DBName, len(d.Site.Namespaces))
	}
	if len(d.Pages) != len(want) {
		t.Fatalf("%d pages, want %d", len(d.Pages), len(want))
	}
	tr, err := ReadTruth(DefaultTruthPath(opt.Format, opt.Out))
	if err != nil {
		t.Fatal(err)
	}
	lastRev := int64(0)
	var anon, named, minor, talk, collapsed int
	for i, p := range d.Pages {
		w := want[i]
		if p.Title != w.Title || p.NS != w.Namespace || p.ID != w.ID {
			t.Fatalf("page %d: %q ns %d id %d, want %q ns %d id %d", i, p.Title, p.NS, p.ID, w.Title, w.Namespace, w.ID)
		}
		if p.NS == 1 {
			talk++
			if !strings.HasPrefix(p.Title, "Talk:") {
				t.Errorf("talk page title %q", p.Title)
			}
		}
		if len(p.Revisions) != len(w.Revisions) {
			t.Fatalf("page %d: %d revisions, want %d", i, len(p.Revisions), len(w.Revisions))
		}
		var secs []int64
		for k, r := range p.Revisions {
			if r.ID <= lastRev {
				t.Fatalf("page %d revision %d: id %d after %d", i, k, r.ID, lastRev)
			}
			if k > 0 && r.ParentID != p.Revisions[k-1].ID || k == 0 && r.ParentID != 0 {
				t.Fatalf("page %d revision %d: parentid %d", i, k, r.ParentID)
			}
			lastRev = r.ID
			ts, err := time.Parse("2006-01-02T15:04:05Z", r.Timestamp)
			if err != nil {
				t.Fatalf("page %d revision %d: %v", i, k, err)
			}
			if ts.Unix() != w.Revisions[k] {
				t.Fatalf("page %d revision %d: %s, want %s", i, k, r.Timestamp, time.Unix(w.Revisions[k], 0).UTC())
			}
			secs = append(secs, ts.Unix())
			switch {
			case r.IP != "" && r.Username == "":
				anon++
			case r.IP == "" && r.Username != "" && r.UserID > 0:
				named++
			default:
				t.Fatalf("page %d revision %d: contributor %q/%q", i, k, r.Username, r.IP)
			}
			if r.Minor != nil {
				minor++
			}
			if r.Model != "wikitext" || r.Format != "text/x-wiki" || len(r.SHA1) != 31 || r.Text.Bytes == "" || r.Text.ID == "" {
				t.Fatalf("page %d revision %d: model %q format %q sha1 %q text bytes %q", i, k, r.Model, r.Format, r.SHA1, r.Text.Bytes)
			}
		}
		ups := slices.Compact(secs)
		pt := tr.Pages[i]
		if pt.UpdatesHash != UpdatesHash(ups) || pt.Updates != int64(len(ups)) || pt.Collapsed != int64(len(p.Revisions)-len(ups)) {
			t.Fatalf("page %d: truth %+v disagrees with the dump (%d updates)", i, pt, len(ups))
		}
		collapsed += len(p.Revisions) - len(ups)
	}
	if anon == 0 || named == 0 || minor == 0 || talk == 0 {
		t.Errorf("no variety: %d anonymous, %d named, %d minor revisions, %d talk pages", anon, named, minor, talk)
	}
	if tr.Totals.Collapsed != int64(collapsed) || tr.Totals.Pages != int64(len(want)) {
		t.Errorf("truth totals %+v, dump has %d collapsed", tr.Totals, collapsed)
	}
}

// TestTruthClosedForms checks the truth of a page against the model: the
// process rebuilds from its spec, E[U] is the closed form, and F/G are
// flagged where they exist.
func TestTruthClosedForms(t *testing.T) {
	dir := t.TempDir()
	opt := testOptions(t, FormatParquet, filepath.Join(dir, "ds"))
	run(t, opt)
	tr, err := ReadTruth(filepath.Join(opt.Out, TruthFile))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	lambda := nhppLambda(tr)
	for i := range tr.Pages {
		pt := &tr.Pages[i]
		p, err := tr.ProcessOf(pt)
		if err != nil {
			t.Fatalf("page %d: %v", pt.ID, err)
		}
		if p.String() != pt.Process {
			t.Fatalf("page %d: %q rebuilds as %q", pt.ID, pt.Process, p)
		}
		family, _, _ := strings.Cut(pt.Process, ":")
		seen[family] = true
		switch family {
		case "pareto": // E[U] = β/(α−1) with α = 2.5 and the drawn β
			if len(pt.Params) != 1 || pt.MeanInterval == nil || !close(*pt.MeanInterval, pt.Params[0]/1.5) || !pt.ClosedFormF || !pt.ClosedFormG {
				t.Errorf("pareto page %+v", pt)
			}
		case "weibull": // E[U] = νΓ(1+1/k) = 10·Γ(1+1/0.6) = 15.0458…
			if pt.MeanInterval == nil || !close(*pt.MeanInterval, 15.045754882515) || !pt.ClosedFormF {
				t.Errorf("weibull page %+v", pt)
			}
		case "onoff": // ON and OFF means are infinite for α ≤ 1 only; here (2/0.5 + 100/0.3)/(1·4)
			if pt.MeanInterval == nil || !close(*pt.MeanInterval, (4+100/0.3)/4) || pt.ClosedFormF {
				t.Errorf("onoff page %+v", pt)
			}
		case "nhpp": // trend: no long-run mean; E[count] = 1 + Λ, Λ by the midpoint rule here (≈ 0.05·720 h·(1 + 1/2) = 54)
			if pt.MeanInterval != nil || pt.ExpectedUpdates == nil || !closeTol(*pt.ExpectedUpdates, 1+lambda, 1e-6*lambda) {
				t.Errorf("nhpp page %+v", pt)
			}
		case "lrd": // marginal exp:0.1, E[U] = 10, F and G of the marginal
			if pt.MeanInterval == nil || !close(*pt.MeanInterval, 10) || !pt.ClosedFormF || !pt.ClosedFormG {
				t.Errorf("lrd page %+v", pt)
			}
		}
	}
	if len(seen) != 5 {
		t.Errorf("models seen: %v, want all five", seen)
	}
	if tr.ByID()[7].ID != 7 {
		t.Error("ByID does not index by id")
	}
}

// TestExpectedUpdates: the closed-form expected counts of truth.json
// against the generated counts. const:5 h over 48 h gives times 0, 5, …,
// 45: exactly ⌈48/5⌉ = 10. exp:2 over 48 h gives 1 + Poisson(96): the mean
// over 200 pages must be within 5·√(96/200) of 97.
func TestExpectedUpdates(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		spec string
		want float64
		tol  float64
	}{{"const:5", 10, 0}, {"exp:2", 97, 5 * math.Sqrt(96.0/200)}} {
		opt := testOptions(t, FormatParquet, filepath.Join(dir, "ds"), c.spec)
		opt.Pages, opt.Span = 200, 48*3600
		run(t, opt)
		tr, err := ReadTruth(filepath.Join(opt.Out, TruthFile))
		if err != nil {
			t.Fatal(err)
		}
		sum := 0.0
		for _, p := range tr.Pages {
			if p.ExpectedUpdates == nil || !closeTol(*p.ExpectedUpdates, c.want, 1e-9) {
				t.Fatalf("%s: expected updates %v, want %g", c.spec, p.ExpectedUpdates, c.want)
			}
			sum += float64(p.Revisions)
		}
		if mean := sum / float64(len(tr.Pages)); math.Abs(mean-c.want) > c.tol {
			t.Errorf("%s: mean count %.2f, want %g ± %.2f", c.spec, mean, c.want, c.tol)
		}
	}
}

// nhppLambda is ∫ λ(t) dt of nhpp:0.05,1,0.8,0.5 over the window of tr, by
// the midpoint rule with 10⁶ steps (hours since the epoch).
func nhppLambda(tr *Truth) float64 {
	a := float64(tr.Start.Unix()) / 3600
	b := float64(tr.End.Unix()) / 3600
	const n = 1000000
	h := (b - a) / n
	s := 0.0
	for i := 0; i < n; i++ {
		x := a + (float64(i)+0.5)*h
		s += 0.05 * (1 + (x-a)/(b-a)) * (1 + 0.8*math.Cos(2*math.Pi*x/24)) * (1 + 0.5*math.Cos(2*math.Pi*x/168))
	}
	return s * h
}

func close(a, b float64) bool { return closeTol(a, b, 1e-9*b) }
func closeTol(a, b, tol float64) bool {
	d := a - b
	return d <= tol && -d <= tol
}

// TestParquet checks the direct Parquet output: the dataset holds exactly
// the generated updates, and its manifest counts them.
func TestParquet(t *testing.T) {
	dir := t.TempDir()
	opt := testOptions(t, FormatParquet, filepath.Join(dir, "ds"))
	sum := run(t, opt)
	want := pages(t, opt)
	r, err := dataset.Open(opt.Out)
	if err != nil {
		t.Fatal(err)
	}
	var got []*series.Page
	if err := r.Each(func(p *series.Page) error { got = append(got, p); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d pages, want %d", len(got), len(want))
	}
	for i, p := range got {
		w := want[i]
		if p.ID != w.ID || p.Title != w.Title || p.Namespace != w.Namespace || p.Group != NamespaceName(w.Namespace) ||
			p.Collapsed != w.Collapsed || p.Resolution != 1 || !slices.Equal(p.Updates, w.Updates) {
			t.Fatalf("page %d differs: %+v", i, p)
		}
	}
	c := r.Manifest.Counts
	if c.PagesKept != sum.Pages || c.Updates != sum.Updates || c.Collapsed != sum.Collapsed || c.RevisionsRead != sum.Revisions {
		t.Errorf("manifest counts %+v, summary %+v", c, sum.Totals)
	}
}

// TestYelp reads the generated review and business JSON lines with
// encoding/json and checks them against the generator's pages and truth.
func TestYelp(t *testing.T) {
	dir := t.TempDir()
	opt := testOptions(t, FormatYelp, filepath.Join(dir, "yelp"))
	opt.UnitName, opt.Unit = "d", units.Day
	ms, err := ParseModels([]string{"exp:{uniform:0.2,2}", "pareto:2,3"}, units.Day)
	if err != nil {
		t.Fatal(err)
	}
	opt.Models = ms
	opt.Span = 365 * units.Day
	run(t, opt)
	want := pages(t, opt)
	tr, err := ReadTruth(filepath.Join(opt.Out, TruthFile))
	if err != nil {
		t.Fatal(err)
	}
	type review struct {
		ReviewID   string   `json:"review_id"`
		UserID     string   `json:"user_id"`
		BusinessID string   `json:"business_id"`
		Text       string   `json:"text"`
		Date       string   `json:"date"`
		Stars      *float64 `json:"stars"`
		Useful     *int     `json:"useful"`
		Funny      *int     `json:"funny"`
		Cool       *int     `json:"cool"`
	}
	byBiz := map[string][]int64{}
	var order []string
	scan(t, filepath.Join(opt.Out, YelpReviewFile), func(line []byte) {
		var r review
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if len(r.ReviewID) != 22 || len(r.UserID) != 22 || len(r.BusinessID) != 22 || r.Stars == nil || *r.Stars < 1 || *r.Stars > 5 ||
			r.Useful == nil || r.Funny == nil || r.Cool == nil || r.Text == "" {
			t.Fatalf("bad review %s", line)
		}
		ts, err := time.Parse("2006-01-02 15:04:05", r.Date)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := byBiz[r.BusinessID]; !ok {
			order = append(order, r.BusinessID)
		}
		byBiz[r.BusinessID] = append(byBiz[r.BusinessID], ts.Unix())
	})
	cities := map[string]bool{}
	n := 0
	scan(t, filepath.Join(opt.Out, YelpBusinessFile), func(line []byte) {
		var b struct {
			BusinessID  string `json:"business_id"`
			Name        string `json:"name"`
			City        string `json:"city"`
			State       string `json:"state"`
			Categories  string `json:"categories"`
			ReviewCount int    `json:"review_count"`
		}
		if err := json.Unmarshal(line, &b); err != nil {
			t.Fatal(err)
		}
		pt := tr.Pages[n]
		if b.BusinessID != pt.Key || b.City != pt.Group || b.Name != pt.Title || b.ReviewCount != len(want[n].Revisions) || b.State == "" || b.Categories == "" {
			t.Fatalf("business %d: %+v, truth %+v", n, b, pt)
		}
		cities[b.City] = true
		n++
	})
	if n != len(want) || len(order) != len(want) || len(cities) < 3 {
		t.Fatalf("%d businesses, %d with reviews, %d cities; want %d, ≥ 3 cities", n, len(order), len(cities), len(want))
	}
	for i, key := range order {
		if key != tr.Pages[i].Key || !slices.Equal(byBiz[key], want[i].Revisions) {
			t.Fatalf("business %d (%s): review times differ from the generated ones", i, key)
		}
	}
}

func scan(t *testing.T, path string, fn func([]byte)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		fn(s.Bytes())
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
}

// TestDeterminism: two runs with the same seed give identical bytes in
// every file of every format (in different directories: no path leaks into
// the output), and another seed gives different bytes.
func TestDeterminism(t *testing.T) {
	for _, format := range []string{FormatMediaWiki, FormatYelp, FormatParquet} {
		var sums [3]map[string][]byte
		for k, seed := range []uint64{7, 7, 8} {
			dir := t.TempDir()
			out := filepath.Join(dir, "out")
			if format == FormatMediaWiki {
				out += ".xml.gz"
			}
			opt := testOptions(t, format, out)
			opt.Pages, opt.Seed = 25, seed
			run(t, opt)
			sums[k] = stagetest.ReadTree(t, dir)
		}
		if len(sums[0]) < 2 {
			t.Fatalf("%s: only %d files", format, len(sums[0]))
		}
		for name, b := range sums[0] {
			if !bytes.Equal(b, sums[1][name]) {
				t.Errorf("%s: %s differs between two runs with the same seed", format, name)
			}
			if name != "manifest.json" && bytes.Equal(b, sums[2][name]) {
				t.Errorf("%s: %s is the same with another seed", format, name)
			}
		}
	}
}

// TestSameSecondCollapse: const:0.0001 h = 0.36 s over a 10 s window gives
// times 0, 0.36, …, 9.72 s: 28 revisions in the 10 distinct seconds 0…9,
// so 18 collapsed. The dump keeps all 28 revisions; the truth and the
// dataset hold the 10 updates.
func TestSameSecondCollapse(t *testing.T) {
	dir := t.TempDir()
	opt := testOptions(t, FormatMediaWiki, filepath.Join(dir, "c.xml"), "const:0.0001")
	opt.Pages, opt.Span = 3, 10
	sum := run(t, opt)
	if sum.Revisions != 3*28 || sum.Updates != 3*10 || sum.Collapsed != 3*18 {
		t.Fatalf("totals %+v, want 84 revisions, 30 updates, 54 collapsed", sum.Totals)
	}
	raw, err := os.ReadFile(opt.Out)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(raw, []byte("<timestamp>2015-03-01T00:00:00Z</timestamp>")); n != 3*3 {
		t.Errorf("%d revisions in second 0, want 3 per page (0, 0.36, 0.72 s)", n)
	}
}

// TestFailureLeavesNothing: a page over --max-updates fails the run with an
// error naming the page, and neither the dump nor truth.json nor a
// temporary file is left.
func TestFailureLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	opt := testOptions(t, FormatMediaWiki, filepath.Join(dir, "x.xml.gz"), "exp:100")
	opt.MaxUpdates = 1000
	_, err := Run(opt)
	if !errors.Is(err, model.ErrTooMany) || !strings.Contains(err.Error(), "page 1") {
		t.Fatalf("error %v, want ErrTooMany naming page 1", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("left behind: %v", ents)
	}
	for _, format := range []string{FormatYelp, FormatParquet} {
		opt.Format, opt.Out = format, filepath.Join(dir, "out")
		if _, err := Run(opt); !errors.Is(err, model.ErrTooMany) {
			t.Fatalf("%s: error %v, want ErrTooMany", format, err)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 0 {
			t.Errorf("%s: left behind: %v", format, ents)
		}
	}
}

func TestParseHelpers(t *testing.T) {
	for s, want := range map[string]int64{"5y": 5 * 31557600, "90d": 90 * units.Day, "1.5h": 5400, "30s": 30, "2w": 14 * units.Day} {
		if got, err := ParseDuration(s); err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"", "5", "y", "5x", "-1d", "0s"} {
		if _, err := ParseDuration(s); err == nil {
			t.Errorf("ParseDuration(%q) accepted", s)
		}
	}
	ms, err := ParseModels([]string{"0.5*pareto:3,1", "exp:1e-3", "2.5e-1*mix:1*exp:1+1*exp:2"}, 3600)
	if err != nil {
		t.Fatal(err)
	}
	if ms[0].Weight != 0.5 || ms[1].Weight != 1 || ms[2].Weight != 0.25 || ms[2].Model.String() != "mix:1*exp:1+1*exp:2" {
		t.Errorf("weights %v %v %v, spec %q", ms[0].Weight, ms[1].Weight, ms[2].Weight, ms[2].Model)
	}
	for _, s := range []string{"0*exp:1", "exp:0", "onoff:1,(exp:1)"} {
		if _, err := ParseModels([]string{s}, 3600); err == nil {
			t.Errorf("ParseModels(%q) accepted", s)
		}
	}
	// appendTimestamp against time.Format over the whole supported range.
	for _, s := range []int64{0, 951782400, 951868799, 1709164800, 4102444800, 253402300799, 1234567890} {
		got := string(appendTimestamp(nil, s, 'T', true))
		if want := time.Unix(s, 0).UTC().Format("2006-01-02T15:04:05Z"); got != want {
			t.Errorf("appendTimestamp(%d) = %s, want %s", s, got, want)
		}
	}
}

// TestFixtures reads the committed fixtures in testdata/generate with the
// independent encoding/xml and encoding/json readings and checks that each
// agrees with its own truth file (so readers may rely on both).
func TestFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "generate")
	raw, err := os.ReadFile(filepath.Join(dir, "small-stub-meta-history.xml"))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := ReadTruth(filepath.Join(dir, "small-stub-meta-history.truth.json"))
	if err != nil {
		t.Fatal(err)
	}
	var d xmlDump
	if err := xml.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Pages) != len(tr.Pages) {
		t.Fatalf("%d pages, truth %d", len(d.Pages), len(tr.Pages))
	}
	for i, p := range d.Pages {
		var secs []int64
		for _, r := range p.Revisions {
			ts, err := time.Parse(time.RFC3339, r.Timestamp)
			if err != nil {
				t.Fatal(err)
			}
			secs = append(secs, ts.Unix())
		}
		ups := slices.Compact(secs)
		pt := tr.Pages[i]
		if p.ID != pt.ID || p.Title != pt.Title || p.NS != pt.Namespace || int64(len(p.Revisions)) != pt.Revisions ||
			UpdatesHash(ups) != pt.UpdatesHash || int64(len(secs)-len(ups)) != pt.Collapsed {
			t.Errorf("page %d disagrees with its truth %+v", p.ID, pt)
		}
	}
}
