package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A command that fails into a new nested output path (-o new/a/b) leaves
// none of the directories it made ("nothing written"), and never removes
// a parent that existed before: here mine/, holding a file of the user's,
// into which -o mine/new/b points.
func TestFailedCommandLeavesNoParents(t *testing.T) {
	p, _ := refusalFixtures(t)
	os.WriteFile(p("bad.csv"), []byte("id,time\na,2021-01-01T00:00:00Z\na,2021-01-02T00:00:00Z\nb,yesterday\n"), 0o644)
	os.WriteFile(p("bad.cdx"), []byte("com,a)/ 20200101000000 http://a/ text/html 200 A 1\ncom,a)/ 20200102000000 http://a/ text/html 200 B 1\nnot a cdx line\n"), 0o644)
	for _, c := range []struct {
		name string
		args []string
		ext  string // of the output path
	}{
		{"ingest", []string{"ingest", p("bad.csv"), "--id", "id", "--time", "time"}, ""},
		{"run", []string{"run", p("bad.csv"), "--id", "id", "--time", "time"}, ""},
		{"estimate", []string{"estimate", p("bad.cdx"), "--format", "cdx"}, ""},
		{"replay", []string{"replay", p("ds"), "--max-visits", "1"}, ""},
		{"generate mediawiki", []string{"generate", "--pages", "3", "--model", "exp:100", "--max-updates", "1000"}, ".xml"},
		{"generate parquet", []string{"generate", "--pages", "3", "--model", "exp:100", "--max-updates", "1000", "--format", "parquet"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := t.TempDir()
			mine := filepath.Join(base, "mine")
			os.Mkdir(mine, 0o755)
			os.WriteFile(filepath.Join(mine, "notes.txt"), []byte("mine"), 0o644)
			for _, out := range []string{filepath.Join(base, "new", "a", "b"+c.ext), filepath.Join(mine, "new", "b"+c.ext)} {
				code, msg := stderrOf(t, append(append([]string{"-q"}, c.args...), "-o", out)...)
				if code == exitOK {
					t.Fatalf("-o %s: exit 0, want a failure", out)
				}
				if !strings.Contains(msg, "revisit") {
					t.Errorf("-o %s: no message: %q", out, msg)
				}
			}
			if got := dirNames(t, base); len(got) != 1 || got[0] != "mine" {
				t.Errorf("left behind in %s: %v", base, got)
			}
			if got := dirNames(t, mine); len(got) != 1 || got[0] != "notes.txt" {
				t.Errorf("the user's directory changed: %v", got)
			}
		})
	}
}
