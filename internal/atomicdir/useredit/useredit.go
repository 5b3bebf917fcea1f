// Package useredit makes the changes a user makes to a file by ordinary
// means, for the tests of revisit's refusal to replace what it did not
// write (atomicdir's entry lists). It is test support, not API.
package useredit

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Edit replaces the first occurrence of old in the file with new (of the
// same length, so the size stays) in one ordinary way.
type Edit struct {
	Name string
	Do   func(t *testing.T, path, old, new string)
}

// SameSize are the ways a user changes a file's content without changing
// its size: sed -i (a new file renamed over it), cp over it (the same
// inode, written), an editor's save (a new file renamed over it, as vim
// and emacs save), and an edit in place followed by touch -r with the
// file's old times (its modification time is the old one again).
var SameSize = []Edit{
	{"sed -i", func(t *testing.T, p, old, new string) {
		need(t, "sed")
		run(t, "sed", "-i", "s/"+old+"/"+new+"/", p)
	}},
	{"cp over", func(t *testing.T, p, old, new string) {
		need(t, "cp")
		mine := filepath.Join(t.TempDir(), "mine")
		write(t, mine, replaced(t, p, old, new))
		run(t, "cp", mine, p)
	}},
	{"editor save", func(t *testing.T, p, old, new string) {
		tmp := p + ".swp"
		write(t, tmp, replaced(t, p, old, new))
		if err := os.Rename(tmp, p); err != nil {
			t.Fatal(err)
		}
	}},
	{"edit in place, then touch -r", func(t *testing.T, p, old, new string) {
		need(t, "touch")
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		ref := filepath.Join(t.TempDir(), "ref")
		write(t, ref, nil)
		os.Chtimes(ref, info.ModTime(), info.ModTime())
		b := replaced(t, p, old, new)
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.WriteAt(b, 0)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		run(t, "touch", "-r", ref, p)
		if after, _ := os.Stat(p); !after.ModTime().Equal(info.ModTime()) {
			t.Fatal("touch -r did not set the modification time back")
		}
	}},
}

// replaced is the file's content with the first old replaced by new.
func replaced(t *testing.T, p, old, new string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(old) != len(new) || !bytes.Contains(b, []byte(old)) {
		t.Fatalf("%s: cannot replace %q by %q keeping the size", p, old, new)
	}
	return bytes.Replace(b, []byte(old), []byte(new), 1)
}

func need(t *testing.T, tool string) {
	t.Helper()
	if _, err := exec.LookPath(tool); err != nil {
		t.Skip("no " + tool)
	}
}

func run(t *testing.T, name string, args ...string) {
	t.Helper()
	if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v %s", name, err, out)
	}
}

func write(t *testing.T, p string, b []byte) {
	t.Helper()
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
