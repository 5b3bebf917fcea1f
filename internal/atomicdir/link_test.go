package atomicdir

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// linkInto links src into a new output at final as "f" and returns the
// output's entry for it and whether Link took the hash from src's list.
func linkInto(t *testing.T, src, final string, between func()) (entry, bool) {
	t.Helper()
	d, err := Create(final, "m", "test output")
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(d.Path(), "m"), MarkerText+" test")
	if err := d.Link(src, "f"); err != nil {
		t.Fatal(err)
	}
	_, took := d.known["f"]
	if between != nil {
		between()
	}
	if err := d.Commit(); err != nil {
		t.Fatal(err)
	}
	return listed(t, final, "f"), took
}

// listed is the entry of the output at final for the file name.
func listed(t *testing.T, final, name string) entry {
	t.Helper()
	list, _, ok := readEntries(filepath.Join(final, EntriesFile))
	if !ok {
		t.Fatalf("no entry list in %s", final)
	}
	for _, e := range list.Entries {
		if e.Path == name {
			return e
		}
	}
	t.Fatalf("%s lists no %s", final, name)
	return entry{}
}

// A file linked from an untouched output of revisit takes its recorded
// hash (the file is not read again); a file changed since it was recorded
// — same size, its modification time set back, or changed between the
// link and the commit — is hashed anew, and the list records what it
// holds.
func TestLinkTakesRecordedHashOnlyOfUntouchedFile(t *testing.T) {
	parent := t.TempDir()
	if !stampFollowsContent(parent) {
		t.Skip("stamps do not follow the content here (tmpfs): every file is hashed")
	}
	in := filepath.Join(parent, "in")
	src := filepath.Join(in, "f")
	fresh := func() {
		os.RemoveAll(in)
		commitTree(t, in, map[string]string{"f": "revisit's bytes"})
	}
	want := func(e entry, content string) {
		t.Helper()
		p := filepath.Join(parent, "want")
		write(t, p, content)
		sum, err := HashFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if e.SHA256 != sum {
			t.Errorf("recorded hash %s, want %s (the hash of %q)", e.SHA256, sum, content)
		}
	}

	fresh()
	e, took := linkInto(t, src, filepath.Join(parent, "o1"), nil)
	if !took {
		t.Error("Link of an untouched file of revisit's output did not take its recorded hash")
	}
	want(e, "revisit's bytes")

	// Same size, modification time set back (touch -r): the status-change
	// time tells.
	fresh()
	info, _ := os.Stat(src)
	time.Sleep(10 * time.Millisecond)
	write(t, src, "REVISIT'S BYTES")
	os.Chtimes(src, info.ModTime(), info.ModTime())
	e, took = linkInto(t, src, filepath.Join(parent, "o2"), nil)
	if took {
		t.Error("Link took the recorded hash of a file changed since (mtime set back)")
	}
	want(e, "REVISIT'S BYTES")

	// Changed through the link before the commit.
	fresh()
	e, _ = linkInto(t, src, filepath.Join(parent, "o3"), func() {
		time.Sleep(10 * time.Millisecond)
		write(t, src, "changed later!!")
	})
	want(e, "changed later!!")

	// Linked twice: the first link set the status-change time, so the
	// list no longer vouches for the file.
	fresh()
	linkInto(t, src, filepath.Join(parent, "o4"), nil)
	if _, took = linkInto(t, src, filepath.Join(parent, "o5"), nil); took {
		t.Error("Link took the recorded hash of a file whose status changed after it was recorded")
	}
}

// A file whose writer gave its hash (Hashed) is recorded with that hash,
// not read again: here a hash that is not the content's, which only the
// writer could have given. A file changed after Hashed (same size) is
// read, and the list records what it holds. A file that is not there is
// an error.
func TestHashedIsRecordedUnlessChanged(t *testing.T) {
	parent := t.TempDir()
	const given = "0000000000000000000000000000000000000000000000000000000000000001"
	commitHashed := func(final string, between func(d *Dir)) entry {
		t.Helper()
		d, err := Create(final, "m", "test output")
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(d.Path(), "m"), MarkerText+" test")
		write(t, filepath.Join(d.Path(), "f"), "the writer's bytes")
		if err := d.Hashed("f", given); err != nil {
			t.Fatal(err)
		}
		if between != nil {
			between(d)
		}
		if err := d.Commit(); err != nil {
			t.Fatal(err)
		}
		return listed(t, final, "f")
	}
	if e := commitHashed(filepath.Join(parent, "o1"), nil); e.SHA256 != given {
		t.Errorf("recorded %s, want the hash the writer gave", e.SHA256)
	}
	e := commitHashed(filepath.Join(parent, "o2"), func(d *Dir) {
		time.Sleep(10 * time.Millisecond)
		write(t, filepath.Join(d.Path(), "f"), "THE WRITER'S BYTES")
	})
	p := filepath.Join(parent, "want")
	write(t, p, "THE WRITER'S BYTES")
	if sum, err := HashFile(p); err != nil || e.SHA256 != sum {
		t.Errorf("changed after Hashed: recorded %s, want %s (%v)", e.SHA256, sum, err)
	}
	d, err := Create(filepath.Join(parent, "o3"), "m", "test output")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Abort()
	if err := d.Hashed("missing", given); err == nil {
		t.Error("Hashed of a missing file: no error")
	}
}
