package generic

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/revisit-dev/revisit/ingest/source"
	"github.com/revisit-dev/revisit/internal/realdata"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/series"
)

// readAll runs a Reader over a (possibly gzipped) real file and returns its
// pages by title, its stats and the first error.
func readAll(t *testing.T, path string, opt Options, so source.Options) (map[string]*series.RawPage, Stats, error) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	}
	if opt.FileName == "" {
		opt.FileName = path
	}
	rd, err := NewReader(r, opt, so)
	if err != nil {
		return nil, Stats{}, err
	}
	pages := map[string]*series.RawPage{}
	for {
		p, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return pages, rd.Stats(), err
		}
		if _, dup := pages[p.Title]; dup {
			t.Fatalf("%s: object %q emitted twice", path, p.Title)
		}
		if p.ID != PageID(p.Title) {
			t.Fatalf("%s: %q has id %d, want PageID %d", path, p.Title, p.ID, PageID(p.Title))
		}
		pages[p.Title] = p
	}
	return pages, rd.Stats(), nil
}

// readText returns the decompressed text of a real file.
func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if b, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	return string(b)
}

func rfc3339(t *testing.T, s string) int64 {
	t.Helper()
	tm, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatalf("reference parse %q: %v", s, err)
	}
	return tm.Unix()
}

// sameSeries compares the reader's pages with a reference map id → times
// (as multisets: both in input order, so also as sequences).
func sameSeries(t *testing.T, name string, got map[string]*series.RawPage, want map[string][]int64) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d objects, reference has %d", name, len(got), len(want))
	}
	for id, w := range want {
		p, ok := got[id]
		if !ok {
			t.Errorf("%s: object %q missing", name, id)
			continue
		}
		if !slices.Equal(p.Revisions, w) {
			t.Errorf("%s: %q has %d revisions, reference %d (or other times)", name, id, len(p.Revisions), len(w))
		}
	}
}

func total(m map[string][]int64) (n int) {
	for _, v := range m {
		n += len(v)
	}
	return n
}

// gitLogReference parses the derived git-log CSVs naively: the last three
// fields (commit, author time, commit time) never hold commas, so the path
// is everything before them, unquoted when quoted.
func gitLogReference(t *testing.T, text string, timeField int) map[string][]int64 {
	ref := map[string][]int64{}
	text = strings.ReplaceAll(text, "\r\n", "\n") // the files have CRLF line ends
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")[1:]
	for _, l := range lines {
		parts := strings.Split(l, ",")
		n := len(parts)
		path := strings.Join(parts[:n-3], ",")
		if strings.HasPrefix(path, `"`) {
			path = strings.ReplaceAll(path[1:len(path)-1], `""`, `"`)
		}
		ref[path] = append(ref[path], rfc3339(t, parts[n-3+timeField]))
	}
	return ref
}

func TestRealGitLogs(t *testing.T) {
	cases := []struct {
		rel       string
		timeCol   string
		timeField int // index among the last three fields
		events    int // SOURCES.md §3
		files     int
		top       map[string]int
	}{
		{"other/simonw__help-scraper/simonw-help-scraper_file_commits.csv.gz", "commit_time_utc", 2, 98086, 17615, nil},
		{"other/simonw__help-scraper/simonw-help-scraper_file_commits.csv.gz", "author_time_utc", 1, 98086, 17615, nil},
		{"other/simonw__ca-fires-history/simonw-ca-fires-history_file_commits.csv.gz", "commit_time_utc", 2, 3706, 4, // two minor files besides the two SOURCES.md names
			map[string]int{"incidents.json": 2581, "incidents-june-2023-format.json": 1113}},
	}
	for _, c := range cases {
		path := realdata.Path(t, c.rel)
		pages, st, err := readAll(t, path, Options{Format: "auto", ID: "path", Time: c.timeCol, Source: "git"}, source.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ref := gitLogReference(t, readText(t, path), c.timeField)
		sameSeries(t, c.rel, pages, ref)
		if total(ref) != c.events || len(ref) != c.files || st.Records != int64(c.events) || st.Objects != c.files || st.Bad != 0 {
			t.Errorf("%s: reference %d events / %d files, reader %+v; SOURCES.md says %d / %d", c.rel, total(ref), len(ref), st, c.events, c.files)
		}
		for id, n := range c.top {
			if len(pages[id].Revisions) != n {
				t.Errorf("%s: %s has %d events, SOURCES.md says %d", c.rel, id, len(pages[id].Revisions), n)
			}
		}
		if st.Format != FormatCSV || st.TimeLayout != layoutISO || pages[firstKey(ref)].Resolution != 1 {
			t.Errorf("%s: format %s layout %s resolution %d", c.rel, st.Format, st.TimeLayout, pages[firstKey(ref)].Resolution)
		}
	}
}

func firstKey(m map[string][]int64) string {
	for k := range m {
		return k
	}
	return ""
}

// ajoerReference counts the keys of each per-edition JSON object with
// encoding/json.
func ajoerReference(t *testing.T, path string) []int64 {
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(readText(t, path)), &m); err != nil {
		t.Fatal(err)
	}
	var ts []int64
	for k := range m {
		ts = append(ts, rfc3339(t, k))
	}
	slices.Sort(ts)
	return ts
}

func TestRealAjoerJSONKeys(t *testing.T) {
	dir := realdata.Path(t, "wikipedia/ajoer__Newswork-on-Wikipedia/covid19_020720")
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) != 118 {
		t.Fatalf("%d files, SOURCES.md says 118", len(files))
	}
	sum := 0
	perEdition := map[string]int{}
	for _, f := range files {
		pages, st, err := readAll(t, f, Options{Format: "auto", IDFromFileName: true, TimeLayout: "auto", Source: "wikipedia"}, source.Options{})
		if err != nil {
			t.Fatal(err)
		}
		lang := strings.TrimSuffix(filepath.Base(f), ".json")
		if st.Format != FormatJSONKeys || len(pages) != 1 || pages[lang] == nil {
			t.Fatalf("%s: format %s, pages %v", f, st.Format, len(pages))
		}
		// The keys are sorted in the files, so input order is time order.
		ref := ajoerReference(t, f)
		if !slices.Equal(pages[lang].Revisions, ref) {
			t.Errorf("%s: %d revisions, encoding/json finds %d keys", f, len(pages[lang].Revisions), len(ref))
		}
		sum += len(ref)
		perEdition[lang+"wiki"] = len(ref)
	}
	// SOURCES.md §4: 74,224 revisions over 118 files; fr 8,220, es 7,420.
	if sum != 74224 || perEdition["frwiki"] != 8220 || perEdition["eswiki"] != 7420 {
		t.Errorf("sum %d fr %d es %d; SOURCES.md says 74,224, 8,220, 7,420", sum, perEdition["frwiki"], perEdition["eswiki"])
	}

	// The derived CSV holds the same timestamps, one row per revision:
	// reading it with id=edition must give the per-file counts above.
	path := realdata.Path(t, "wikipedia/_derived/covid19_editions.csv.gz")
	pages, st, err := readAll(t, path, Options{ID: "edition", Time: "timestamp"}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Records != 74224 || len(pages) != len(perEdition) {
		t.Errorf("covid19_editions: %d rows / %d editions, want 74,224 / %d", st.Records, len(pages), len(perEdition))
	}
	for ed, n := range perEdition {
		if p := pages[ed]; p == nil || len(p.Revisions) != n {
			t.Errorf("covid19_editions: %s has %v rows, its JSON file %d keys", ed, p, n)
		}
	}
}

func TestRealKevinisagirlArrays(t *testing.T) {
	path := realdata.Path(t, "wikipedia/Kevinisagirl__Wikipedia-Revisions-1000-articleid-sample/articlesthatareoldenough.txt.gz")
	pages, st, err := readAll(t, path, Options{Format: "auto", ID: "0", Time: "2", Group: "1"}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Reference: encoding/json, one []string per line.
	ref := map[string][]int64{}
	titleOf := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(readText(t, path)))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var row []string
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatal(err)
		}
		ref[row[0]] = append(ref[row[0]], rfc3339(t, row[2]))
		titleOf[row[1]] = row[0]
	}
	sameSeries(t, "Kevinisagirl", pages, ref)
	// SOURCES.md §4: 231,538 revisions over 1,000 pages; Antisemitism 5,401,
	// Manchester 5,314, Turtle 3,469.
	if st.Records != 231538 || len(pages) != 1000 || total(ref) != 231538 || st.Format != FormatJSONL {
		t.Errorf("records %d pages %d reference %d format %s; want 231,538 / 1,000", st.Records, len(pages), total(ref), st.Format)
	}
	for title, n := range map[string]int{"Antisemitism": 5401, "Manchester": 5314, "Turtle": 3469} {
		p := pages[titleOf[title]]
		if p == nil || len(p.Revisions) != n || p.Group != title {
			t.Errorf("%s: %v, want %d revisions", title, p, n)
		}
	}
}

func TestRealLouayCSV(t *testing.T) {
	// SOURCES.md §4 counts; the two column layouts are rev_id,timestamp,
	// user,comment[,content] and rev_id,user,timestamp.
	want := map[string]int{
		"donald_trump_revisions": 4208, "covid_revisions_metadata": 3676, "taylor_swift": 2094,
		"Fortnite": 1462, "attack_on_titan": 1087, "pyramid_revisions_metadata": 649,
		"castle_revisions_metadata": 339, "noah_kahan": 180,
	}
	for name, n := range want {
		path := realdata.Path(t, "wikipedia/Louay-Aousaji__edit-network-graph-project/"+name+".csv")
		pages, st, err := readAll(t, path, Options{IDFromFileName: true, Time: "timestamp", Source: "wikidata"}, source.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if p := pages[name]; p == nil || len(p.Revisions) != n || st.Bad != 0 {
			t.Errorf("%s: %d revisions (stats %+v), SOURCES.md says %d", name, len(pages[name].Revisions), st, n)
		}
	}
}

// naiveRecord is one record of naiveCSV.
type naiveRecord struct {
	start, end int // first and last physical line (1-based)
	fields     []string
	quoteErr   bool
}

// naiveCSV is a reference RFC 4180 splitter written character by
// character for the tests: quoted fields may hold commas, doubled quotes
// and newlines; a quote inside an unquoted field, or a closing quote not
// followed by a comma or the end of the line, is an error, after which the
// rest of that physical line is dropped and reading resumes on the next
// line. Blank lines are not records. (No \r in the files it is used on.)
func naiveCSV(text string) []naiveRecord {
	var recs []naiveRecord
	line, i := 1, 0
	n := len(text)
	skipLine := func() {
		for i < n && text[i] != '\n' {
			i++
		}
		if i < n {
			i++
		}
		line++
	}
	for i < n {
		if text[i] == '\n' {
			i++
			line++
			continue
		}
		rec := naiveRecord{start: line}
	fields:
		for {
			var f strings.Builder
			if i < n && text[i] == '"' {
				i++
				for {
					if i >= n { // unterminated at the end of input
						rec.quoteErr = true
						break fields
					}
					c := text[i]
					if c == '\n' {
						line++
					}
					if c != '"' {
						f.WriteByte(c)
						i++
						continue
					}
					switch {
					case i+1 < n && text[i+1] == '"':
						f.WriteByte('"')
						i += 2
					case i+1 >= n || text[i+1] == '\n' || text[i+1] == ',':
						i++
						goto fieldDone
					default:
						rec.quoteErr = true
						skipLine()
						line-- // skipLine counted the line the error is on
						break fields
					}
				}
			} else {
				for i < n && text[i] != ',' && text[i] != '\n' {
					if text[i] == '"' {
						rec.quoteErr = true
						skipLine()
						line--
						break fields
					}
					f.WriteByte(text[i])
					i++
				}
			}
		fieldDone:
			rec.fields = append(rec.fields, f.String())
			if i < n && text[i] == ',' {
				i++
				continue
			}
			if i < n { // '\n'
				i++
			}
			break
		}
		rec.end = line
		line++
		recs = append(recs, rec)
	}
	return recs
}

func TestNaiveCSVReference(t *testing.T) {
	// Hand-checked cases for the reference itself.
	recs := naiveCSV("a,b\n\"x,1\",\"y\"\"\ny\"\nbad\"q,2\n\"c\"d,3\n\n4,5")
	type r struct {
		start, end, nf int
		qe             bool
	}
	want := []r{{1, 1, 2, false}, {2, 3, 2, false}, {4, 4, 1, true}, {5, 5, 1, true}, {7, 7, 2, false}}
	if len(recs) != len(want) {
		t.Fatalf("%d records: %+v", len(recs), recs)
	}
	for k, w := range want {
		g := recs[k]
		if g.start != w.start || g.end != w.end || g.quoteErr != w.qe || (!w.qe && len(g.fields) != w.nf) {
			t.Errorf("record %d = %+v, want %+v", k, g, w)
		}
	}
	if recs[1].fields[1] != "y\"\ny" {
		t.Errorf("quoted newline field = %q", recs[1].fields[1])
	}
}

func TestRealMikewesthadBrokenCSV(t *testing.T) {
	for _, c := range []struct {
		article string
		skip    int
		records int // SOURCES.md §4: records anchored on their diff URL
	}{
		{"Ebola_virus_disease", 0, 7797},
		{"Ebola_virus_disease_in_the_United_States", 1, 1521},
		{"Monsanto", 0, 3985},
	} {
		path := realdata.Path(t, "wikipedia/mikewesthad__WikipediaDataViz/"+c.article+"/Revisions.csv")
		opt := Options{Format: "csv", IDFromFileName: true, IDFromDir: true, FileName: path,
			Time: "time of edit (seconds from first edit)", TimeLayout: "epoch", SkipLines: c.skip}

		// Reference: split with naiveCSV, the header is the first record
		// after the skipped lines; a record is bad when its quoting is
		// broken, its field count differs from the header's or its time
		// field is not a number.
		text := readText(t, path)
		body := text
		for k := 0; k < c.skip; k++ {
			body = body[strings.IndexByte(body, '\n')+1:]
		}
		recs := naiveCSV(body)
		header := recs[0].fields
		col := slices.IndexFunc(header, func(h string) bool { return strings.TrimSpace(h) == opt.Time })
		var bad, badLines, firstBad, longest, longestAt int
		var times []int64
		for _, rec := range recs[1:] {
			ok := !rec.quoteErr && len(rec.fields) == len(header)
			if ok {
				v, err := strconv.ParseFloat(rec.fields[col], 64)
				if ok = err == nil; ok {
					times = append(times, int64(v)) // non-negative: floor = truncation
					if n := rec.end - rec.start + 1; n > longest {
						longest, longestAt = n, rec.start+c.skip
					}
				}
			}
			if !ok {
				bad++
				badLines += rec.end - rec.start + 1
				if firstBad == 0 {
					firstBad = rec.start + c.skip
				}
			}
		}
		anchored := strings.Count(text, ",https://en.wikipedia.org/w/index.php?title=")
		if anchored != c.records {
			t.Fatalf("%s: %d diff URLs, SOURCES.md says %d records", c.article, anchored, c.records)
		}

		// Default: the first bad record fails the read, naming file and line.
		_, _, err := readAll(t, path, opt, source.Options{})
		var pe *source.ParseError
		if !errors.As(err, &pe) || pe.Line != int64(firstBad) || pe.File != path || (pe.Reason != "csv" && pe.Reason != "timestamp") {
			t.Fatalf("%s: error %v, want a csv *source.ParseError at line %d", c.article, err, firstBad)
		}
		t.Logf("%s: %v", c.article, err)

		// SkipBad: exactly the reference's bad records are skipped.
		var reported int
		pages, st, err := readAll(t, path, opt, source.Options{SkipBad: true, OnBad: func(*source.ParseError) { reported++ }})
		if err != nil {
			t.Fatal(err)
		}
		if st.Bad != int64(bad) || reported != bad || st.BadLines != int64(badLines) || st.SkipLines != int64(c.skip) {
			t.Errorf("%s: skipped %d records (%d reported) over %d lines, reference %d over %d lines",
				c.article, st.Bad, reported, st.BadLines, bad, badLines)
		}
		// An unbalanced quote swallows lines into one well-formed record;
		// the stats must show it (Ebola_virus_disease: lines 2716-2856).
		if st.LongestRecord != int64(longest) || st.LongestRecordLine != int64(longestAt) {
			t.Errorf("%s: longest record %d lines at line %d, reference %d at %d", c.article, st.LongestRecord, st.LongestRecordLine, longest, longestAt)
		}
		p := pages[c.article]
		if len(pages) != 1 || p == nil || !slices.Equal(p.Revisions, times) {
			t.Errorf("%s: pages %v; want one page with the reference's %d times", c.article, len(pages), len(times))
		}
		t.Logf("%s: %d good records, %d bad records over %d lines (of %d diff URLs); longest record %d lines at line %d",
			c.article, st.Records, st.Bad, st.BadLines, anchored, st.LongestRecord, st.LongestRecordLine)
	}
}

// TestRealEarlYelpCSV reads the earl Yelp review CSV (quoted review texts
// with commas, doubled quotes and newlines) with id=business_id time=date.
func TestRealEarlYelpCSV(t *testing.T) {
	path := realdata.Path(t, "yelp/josiahdavis__earl/yelp_review.csv")
	pages, st, err := readAll(t, path, Options{ID: "business_id", Time: "date", Group: "city", Source: "yelp"}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	recs := naiveCSV(readText(t, path))
	header := recs[0].fields
	bi, di := slices.Index(header, "business_id"), slices.Index(header, "date")
	ref := map[string][]int64{}
	for _, r := range recs[1:] {
		if r.quoteErr || len(r.fields) != len(header) {
			t.Fatalf("reference: record at line %d is malformed", r.start)
		}
		tm, err := time.Parse("2006-01-02", r.fields[di])
		if err != nil {
			t.Fatal(err)
		}
		ref[r.fields[bi]] = append(ref[r.fields[bi]], tm.Unix())
	}
	sameSeries(t, "earl", pages, ref)
	// SOURCES.md §2: 365 reviews, 21 businesses, date-only.
	if st.Records != 365 || len(pages) != 21 || total(ref) != 365 || st.Bad != 0 || pages[firstKey(ref)].Resolution != units.Day {
		t.Errorf("stats %+v, %d pages, reference %d; SOURCES.md says 365 / 21", st, len(pages), total(ref))
	}
}
