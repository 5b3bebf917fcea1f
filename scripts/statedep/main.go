// Command statedep runs the state-dependent revisit-timing experiment
// (docs/methods.md#schedule-statedep) on a dataset: `revisit schedule
// --validate` with the experiment's rows, which the command does not
// offer (docs/methods.md#schedule-statedep says why;
// docs/schedule-results.md has the measurements). It prints the experiment's tables and, with -o, writes every
// table of the validation there (tables/*.json) for jq.
//
// Usage: go run ./scripts/statedep --sampler SPEC --budget B[/d|/h] [flags] DATASET
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/schedule"
)

// errUsage marks a bad command line (exit 2).
var errUsage = errors.New("usage")

func main() {
	err := run(os.Args[1:], os.Stdout)
	switch {
	case errors.Is(err, errUsage):
		fmt.Fprintln(os.Stderr, "statedep:", err)
		os.Exit(2)
	case err != nil:
		fmt.Fprintln(os.Stderr, "statedep:", err)
		os.Exit(1)
	}
}

func run(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("statedep", flag.ContinueOnError)
	sampler := fs.String("sampler", "", "the blind crawler's sampler (replay's syntax, a fixed step: const:D or exp:R)")
	budget := fs.String("budget", "", "total visits per day (or R/h)")
	seeds := fs.Int("seeds", 5, "seeds (1, 2, …)")
	origins := fs.Int("origins", 3, "splits (rolling origins)")
	train := fs.Float64("train", 0.5, "fraction of the span used for training at the first split")
	plans := fs.String("plans", "", "constant-rate plans to compare with (comma-separated; default all)")
	unit := fs.String("unit", "h", "time unit of the estimates")
	rules := fs.String("rules", "backoff", "families of state-dependent rules besides constant timing: backoff, threshold, both comma-separated, or none")
	out := fs.String("o", "", "write every table of the validation to this new directory")
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() != 1 || *sampler == "" || *budget == "" {
		return fmt.Errorf("%w: statedep --sampler SPEC --budget B [--seeds N --origins K --train F --plans P --rules R --unit U -o DIR] DATASET", errUsage)
	}
	b, err := schedule.ParseRate(*budget)
	if err != nil {
		return fmt.Errorf("%w: --budget: %v", errUsage, err)
	}
	u, err := units.ParseUnit(*unit)
	if err != nil {
		return fmt.Errorf("%w: --unit: %v", errUsage, err)
	}
	var names []string
	if *plans != "" {
		names = strings.Split(*plans, ",")
	}
	if names, err = schedule.ParsePlans(names); err != nil {
		return fmt.Errorf("%w: --plans: %v", errUsage, err)
	}
	if *seeds < 1 || *origins < 1 || !(*train > 0 && *train < 1) {
		return fmt.Errorf("%w: --seeds and --origins must be ≥ 1, --train in (0, 1)", errUsage)
	}
	if err := schedule.CheckCrawler(*sampler, ""); err != nil {
		return fmt.Errorf("%w: --sampler: %v", errUsage, err)
	}
	if err := schedule.CheckStateDep(*rules); err != nil {
		return fmt.Errorf("%w: --rules: %v", errUsage, err)
	}
	if *out != "" {
		if _, err := os.Lstat(*out); err == nil {
			return fmt.Errorf("%w: -o %s exists: give a new directory", errUsage, *out)
		}
	}
	dir := fs.Arg(0)
	ds, err := dataset.Open(dir)
	if err != nil {
		return err
	}
	pages, err := ds.All()
	if err != nil {
		return err
	}
	seedList := make([]uint64, *seeds)
	for i := range seedList {
		seedList[i] = uint64(i + 1)
	}
	v, err := schedule.Validate(context.Background(), pages, schedule.ValidateOptions{
		Options: schedule.Options{Budget: b, Plans: names, Prior: true, Sweep: []float64{}},
		Sampler: *sampler, Train: *train, Origins: *origins, Seeds: seedList, Unit: u, Dataset: dir, StateDep: *rules,
	})
	if err != nil {
		return err
	}
	bundle := v.Bundle()
	for _, t := range bundle.Tables {
		if strings.HasPrefix(t.ID, "schedule_validation_statedep") {
			if err := tables.Fprint(w, t); err != nil {
				return err
			}
		}
	}
	if *out == "" {
		return nil
	}
	// Written to a new directory beside it, renamed when complete.
	tmp, err := os.MkdirTemp(filepath.Dir(*out), "."+filepath.Base(*out)+"-*.tmp")
	if err != nil {
		return err
	}
	if err := bundle.Write(tmp); err != nil {
		os.RemoveAll(tmp) // ours: made just above
		return err
	}
	if err := os.Rename(tmp, *out); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	return nil
}
