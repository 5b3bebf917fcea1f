package atomicdir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The refusal of a directory that is not the output names it with its
// article: "is not an estimate output" (it read "a estimate output",
// "a analysis output").
func TestRefusalArticle(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "mine.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	for what, want := range map[string]string{"estimate output": "is not an estimate output", "replay output": "is not a replay output", "analysis output": "is not an analysis output"} {
		if err := CheckReplaceable(dir, "estimate.json", what); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", what, err, want)
		}
	}
}
