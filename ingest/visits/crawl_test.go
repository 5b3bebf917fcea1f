package visits

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/realdata"
)

func day(d string) int64 { return unix("2014-01-" + d + "T00:00:00Z") }

// The Wayback CDX server's pages (testdata/wayback/paged.cdx, the default 7
// fields without a legend): each page ends with an empty line and the resume
// key alone, and a second page follows. By hand: captures on the 1st (A), 2nd
// (A), 3rd (B), 4th (B), 5th (301, skipped), 6th (D): 5 visits, changes on the
// 3rd and 6th; 2 resume keys. The JSON form (paged.json): rows [] then
// ["key"], a second page's header row again: A, B, B, C on the 1st to 4th,
// changes on the 2nd and 4th.
func TestWaybackPagination(t *testing.T) {
	got, st, err := readAll(t, Options{}, filepath.Join("testdata", "wayback", "paged.cdx"))
	if err != nil {
		t.Fatal(err)
	}
	// two originals under the key: http://example.com/ and the 301 of
	// http://www.example.com/
	want := []Observed{{ID: "com,example)/", Originals: 2, Visits: []Visit{{T: day("01")}, {T: day("02")}, {T: day("03"), Changed: true}, {T: day("04")}, {T: day("06"), Changed: true}}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("cdx:\n got %+v\nwant %+v", got, want)
	}
	if st.Inputs[0].ResumeKeys != 2 || st.Captures != 6 || st.Skipped["status_3xx"] != 1 || st.Bad != 0 {
		t.Errorf("cdx: resume keys %d captures %d 3xx %d bad %d, want 2, 6, 1, 0", st.Inputs[0].ResumeKeys, st.Captures, st.Skipped["status_3xx"], st.Bad)
	}
	got, st, err = readAll(t, Options{}, filepath.Join("testdata", "wayback", "paged.json"))
	if err != nil {
		t.Fatal(err)
	}
	want = []Observed{{ID: "com,example)/", Visits: []Visit{{T: day("01")}, {T: day("02"), Changed: true}, {T: day("03")}, {T: day("04"), Changed: true}}}}
	if !reflect.DeepEqual(got, want) || st.Inputs[0].ResumeKeys != 1 || st.Captures != 4 {
		t.Errorf("json: %+v, resume keys %d captures %d; want %+v, 1, 4", got, st.Inputs[0].ResumeKeys, st.Captures, want)
	}
	// the whole JSON array on one line, with its footer
	one := `[["urlkey","timestamp","statuscode","digest"],["com,ex)/","20140101000000","200","A"],["com,ex)/","20140102000000","200","B"],[],["com%2Cex%29%2F+20140103000000"]]` + "\n"
	got, st, err = readAll(t, Options{}, writeFile(t, "one.json", []byte(one)))
	if err != nil || len(got) != 1 || len(got[0].Visits) != 2 || st.Inputs[0].ResumeKeys != 1 {
		t.Errorf("one-line json: %+v %+v %v", got, st, err)
	}
	// a one-field line that does not follow an empty line is bad
	var be *BadRecordError
	p := writeFile(t, "k.cdx", []byte("com,a)/ 20200101000000 http://a/ text/html 200 A 1\ncom%2Ca%29%2F+20200102000000\n"))
	if _, _, err := readAll(t, Options{}, p); !errors.As(err, &be) || be.Line != 2 || be.Reason != "fields" {
		t.Errorf("a resume key without the empty line: %v", err)
	}
}

// Revisit records (testdata/wayback/revisits.cdx, the 11-field legend):
// a revisit takes the status of the capture of the same URL with its
// digest. By hand:
//
//	/      A, revisit of A (2nd), B (3rd), revisit of A (4th): 4 visits,
//	       changes on the 3rd and 4th
//	/gone  404 (1st), its revisit (2nd: absent, the previous visit), G
//	       (3rd, the creation detected), revisit of G (4th); the 404 of
//	       the 1st is an unused absent capture
//	/lost  revisit of X, whose original is not in the log (skipped),
//	       Y (2nd), revisit of Z, not in the log either (skipped), Y (4th)
//	/old   301 (1st), its revisit (2nd), two revisits of the empty
//	       payload: no content, so its revisits are no visits.
func TestRevisitRecords(t *testing.T) {
	got, st, err := readAll(t, Options{}, filepath.Join("testdata", "wayback", "revisits.cdx"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Observed{
		{ID: "com,example)/", Visits: []Visit{{T: day("01")}, {T: day("02")}, {T: day("03"), Changed: true}, {T: day("04"), Changed: true}}},
		{ID: "com,example)/gone", HasPrev: true, Prev: day("02"), FirstChanged: true, Visits: []Visit{{T: day("03")}, {T: day("04")}}},
		{ID: "com,example)/lost", Visits: []Visit{{T: day("02")}, {T: day("04")}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	wantSkips := map[string]int64{"status_3xx": 1, "revisit_status_3xx": 1, "revisit_empty_payload": 2, "revisit_unresolved": 2, "absent_unused": 1, "no_content": 1}
	if !reflect.DeepEqual(st.Skipped, wantSkips) || st.Captures != 16 || st.URLs != 3 {
		t.Errorf("skipped %v captures %d URLs %d; want %v, 16, 3", st.Skipped, st.Captures, st.URLs, wantSkips)
	}
}

// A line with other fields than the legend's is bad, located
// (testdata/wayback/extra-fields.cdx: line 3 holds two records, 22 fields;
// line 5 has 7 under the 11-field legend). Under --skip-bad: A on the 1st and
// B on the 4th, 2 bad lines.
func TestCDXFieldsMatchLegend(t *testing.T) {
	p := filepath.Join("testdata", "wayback", "extra-fields.cdx")
	var be *BadRecordError
	if _, _, err := readAll(t, Options{}, p); !errors.As(err, &be) || be.Line != 3 || be.Reason != "fields" || !strings.Contains(err.Error(), "22 fields") {
		t.Fatalf("%v, want 22 fields at line 3", err)
	}
	got, st, err := readAll(t, Options{SkipBad: true}, p)
	want := []Observed{{ID: "com,example)/", Visits: []Visit{{T: day("01")}, {T: day("04"), Changed: true}}}}
	if err != nil || !reflect.DeepEqual(got, want) || st.Bad != 2 || st.Inputs[0].Bad["fields"] != 2 || st.Captures != 2 {
		t.Errorf("--skip-bad: %+v %+v %v", got, st, err)
	}
	// the 9-field legend, and a line of 11 under it
	nine := " CDX N b a m s k r V g\ncom,a)/ 20200101000000 http://a/ text/html 200 A - 0 a.warc.gz\ncom,a)/ 20200102000000 http://a/ text/html 200 B - - 1 0 a.warc.gz\n"
	if _, _, err := readAll(t, Options{}, writeFile(t, "n.cdx", []byte(nine))); !errors.As(err, &be) || be.Line != 3 {
		t.Errorf("11 fields under a 9-field legend: %v", err)
	}
	// without a legend the first line fixes the count: 7, 9 or 11
	if _, _, err := readAll(t, Options{Format: CDX}, writeFile(t, "e.cdx", []byte("com,a)/ 20200101000000 http://a/ text/html 200 A 1 x\n"))); !errors.As(err, &be) || be.Line != 1 {
		t.Errorf("8 fields without a legend: %v", err)
	}
}

// Common Crawl's index server (output=json), three crawls of two URLs
// (testdata/commoncrawl), given out of order: merged per urlkey in time
// order. By hand: / on Aug 20 (Q…), Sep 19 (the same), Oct 17 (DT…:
// changed); /about on Aug 22 (N6…), a 301 on Sep 20 (skipped), Oct 18
// (N6…, unchanged); the 301's original, http://commoncrawl.org/about, is
// another of the key's two original URLs.
func TestCommonCrawlIndexJSON(t *testing.T) {
	dir := filepath.Join("testdata", "commoncrawl")
	paths := []string{filepath.Join(dir, "CC-MAIN-2017-43.json"), filepath.Join(dir, "CC-MAIN-2017-34.json"), filepath.Join(dir, "CC-MAIN-2017-39.json")}
	want := []Observed{
		{ID: "org,commoncrawl)/", Visits: []Visit{{T: unix("2017-08-20T10:15:06Z")}, {T: unix("2017-09-19T12:27:15Z")}, {T: unix("2017-10-17T17:05:51Z"), Changed: true}}},
		{ID: "org,commoncrawl)/about", Visits: []Visit{{T: unix("2017-08-22T03:15:44Z")}, {T: unix("2017-10-18T09:22:33Z")}}, Originals: 2},
	}
	for _, f := range []string{"", CCJSON, CDXJ} {
		got, st, err := readAll(t, Options{Format: f}, paths...)
		if err != nil {
			t.Fatalf("--format %q: %v", f, err)
		}
		if !reflect.DeepEqual(got, want) || st.Captures != 6 || st.Skipped["status_3xx"] != 1 {
			t.Errorf("--format %q: %+v captures %d 3xx %d", f, got, st.Captures, st.Skipped["status_3xx"])
		}
		if f == "" && st.Inputs[0].Format != CCJSON {
			t.Errorf("detected %q", st.Inputs[0].Format)
		}
	}
}

// pywb's real sample crawl of www.iana.org (SOURCES.md: 171 captures, 29
// URLs), as CDX and as CDXJ. The expected counts are computed here from the
// lines themselves: captures are the lines after the legend; a URL has content
// when one of its captures has status 200; its visits are the distinct seconds
// of its 200 captures and of its revisits whose digest one of them has (every
// revisit in the sample repeats a 200); a key groups the distinct original
// URLs of all its captures, redirects included (12 keys of 24 originals.
func TestRealPywbIana(t *testing.T) {
	for _, name := range []string{"iana.cdx", "iana.cdxj"} {
		p := realdata.Path(t, filepath.Join("crawl", "webrecorder__pywb", name))
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		type line struct{ key, ts, status, digest, original string }
		var lines []line
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			s := sc.Text()
			if strings.HasPrefix(s, " CDX") || s == "" {
				continue
			}
			fs := strings.Fields(s)
			l := line{key: fs[0], ts: fs[1]}
			if name == "iana.cdx" {
				l.status, l.digest, l.original = fs[4], fs[5], fs[2]
			} else {
				u := strings.Index(s, `"url": "`)
				l.original = s[u+8 : u+8+strings.IndexByte(s[u+8:], '"')]
				if i := strings.Index(s, `"status": "`); i >= 0 {
					l.status = s[i+11 : i+14]
				}
				i := strings.Index(s, `"digest": "`)
				l.digest = s[i+11 : i+11+32]
			}
			lines = append(lines, l)
		}
		f.Close()
		ok200 := map[[2]string]bool{}
		for _, l := range lines {
			if l.status == "200" {
				ok200[[2]string{l.key, l.digest}] = true
			}
		}
		seconds := map[[2]string]bool{}
		urls := map[string]bool{}
		for _, l := range lines {
			if l.status == "200" || (l.status != "302" && ok200[[2]string{l.key, l.digest}]) {
				seconds[[2]string{l.key, l.ts}] = true
				urls[l.key] = true
			}
		}
		got, st, err := readAll(t, Options{}, p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		visits := 0
		for _, o := range got {
			visits += len(o.Visits)
		}
		if len(lines) != 171 || len(urls) != 29 {
			t.Fatalf("%s: the sample has %d captures of %d URLs, SOURCES.md says 171 and 29", name, len(lines), len(urls))
		}
		if st.Captures != int64(len(lines)) || st.URLs != int64(len(urls)) || visits != len(seconds) || st.Bad != 0 || st.Skipped["revisit_unresolved"] != 0 {
			t.Errorf("%s: captures %d URLs %d visits %d bad %d unresolved %d; want %d, %d, %d, 0, 0", name, st.Captures, st.URLs, visits, st.Bad, st.Skipped["revisit_unresolved"], len(lines), len(urls), len(seconds))
		}
		originals := map[string]map[string]bool{}
		for _, l := range lines {
			if originals[l.key] == nil {
				originals[l.key] = map[string]bool{}
			}
			originals[l.key][l.original] = true
		}
		var keys, origs, noContent int64
		for k, o := range originals {
			if len(o) > 1 {
				keys++
				origs += int64(len(o))
			}
			if !urls[k] {
				noContent++
			}
		}
		if keys != 12 || st.MergedKeys != keys || st.MergedOriginals != origs || st.Skipped["no_content"] != noContent {
			t.Errorf("%s: %d keys of several originals (%d originals), %d without content; the lines have %d (%d), %d",
				name, st.MergedKeys, st.MergedOriginals, st.Skipped["no_content"], keys, origs, noContent)
		}
	}
}

// --key url groups captures by the original URL instead of the SURT key,
// which merges http/https and www. variants; under the SURT key each key
// reports how many originals it merged. By hand from a log of example.com
// over https (A, A, A on the 1st to 3rd) and http://www. (B on the 2nd,
// C on the 4th): under the SURT key the alternation gives changes on the
// 2nd, 3rd and 4th (2 originals merged); by URL, none for https and one
// (B → C) for www.
func TestKeys(t *testing.T) {
	log := " CDX N b a m s k r M S V g\n" +
		"com,example)/ 20140101000000 https://example.com/ text/html 200 AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA - - 1 0 a.warc.gz\n" +
		"com,example)/ 20140102000000 https://example.com/ text/html 200 AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA - - 1 0 a.warc.gz\n" +
		"com,example)/ 20140102000001 http://www.example.com/ text/html 200 BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB - - 1 0 a.warc.gz\n" +
		"com,example)/ 20140103000000 https://example.com/ text/html 200 AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA - - 1 0 a.warc.gz\n" +
		"com,example)/ 20140104000000 http://www.example.com/ text/html 200 CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC - - 1 0 a.warc.gz\n"
	p := writeFile(t, "k.cdx", []byte(log))
	got, st, err := readAll(t, Options{}, p)
	want := []Observed{{ID: "com,example)/", Originals: 2, Visits: []Visit{{T: day("01")}, {T: day("02")}, {T: day("02") + 1, Changed: true}, {T: day("03"), Changed: true}, {T: day("04"), Changed: true}}}}
	if err != nil || !reflect.DeepEqual(got, want) || st.MergedKeys != 1 || st.MergedOriginals != 2 {
		t.Errorf("surt: %+v %+v %v", got, st, err)
	}
	got, st, err = readAll(t, Options{Key: KeyURL}, p)
	want = []Observed{
		{ID: "http://www.example.com/", Visits: []Visit{{T: day("02") + 1}, {T: day("04"), Changed: true}}},
		{ID: "https://example.com/", Visits: []Visit{{T: day("01")}, {T: day("02")}, {T: day("03")}}},
	}
	if err != nil || !reflect.DeepEqual(got, want) || st.MergedKeys != 0 {
		t.Errorf("url: %+v %+v %v", got, st, err)
	}
	if _, _, err := readAll(t, Options{Key: "host"}, p); err == nil {
		t.Error("--key host accepted")
	}
}
