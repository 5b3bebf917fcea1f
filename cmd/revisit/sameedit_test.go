package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/atomicdir/useredit"
)

// A same-size fix of a file in an earlier output — sed -i, cp over it, an
// editor's save, an edit followed by touch -r — makes the next command
// writing that output refuse it (exit 2, naming the file), and the user's
// file stays as the user made it: report into its report directory, run
// into its OUT (the report stage), generate into its dump file.
func TestSameSizeEditRefused(t *testing.T) {
	want := readmeCode(t, "refused output")
	p, _ := refusalFixtures(t)
	for _, c := range []struct {
		name string
		args []string // without -o
		file string   // relative to -o
	}{
		{"report", []string{"report", p("an")}, "report.md"},
		{"run", []string{"run", p("log.csv"), "--id", "id", "--time", "time", "--reps", "19"}, filepath.Join("report", "report.md")},
		{"generate", []string{"generate", "--pages", "3"}, ""},
	} {
		for _, e := range useredit.SameSize {
			t.Run(c.name+" "+e.Name, func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "out")
				if c.file == "" {
					out += ".xml" // the dump is the output
				}
				args := append(append([]string{"-q"}, c.args...), "-o", out)
				if code, msg := stderrOf(t, args...); code != exitOK {
					t.Fatalf("first %s: exit %d: %s", c.name, code, msg)
				}
				f := filepath.Join(out, c.file)
				e.Do(t, f, "revisit", "REVISIT")
				mine, err := os.ReadFile(f)
				if err != nil || !bytes.Contains(mine, []byte("REVISIT")) {
					t.Fatalf("the edit: %v", err)
				}
				code, msg := stderrOf(t, args...)
				named := filepath.Base(c.file) + " (changed)"
				if c.file == "" {
					named = out + ": was changed"
				}
				if code != want || !strings.Contains(msg, named) {
					t.Errorf("after %s: exit %d, want %d naming %s; stderr: %s", e.Name, code, want, named, msg)
				}
				if b, _ := os.ReadFile(f); !bytes.Equal(b, mine) {
					t.Errorf("the user's %s was changed", c.file)
				}
			})
		}
	}
}
