//go:build unix

package decompress

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// gone reports whether process pid has ended (and was reaped, or is a
// zombie waiting for a parent that does not reap).
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return os.IsNotExist(err)
	}
	_, after, _ := bytes.Cut(stat, []byte(") "))
	return len(after) > 0 && after[0] == 'Z'
}

// Cancelling the context stops a read within a second and kills the
// decoder; so does Close in the middle of a stream. No process is left.
func TestSystemDecoderCancel(t *testing.T) {
	needTool(t, XZ)
	p := largeXZ(t, t.TempDir())
	for _, how := range []string{"cancel", "close"} {
		ctx, cancel := context.WithCancel(context.Background())
		r, err := OpenContext(ctx, p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.Next(); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(r, make([]byte, 1<<20)); err != nil {
			t.Fatal(err)
		}
		if r.ext == nil {
			t.Fatalf("decoder %q: the system decoder is not running", r.Decoder())
		}
		pid := r.ext.cmd.Process.Pid
		start := time.Now()
		if how == "cancel" {
			cancel()
			_, err = io.Copy(io.Discard, r)
			if !errors.Is(err, context.Canceled) {
				t.Errorf("read after cancel: %v, want context.Canceled", err)
			}
			if d := time.Since(start); d > time.Second {
				t.Errorf("the read took %v to stop", d)
			}
		}
		r.Close()
		cancel()
		if !gone(pid) {
			t.Errorf("%s: decoder process %d still running", how, pid)
		}
	}
}

// When revisit is killed (SIGKILL: no Close runs), the decoder dies with
// it (Linux: the parent-death signal). The test runs itself as the
// parent: TestHelperHoldDecoder opens a stream, prints the decoder's pid
// and waits to be killed.
func TestSystemDecoderParentKilled(t *testing.T) {
	if _, err := os.Stat("/proc/self"); err != nil {
		t.Skip("no /proc: the parent-death signal is Linux's")
	}
	needTool(t, XZ)
	p := largeXZ(t, t.TempDir())
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperHoldDecoder$")
	cmd.Env = append(os.Environ(), "REVISIT_HOLD_DECODER="+p)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var pid int
	if _, err := fmt.Fscan(out, &pid); err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("reading the decoder's pid: %v", err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	for deadline := time.Now().Add(2 * time.Second); !gone(pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("decoder %d still running 2 s after its parent was killed", pid)
		}
	}
}

func TestHelperHoldDecoder(t *testing.T) {
	p := os.Getenv("REVISIT_HOLD_DECODER")
	if p == "" {
		t.Skip("helper process of TestSystemDecoderParentKilled")
	}
	r, err := Open(p)
	if err != nil || r.ext == nil {
		fmt.Println(-1)
		return
	}
	r.Next()
	r.Read(make([]byte, 1))
	fmt.Println(r.ext.cmd.Process.Pid)
	time.Sleep(time.Minute)
}
