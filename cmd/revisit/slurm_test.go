package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The Slurm examples of docs/scale-out.md run for real: scripts/slurm-test.sh
// starts a single-node Slurm (installing Debian's packages when missing),
// submits docs/slurm/pipeline.sh (a replay job array, its merge, an analyze
// job array, its merge) with 3 shards, and compares the merged outputs with
// one process's byte for byte. Where Slurm cannot be installed or started
// (not root, no apt-get, no network to the Debian mirror) the script exits
// 77 and the test is skipped with its reason.
func TestSlurmJobArrays(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Slurm controller and node")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool to build the binary the jobs run")
	}
	bin := filepath.Join(t.TempDir(), "revisit")
	if out, err := exec.Command(gobin, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var out bytes.Buffer
	c := exec.Command("bash", filepath.Join("..", "..", "scripts", "slurm-test.sh"), bin, "3")
	c.Stdout, c.Stderr = &out, &out
	err = c.Run()
	t.Logf("scripts/slurm-test.sh:\n%s", out.String())
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee) && ee.ExitCode() == 77:
		t.Skip("Slurm could not be set up here (see the log above)")
	default:
		t.Fatalf("scripts/slurm-test.sh: %v", err)
	}
	_ = os.Remove(bin)
}
