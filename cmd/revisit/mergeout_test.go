package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// merge writes neither into one of its inputs nor over a directory that
// holds one: -o inside an input, or an input inside -o, however spelled
// (a relative path, a symbolic link to the input), is bad usage, refused
// before any input is read, with nothing created.
func TestMergeOutputInsideInputRefused(t *testing.T) {
	dir := t.TempDir()
	p := func(s string) string { return filepath.Join(dir, s) }
	for _, d := range []string{"in0", "in1", "holder/in2"} {
		os.MkdirAll(p(d), 0o755)
	}
	os.Symlink(p("in0"), p("link"))
	t.Chdir(dir)
	for _, c := range []struct {
		name, out, made string
		ins             []string
	}{
		{"-o inside the first input", p("in0/sub"), p("in0/sub"), []string{p("in0"), p("in1")}},
		{"-o inside the second input", p("in1/a/b"), p("in1/a"), []string{p("in0"), p("in1")}},
		{"relative -o inside an input", "in0/sub", p("in0/sub"), []string{"in0", "in1"}},
		{"-o inside an input through a link", p("link/sub"), p("in0/sub"), []string{p("in0"), p("in1")}},
		{"input inside -o", p("holder"), "", []string{p("holder/in2"), p("in1")}},
	} {
		for _, kind := range []string{"dataset", "replay", "estimate"} {
			t.Run(kind+": "+c.name, func(t *testing.T) {
				code, msg := stderrOf(t, append(append([]string{"-q", "merge", kind}, c.ins...), "-o", c.out)...)
				if code != exitUsage || !strings.Contains(msg, "inside") {
					t.Errorf("exit %d, want %d naming the input; stderr: %s", code, exitUsage, msg)
				}
				if c.made != "" {
					if _, err := os.Lstat(c.made); !errors.Is(err, os.ErrNotExist) {
						t.Errorf("%s was created", c.made)
					}
				}
			})
		}
	}
}
