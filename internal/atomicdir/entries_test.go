package atomicdir

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/internal/atomicdir/useredit"
)

// The report the tests change: "teh" → "the" keeps its length.
const teh = "# Report\n\nteh update process of the page\n"

// Every same-size change of a file's content, by any of the ordinary
// means, makes revisit refuse to replace the output (naming the file), and
// the user's file is left as the user made it, whether it was done at once
// or later, and whatever the timestamps say.
func TestSameSizeChangesRefused(t *testing.T) {
	for _, c := range useredit.SameSize {
		for _, later := range []bool{false, true} {
			name := c.Name
			if later {
				name += ", later"
			}
			t.Run(name, func(t *testing.T) {
				final := filepath.Join(t.TempDir(), "out")
				commitTree(t, final, map[string]string{"report/report.md": teh, "data.bin": strings.Repeat("x", 1<<20)})
				if later {
					time.Sleep(20 * time.Millisecond) // a later tick of the file-system clock
				}
				p := filepath.Join(final, "report", "report.md")
				c.Do(t, p, "teh", "the")
				want := strings.ReplaceAll(teh, "teh", "the")
				if b, _ := os.ReadFile(p); string(b) != want || len(b) != len(teh) {
					t.Fatalf("the edit gave %q", b)
				}
				_, err := Create(final, "m", "test output")
				var re *RefusedError
				if !errors.As(err, &re) || len(re.Foreign) != 1 || re.Foreign[0] != "report/report.md (changed)" {
					t.Fatalf("after %s: %v, want a refusal naming report/report.md", c.Name, err)
				}
				if b, _ := os.ReadFile(p); string(b) != want {
					t.Errorf("the user's file is now %q", b)
				}
			})
		}
	}
}

// What does not change the content is accepted: touching a file, changing
// its mode, writing it back with the same bytes, copying the whole output
// elsewhere (new inodes and times: every file is hashed and matches).
func TestSameContentAccepted(t *testing.T) {
	for _, c := range []struct {
		name string
		do   func(t *testing.T, final string) string // returns the output to check
	}{
		{"untouched", func(t *testing.T, final string) string { return final }},
		{"touch", func(t *testing.T, final string) string {
			now := time.Now().Add(time.Hour)
			os.Chtimes(filepath.Join(final, "report", "report.md"), now, now)
			return final
		}},
		{"chmod", func(t *testing.T, final string) string {
			os.Chmod(filepath.Join(final, "report", "report.md"), 0o600)
			return final
		}},
		{"written back", func(t *testing.T, final string) string {
			write(t, filepath.Join(final, "report", "report.md"), teh)
			return final
		}},
		{"cp -a elsewhere", func(t *testing.T, final string) string {
			if _, err := exec.LookPath("cp"); err != nil || runtime.GOOS == "windows" {
				t.Skip("no cp -a")
			}
			copied := filepath.Join(t.TempDir(), "copy")
			if out, err := exec.Command("cp", "-a", final, copied).CombinedOutput(); err != nil {
				t.Fatalf("cp -a: %v %s", err, out)
			}
			return copied
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			final := filepath.Join(t.TempDir(), "out")
			commitTree(t, final, map[string]string{"report/report.md": teh})
			out := c.do(t, final)
			if err := CheckReplaceable(out, "m", "test output"); err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
		})
	}
}

// legacyList rewrites the entry list of the output at final as revisit
// versions before the content hash wrote it: paths, types and sizes.
func legacyList(t *testing.T, final string) {
	t.Helper()
	p := filepath.Join(final, EntriesFile)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var l entryList
	if err := json.Unmarshal(b, &l); err != nil {
		t.Fatal(err)
	}
	old := struct {
		Tool    string `json:"tool"`
		Marker  string `json:"marker"`
		Entries []struct {
			Path string `json:"path"`
			Type string `json:"type"`
			Size int64  `json:"size,omitempty"`
		} `json:"entries"`
	}{Tool: l.Tool, Marker: l.Marker}
	for _, e := range l.Entries {
		old.Entries = append(old.Entries, struct {
			Path string `json:"path"`
			Type string `json:"type"`
			Size int64  `json:"size,omitempty"`
		}{e.Path, e.Type, e.Size})
	}
	b, _ = json.Marshal(old)
	write(t, p, string(b)+"\n")
}

// An output of an earlier version (its list has sizes only) is replaced
// when none of its files changed after the list was written, and refused,
// naming the file, after any same-size edit.
func TestLegacyListSameSizeEdit(t *testing.T) {
	if (fileStamp(mustStat(t, t.TempDir())) == stamp{}) {
		t.Skip("no status-change times here: lists of earlier versions are refused")
	}
	for _, c := range useredit.SameSize {
		t.Run(c.Name, func(t *testing.T) {
			final := filepath.Join(t.TempDir(), "out")
			commitTree(t, final, map[string]string{"report/report.md": teh})
			legacyList(t, final)
			if err := CheckReplaceable(final, "m", "test output"); err != nil {
				t.Fatalf("an unchanged output of an earlier version: %v", err)
			}
			time.Sleep(20 * time.Millisecond) // a later tick of the file-system clock
			c.Do(t, filepath.Join(final, "report", "report.md"), "teh", "the")
			err := CheckReplaceable(final, "m", "test output")
			var re *RefusedError
			if !errors.As(err, &re) || len(re.Foreign) != 1 || re.Foreign[0] != "report/report.md (changed)" {
				t.Fatalf("after %s: %v, want a refusal naming report/report.md", c.Name, err)
			}
		})
	}
}

func mustStat(t *testing.T, p string) os.FileInfo {
	t.Helper()
	info, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// unchanged's two ways: a file whose stamp is the recorded one, recorded
// before the list was written, is not read (a wrong recorded hash goes
// unseen: that is the fast path); one recorded in the list's own tick
// (racily clean) is read and its hash compared, as is any file whose stamp
// differs.
func TestUnchangedFastPathAndTieBreaker(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	write(t, p, teh)
	info := mustStat(t, p)
	s := fileStamp(info)
	if !s.known() {
		t.Skip("no stamps here: every file is hashed")
	}
	sum := sha256.Sum256([]byte(teh))
	good, bad := hex.EncodeToString(sum[:]), strings.Repeat("0", 64)
	later := stamp{MTime: s.CTime + 1}
	for _, c := range []struct {
		name    string
		e       entry
		written stamp
		want    bool
	}{
		{"fast path, right hash", entry{Size: info.Size(), SHA256: good, stamp: s}, later, true},
		{"fast path, hash not read", entry{Size: info.Size(), SHA256: bad, stamp: s}, later, true},
		{"racily clean: hashed", entry{Size: info.Size(), SHA256: bad, stamp: s}, stamp{MTime: s.CTime}, false},
		{"other stamp: hashed, same", entry{Size: info.Size(), SHA256: good, stamp: stamp{Ino: s.Ino + 1}}, later, true},
		{"other stamp: hashed, differs", entry{Size: info.Size(), SHA256: bad, stamp: stamp{Ino: s.Ino + 1}}, later, false},
		{"other size", entry{Size: info.Size() + 1, SHA256: good, stamp: s}, later, false},
	} {
		got, err := unchanged(p, c.e, hashName, c.written, true) // a file system whose stamps follow the content
		if err != nil || got != c.want {
			t.Errorf("%s: %v %v, want %v", c.name, got, err, c.want)
		}
	}
	// Where stamps do not follow the content (tmpfs), the recorded stamp
	// is no proof: the file is read.
	if got, err := unchanged(p, entry{Size: info.Size(), SHA256: hex.EncodeToString(make([]byte, 32)), stamp: s}, hashName, later, false); err != nil || got {
		t.Errorf("recorded stamp on a file system whose stamps do not follow the content: %v %v, want the hash read and found to differ", got, err)
	}
}

// A symbolic link in an output is recorded with its target: pointed
// elsewhere (ln -sf), it is a change and the output is refused.
func TestSymlinkTargetRecorded(t *testing.T) {
	final := filepath.Join(t.TempDir(), "out")
	d, err := Create(final, "m", "test output")
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(d.Path(), "m"), MarkerText+" test")
	write(t, filepath.Join(d.Path(), "a.txt"), "a")
	if err := os.Symlink("a.txt", filepath.Join(d.Path(), "link")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := d.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := CheckReplaceable(final, "m", "test output"); err != nil {
		t.Fatalf("untouched: %v", err)
	}
	os.Remove(filepath.Join(final, "link"))
	os.Symlink("m", filepath.Join(final, "link"))
	var re *RefusedError
	if err := CheckReplaceable(final, "m", "test output"); !errors.As(err, &re) || len(re.Foreign) != 1 || re.Foreign[0] != "link (changed)" {
		t.Errorf("a link pointed elsewhere: %v, want a refusal naming link", err)
	}
}
