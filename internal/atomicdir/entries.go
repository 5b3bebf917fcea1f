package atomicdir

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/revisit-dev/revisit/internal/pool"
)

// EntriesFile, in an output directory, lists every entry revisit wrote
// into it (Commit writes it): a JSON object {"tool": "revisit", "marker":
// the kind's marker file, "hash": "sha256", "entries": [{"path", "type",
// "size", "sha256", "ino", "mtime", "ctime"}…]} with paths relative to the
// directory, /-separated, in lexical order, types "dir", "file",
// "symlink" (with its "target") or "other", and for files their size, the
// SHA-256 of their content and the status a content change alters (inode
// number, modification and status-change times in nanoseconds; 0 where
// the system has none). The leading dot keeps it out of the way of tools
// that read a dataset directory's files (Arrow, Spark and DuckDB skip dot
// files).
//
// A file is unchanged when it has its recorded size and content. Hashing
// every file of a large output at every check would read it all, so a
// file whose inode, size and both times are as recorded is taken as
// unchanged without reading it: every ordinary way of changing a file's
// content changes one of them — a write sets both times (cp over an
// existing file keeps the inode, but not the times), a rename over it
// (sed -i, an editor's save) brings another inode, and the status-change
// time cannot be set back (touch -r, cp -p and rsync -t set the
// modification time only; any of them, and chmod, sets it to now) — but
// on tmpfs, where a write through a shared memory mapping sets no time,
// every file is hashed (stampFollowsContent). Any other file is hashed: a copy of the output, a file touched or written
// back with the same bytes, is accepted when its content is the same. A
// file whose recorded status-change time is not before the list was
// written is always hashed (git's "racily clean" rule): a change in the
// same tick of the file-system clock would keep its times.
//
// Lists of earlier revisit versions record sizes only ("hash" absent).
// Such an output is accepted when every file has its recorded size and
// none was changed after the list was written (its status-change time is
// not after the list's); otherwise it is refused, naming the files, since
// a same-size change cannot be told from revisit's own bytes.
const EntriesFile = ".revisit-entries.json"

// hashName names the content hash of an entry list.
const hashName = "sha256"

// maxEntries bounds how much of an entry list is read.
const maxEntries = 256 << 20

type entryList struct {
	Tool    string  `json:"tool"`
	Marker  string  `json:"marker"`
	Hash    string  `json:"hash,omitempty"` // "" in lists of earlier versions: sizes only
	Entries []entry `json:"entries"`
}

type entry struct {
	Path   string `json:"path"`
	Type   string `json:"type"`
	Size   int64  `json:"size,omitempty"`
	SHA256 string `json:"sha256,omitempty"`
	Target string `json:"target,omitempty"` // of a symlink
	stamp
}

// stamp is what a change of a file's content changes in its status
// (fileStamp): the inode number and the modification and status-change
// times (ns). The zero stamp is unknown.
type stamp struct {
	Ino   uint64 `json:"ino,omitempty"`
	MTime int64  `json:"mtime,omitempty"`
	CTime int64  `json:"ctime,omitempty"`
}

func (s stamp) known() bool { return s != stamp{} }

// entryType names the type of a directory entry.
func entryType(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "dir"
	case m.IsRegular():
		return "file"
	case m&fs.ModeSymlink != 0:
		return "symlink"
	}
	return "other"
}

// HashFile is the hex SHA-256 of the content of the file at p: the
// content hash of the entry lists, and of a generated dump in its truth
// file.
func HashFile(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// record describes the entry at p (relative path rel) as the list holds
// it: a file with its size, content hash and stamp (taken before it is
// read: a file that changes while it is hashed is an error, as nobody but
// the writer may touch a temporary output), a symlink with its target.
// The hash of a file in known with its size and stamp there is taken
// from known (Link, Hashed), not read.
func record(p, rel string, d fs.DirEntry, known map[string]recorded) (entry, error) {
	e := entry{Path: rel, Type: entryType(d.Type())}
	switch e.Type {
	case "file":
		info, err := os.Lstat(p)
		if err != nil {
			return e, err
		}
		e.Size, e.stamp = info.Size(), fileStamp(info)
		if k, ok := known[rel]; ok && e.stamp.known() && k.s == e.stamp && k.size == e.Size {
			e.SHA256 = k.sum
			return e, nil
		}
		if e.SHA256, err = HashFile(p); err != nil {
			return e, err
		}
		after, err := os.Lstat(p)
		if err != nil {
			return e, err
		}
		if after.Size() != e.Size || fileStamp(after) != e.stamp {
			return e, fmt.Errorf("%s changed while its entry was recorded", rel)
		}
	case "symlink":
		t, err := os.Readlink(p)
		if err != nil {
			return e, err
		}
		e.Target = t
	}
	return e, nil
}

// writeEntries writes EntriesFile into dir, listing everything else in it
// (record, the files hashed on every core, listed in lexical order; known
// gives the hashes of files linked from another output), and returns the
// list.
func writeEntries(ctx context.Context, dir, marker string, known map[string]recorded) (*entryList, error) {
	list := &entryList{Tool: "revisit", Marker: marker, Hash: hashName, Entries: []entry{}}
	type job struct {
		p, rel string
		d      fs.DirEntry
	}
	produce := func(ctx context.Context, send pool.Send[job]) error {
		return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, err := filepath.Rel(dir, p)
			if err != nil || rel == "." || rel == EntriesFile {
				return err
			}
			return send(job{p, filepath.ToSlash(rel), d}, 1)
		})
	}
	work := func(_ context.Context, j job) (entry, error) { return record(j.p, j.rel, j.d, known) }
	sink := func(e entry) error {
		list.Entries = append(list.Entries, e)
		return nil
	}
	if err := pool.Ordered(ctx, pool.Options{}, produce, work, sink); err != nil {
		return nil, err
	}
	return list, saveEntries(filepath.Join(dir, EntriesFile), list)
}

// saveEntries writes list to path, in a later tick of the file-system
// clock than every status-change time it records, so that a change made
// after it was written never keeps a file's recorded times (the racily
// clean files of EntriesFile are then only those of a list written by
// hand or copied): it writes the list again after a few milliseconds
// while its modification time is not later (the clock of file times
// moves in ticks of 1–10 ms).
func saveEntries(path string, list *entryList) error {
	b, err := json.Marshal(list)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	var last int64
	for _, e := range list.Entries {
		last = max(last, e.CTime)
	}
	for try := 0; ; try++ {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			return err
		}
		info, err := os.Lstat(path)
		if err != nil {
			return err
		}
		if s := fileStamp(info); !s.known() || s.MTime > last || try == 20 {
			return nil
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// restamp updates, after fill moved the top-level entries of an output
// into final (a rename sets a file's status-change time), the stamps of
// those files in list — only where the move is all that changed (same
// inode, size and modification time) — and writes the list anew through
// scratch, a directory beside final on its file system, renamed over the
// one in final. Without it those files would be hashed at every check.
func restamp(list *entryList, final, scratch string) error {
	changed := false
	for i := range list.Entries {
		e := &list.Entries[i]
		if e.Type != "file" || strings.Contains(e.Path, "/") || !e.stamp.known() {
			continue
		}
		info, err := os.Lstat(filepath.Join(final, filepath.FromSlash(e.Path)))
		if err != nil {
			continue
		}
		s := fileStamp(info)
		if s.Ino == e.Ino && s.MTime == e.MTime && info.Size() == e.Size && s.CTime != e.CTime {
			e.CTime = s.CTime
			changed = true
		}
	}
	if !changed {
		return nil
	}
	tmp := filepath.Join(scratch, EntriesFile)
	if err := saveEntries(tmp, list); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(final, EntriesFile))
}

// readEntries reads an entry list revisit wrote (a regular file, "tool"
// exactly "revisit") and the status of its file.
func readEntries(path string) (*entryList, os.FileInfo, bool) {
	b, ok := readRegular(path, maxEntries)
	if !ok || !isToolRevisit(b) {
		return nil, nil, false
	}
	var l entryList
	if json.Unmarshal(b, &l) != nil {
		return nil, nil, false
	}
	info, err := os.Lstat(path)
	if err != nil {
		return nil, nil, false
	}
	return &l, info, true
}

// foreignEntries walks dir (never following a symbolic link) and returns
// the entries the list does not name with the same type, and, for files,
// size and content (unchanged; symlinks: target): a directory the list
// does not name is given once, not its contents. listInfo is the status
// of the list's file.
func foreignEntries(dir string, list *entryList, listInfo os.FileInfo) ([]string, error) {
	known := make(map[string]entry, len(list.Entries))
	for _, e := range list.Entries {
		known[e.Path] = e
	}
	written := fileStamp(listInfo)
	follows := map[string]bool{} // stampFollowsContent of each directory
	var foreign []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil || rel == "." || rel == EntriesFile {
			return err
		}
		rel = filepath.ToSlash(rel)
		e, ok := known[rel]
		typ := entryType(d.Type())
		switch {
		case !ok || e.Type != typ:
			if typ == "dir" {
				foreign = append(foreign, rel+"/")
				return filepath.SkipDir
			}
			foreign = append(foreign, rel)
		case typ == "file":
			d := filepath.Dir(p)
			f, ok := follows[d]
			if !ok {
				f = stampFollowsContent(d)
				follows[d] = f
			}
			same, err := unchanged(p, e, list.Hash, written, f)
			if err != nil {
				return err
			}
			if !same {
				foreign = append(foreign, rel+" (changed)")
			}
		case typ == "symlink" && list.Hash != "":
			if t, err := os.Readlink(p); err != nil || t != e.Target {
				foreign = append(foreign, rel+" (changed)")
			}
		}
		return nil
	})
	return foreign, err
}

// unchanged reports whether the file p still holds what its entry e
// records (EntriesFile says how); hash is the list's ("": an earlier
// version's list, sizes only), written the stamp of the list's file, and
// follows whether p's file system changes a stamp with the content
// (stampFollowsContent): where it does not, the content is always read.
func unchanged(p string, e entry, hash string, written stamp, follows bool) (bool, error) {
	info, err := os.Lstat(p)
	if err != nil {
		return false, err
	}
	if info.Size() != e.Size {
		return false, nil
	}
	if hash == "" {
		// Sizes only: unchanged if its status did not change after the
		// list was written; unknown (no times here): refused.
		now := fileStamp(info)
		return now.known() && written.known() && now.CTime <= written.CTime, nil
	}
	if fastUnchanged(info, e, written, follows) {
		return true, nil
	}
	sum, err := HashFile(p)
	if err != nil {
		return false, err
	}
	return sum == e.SHA256, nil
}

// fastUnchanged reports whether the file whose status is info is
// unchanged since its entry e was recorded by its status alone (the fast
// path of unchanged, EntriesFile says why it holds): its size and stamp
// are as recorded, recorded before the list was written (written: the
// stamp of the list's file), on a file system whose stamps follow the
// content (follows).
func fastUnchanged(info os.FileInfo, e entry, written stamp, follows bool) bool {
	now := fileStamp(info)
	return follows && info.Size() == e.Size && now.known() && now == e.stamp && e.CTime < written.MTime
}
