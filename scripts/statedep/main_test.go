package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/gentest"
	"github.com/revisit-dev/revisit/internal/tables"
)

// The experiment runs on a dataset and prints its three tables with the
// verdict; -o writes every table of the validation into a new directory
// and refuses one that exists (leaving it as it was); a bad command line
// is a usage error, found before any work.
func TestRun(t *testing.T) {
	dir, _ := gentest.Dataset(t, []string{"pareto:1.5,2"}, 1)
	out := filepath.Join(t.TempDir(), "res")
	var buf bytes.Buffer
	args := []string{"--sampler", "const:0.5", "--budget", "20/d", "--seeds", "2", "--origins", "2", "--plans", "gu,uniform", "-o", out, dir}
	if err := run(args, &buf); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	for _, want := range []string{"State-dependent timing", "Paired differences", "Verdict: On these 30 pages", "statedep − gu", "statedep-oracle − oracle"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	b, err := tables.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, tb := range b.Tables {
		ids[tb.ID] = true
	}
	for _, id := range []string{"schedule_validation", "schedule_validation_statedep", "schedule_validation_statedep_pairs"} {
		if !ids[id] {
			t.Errorf("-o %s: no table %s (%v)", out, id, ids)
		}
	}
	if err := run(args, &buf); !errors.Is(err, errUsage) {
		t.Errorf("-o to an existing directory: %v, want a usage error", err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) != 1 {
		t.Errorf("beside the output: %v", entries)
	}
	for _, bad := range [][]string{
		{dir},
		{"--sampler", "const:0.5", dir},
		{"--sampler", "const:0.5", "--budget", "lots", dir},
		{"--sampler", "never:1", "--budget", "20/d", dir},
		{"--sampler", "const:0.5", "--budget", "20/d", "--plans", "best", dir},
		{"--sampler", "const:0.5", "--budget", "20/d", "--seeds", "0", dir},
		{"--sampler", "const:0.5", "--budget", "20/d", "--rules", "often", dir},
	} {
		if err := run(bad, &buf); !errors.Is(err, errUsage) {
			t.Errorf("%q: %v, want a usage error", bad, err)
		}
	}
}
