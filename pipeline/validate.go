package pipeline

import (
	"fmt"
	"os"

	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/policy"
)

// Validate refuses, before any work, a run whose options cannot work: no
// input or output, a negative rate, bin width, window or page count, caps
// and replicate counts below 1, a sampler, method list, cycle or budget
// that does not parse (*UsageError), and an --include that is not a
// directory (bad input). Run calls it first, so a library caller is
// refused as the command line is, not after an ingest that may take an
// hour.
func (c Config) Validate() error {
	switch {
	case len(c.Inputs) == 0:
		return usagef("run: no INPUT given")
	case c.Out == "":
		return usagef("run: -o OUT is required")
	case !(c.Rate >= 0) || !(c.H >= 0) || !(c.XMax >= 0) || c.Top < 0 || c.Sample < 0:
		return usagef("run: --rate, --h and --x-max must be ≥ 0 (0: automatic), --top and --sample ≥ 0")
	case c.MaxVisits < 1 || c.MaxPairs < 1:
		return usagef("run: --max-visits and --max-pairs must be ≥ 1")
	case c.ScreenUpdates < 1 || c.Reps < 1 || c.Seeds < 1 || c.NHPPPages < 1:
		return usagef("run: --screen-updates, --reps, --seeds and --nhpp-pages must be at least 1")
	case c.PolicyMax < 0 || c.Workers < 0:
		return usagef("run: --policy-max-updates and --workers must be ≥ 0")
	}
	for _, s := range c.Samplers {
		if _, err := estimator.ParseSampler(s); err != nil {
			return usagef("run: --sampler %q: %v", s, err)
		}
	}
	if _, err := estimator.ParseMethods(c.Methods); err != nil {
		return usagef("run: --methods: %v", err)
	}
	for _, d := range c.Include {
		if st, err := os.Stat(d); err != nil {
			return fmt.Errorf("run: --include: %w", err)
		} else if !st.IsDir() {
			return fmt.Errorf("run: --include %s is not a directory (give a results directory, e.g. what revisit simulate -o wrote)", d)
		}
	}
	if c.Cycle != "" {
		if _, err := units.ParseDuration(c.Cycle); err != nil {
			return usagef("run: --cycle: %v", err)
		}
	}
	if _, err := policy.ParseBudget(c.Budget); err != nil { // its form; the pages are counted after ingest
		return usagef("run: --budget: %v", err)
	}
	return nil
}
