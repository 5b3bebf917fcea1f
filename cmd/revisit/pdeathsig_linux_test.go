package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// When the process that runs ingest --jobs is killed outright (kill -9,
// timeout -s KILL, a scheduler that signals only the main process), its
// children must stop too, not read on and write their datasets into a
// directory nobody will join or remove.
func TestIngestJobsChildrenStopWithParent(t *testing.T) {
	dir := t.TempDir()
	cmd, ws := startJobsOnFIFOs(t, dir, nil)
	time.Sleep(200 * time.Millisecond)
	cmd.Process.Kill()
	cmd.Wait()
	time.Sleep(200 * time.Millisecond)
	for _, w := range ws {
		w.Close() // a child still running now reads to the end and writes its part
	}
	// Wait until no child holds a part's lock any more.
	jobs, _ := filepath.Glob(filepath.Join(dir, ".ds.jobs-*"))
	if len(jobs) != 1 {
		t.Fatalf("want one .ds.jobs-* directory left by the killed process, got %v", jobs)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		locks, _ := filepath.Glob(filepath.Join(jobs[0], ".part-*.lock"))
		if len(locks) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	ents, _ := os.ReadDir(jobs[0])
	var left []string
	for _, e := range ents {
		left = append(left, e.Name())
		if !strings.HasPrefix(e.Name(), ".") {
			t.Errorf("a child outlived its killed parent and wrote %s", e.Name())
		}
	}
	t.Logf("left in %s: %v", jobs[0], left)
}
