package atomicdir

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// mmapEdit replaces the first old in the file p with new (same length)
// through a shared memory mapping, as a program that maps a file to edit
// it does, and syncs it.
func mmapEdit(t *testing.T, p, old, new string) {
	t.Helper()
	f, err := os.OpenFile(p, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	m, err := syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(m, []byte(old))
	if i < 0 {
		syscall.Munmap(m)
		t.Fatalf("%q not in %s", old, p)
	}
	copy(m[i:], new)
	if err := syscall.Munmap(m); err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
}

// A same-size edit written through a shared memory mapping is refused on
// every file system, tmpfs (/dev/shm, and /tmp on many systems) included:
// there such a write sets neither the modification nor the status-change
// time, so a file with its recorded stamp is read there, not taken as
// unchanged. Before, on tmpfs the edit passed the check and the user's
// file was deleted with the output.
func TestMmapEditRefused(t *testing.T) {
	dirs := map[string]string{"TempDir": t.TempDir()}
	var fs syscall.Statfs_t
	if syscall.Statfs("/dev/shm", &fs) == nil && fs.Type == tmpfsMagic {
		d, err := os.MkdirTemp("/dev/shm", "revisit-test-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(d) })
		dirs["tmpfs"] = d
	} else {
		t.Log("no tmpfs at /dev/shm: only the TempDir case")
	}
	for name, dir := range dirs {
		final := filepath.Join(dir, "out")
		commitTree(t, final, map[string]string{"report/report.md": teh})
		time.Sleep(20 * time.Millisecond) // a later tick of the file-system clock
		p := filepath.Join(final, "report", "report.md")
		mmapEdit(t, p, "teh", "the")
		d, err := Create(final, "m", "test output")
		var re *RefusedError
		if !errors.As(err, &re) || len(re.Foreign) != 1 || re.Foreign[0] != "report/report.md (changed)" {
			if d != nil {
				d.Abort()
			}
			t.Errorf("%s: after an mmap edit: %v, want a refusal naming report/report.md", name, err)
		}
	}
}
