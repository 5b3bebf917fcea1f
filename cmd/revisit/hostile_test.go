package main

import (
	"encoding/csv"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
)

// hostileTitles are titles a spreadsheet would evaluate (= + - @ TAB
// CR), that CSV must quote (comma, quote, line break), and that a terminal
// would act on (ESC).
var hostileTitles = []string{`=HYPERLINK("x")`, "+1", "-2", "@SUM(A1)", "\tTab", "\rCR", "a,comma", `a"quote`, "new\nline", "esc\x1b[2J", "plain"}

// writeCSVFile writes records as CSV to dir/name and returns its path.
func writeCSVFile(t *testing.T, dir, name string, recs [][]string) string {
	t.Helper()
	var b strings.Builder
	w := csv.NewWriter(&b)
	w.WriteAll(recs)
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// formulaStart reports whether a cell starts as a spreadsheet formula. A
// lone "-" (the observation logs' capture that saw no page) is none: a
// minus sign with nothing after it is text to a spreadsheet.
func formulaStart(c string) bool {
	return c != "" && c != "-" && strings.ContainsRune("=+-@\t\r", rune(c[0]))
}

// Every CSV revisit writes, run end to end on pages titled hostileTitles (run:
// dataset, replay, analysis with page_stats, page_errors and csv/, the
// report's tables/ and figures/; schedule.csv; replay's observation logs;
// estimate's urls.csv on URLs named the same): no cell starts as a formula
// unless it is a number (a negative number stays -0.4), every guarded title is
// there with its "'", the others exactly as they are. And no command's
// terminal output holds a control character (the outputs' names hold ESC).
func TestHostileTitlesInEveryCSV(t *testing.T) {
	dir := t.TempDir()
	esc := "\x1b[31m"
	recs := [][]string{{"id", "time", "title"}}
	t0 := time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC)
	for p, title := range hostileTitles {
		at := t0
		for i := range 150 {
			at = at.Add(time.Duration(1+(i*7+p*13)%11) * time.Hour)
			recs = append(recs, []string{fmt.Sprint("page", p), at.Format(time.RFC3339), title})
		}
	}
	log := writeCSVFile(t, dir, "log"+esc+".csv", recs)
	visits := [][]string{{"id", "time", "changed"}}
	var urls []string
	for _, s := range hostileTitles {
		if !strings.ContainsAny(s, " \t\r\n") { // a crawl log's URLs hold no white space
			urls = append(urls, s)
		}
	}
	for p, u := range urls {
		for k := range 60 {
			visits = append(visits, []string{u, t0.Add(time.Duration(6*k) * time.Hour).Format(time.RFC3339), strconv.Itoa(min(1, (k*7+p)%3))})
		}
	}
	vlog := writeCSVFile(t, dir, "visits.csv", visits)

	out := func(name string) string { return filepath.Join(dir, "out", name+esc) }
	os.Mkdir(filepath.Join(dir, "out"), 0o755)
	run := out("run")
	for _, args := range [][]string{
		{"run", log, "--id", "id", "--time", "time", "--title-column", "title", "-o", run},
		{"schedule", filepath.Join(run, "replay"), "--budget", "10", "-o", out("schedule")},
		{"analyze", filepath.Join(run, "dataset"), filepath.Join(run, "replay"), "-o", out("analysis")},
		{"replay", filepath.Join(run, "dataset"), "--write-observations", "log-changed", "-o", out("replay")},
		{"estimate", vlog, "-o", out("estimate")},
	} {
		code, stdout, stderr := outputsOf(t, args...)
		if code != exitOK {
			t.Fatalf("%s: exit %d\n%s", args[0], code, stderr)
		}
		for _, s := range []string{stdout, stderr} {
			for _, r := range s {
				if r != '\n' && r != '\t' && unicode.IsControl(r) {
					i := strings.IndexRune(s, r)
					t.Errorf("%s prints %q to the terminal: %q", args[0], r, s[max(0, i-60):min(len(s), i+20)])
					break
				}
			}
		}
	}

	// The files that hold the titles (or URLs), and what each must show.
	titled := map[string]bool{
		filepath.Join(out("schedule"), "schedule.csv"):          true,
		filepath.Join(run, "analysis", "page_stats.csv"):        true,
		filepath.Join(run, "analysis", "page_errors.csv"):       true,
		filepath.Join(out("analysis"), "page_stats.csv"):        true,
		filepath.Join(run, "report", "tables", "top_pages.csv"): true,
		filepath.Join(out("estimate"), "urls.csv"):              true,
	}
	files, negatives := 0, 0
	err := filepath.WalkDir(filepath.Join(dir, "out"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".csv") {
			return err
		}
		files++
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rows, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
		if err != nil {
			t.Errorf("%s: %v", p, err)
			return nil
		}
		cells := map[string]bool{}
		formulas := 0
		for _, r := range rows {
			for _, c := range r {
				cells[c] = true
				if _, err := strconv.ParseFloat(c, 64); err == nil {
					if strings.HasPrefix(c, "-") {
						negatives++
					}
					continue
				}
				if formulaStart(c) {
					if formulas == 0 {
						t.Errorf("%s: a cell starts as a formula: %q", p, c)
					}
					formulas++
				}
			}
		}
		if !titled[p] {
			return nil
		}
		delete(titled, p)
		guarded, plain := 0, 0
		for _, s := range hostileTitles {
			switch {
			case cells["'"+s]:
				guarded++
			case cells[s] && !formulaStart(s):
				plain++
			}
		}
		if guarded == 0 || plain == 0 {
			t.Errorf("%s: %d guarded and %d plain hostile titles; want some of each:\n%.600s", p, guarded, plain, b)
		}
		if strings.HasSuffix(p, "page_stats.csv") && guarded+plain != len(hostileTitles) {
			t.Errorf("%s: %d of the %d titles, guarded or as they are", p, guarded+plain, len(hostileTitles))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(titled) > 0 || files < 30 || negatives == 0 {
		t.Errorf("files not written: %v; %d CSV files, %d negative numbers", titled, files, negatives)
	}
}

// A page title holding line breaks cannot forge a terminal line: analyze
// names the top page in the title of its tail-fit table, quoted and
// escaped as one name (human.Path). Before, the title was printed with
// its line breaks, so "x\nrevisit: FORGED LINE" printed a line of its own.
func TestTopPageTitleCannotForgeLines(t *testing.T) {
	dir := t.TempDir()
	title := "x\nrevisit: FORGED LINE\ny"
	recs := [][]string{{"id", "time", "title"}}
	at := time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 150 {
		at = at.Add(time.Duration(1+i*7%11) * time.Hour)
		recs = append(recs, []string{"p", at.Format(time.RFC3339), title})
	}
	log := writeCSVFile(t, dir, "log.csv", recs)
	ds := filepath.Join(dir, "ds")
	if code, _, stderr := outputsOf(t, "-q", "ingest", log, "--id", "id", "--time", "time", "--title-column", "title", "-o", ds); code != exitOK {
		t.Fatalf("ingest: exit %d: %s", code, stderr)
	}
	code, stdout, stderr := outputsOf(t, "analyze", ds, "-o", filepath.Join(dir, "an"))
	if code != exitOK {
		t.Fatalf("analyze: exit %d: %s", code, stderr)
	}
	for _, l := range strings.Split(stdout+stderr, "\n") {
		if strings.HasPrefix(l, "revisit: FORGED") {
			t.Errorf("analyze printed a forged line %q:\n%s", l, stdout)
		}
	}
	if !strings.Contains(stdout, `"x\nrevisit: FORGED LINE\ny"`) {
		t.Errorf("analyze does not name the top page quoted:\n%s", stdout)
	}
}
