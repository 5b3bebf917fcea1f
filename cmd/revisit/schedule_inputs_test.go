package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/schedule"
	"github.com/revisit-dev/revisit/series"
)

// hostsDataset writes a dataset of 12 pages whose titles are URLs on
// three hosts (a.example, b.example, c.example), each updated every few
// hours for a week, and returns its directory.
func hostsDataset(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ds")
	w, err := dataset.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	t0 := int64(1_600_000_000)
	for i := range 12 {
		var ups []int64
		for u := t0 + int64(i)*600; u < t0+7*units.Day; u += int64(3600 * (2 + i%5)) {
			ups = append(ups, u)
		}
		p := series.Page{ID: int64(i + 1), Source: "test", Title: "https://" + string(rune('a'+i%3)) + ".example/p" + strconv.Itoa(i), Resolution: 1, Updates: ups}
		if err := w.Write(&p); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(&dataset.Manifest{}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// hostRates is the total gu rate (visits per day) of each host's pages
// in schedule.csv under out.
func hostRates(t *testing.T, out string) map[string]float64 {
	t.Helper()
	f, err := os.Open(filepath.Join(out, schedule.CSVFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := len(schedule.CSVColumns) // visits_per_day_gu comes first
	got := map[string]float64{}
	for _, r := range rows[1:] {
		v, err := strconv.ParseFloat(r[col], 64)
		if err != nil {
			t.Fatal(err)
		}
		got[schedule.Host(r[1])] += v
	}
	return got
}

// The importance and host-limits files of schedule are read strictly: a header
// is a line that names the documented columns, not any first line whose value
// does not parse; every other line is used or refused with the file and line.
func TestScheduleInputFilesStrict(t *testing.T) {
	ds := hostsDataset(t)
	dir := t.TempDir()
	file := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		name, flag, text, want string
	}{
		{"negative importance first", "--importance", "1\t-1\n2\t3\n", "imp-negative-importance-first.txt:1"},
		{"infinite importance first", "--importance", "1\tInf\n2\t3\n", "imp-infinite-importance-first.txt:1"},
		{"infinite importance later", "--importance", "1\t2\n2\t-Inf\n", "imp-infinite-importance-later.txt:2"},
		{"not a header", "--importance", "page,weight\n1,2\n", "imp-not-a-header.txt:1"},
		{"unit typo first", "--host-limits", "a.example,2/dd\nb.example,3/d\n", "imp-unit-typo-first.txt:1"},
		{"host given twice in two cases", "--host-limits", "a.example,2/d\nA.Example,3/d\n", "imp-host-given-twice-in-two-cases.txt:2"},
		{"no page's host", "--host-limits", "nowhere.example,2/d\n", "nowhere.example"},
	} {
		p := file("imp-"+strings.ReplaceAll(c.name, " ", "-")+".txt", c.text)
		code, stderr := stderrOf(t, "-q", "schedule", ds, "--budget", "30/d", "--no-sweep", c.flag, p)
		if code != exitBadInput || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, %q; want exit %d naming %q", c.name, code, stderr, exitBadInput, c.want)
		}
	}
	// Documented headers are headers: Bing's column names, id,importance,
	// also after a byte-order mark and with CRLF line ends (a
	// spreadsheet's "CSV UTF-8").
	for _, text := range []string{"URL_ID\tImportance_score\n1\t2\n", "id,importance\n1,2\n", "title,weight\nhttps://a.example/p0,2\n",
		"\ufeffid,importance\r\n1,2\r\n", "\ufeff1,2\n"} {
		p := file("imp-header.txt", text)
		if code, stderr := stderrOf(t, "-q", "schedule", ds, "--budget", "30/d", "--no-sweep", "--importance", p); code != exitOK {
			t.Errorf("importance file %q: exit %d: %s", text, code, stderr)
		}
	}
	// Hosts compare case-insensitively (DNS names do), with or without
	// a trailing dot: the limit of A.EXAMPLE. caps a.example's pages.
	out := filepath.Join(dir, "out")
	lim := file("hosts.csv", "\ufeffhost,limit\r\nA.EXAMPLE.,1/d\r\n")
	if code, stderr := stderrOf(t, "-q", "schedule", ds, "--budget", "30/d", "--no-sweep", "--plans", "gu", "--host-limits", lim, "-o", out); code != exitOK {
		t.Fatalf("host limits: exit %d: %s", code, stderr)
	}
	if got := hostRates(t, out)["a.example"]; got > 1+1e-9 {
		t.Errorf("a.example's pages get %g visits/day, its limit is 1/d", got)
	}
}

// A budget that is not a finite number of visits in every unit (1e308/h is
// +Inf visits per day) is bad usage.
func TestScheduleInfiniteBudget(t *testing.T) {
	ds := hostsDataset(t)
	for _, b := range []string{"1e308/h", "1e306/s"} {
		if code, stderr := stderrOf(t, "-q", "schedule", ds, "--budget", b, "--no-sweep"); code != exitUsage || !strings.Contains(stderr, "--budget") {
			t.Errorf("--budget %s: exit %d (%q), want %d", b, code, stderr, exitUsage)
		}
	}
	for _, f := range []string{"--min-rate", "--budget"} {
		args := []string{"-q", "schedule", ds, "--budget", "30/d", "--no-sweep"}
		if f == "--min-rate" {
			args = append(args, "--min-rate", "1e307/s")
		} else {
			args[4] = "1e307/s"
		}
		if code, _ := stderrOf(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
}

// Two URL_IDs that the URL file maps to one URL are estimated as two URLs
// under one page id; schedule plans one rate per page, so it refuses the input
// and names the page.
func TestScheduleSharedURL(t *testing.T) {
	dir := t.TempDir()
	file := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	urls := file("url_urlid_hostid.txt", "http://www.example.org/events/2017\t5\t101\nhttps://example.com/\t7\t102\nhttps://example.com/\t12\t103\n")
	hist := file("urlid_offset_history.txt", "5\t5.5\t[[1.1, 0], [1.47, 1]]\n7\t0\t[[1.3, 0], [1, 1], [1.7, 0]]\n12\t0.25\t[[0.5, 1], [0.2, 0], [2, 0]]\n")
	est := filepath.Join(dir, "est")
	if code := execute([]string{"-q", "estimate", urls, hist, "--unit", "d", "-o", est}); code != exitOK {
		t.Fatalf("estimate: exit %d", code)
	}
	code, stderr := stderrOf(t, "-q", "schedule", est, "--budget", "10/d", "--no-sweep")
	if code != exitBadInput || !strings.Contains(stderr, "https://example.com/") || !strings.Contains(stderr, "twice") {
		t.Errorf("two URL_IDs of one URL: exit %d, %q; want exit %d naming the URL", code, stderr, exitBadInput)
	}
}

// --missing-importance is an importance like the file's: a finite number
// ≥ 0. Inf was accepted and gave NaN rates in schedule.csv; it is bad
// usage, refused before the input is read.
func TestScheduleMissingImportanceFinite(t *testing.T) {
	in := filepath.Join(t.TempDir(), "no-input")
	for _, v := range []string{"Inf", "+Inf", "1e400", "NaN", "-1"} {
		code, stderr := stderrOf(t, "-q", "schedule", in, "--budget", "30/d", "--no-sweep", "--missing-importance", v)
		if code != exitUsage || !strings.Contains(stderr, "--missing-importance") {
			t.Errorf("--missing-importance %s: exit %d (%q), want %d", v, code, stderr, exitUsage)
		}
	}
}
