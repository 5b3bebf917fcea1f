package pipeline

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/ingest"
	"github.com/revisit-dev/revisit/internal/console"
	"github.com/revisit-dev/revisit/internal/usage"
)

// commandConfig is testConfig as run's command line gives it: the ingest
// flags at their defaults.
func commandConfig(in, out string) CommandOptions {
	c := CommandOptions{Config: testConfig(in, out)}
	c.Ingest.Options = c.Config.Ingest
	c.Ingest.NamespacesText, c.Ingest.RevertRadius = "0", ingest.DefaultRevertRadius
	c.Ingest.MaxRevisionsPerPage, c.Ingest.MaxLineBytes = ingest.DefaultMaxRevisionsPerPage, ingest.DefaultMaxLineBytes
	return c
}

// Command refuses, before any work and printing nothing, the run's bad
// options, an ingest option given with a dataset as input, bad ingest
// flags and a bad --unit, each in the command line's words; Validate
// refuses the same.
func TestCommandRefusesBeforeWork(t *testing.T) {
	dir := t.TempDir()
	in := writeLog(t, dir, 2, 3)
	ds := filepath.Join(dir, "ds")
	if _, err := ingest.Run(context.Background(), ingest.Options{Inputs: []string{in}, Output: ds, Generic: commandConfig(in, "").Ingest.Generic}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		edit func(*CommandOptions)
		want string
	}{
		{func(c *CommandOptions) { c.Inputs = nil }, "run: no INPUT given"},
		{func(c *CommandOptions) { c.Seeds = 0 }, "run: --screen-updates, --reps, --seeds and --nhpp-pages must be at least 1"},
		{func(c *CommandOptions) { c.Inputs, c.IngestFlag = []string{ds}, "namespaces" },
			"run: --namespaces is an ingest option, but " + ds + " is a dataset (ingest is skipped): ingest again with 'revisit ingest --namespaces …' instead"},
		{func(c *CommandOptions) { c.Ingest.SinceText = "soon" }, `run: --since: "soon" is not RFC 3339 (2006-01-02T15:04:05Z) or a date (2006-01-02)`},
		{func(c *CommandOptions) { c.Ingest.MinUpdates = -1 }, "ingest: min updates -1 < 0"},
		{func(c *CommandOptions) { c.UnitText = "fortnight" }, "run: --unit: "},
	} {
		out := filepath.Join(dir, "out")
		cfg := commandConfig(in, out)
		c.edit(&cfg)
		vcfg := cfg
		verr := vcfg.Validate()
		var o, e bytes.Buffer
		err := Command(context.Background(), cfg, console.Console{Out: &o, Err: &e})
		if verr == nil || err == nil || verr.Error() != err.Error() {
			t.Errorf("Validate: %v, Command: %v, want the same refusal", verr, err)
		}
		if !usage.Is(err) || !strings.HasPrefix(err.Error(), c.want) || (!strings.HasSuffix(c.want, ": ") && err.Error() != c.want) {
			t.Errorf("%v, want bad usage %q", err, c.want)
		}
		if o.Len()+e.Len() != 0 {
			t.Errorf("%q: printed %q, %q", c.want, o.String(), e.String())
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%q: %s exists (%v): work began", c.want, out, err)
		}
	}
}

// Command prints the stages and the time taken on standard error and the
// report's index.html on standard output, and nothing under -q.
func TestCommandPrints(t *testing.T) {
	dir := t.TempDir()
	in := writeLog(t, dir, 25, 40)
	out := filepath.Join(dir, "out")
	var o, e bytes.Buffer
	if err := Command(context.Background(), commandConfig(in, out), console.Console{Out: &o, Err: &e}); err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(out, "report", "index.html") + "\n"; o.String() != want {
		t.Errorf("standard output %q, want %q", o.String(), want)
	}
	done := regexp.MustCompile(`(?m)^revisit run: done in [0-9.]+m?s: [0-9]+ tables, [0-9]+ figures\n\z`)
	if s := e.String(); !strings.HasPrefix(s, "revisit run: [1/7] ingest ") || !done.MatchString(s) {
		t.Errorf("standard error:\n%s", s)
	}

	o.Reset()
	e.Reset()
	if err := Command(context.Background(), commandConfig(filepath.Join(out, "dataset"), filepath.Join(dir, "quiet")), console.Console{Out: &o, Err: &e, Quiet: true}); err != nil {
		t.Fatal(err)
	}
	if o.Len()+e.Len() != 0 {
		t.Errorf("-q printed %q, %q", o.String(), e.String())
	}
}

// The page selection is built after the run's and ingest's options are
// checked, as before any work: an unreadable --pages file with a bad
// flag is bad usage (the flag, exit 2), not the file's error (exit 1);
// alone, it is the file's error, named.
func TestCommandSelectionAfterOptions(t *testing.T) {
	dir := t.TempDir()
	in := writeLog(t, dir, 2, 3)
	missing := filepath.Join(dir, "no-such-pages.txt")
	cfg := commandConfig(in, filepath.Join(dir, "out"))
	cfg.Selection.Pages = missing
	cfg.Ingest.SinceText = "soon"
	var o, e bytes.Buffer
	if err := Command(context.Background(), cfg, console.Console{Out: &o, Err: &e}); !usage.Is(err) || !strings.Contains(err.Error(), "--since") {
		t.Errorf("bad --since with an unreadable --pages: %v, want bad usage naming --since", err)
	}
	cfg.Ingest.SinceText = ""
	err := Command(context.Background(), cfg, console.Console{Out: &o, Err: &e})
	if err == nil || usage.Is(err) || !strings.HasPrefix(err.Error(), "run: ") || !strings.Contains(err.Error(), missing) {
		t.Errorf("unreadable --pages alone: %v, want bad input naming %s", err, missing)
	}
}
