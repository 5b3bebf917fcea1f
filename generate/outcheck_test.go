package generate

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// keep fails the test unless p holds want.
func keep(t *testing.T, p, want string) {
	t.Helper()
	if b, err := os.ReadFile(p); err != nil || string(b) != want {
		t.Errorf("%s: %.60q, %v; want %q", p, b, err, want)
	}
}

func small(t *testing.T, format, out string) Options {
	opt := testOptions(t, format, out, "exp:0.1")
	opt.Pages = 3
	opt.Stdout = &bytes.Buffer{}
	return opt
}

func wantNotOurs(t *testing.T, what string, opt Options) {
	t.Helper()
	if _, err := Run(opt); !errors.Is(err, ErrNotOurs) {
		t.Errorf("%s: %v, want ErrNotOurs", what, err)
	}
}

// --truth never replaces a user's file, and the truth file that
// authorises replacing an output is tied to that output (its path and
// size), not to a base name.
func TestTruthTiedToItsOutput(t *testing.T) {
	dir := t.TempDir()

	// -o - --truth notes.json: the user's notes stay.
	notes := filepath.Join(dir, "notes.json")
	os.WriteFile(notes, []byte("notes\n"), 0o644)
	opt := small(t, FormatMediaWiki, "-")
	opt.Truth = notes
	wantNotOurs(t, "-o - --truth notes.json", opt)
	keep(t, notes, "notes\n")

	// A truth file revisit wrote for stdout is replaced by the next one.
	st := filepath.Join(dir, "stdout.truth.json")
	opt.Truth = st
	run(t, opt)
	run(t, opt)

	// An earlier truth in old/ with the same base name does not authorise
	// replacing an unrelated new/g.xml.gz, nor is it itself replaced.
	old := small(t, FormatMediaWiki, filepath.Join(dir, "old", "g.xml.gz"))
	run(t, old)
	oldTruth, _ := os.ReadFile(filepath.Join(dir, "old", "g.truth.json"))
	os.MkdirAll(filepath.Join(dir, "new"), 0o755)
	mine := filepath.Join(dir, "new", "g.xml.gz")
	os.WriteFile(mine, []byte("my dump"), 0o644)
	opt = small(t, FormatMediaWiki, mine)
	opt.Truth = filepath.Join(dir, "old", "g.truth.json")
	wantNotOurs(t, "-o new/g.xml.gz --truth old/g.truth.json", opt)
	keep(t, mine, "my dump")
	keep(t, opt.Truth, string(oldTruth))
	// … and with new/g.xml.gz gone it still names another output.
	os.Remove(mine)
	wantNotOurs(t, "--truth of another output", opt)
	if _, err := os.Lstat(mine); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused generate wrote %s", mine)
	}

	// The same output again: replaced, again and again.
	run(t, old)
	run(t, old)

	// A dump the user changed after generate wrote it is no longer ours.
	os.WriteFile(old.Out, []byte("edited"), 0o644)
	wantNotOurs(t, "changed dump", old)
	keep(t, old.Out, "edited")

	// A truth-like file whose key is "TOOL" is not revisit's.
	fake := filepath.Join(dir, "f.truth.json")
	os.WriteFile(fake, []byte(`{"TOOL": "revisit generate", "output": "f.xml.gz", "output_path": "f.xml.gz"}`), 0o644)
	wantNotOurs(t, "case-folded truth", small(t, FormatMediaWiki, filepath.Join(dir, "f.xml.gz")))
}

// Yelp and Parquet directories: a user's file inside an earlier output
// keeps it; an untouched one is replaced.
func TestDirectoryOutputsKeepUserFiles(t *testing.T) {
	for _, format := range []string{FormatYelp, FormatParquet} {
		t.Run(format, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			opt := small(t, format, out)
			run(t, opt)
			run(t, opt)
			extra := filepath.Join(out, "extra.csv")
			os.WriteFile(extra, []byte("x"), 0o644)
			if _, err := Run(opt); err == nil {
				t.Error("replaced an output holding a user's file")
			}
			keep(t, extra, "x")
			os.Remove(extra)
			// Its truth.json changed by the user: no longer ours either.
			truth := filepath.Join(out, TruthFile)
			os.WriteFile(truth, []byte("{}"), 0o644)
			if _, err := Run(opt); err == nil {
				t.Error("replaced an output whose truth.json the user changed")
			}
			keep(t, truth, "{}")
		})
	}
}

// A file the user puts at the dump's or the truth's path while generate
// writes is kept: the outputs are checked again before they are renamed
// into place, and the run is refused with nothing of it left.
func TestUserFileWrittenDuringGenerateKept(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ name, path string }{
		{"new dump", "new.xml.gz"},
		{"earlier dump", "old.xml.gz"},
		{"truth", "old.truth.json"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(dir, "old.xml.gz")
			if c.name == "new dump" {
				out = filepath.Join(dir, "new.xml.gz")
			} else {
				os.Remove(out)
				os.Remove(filepath.Join(dir, "old.truth.json"))
				run(t, small(t, FormatMediaWiki, out))
			}
			opt := small(t, FormatMediaWiki, out)
			mine := filepath.Join(dir, c.path)
			opt.Progress = func(done int, _ int64) {
				if done == 1 {
					os.WriteFile(mine, []byte("MY NOTES"), 0o644)
				}
			}
			wantNotOurs(t, c.name+" written during generate", opt)
			keep(t, mine, "MY NOTES")
			if left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp-*")); len(left) > 0 {
				t.Errorf("temporary files left: %v", left)
			}
		})
	}
}
