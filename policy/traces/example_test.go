package traces_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/revisit-dev/revisit/policy/traces"
)

// A git history in the derived CSV layout: one page per file, grouped by
// its top-level directory, updates at the commit times (sorted, unique).
func ExampleGitFiles() {
	dir, _ := os.MkdirTemp("", "traces")
	defer os.RemoveAll(dir)
	name := filepath.Join(dir, "file_commits.csv")
	os.WriteFile(name, []byte(`path,commit,author_time_utc,commit_time_utc
aws/s3.txt,c3,2024-01-03T00:00:00Z,2024-01-03T00:00:00Z
README.md,c2,2024-01-02T00:00:00Z,2024-01-02T00:00:00Z
aws/s3.txt,c1,2024-01-01T00:00:00Z,2024-01-01T00:00:00Z
`), 0o644)
	pages, err := traces.GitFiles(name)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range pages {
		fmt.Println(p.Title, p.Group, p.Updates)
	}
	// Output:
	// aws/s3.txt aws [1704067200 1704240000]
	// README.md . [1704153600]
}
