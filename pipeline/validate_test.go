package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A library caller of Run is refused as the command line is, before any
// work: options that cannot work are a *UsageError and nothing is
// written, not found after an ingest that may take an hour.
func TestRunValidatesBeforeWork(t *testing.T) {
	dir := t.TempDir()
	in := writeLog(t, dir, 25, 40)
	for _, c := range []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"sampler", func(c *Config) { c.Samplers = []string{"exp:"} }, "--sampler"},
		{"methods", func(c *Config) { c.Methods = []string{"M9"} }, "--methods"},
		{"cycle", func(c *Config) { c.Cycle = "7 fortnights" }, "--cycle"},
		{"budget", func(c *Config) { c.Budget = "-3" }, "--budget"},
		{"max visits", func(c *Config) { c.MaxVisits = 0 }, "--max-visits"},
		{"reps", func(c *Config) { c.Reps = 0 }, "--reps"},
		{"negative rate", func(c *Config) { c.Rate = -1 }, "--rate"},
		{"no output", func(c *Config) { c.Out = "" }, "-o OUT"},
	} {
		out := filepath.Join(dir, "out-"+strings.ReplaceAll(c.name, " ", "-"))
		cfg := testConfig(in, out)
		c.edit(&cfg)
		_, err := Run(context.Background(), cfg)
		var ue *UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want a *UsageError naming %s", c.name, err, c.want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%s: %s exists after the refusal (%v): work began", c.name, out, err)
		}
		if err := cfg.Validate(); err == nil {
			t.Errorf("%s: Validate accepts it", c.name)
		}
	}
	if err := testConfig(in, filepath.Join(dir, "ok")).Validate(); err != nil {
		t.Errorf("the test configuration is refused: %v", err)
	}
}
