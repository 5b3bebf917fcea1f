package main

import (
	"os"
	"os/exec"
	"testing"
)

// revisit has non-unix variants of its platform files (supervise_other.go,
// atomicdir's lock_other.go and exchange_other.go): the command must
// type-check for Windows too, not only where it is developed.
func TestBuildsForWindows(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-compiles the command")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool")
	}
	c := exec.Command(gobin, "vet", ".")
	c.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0")
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("GOOS=windows go vet: %v\n%s", err, out)
	}
}
