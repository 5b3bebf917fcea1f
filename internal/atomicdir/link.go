package atomicdir

import (
	"io"
	"os"
	"path/filepath"
)

// recorded is a file of the temporary directory whose content is known
// without reading it (Link, Hashed): its content hash, and the size and
// stamp it had when the hash was taken over. record takes the hash only while the
// file still has that size and stamp, so a change after the link or the
// writer's close (which sets the status-change time) makes it read the
// file.
type recorded struct {
	size int64
	s    stamp
	sum  string
}

// inputList is the entry list of a directory Link takes files from, by
// path, with what the fast path of unchanged needs.
type inputList struct {
	entries map[string]entry
	written stamp
	follows bool
}

// Link makes name (a path relative to the temporary directory) a hard
// link to the file src, or a copy of it where they are on different file
// systems. When src is a file of an output revisit wrote, in the
// directory of its entry list, and untouched by the rule of the check
// (unchanged: inode, size and both times as recorded, the list written
// after them, a file system whose stamps follow the content), the link is
// the recorded content, and Commit records the list's hash for it instead
// of reading the file again. The link itself sets the status-change time,
// so the inode, size and modification time must also be the same after
// it as before.
func (d *Dir) Link(src, name string) error {
	dst := filepath.Join(d.tmp, name)
	before, statErr := os.Lstat(src)
	if err := os.Link(src, dst); err != nil {
		return copyFile(src, dst)
	}
	if statErr != nil || !before.Mode().IsRegular() {
		return nil
	}
	sum, ok := d.recordedHash(src, before)
	if !ok {
		return nil
	}
	after, err := os.Lstat(dst)
	if err != nil {
		return err
	}
	b, a := fileStamp(before), fileStamp(after)
	if a.Ino != b.Ino || a.MTime != b.MTime || after.Size() != before.Size() {
		return nil
	}
	if d.known == nil {
		d.known = map[string]recorded{}
	}
	d.known[filepath.ToSlash(name)] = recorded{size: after.Size(), s: a, sum: sum}
	return nil
}

// Hashed gives Commit the content hash (hex SHA-256, hashName) of name, a
// file of the temporary directory that its writer hashed as it wrote it
// and has closed, so that Commit records it instead of reading the file
// again. The file's size and stamp are taken now: a change after Hashed
// makes Commit read the file, as after Link. A file whose stamp is unknown
// (a system without one) is read.
func (d *Dir) Hashed(name, sum string) error {
	info, err := os.Lstat(filepath.Join(d.tmp, name))
	if err != nil {
		return err
	}
	s := fileStamp(info)
	if !info.Mode().IsRegular() || !s.known() {
		return nil
	}
	if d.known == nil {
		d.known = map[string]recorded{}
	}
	d.known[filepath.ToSlash(name)] = recorded{size: info.Size(), s: s, sum: sum}
	return nil
}

// recordedHash is the content hash the entry list beside src records for
// it, when src (whose status is info) is unchanged by the fast path of
// the check (fastUnchanged).
func (d *Dir) recordedHash(src string, info os.FileInfo) (string, bool) {
	dir := filepath.Dir(src)
	in, ok := d.inputs[dir]
	if !ok {
		if list, listInfo, ok := readEntries(filepath.Join(dir, EntriesFile)); ok && list.Hash == hashName {
			in = &inputList{entries: make(map[string]entry, len(list.Entries)), written: fileStamp(listInfo), follows: stampFollowsContent(dir)}
			for _, e := range list.Entries {
				in.entries[e.Path] = e
			}
		}
		if d.inputs == nil {
			d.inputs = map[string]*inputList{}
		}
		d.inputs[dir] = in
	}
	if in == nil {
		return "", false
	}
	e, ok := in.entries[filepath.Base(src)]
	if !ok || e.Type != "file" || e.SHA256 == "" || !fastUnchanged(info, e, in.written, in.follows) {
		return "", false
	}
	return e.SHA256, true
}

// copyFile copies the content of the file src to a new file dst.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
