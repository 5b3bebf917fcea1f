package main

import (
	"os"
	"path/filepath"
	"strings"
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

// README.md's claim about a page spanning 10¹⁵ s, checked: with the
// absolute samplers exp:1 and const:1 (2.8·10¹¹ visits) replay refuses it
// (exit 2, the work limits), with the default samplers (relative) it
// replays it; the README's row names both cases.
func TestReadmeHugeSpanClaim(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var row string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, "10¹⁵ s") {
			row = l
		}
	}
	if !strings.Contains(row, "--sampler exp:1 --sampler const:1") || !strings.Contains(row, "refused") || !strings.Contains(row, "default samplers") || !strings.Contains(row, "not refused") {
		t.Errorf("README.md's 10¹⁵ s row does not say which samplers are refused and that the default ones run: %q", row)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "huge.csv")
	os.WriteFile(in, []byte("id,time\nq,0\nq,1000\nq,200000000000000\nq,500000000000000\nq,900000000000000\nq,1000000000000000\n"), 0o644)
	ds := filepath.Join(dir, "huge")
	if code, msg := stderrOf(t, "-q", "ingest", in, "--id", "id", "--time", "time", "--time-layout", "epoch", "-o", ds); code != exitOK {
		t.Fatalf("ingest: exit %d: %s", code, msg)
	}
	if code, msg := stderrOf(t, "-q", "replay", ds, "--sampler", "exp:1", "--sampler", "const:1", "-o", filepath.Join(dir, "abs")); code != exitUsage || !strings.Contains(msg, "limit") {
		t.Errorf("absolute samplers on a 10¹⁵ s page: exit %d, want %d (work limits); %s", code, exitUsage, msg)
	}
	if code, msg := stderrOf(t, "-q", "replay", ds, "-o", filepath.Join(dir, "rel")); code != exitOK {
		t.Errorf("default samplers on a 10¹⁵ s page: exit %d, want 0; %s", code, msg)
	}
}
