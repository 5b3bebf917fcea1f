package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/replay"
)

// replay's work limits from the command line: a sampler that would need
// about 10¹² visits on the page is left out and counted next to one that
// fits; alone it is refused as bad usage (exit 2) with nothing written;
// limits below 1 are bad usage too.
func TestReplayWorkLimits(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "six.csv")
	// one page of 6 updates over 3·10⁶ s ≈ 833 h
	csv := "id,time\np,1600000000\np,1600100000\np,1600500000\np,1601000000\np,1602000000\np,1603000000\n"
	if err := os.WriteFile(in, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	ds := filepath.Join(dir, "ds")
	if code := execute([]string{"-q", "ingest", in, "--id", "id", "--time", "time", "--time-layout", "epoch", "-o", ds}); code != exitOK {
		t.Fatalf("ingest: exit %d", code)
	}
	out := filepath.Join(dir, "rep")
	if code := execute([]string{"-q", "replay", ds, "--sampler", "exp:1e9", "--sampler", "exp:1", "-o", out}); code != exitOK {
		t.Fatalf("replay exp:1e9 and exp:1: exit %d", code)
	}
	m, err := replay.ReadMeta(out)
	if err != nil {
		t.Fatal(err)
	}
	if m.Skipped[estimator.SkipMaxVisits] != 1 || m.Pages != 1 {
		t.Errorf("skipped %v, pages %d: want 1 job over --max-visits and 1 page replayed", m.Skipped, m.Pages)
	}
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"-q", "replay", ds, "--sampler", "exp:1e9", "-o", filepath.Join(dir, "r1")}, exitUsage},
		{[]string{"-q", "replay", ds, "--sampler", "exp:1", "--max-visits", "100", "-o", filepath.Join(dir, "r2")}, exitUsage}, // 834 visits
		{[]string{"-q", "replay", ds, "--max-visits", "0", "-o", filepath.Join(dir, "r3")}, exitUsage},
		{[]string{"-q", "replay", ds, "--max-pairs", "-1", "-o", filepath.Join(dir, "r4")}, exitUsage},
		{[]string{"-q", "replay", ds, "--max-visits", "2.5", "-o", filepath.Join(dir, "r5")}, exitUsage},
		{[]string{"-q", "replay", ds, "--sampler", "exp:1", "--max-visits", "1e3", "-o", filepath.Join(dir, "r6")}, exitOK},
	} {
		if got := execute(c.args); got != c.code {
			t.Errorf("revisit %v: exit %d, want %d", c.args, got, c.code)
		}
		if _, err := os.Stat(c.args[len(c.args)-1]); os.IsNotExist(err) != (c.code != exitOK) {
			t.Errorf("revisit %v: output there: %v, want %v", c.args, !os.IsNotExist(err), c.code == exitOK)
		}
	}
}
