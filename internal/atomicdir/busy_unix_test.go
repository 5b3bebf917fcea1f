//go:build unix

package atomicdir

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A lock held by another process that has this process's pid — one in
// another pid namespace (a container or Kubernetes pod writing a shared
// volume) or on another host of a network file system — still makes the
// paths under it busy: a lock is this process's own by the holder line
// that only this process writes, not by its pid. Before, a lock naming
// this pid did not count, and a second writer inside a locked output
// went ahead.
func TestLockOfSamePIDElsewhereIsBusy(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "out")
	// What a process with this pid in another pid namespace writes and
	// holds (its own holder line).
	theirs := lockText + out + "\n" + lockPIDPrefix + strconv.Itoa(os.Getpid()) + "\n" + lockHolderPrefix + "pid:[1] host 7 1\n"
	l, err := acquire(filepath.Join(parent, ".out.lock"), theirs)
	if err != nil {
		t.Fatal(err)
	}
	inside := filepath.Join(out, "dataset")
	if err := CheckBusy(inside, "dataset"); !errors.Is(err, ErrBusy) {
		t.Errorf("CheckBusy inside another process's output: %v, want ErrBusy", err)
	}
	if d, err := Create(inside, "m", "dataset"); !errors.Is(err, ErrBusy) {
		if d != nil {
			d.Abort()
		}
		t.Errorf("Create inside another process's output: %v, want ErrBusy", err)
	}
	l.release()

	// This process's own lock of out does not count: run's stages write
	// inside the OUT it holds.
	release, err := Lock(out, "run output")
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	d, err := Create(inside, "m", "dataset")
	if err != nil {
		t.Fatalf("Create inside this process's own locked output: %v", err)
	}
	d.Abort()
}

// A busy path is said once, naming the process and what it writes: the
// message does not repeat ErrBusy's text before it.
func TestBusyMessageSaysItOnce(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "out")
	theirs := lockText + out + "\n" + lockPIDPrefix + "4242\n" + lockHolderPrefix + "elsewhere\n"
	l, err := acquire(filepath.Join(parent, ".out.lock"), theirs)
	if err != nil {
		t.Fatal(err)
	}
	defer l.release()
	for _, p := range []string{out, filepath.Join(out, "dataset")} {
		_, err := Create(p, "m", "dataset")
		if !errors.Is(err, ErrBusy) {
			t.Fatalf("Create %s: %v, want ErrBusy", p, err)
		}
		if msg := err.Error(); strings.Count(msg, "another revisit process") != 1 || !strings.Contains(msg, "(pid 4242) is writing") {
			t.Errorf("Create %s: %q, want one \"another revisit process (pid 4242) is writing …\"", p, msg)
		}
	}
}
