// Package stagetest holds test helpers shared by the stage packages: a
// check that a stage stops on a cancelled context, grids, and reading an
// output tree back. It is imported by tests only, and imports no stage.
package stagetest

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/internal/atomicdir"
)

// Stops runs work twice, with a context cancelled before it starts and
// with one cancelled after delay (while it works on a large input), and
// fails t unless each run returns context.Canceled, produces nothing and
// returns within 10 s. produced says whether work returned a result.
func Stops(t testing.TB, name string, delay time.Duration, work func(ctx context.Context) (produced bool, err error)) {
	t.Helper()
	for _, d := range []time.Duration{0, delay} {
		ctx, cancel := context.WithCancel(context.Background())
		if d == 0 {
			cancel()
		} else {
			time.AfterFunc(d, cancel)
		}
		type out struct {
			produced bool
			err      error
		}
		ch := make(chan out, 1)
		go func() {
			p, err := work(ctx)
			ch <- out{p, err}
		}()
		select {
		case o := <-ch:
			if !errors.Is(o.err, context.Canceled) || o.produced {
				t.Errorf("%s cancelled after %v: result %v, error %v; want none and context.Canceled", name, d, o.produced, o.err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s cancelled after %v: did not return within 10 s", name, d)
		}
		cancel()
	}
}

// Grid returns the uniform grid x_n = n·step for n = 0…N with
// N = ⌈max/step⌉ (nil for step ≤ 0 or max < 0).
func Grid(step, max float64) []float64 {
	if step <= 0 || max < 0 {
		return nil
	}
	n := int(math.Ceil(max/step - 1e-9))
	x := make([]float64, n+1)
	for i := range x {
		x[i] = float64(i) * step
	}
	return x
}

// ReadTree returns every file under dir by its path relative to dir, for
// byte-for-byte comparisons of two outputs; the entry lists
// (atomicdir.EntriesFile) without what no two runs share (WithoutStamps).
func ReadTree(tb testing.TB, dir string) map[string][]byte {
	tb.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err == nil && d.Name() == atomicdir.EntriesFile {
			b = WithoutStamps(tb, b)
		}
		rel, _ := filepath.Rel(dir, p)
		out[rel] = b
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// WithoutStamps is an entry list (atomicdir.EntriesFile) without the
// inode numbers and times of its files, which no two runs share: the
// paths, types, sizes and content hashes it records.
func WithoutStamps(tb testing.TB, b []byte) []byte {
	tb.Helper()
	var list map[string]any
	if err := json.Unmarshal(b, &list); err != nil {
		tb.Fatal(err)
	}
	entries, _ := list["entries"].([]any)
	for _, e := range entries {
		if m, ok := e.(map[string]any); ok {
			for _, k := range []string{"ino", "mtime", "ctime"} {
				delete(m, k)
			}
		}
	}
	b, err := json.Marshal(list)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// JSONNoTimes decodes a JSON object (replay.json, estimate.json) without
// its "created" and "elapsed_s", the only fields in which two runs of the
// same work may differ.
func JSONNoTimes(tb testing.TB, b []byte) map[string]any {
	tb.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		tb.Fatal(err)
	}
	delete(m, "created")
	delete(m, "elapsed_s")
	return m
}
