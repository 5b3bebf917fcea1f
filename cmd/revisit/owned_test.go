package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// ownedCSV writes a small update log (id,time) for ingest and run.
func ownedCSV(t *testing.T, dir string) string {
	t.Helper()
	var sb strings.Builder
	sb.WriteString("id,time\n")
	t0 := time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&sb, "p%d,%s\n", i%3, t0.Add(time.Duration(i*i)*time.Hour).Format(time.RFC3339))
	}
	p := filepath.Join(dir, "log.csv")
	if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Files a user put inside an earlier output (at its top or in a
// subdirectory) make every command refuse to replace it, and survive; an
// untouched earlier output is replaced. (The exit code of the refusal is
// the one of an *atomicdir.RefusedError.)
func TestCommandsKeepUserFilesInsideOutputs(t *testing.T) {
	dir := t.TempDir()
	csv := ownedCSV(t, dir)
	ds := filepath.Join(dir, "ds")
	if code := execute([]string{"-q", "generate", "--format", "parquet", "--pages", "30", "--span", "1y", "--model", "exp:0.05", "--seed", "2", "-o", ds}); code != exitOK {
		t.Fatalf("generate: exit %d", code)
	}
	res := filepath.Join(dir, "res")
	if code := execute([]string{"-q", "policies", ds, "--cycle", "7d", "--budget", "5", "--no-sweeps", "-o", res}); code != exitOK {
		t.Fatalf("policies: exit %d", code)
	}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"ingest", []string{"ingest", csv, "--id", "id", "--time", "time"}},
		{"replay", []string{"replay", ds, "--top", "2", "--sampler", "exp:1", "--h", "0.5", "--x-max", "20"}},
		{"analyze", []string{"analyze", ds, "--top", "2", "--reps", "19"}},
		{"policies", []string{"policies", ds, "--cycle", "7d", "--budget", "5", "--no-sweeps"}},
		{"simulate", []string{"simulate", "--update", "exp:1", "--sampler", "const:0.5", "--T", "100", "--paths", "3"}},
		{"report", []string{"report", res}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(dir, "out-"+c.name)
			args := append(append([]string{"-q"}, c.args...), "-o", out)
			for i := 0; i < 2; i++ {
				if code := execute(args); code != exitOK {
					t.Fatalf("run %d: exit %d", i, code)
				}
			}
			user := []string{filepath.Join(out, "NOTES.md")}
			ents, _ := os.ReadDir(out)
			for _, e := range ents {
				if e.IsDir() {
					user = append(user, filepath.Join(out, e.Name(), "extra.csv"))
					break
				}
			}
			for _, p := range user {
				os.WriteFile(p, []byte("mine"), 0o644)
				if code := execute(args); code == exitOK {
					t.Errorf("replaced an output holding %s", p)
				}
				if b, err := os.ReadFile(p); err != nil || string(b) != "mine" {
					t.Errorf("%s: %q %v", p, b, err)
				}
				os.Remove(p)
			}
			if code := execute(args); code != exitOK {
				t.Errorf("without the user's files: exit %d", code)
			}
		})
	}
}

// ingest -o . in an empty directory writes the dataset there (its lock is
// beside the directory, not in it); a folder whose manifest.json holds
// "TOOL": "revisit" is not a dataset and is not replaced.
func TestIngestDotAndCaseFoldedManifest(t *testing.T) {
	dir := t.TempDir()
	csv := ownedCSV(t, dir)
	here := filepath.Join(dir, "here")
	os.Mkdir(here, 0o755)
	t.Chdir(here)
	for i := 0; i < 2; i++ {
		if code := execute([]string{"-q", "ingest", csv, "--id", "id", "--time", "time", "-o", "."}); code != exitOK {
			t.Fatalf("ingest -o . #%d: exit %d", i, code)
		}
	}
	if _, err := os.Stat(filepath.Join(here, "manifest.json")); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("left beside the dataset: %v", ents)
	}

	fake := filepath.Join(dir, "fake")
	os.Mkdir(fake, 0o755)
	os.WriteFile(filepath.Join(fake, "manifest.json"), []byte(`{"TOOL":"revisit"}`), 0o644)
	os.WriteFile(filepath.Join(fake, "keep.txt"), []byte("mine"), 0o644)
	if code := execute([]string{"-q", "ingest", csv, "--id", "id", "--time", "time", "-o", fake}); code == exitOK {
		t.Error("ingest replaced a folder with a case-folded manifest")
	}
	if b, err := os.ReadFile(filepath.Join(fake, "keep.txt")); err != nil || string(b) != "mine" {
		t.Errorf("keep.txt: %q %v", b, err)
	}
}
