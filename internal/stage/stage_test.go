package stage

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/revisit-dev/revisit/internal/pool"
)

// squares is a stage that writes the squares of 0…n−1, in order, into
// rows.txt: the steps it went through are appended to *steps.
func squares(n int, steps *[]string, fail string) Stage[int, int] {
	var f *os.File
	step := func(s string) error {
		*steps = append(*steps, s)
		if s == fail {
			return errors.New(s + " failed")
		}
		return nil
	}
	return Stage[int, int]{
		Pool: pool.Options{Workers: 3},
		Open: func(tmp string) (err error) {
			if err := step("open"); err != nil {
				return err
			}
			f, err = os.Create(filepath.Join(tmp, "rows.txt"))
			return err
		},
		Produce: func(ctx context.Context, send pool.Send[int]) error {
			for i := range n {
				if err := send(i, 1); err != nil {
					return err
				}
			}
			return step("produce")
		},
		Work: func(ctx context.Context, i int) (int, error) { return i * i, nil },
		Sink: func(v int) error {
			_, err := f.Write([]byte{byte('0' + v%10)})
			return err
		},
		Finish: func(tmp string) error {
			if err := f.Close(); err != nil {
				return err
			}
			if err := step("finish"); err != nil {
				return err
			}
			// The marker is the stage's own record, written last.
			return os.WriteFile(filepath.Join(tmp, "meta.json"), []byte("{}\n"), 0o644)
		},
		Abort: func() {
			*steps = append(*steps, "abort")
			if f != nil {
				f.Close()
			}
		},
	}
}

// Run commits the output only when every step succeeded; a failure in any
// step, or a cancelled context, leaves nothing at the output's place and
// calls Abort once. Expected rows: the last digits of 0, 1, 4, 9, 16, 25
// in send order, by hand.
func TestRun(t *testing.T) {
	for _, c := range []struct {
		fail      string
		cancel    bool
		wantSteps []string
	}{
		{"", false, []string{"open", "produce", "finish"}},
		{"open", false, []string{"open", "abort"}},
		{"produce", false, []string{"open", "produce", "abort"}},
		{"finish", false, []string{"open", "produce", "finish", "abort"}},
		{"", true, nil},
	} {
		dir := filepath.Join(t.TempDir(), "out")
		ctx, cancel := context.WithCancel(context.Background())
		if c.cancel {
			cancel()
		}
		var steps []string
		err := Run(ctx, Output{Dir: dir, Marker: "meta.json", What: "test output"}, squares(6, &steps, c.fail))
		cancel()
		b, rerr := os.ReadFile(filepath.Join(dir, "rows.txt"))
		switch {
		case c.fail == "" && !c.cancel:
			if err != nil || string(b) != "014965" {
				t.Errorf("success: err %v, rows %q (%v); want 014965", err, b, rerr)
			}
		case c.cancel:
			if !errors.Is(err, context.Canceled) || rerr == nil {
				t.Errorf("cancelled: err %v, output read %v; want context.Canceled and no output", err, rerr)
			}
		default:
			if err == nil || err.Error() != c.fail+" failed" || rerr == nil {
				t.Errorf("%s fails: err %v, output read %v; want the step's error and no output", c.fail, err, rerr)
			}
		}
		if c.wantSteps != nil && !slices.Equal(steps, c.wantSteps) {
			t.Errorf("fail %q: steps %v, want %v", c.fail, steps, c.wantSteps)
		}
		if _, err := os.Stat(dir); err == nil && (c.fail != "" || c.cancel) {
			t.Errorf("fail %q, cancel %v: %s exists", c.fail, c.cancel, dir)
		}
	}
}

// An existing directory revisit did not write is refused before any step
// runs, and left as it was.
func TestRunRefusesForeignDir(t *testing.T) {
	dir := t.TempDir()
	mine := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(mine, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	var steps []string
	if err := Run(context.Background(), Output{Dir: dir, Marker: "meta.json", What: "test output"}, squares(3, &steps, "")); err == nil {
		t.Fatal("a directory holding a file of the user's was accepted")
	}
	if len(steps) != 0 {
		t.Errorf("steps %v ran before the output was refused", steps)
	}
	if b, err := os.ReadFile(mine); err != nil || string(b) != "mine" {
		t.Errorf("the user's file: %q, %v", b, err)
	}
}

// The zero Output writes nothing: the stage runs with tmp "".
func TestWriteNoOutput(t *testing.T) {
	var got string
	if err := Write(context.Background(), Output{}, func(tmp string) error { got = tmp + "called"; return nil }); err != nil || got != "called" {
		t.Errorf("Write(zero Output) = %v, fill saw %q", err, got)
	}
}
