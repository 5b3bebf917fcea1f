package dataset

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Identity is a digest that tells one dataset from another stored at the
// same path: the SHA-256 of manifest.json's bytes (which hold the
// creation time, the inputs' SHA-256 and every count), then of the name
// and size of each Parquet file in read order (the manifest does not list
// them), in hex. Shards replayed or analyzed from the same dataset carry
// the same identity; a dataset written again at the path, even from the
// same inputs, has another. A part file that is not there (OpenPartial:
// a node holding only its own shard's parts) counts with the size the
// manifest records for it, so that every shard agrees; a manifest
// written before part sizes were recorded cannot stand in for it.
func (r *Reader) Identity() (string, error) {
	b, err := os.ReadFile(filepath.Join(r.Dir, ManifestFile))
	if err != nil {
		return "", fmt.Errorf("dataset %s: %w", r.Dir, err)
	}
	h := sha256.New()
	h.Write(b)
	size := map[string]int64{}
	for _, f := range r.all {
		st, err := os.Stat(f)
		if err != nil {
			return "", fmt.Errorf("dataset %s: %w", r.Dir, err)
		}
		size[f] = st.Size()
	}
	files := slices.Clone(r.all)
	m := r.Manifest
	for _, f := range r.absent {
		j := -1
		for k := range m.Parts {
			if filepath.Join(r.Dir, PartFile(k, m.Parts)) == f {
				j = k
				break
			}
		}
		if j < 0 || j >= len(m.PartPages) || m.PartPages[j].Bytes == 0 {
			return "", fmt.Errorf("dataset %s: part file %s is not here and manifest.json, written before part sizes were recorded, does not say its size: give this shard every part, or ingest the dataset again", r.Dir, filepath.Base(f))
		}
		size[f] = m.PartPages[j].Bytes
		files = append(files, f)
	}
	// read order: pages.parquet first, then the part files by name (Open)
	slices.SortFunc(files, func(a, b string) int {
		pa, pb := filepath.Base(a) == PagesFile, filepath.Base(b) == PagesFile
		switch {
		case pa != pb && pa:
			return -1
		case pa != pb:
			return 1
		}
		return strings.Compare(a, b)
	})
	for _, f := range files {
		fmt.Fprintf(h, "\x00%s\x00%d", filepath.Base(f), size[f])
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
