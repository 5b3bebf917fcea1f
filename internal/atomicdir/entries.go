package atomicdir

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
)

// EntriesFile, in an output directory, lists every entry revisit wrote
// into it (Commit writes it): a JSON object {"tool": "revisit", "marker":
// the kind's marker file, "entries": [{"path", "type", "size"}…]} with
// paths relative to the directory, /-separated, in lexical order, types
// "dir", "file", "symlink" or "other", and sizes in bytes of the files.
// The leading dot keeps it out of the way of tools that read a dataset
// directory's files (Arrow, Spark and DuckDB skip dot files).
const EntriesFile = ".revisit-entries.json"

// maxEntries bounds how much of an entry list is read.
const maxEntries = 256 << 20

type entryList struct {
	Tool    string  `json:"tool"`
	Marker  string  `json:"marker"`
	Entries []entry `json:"entries"`
}

type entry struct {
	Path string `json:"path"`
	Type string `json:"type"`
	Size int64  `json:"size,omitempty"`
}

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

// writeEntries writes EntriesFile into dir, listing everything else in it.
func writeEntries(dir, marker string) error {
	list := entryList{Tool: "revisit", Marker: marker, Entries: []entry{}}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil || rel == "." || rel == EntriesFile {
			return err
		}
		e := entry{Path: filepath.ToSlash(rel), Type: entryType(d.Type())}
		if e.Type == "file" {
			info, err := d.Info()
			if err != nil {
				return err
			}
			e.Size = info.Size()
		}
		list.Entries = append(list.Entries, e)
		return nil
	})
	if err != nil {
		return err
	}
	b, err := json.Marshal(&list)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, EntriesFile), append(b, '\n'), 0o644)
}

// readEntries reads an entry list revisit wrote (a regular file, "tool"
// exactly "revisit").
func readEntries(path string) (*entryList, bool) {
	b, ok := readRegular(path, maxEntries)
	if !ok || !isToolRevisit(b) {
		return nil, false
	}
	var l entryList
	if json.Unmarshal(b, &l) != nil {
		return nil, false
	}
	return &l, true
}

// foreignEntries walks dir (never following a symbolic link) and returns
// the entries the list does not name with the same type and, for files,
// size: a directory the list does not name is given once, not its
// contents.
func foreignEntries(dir string, list *entryList) ([]string, error) {
	known := make(map[string]entry, len(list.Entries))
	for _, e := range list.Entries {
		known[e.Path] = e
	}
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
			info, err := d.Info()
			if err != nil {
				return err
			}
			if info.Size() != e.Size {
				foreign = append(foreign, rel+" (changed)")
			}
		}
		return nil
	})
	return foreign, err
}
