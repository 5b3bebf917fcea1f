package main

import (
	"encoding/csv"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every duration a run writes carries its unit: the CSVs hold the
// computation unit (README: Units) and say it in the header ("E[U]_h",
// never "T_years" over the hours of the run), and no note or text states
// E[U], E[D_3] or x_max as a bare number.
func TestRunOutputsSayTheirUnits(t *testing.T) {
	dir := t.TempDir()
	dump := filepath.Join(dir, "gen-stub-meta-history.xml.gz")
	out := filepath.Join(dir, "out")
	for _, args := range [][]string{
		{"generate", "--page-count", "120", "--span", "2y", "--unit", "h", "--model", "pareto:1.5,20", "-o", dump},
		{"run", dump, "--reps", "19", "--sample", "3", "-o", out},
	} {
		if code, msg := stderrOf(t, append([]string{"-q"}, args...)...); code != exitOK {
			t.Fatalf("%s: exit %d\n%s", args[0], code, msg)
		}
	}
	if bad := unitlessOutputs(t, out, "h"); len(bad) > 0 {
		t.Errorf("outputs without their unit (the run's unit is h):\n%s", strings.Join(bad, "\n"))
	}
}

var (
	// a header cell ending in a time unit: "E[U]_h", "T_years", "x (d)";
	// ks_d is the KS statistic D, not days
	headerUnit = regexp.MustCompile(`(?:_|\()(s|min|h|d|w|y|years?|days?|hours?)²?\)?$`)
	// a duration stated as a bare number: "E[U] = 12.3271" or "E[D_3] =
	// 8.49" not followed by a unit
	bareDuration = regexp.MustCompile(`(E\[[UD][^\]]*\]|x_max) = [-+0-9.e]+([^-+0-9.e]|$)`)
	unitAfter    = regexp.MustCompile(`^ ?(s|min|h|d|w|y)\b`)
)

// unitlessOutputs walks dir (a run's output) and lists CSV headers that
// name a time unit other than unit, and text files that state E[U],
// E[D_3] or x_max without a unit.
func unitlessOutputs(t *testing.T, dir, unit string) []string {
	t.Helper()
	var bad []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		ext := filepath.Ext(path)
		if ext != ".csv" && ext != ".md" && ext != ".json" && ext != ".txt" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if ext == ".csv" {
			r := csv.NewReader(strings.NewReader(string(b)))
			r.FieldsPerRecord = -1
			if head, err := r.Read(); err == nil {
				for _, h := range head {
					if m := headerUnit.FindStringSubmatch(h); m != nil && m[1] != unit && h != "ks_d" {
						bad = append(bad, rel+": column "+h)
					}
				}
			}
		}
		s := string(b)
		for _, loc := range bareDuration.FindAllStringSubmatchIndex(s, -1) {
			end := loc[1] - (loc[5] - loc[4]) // after the number
			if !unitAfter.MatchString(s[end:]) {
				bad = append(bad, rel+": "+strings.TrimSpace(s[loc[0]:min(len(s), end+12)]))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) > 20 {
		bad = append(bad[:20], "…")
	}
	return bad
}
