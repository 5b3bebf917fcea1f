package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/estimates"
)

// Every command checks its usage before it reads any input: a bad flag is
// exit 2 (the README's "bad usage"), the -o path is not created, and the
// input is not looked at. The inputs here do not exist (or hold nothing
// readable), so a command that read them first would fail with exit 1
// naming them; with good flags (the last rows) that is what happens.
func TestUsageCheckedBeforeWork(t *testing.T) {
	usage := readmeCode(t, "bad usage")
	dir := t.TempDir()
	nx := filepath.Join(dir, "NX") // no such input
	// fake looks like a replay output (schedule reads it as one) and
	// holds nothing readable.
	fake := filepath.Join(dir, "fake")
	os.MkdirAll(fake, 0o755)
	os.WriteFile(filepath.Join(fake, estimates.File), []byte("not parquet"), 0o644)
	for _, c := range []struct {
		args []string
		code int // usage, or exitBadInput for good flags
	}{
		{[]string{"ingest", nx, "--format", "bogus"}, usage},
		{[]string{"ingest", nx, "--time-layout", "bogus"}, usage},
		{[]string{"ingest", nx, "--max-line-bytes", "0"}, usage},
		{[]string{"ingest", nx, "--max-revisions-per-page", "0"}, usage},
		{[]string{"ingest", nx, "--skip-lines", "-1"}, usage},
		{[]string{"run", nx, "--format", "bogus"}, usage},
		{[]string{"run", nx, "--seeds", "0"}, usage},
		{[]string{"run", nx, "--nhpp-pages", "0"}, usage},
		{[]string{"run", nx, "--workers", "-1"}, usage},
		{[]string{"run", nx, "--methods", "bogus"}, usage},
		{[]string{"run", nx, "--sampler", "bogus"}, usage},
		{[]string{"run", nx, "--budget", "5x"}, usage},
		{[]string{"replay", nx, "--seeds", "0"}, usage},
		{[]string{"replay", nx, "--methods", "bogus"}, usage},
		{[]string{"replay", nx, "--sampler", "bogus"}, usage},
		{[]string{"estimate", nx, "--key", "bogus"}, usage},
		{[]string{"estimate", nx, "--top", "0"}, usage},
		{[]string{"estimate", nx, "--methods", "bogus"}, usage},
		{[]string{"estimate", nx, "--format", "bogus"}, usage},
		{[]string{"analyze", nx, "--x-max", "-1"}, usage},
		{[]string{"analyze", nx, "--aggregate-max", "0"}, usage},
		{[]string{"analyze", nx, "--select-max", "0"}, usage},
		{[]string{"policies", nx, "--cycle", "7d", "--budget", "5x"}, usage},
		{[]string{"policies", nx, "--cycle", "7d", "--budget", "5", "--budgets", "0"}, usage},
		{[]string{"policies", nx, "--cycle", "7d", "--budget", "5", "--policies", "bogus"}, usage},
		{[]string{"schedule", fake, "--budget", "30/d", "--method", "bogus"}, usage},
		{[]string{"schedule", fake, "--budget", "30/d", "--method", "all"}, usage},
		{[]string{"schedule", fake, "--budget", "30/d", "--sampler", "bogus"}, usage},
		{[]string{"schedule", fake, "--budget", "30/d", "--plans", "bogus"}, usage},
		{[]string{"schedule", fake, "--budget", "30x"}, usage},
		{[]string{"schedule", "--validate", nx, "--budget", "30/d", "--sampler", "bogus"}, usage},
		{[]string{"schedule", "--validate", nx, "--budget", "30/d", "--sampler", "const:1", "--method", "bogus"}, usage},
		{[]string{"simulate", "--workers", "-1"}, usage},
		{[]string{"simulate", "--methods", "bogus"}, usage},
		{[]string{"generate", "--gzip-impl", "bogus"}, usage},
		{[]string{"generate", "--format", "bogus"}, usage},
		{[]string{"merge", "bogus", nx, nx}, usage},
		// good flags: the input is read, and is bad
		{[]string{"run", nx, "--budget", "5000"}, exitBadInput}, // a count is compared with the pages after ingest
		{[]string{"schedule", fake, "--budget", "30/d", "--method", "m4", "--sampler", "observed const:1"}, exitBadInput},
		{[]string{"estimate", nx, "--key", "url"}, exitBadInput},
		{[]string{"ingest", nx, "--format", "mediawiki-history"}, exitBadInput},
	} {
		name := strings.Join(c.args, " ")
		t.Run(name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "new", "out")
			args := append(append([]string{"-q"}, c.args...), "-o", out)
			if c.args[0] == "generate" {
				args = append(args[:len(args)-1], out+".xml")
			}
			code, msg := stderrOf(t, args...)
			if code != c.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, c.code, msg)
			}
			if c.code == usage && (strings.Contains(msg, nx) || strings.Contains(msg, "not parquet")) {
				t.Errorf("the input was read before the usage was checked:\n%s", msg)
			}
			if _, err := os.Lstat(filepath.Dir(out)); !os.IsNotExist(err) {
				t.Errorf("%s was created (%v)", filepath.Dir(out), err)
			}
		})
	}
}
