package estimates

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/internal/stage"
)

// shardOutput writes an estimate output holding rows for the given page
// ids (one row each) and returns its directory.
func shardOutput(t *testing.T, ids ...int64) string {
	t.Helper()
	dir := t.TempDir()
	w, err := NewWriter(filepath.Join(dir, File))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		e := estimator.Estimate{PageID: id, Title: "p", Sampler: "exp:2", Method: "M1", Kind: estimator.KindG, H: 0.5}
		e.CDF.X, e.CDF.P = []float64{0.5, 1}, []float64{0.25, 1}
		if err := w.Write(&e); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// mergeByID is the merge of two shards' rows by increasing page id (a
// two-way merge written for the test); finish writes the marker, or
// fails with failFinish, or cancels the context with cancel.
func mergeByID(ctx context.Context, out string, dirs []string, failFinish error, cancel func()) error {
	return Merge(ctx, stage.Output{Dir: out, Marker: "meta.json", What: "test output"}, dirs,
		func(_ string, w *Writer, streams []*RowStream) error {
			for {
				best := -1
				var be *estimator.Estimate
				for k, s := range streams {
					e, ok, err := s.Peek()
					if err != nil {
						return err
					}
					if ok && (be == nil || e.PageID < be.PageID) {
						best, be = k, e
					}
				}
				if best < 0 {
					return nil
				}
				streams[best].Next()
				if err := w.Write(be); err != nil {
					return err
				}
			}
		},
		func(tmp string, w *Writer) error {
			if cancel != nil {
				cancel()
			}
			if failFinish != nil {
				return failFinish
			}
			return os.WriteFile(filepath.Join(tmp, "meta.json"), []byte("{}\n"), 0o644)
		})
}

// Merge writes the rows its caller orders, and puts the output in place
// only when every step succeeded: a failing finish, or a context
// cancelled after the rows were written, leaves nothing behind. The
// expected ids are the union of the shards' ids, sorted by hand.
func TestMerge(t *testing.T) {
	dirs := []string{shardOutput(t, 1, 4, 5), shardOutput(t, 2, 3, 6)}
	out := filepath.Join(t.TempDir(), "merged")
	if err := mergeByID(context.Background(), out, dirs, nil, nil); err != nil {
		t.Fatal(err)
	}
	var got []int64
	if err := Each(out, func(e *estimator.Estimate) error { got = append(got, e.PageID); return nil }); err != nil {
		t.Fatal(err)
	}
	if want := []int64{1, 2, 3, 4, 5, 6}; !slices.Equal(got, want) {
		t.Errorf("merged ids %v, want %v", got, want)
	}

	bad := errors.New("finish failed")
	out2 := filepath.Join(t.TempDir(), "failed")
	if err := mergeByID(context.Background(), out2, dirs, bad, nil); !errors.Is(err, bad) {
		t.Errorf("failing finish: %v, want %v", err, bad)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out3 := filepath.Join(t.TempDir(), "cancelled")
	if err := mergeByID(ctx, out3, dirs, nil, cancel); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled after the rows: %v, want context.Canceled", err)
	}
	for _, o := range []string{out2, out3} {
		if _, err := os.Stat(o); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: %v, want no output", o, err)
		}
	}
}
