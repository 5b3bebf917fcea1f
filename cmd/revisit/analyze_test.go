package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAnalyzeBadLocalizedFlags: out-of-range --nhpp-theta, --stale-eps and
// --stale-delta are usage errors, reported before the dataset is read
// (the dataset here does not even exist) and leaving no output.
func TestAnalyzeBadLocalizedFlags(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "a")
	for _, bad := range [][]string{
		{"--nhpp", "--nhpp-theta", "1.5"},
		{"--nhpp", "--nhpp-theta", "-0.1"},
		{"--stale-eps", "0"},
		{"--stale-eps", "1"},
		{"--stale-delta", "-2"},
		{"--band", "0"}, // would silently become 0.1
		{"--reps", "0"}, // would silently become 999
		{"--top", "0"},
		{"--workers", "-1"},
		{"--select-mib", "0"},
	} {
		args := append([]string{"-q", "analyze", filepath.Join(dir, "missing-ds"), "-o", out}, bad...)
		if code := execute(args); code != exitUsage {
			t.Errorf("analyze %v: exit %d, want %d", bad, code, exitUsage)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("output left behind: %v", err)
	}
}

// TestExtraNegative: --extra below 0 is bad usage (its 0 is mapped by
// analysis: TestExtraZeroMeansNone there).
func TestExtraNegative(t *testing.T) {
	if code := execute([]string{"-q", "analyze", "--extra", "-3", "missing-ds", "-o", filepath.Join(t.TempDir(), "a")}); code != exitUsage {
		t.Errorf("--extra -3: exit %d, want %d", code, exitUsage)
	}
}

// --min-updates is the ingest filter in ingest and run; the Poisson
// screen's K is --screen-updates everywhere (analyze refuses its old
// spelling --min-updates: TestRenamedFlagsRefused), and run passes it to
// analyze.
func TestScreenUpdatesFlag(t *testing.T) {
	a := newAnalyzeCmd(&globals{})
	if a.Flags().Lookup("screen-updates") == nil || !a.Flags().Lookup("min-updates").Hidden {
		t.Error("analyze: --screen-updates missing or --min-updates shown in the help")
	}
	r := newRunCmd(&globals{})
	if r.Flags().Lookup("screen-updates") == nil {
		t.Error("run: no --screen-updates")
	}
	if u := r.Flags().Lookup("min-updates").Usage; !strings.Contains(u, "ingest") {
		t.Errorf("run --min-updates: %q", u)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "a.csv")
	var sb strings.Builder
	sb.WriteString("id,time\n")
	for i := 0; i < 12; i++ {
		fmt.Fprintf(&sb, "p,%d\n", 1600000000+i*i*3600)
	}
	os.WriteFile(in, []byte(sb.String()), 0o644)
	out := filepath.Join(dir, "o")
	if code := execute([]string{"-q", "run", in, "--id", "id", "--time", "time", "-o", out, "--top", "1", "--reps", "19", "--x-max", "10", "--screen-updates", "5"}); code != exitOK {
		t.Fatalf("run: exit %d", code)
	}
	// 12 updates ≥ K = 5: the page is screened (with the default K = 100 it is not).
	rows := readCSV(t, filepath.Join(out, "analysis", "csv", "poisson_screen.csv"))
	if len(rows) != 2 || rows[0][1] != "≥ 5 updates" || rows[1][1] != "1" {
		t.Errorf("screen table: %v, want the page counted under '≥ 5 updates'", rows)
	}
	if code := execute([]string{"-q", "run", in, "--id", "id", "--time", "time", "-o", out, "--screen-updates", "0"}); code != exitUsage {
		t.Errorf("--screen-updates 0: exit %d, want %d", code, exitUsage)
	}
}

// --select-mib bounds the update times of the busiest pages kept for
// staleness: under 1 MiB a page of 150,000 updates (1.1 MiB of update
// times: over the budget, and a giant above an eighth of it) is passed
// over and named in staleness_skipped, the small pages are kept; with the
// default budget it is kept.
func TestSelectMiBSkipsGiantPage(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "a.csv")
	var sb strings.Builder
	sb.WriteString("id,time\n")
	for i := 0; i < 150_000; i++ {
		fmt.Fprintf(&sb, "giant,%d\n", 1600000000+i*3600+(i*i)%1800)
	}
	for _, p := range []string{"a", "b"} {
		for i := 0; i < 30; i++ {
			fmt.Fprintf(&sb, "%s,%d\n", p, 1600000000+i*i*3600)
		}
	}
	if err := os.WriteFile(in, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ds := filepath.Join(dir, "ds")
	if code := execute([]string{"-q", "ingest", in, "--id", "id", "--time", "time", "-o", ds}); code != exitOK {
		t.Fatalf("ingest: exit %d", code)
	}
	for _, c := range []struct {
		mib     string
		skipped bool
	}{{"1", true}, {"48", false}} {
		out := filepath.Join(dir, "a"+c.mib)
		if code := execute([]string{"-q", "analyze", ds, "-o", out, "--reps", "19", "--select-mib", c.mib}); code != exitOK {
			t.Fatalf("analyze --select-mib %s: exit %d", c.mib, code)
		}
		b, err := os.ReadFile(filepath.Join(out, "csv", "staleness_skipped.csv"))
		if !c.skipped {
			if err == nil {
				t.Errorf("--select-mib %s: staleness_skipped.csv written:\n%s", c.mib, b)
			}
			continue
		}
		if err != nil {
			t.Fatalf("--select-mib %s: %v", c.mib, err)
		}
		if got := string(b); !strings.Contains(got, "giant") || strings.Count(strings.TrimSpace(got), "\n") != 1 {
			t.Errorf("--select-mib %s: staleness_skipped.csv =\n%s\nwant one row, the giant page", c.mib, got)
		}
		kept, err := os.ReadFile(filepath.Join(out, "csv", "staleness_pages.csv"))
		if err != nil {
			t.Fatal(err)
		}
		if got := string(kept); strings.Contains(got, "giant") || !strings.Contains(got, "\na,") || !strings.Contains(got, "\nb,") {
			t.Errorf("--select-mib %s: staleness_pages.csv =\n%s\nwant pages a and b, not the giant", c.mib, got)
		}
	}
}

// --age, --sampler and --old-m3 describe the scenario of --recommend:
// given without it, whatever their value, they are bad usage (exit 2),
// not ignored.
func TestAnalyzeScenarioFlagsNeedRecommend(t *testing.T) {
	out := filepath.Join(t.TempDir(), "O")
	for _, flag := range []string{"--age=bogus", "--age=yes", "--sampler=bogus", "--sampler=constant", "--old-m3"} {
		code, msg := stderrOf(t, "-q", "analyze", filepath.Join(t.TempDir(), "no-dataset"), flag, "-o", out)
		if code != exitUsage || !strings.Contains(msg, "--recommend") {
			t.Errorf("analyze %s without --recommend: exit %d, want %d naming --recommend; stderr: %s", flag, code, exitUsage, msg)
		}
		if _, err := os.Lstat(out); err == nil {
			t.Errorf("analyze %s without --recommend created %s", flag, out)
		}
	}
}
