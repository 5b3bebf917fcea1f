package dataset

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/revisit-dev/revisit/internal/atomicdir"
)

// The output's entry list records each part file with the hash the
// writer took as it wrote it (atomicdir.Dir.Hashed, not read again): the
// SHA-256 of the file's bytes, read here independently, and the
// manifest's.
func TestEntryListHashOfParts(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ds")
	writeParts(t, dir, 3, 30)
	m, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, atomicdir.EntriesFile))
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Entries []struct{ Path, SHA256 string }
	}
	if err := json.Unmarshal(b, &list); err != nil {
		t.Fatal(err)
	}
	listed := map[string]string{}
	for _, e := range list.Entries {
		listed[e.Path] = e.SHA256
	}
	for i, st := range m.PartPages {
		name := PartFile(i, 3)
		content, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(content)
		want := hex.EncodeToString(sum[:])
		if listed[name] != want || st.SHA256 != want {
			t.Errorf("%s: entry list %q, manifest %q, want the SHA-256 of its bytes %s", name, listed[name], st.SHA256, want)
		}
	}
	if len(m.PartPages) != 3 {
		t.Errorf("%d parts in the manifest, want 3", len(m.PartPages))
	}
}
