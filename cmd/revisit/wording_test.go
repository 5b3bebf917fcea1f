package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/ingest"
)

// Wording: --min-changes's default is printed once in the help; a shard
// that owns none of the URLs says so (not "0.0% of the bins without a pair
// of visits (0 of 0)" and a verdict line of zeros); one URL is "1 URL".
func TestEstimateWording(t *testing.T) {
	code, help, _ := outputsOf(t, "estimate", "--help")
	if code != exitOK {
		t.Fatalf("estimate --help: exit %d", code)
	}
	for _, line := range strings.Split(help, "\n") {
		if strings.Contains(line, "--min-changes") && (strings.Count(line, "default") != 1 || !strings.Contains(line, "(default 185)")) {
			t.Errorf("--min-changes: %q, want its default once", line)
		}
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "one.cdx")
	if err := os.WriteFile(log, []byte("com,a)/ 20200101000000 http://a/ text/html 200 A 1\ncom,a)/ 20200102000000 http://a/ text/html 200 B 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var empty, full string
	for i := range 2 {
		code, out, msg := outputsOf(t, "estimate", log, "--shard", []string{"0/2", "1/2"}[i], "--shard-by", "hash", "-o", filepath.Join(dir, []string{"s0", "s1"}[i]))
		if code != exitOK {
			t.Fatalf("shard %d/2: exit %d: %s", i, code, msg)
		}
		if strings.Contains(out, "estimated none") {
			empty = out
		} else {
			full = out + msg
		}
	}
	if !strings.Contains(empty, "shard 0/2") || !strings.Contains(empty, "none of the 1 URL") || strings.Contains(empty, "grids:") || strings.Contains(empty, "Poisson verdict") {
		t.Errorf("the summary of a shard without URLs:\n%s", empty)
	}
	if !strings.Contains(full, "estimated 1 URL ") || strings.Contains(full, "1 URLs") {
		t.Errorf("the summary of a shard of 1 URL:\n%s", full)
	}
}

// ingest --help gives the window --drop-reverts compares a revision with
// as the code does: the --revert-radius + 1 = 16 revisions before it
// (it said 15).
func TestIngestHelpRevertWindow(t *testing.T) {
	code, help, _ := outputsOf(t, "ingest", "--help")
	if code != exitOK {
		t.Fatalf("ingest --help: exit %d", code)
	}
	n := fmt.Sprintf("%d revisions before it", ingest.DefaultRevertRadius+1)
	if !strings.Contains(strings.Join(strings.Fields(help), " "), n) || strings.Contains(help, fmt.Sprintf("previous %d revisions", ingest.DefaultRevertRadius)) {
		t.Errorf("ingest --help does not say %q", n)
	}
}
