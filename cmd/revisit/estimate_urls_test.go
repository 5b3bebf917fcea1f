package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"testing"

	"github.com/revisit-dev/revisit/crawllog"
)

// readURLs reads an estimate output's urls.csv as maps keyed by column.
func readURLs(t *testing.T, out string) map[string]map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join(out, crawllog.URLsFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil || len(recs) == 0 {
		t.Fatalf("urls.csv: %v (%d lines)", err, len(recs))
	}
	rows := map[string]map[string]string{}
	for _, r := range recs[1:] {
		m := map[string]string{}
		for i, c := range recs[0] {
			m[c] = r[i]
		}
		rows[m["url"]] = m
	}
	return rows
}

// The Bing trace's importance scores (urlid_imp.txt) and URL_IDs were read
// but reached no output; they are urls.csv's importance and source columns.
func TestEstimateBingImportance(t *testing.T) {
	dir := filepath.Join("..", "..", "crawllog", "logs", "testdata", "bing")
	out := filepath.Join(t.TempDir(), "est")
	if code := execute([]string{"-q", "estimate", filepath.Join(dir, "urlid_imp.txt"), filepath.Join(dir, "url_urlid_hostid.txt"),
		filepath.Join(dir, "urlid_offset_history.txt"), "--unit", "d", "-o", out}); code != exitOK {
		t.Fatalf("estimate: exit %d", code)
	}
	rows := readURLs(t, out)
	// urlid_imp.txt: 5 0.000153, 7 12.5, 12 3; url_urlid_hostid.txt names them
	for url, want := range map[string][2]string{
		"http://www.example.org/events/2017": {"5", "0.000153"},
		"https://example.com/":               {"7", "12.5"},
		"http://example.net/a?b=1":           {"12", "3"},
	} {
		r, ok := rows[url]
		if !ok {
			t.Errorf("%s not in urls.csv (%v)", url, rows)
			continue
		}
		if r["source"] != want[0] || r["importance"] != want[1] || r["originals"] != "0" {
			t.Errorf("%s: source %q importance %q originals %q, want %s, %s, 0", url, r["source"], r["importance"], r["originals"], want[0], want[1])
		}
	}
}

// A SURT key that grouped several original URLs (http and https, www.)
// was counted in estimate.json only; urls.csv gives each URL's count.
func TestEstimateURLsOriginals(t *testing.T) {
	dir := t.TempDir()
	cdx := filepath.Join(dir, "a.cdx")
	data := " CDX N b a m s k r M S V g\n" +
		"org,example)/ 20200101000000 http://example.org/ text/html 200 AAAA - - 1 0 a.warc.gz\n" +
		"org,example)/ 20200102000000 https://www.example.org/ text/html 200 BBBB - - 1 0 a.warc.gz\n" +
		"org,example)/ 20200103000000 https://example.org/ text/html 200 BBBB - - 1 0 a.warc.gz\n" +
		"org,example)/ 20200104000000 http://example.org/ text/html 200 CCCC - - 1 0 a.warc.gz\n" +
		"org,other)/ 20200101000000 http://other.org/ text/html 200 AAAA - - 1 0 a.warc.gz\n" +
		"org,other)/ 20200105000000 http://other.org/ text/html 200 DDDD - - 1 0 a.warc.gz\n"
	if err := os.WriteFile(cdx, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "est")
	if code := execute([]string{"-q", "estimate", cdx, "-o", out}); code != exitOK {
		t.Fatalf("estimate: exit %d", code)
	}
	rows := readURLs(t, out)
	if r := rows["org,example)/"]; r["originals"] != "3" || r["importance"] != "" || r["visits"] != "4" {
		t.Errorf("org,example)/: %v, want 3 originals, no importance, 4 visits", r)
	}
	if r := rows["org,other)/"]; r["originals"] != "0" {
		t.Errorf("org,other)/: %v, want originals 0 (one original URL)", r)
	}
}
