package dataset

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
)

// Identity is a digest that tells one dataset from another stored at the
// same path: the SHA-256 of manifest.json's bytes (which hold the
// creation time, the inputs' SHA-256 and every count), then of the name
// and size of each Parquet file in read order (the manifest does not list
// them), in hex. Shards replayed or analyzed from the same dataset carry
// the same identity; a dataset written again at the path, even from the
// same inputs, has another.
func (r *Reader) Identity() (string, error) {
	b, err := os.ReadFile(filepath.Join(r.Dir, ManifestFile))
	if err != nil {
		return "", fmt.Errorf("dataset %s: %w", r.Dir, err)
	}
	h := sha256.New()
	h.Write(b)
	for _, f := range r.all {
		st, err := os.Stat(f)
		if err != nil {
			return "", fmt.Errorf("dataset %s: %w", r.Dir, err)
		}
		fmt.Fprintf(h, "\x00%s\x00%d", filepath.Base(f), st.Size())
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
