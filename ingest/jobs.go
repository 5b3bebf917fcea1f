package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/internal/atomicdir"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/supervise"
)

// JobsOptions configure RunJobs.
type JobsOptions struct {
	Exe    string   // the revisit program each input's child process runs
	Inputs []string // one child each
	Out    string   // the dataset written
	Jobs   int      // children at a time (K)
	// Args are the flags that give each child the settings of the
	// parent's ingest, all but -o, --jobs and -q.
	Args []string
}

// JobsSummary is what RunJobs did, as one ingest says it (String).
type JobsSummary struct {
	Inputs, Jobs int
	Elapsed      time.Duration
	Out          string
	Counts       dataset.Counts // the joined manifest's
}

// RunJobs ingests several inputs in parallel (ingest --jobs K): each input
// is read by its own child process ('revisit ingest INPUT' with the same
// flags), at most o.Jobs at a time, into a temporary dataset beside o.Out;
// when all succeeded, dataset.Combine joins them into o.Out without
// re-encoding (hard links). Each process keeps ingest's memory bound (≤ 256
// MiB), so K jobs use at most K times that. Inputs must hold disjoint pages
// (the parts of a Wikipedia dump do): Combine refuses a page id found in
// two of them, and Yelp files are refused since their business file must
// be read with the reviews it names. On any failure or cancellation of ctx
// the other children are stopped and nothing is left at o.Out.
func RunJobs(ctx context.Context, o JobsOptions) (*JobsSummary, error) {
	inputs, out, jobs := o.Inputs, o.Out, o.Jobs
	for _, in := range inputs {
		if in == "-" {
			return nil, &OptionError{Err: errors.New("ingest: --jobs reads each input in its own process: standard input (-) cannot be one of them")}
		}
	}
	if err := atomicdir.CheckReplaceable(out, dataset.ManifestFile, "dataset"); err != nil {
		return nil, &OptionError{Err: fmt.Errorf("ingest: %v", err)}
	}
	parent := ctx
	// .NAME.jobs-DIGITS, not named like atomicdir's temporary directories
	// (.NAME.tmp-DIGITS): Combine's atomicdir.Create removes those as
	// leftovers of killed runs, and this one is in use until Combine is
	// done. It is removed on every way out but kill -9, and then by the
	// next ingest --jobs of the same output (atomicdir.Scratch).
	tmp, done, err := atomicdir.Scratch(out, "jobs", "ingest --jobs: dataset")
	if err != nil { // another ingest --jobs of out (ErrBusy), like a second writer of any output
		return nil, fmt.Errorf("ingest: %w", err)
	}
	defer done()

	start := time.Now()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	parts := make([]string, len(inputs))
	errs := make([]error, len(inputs))
	sem := make(chan struct{}, jobs)
	var wg sync.WaitGroup
	for i, in := range inputs {
		parts[i] = filepath.Join(tmp, fmt.Sprintf("part-%05d", i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				errs[i] = ctx.Err()
				return
			}
			defer func() { <-sem }()
			if ctx.Err() != nil {
				errs[i] = ctx.Err()
				return
			}
			args := append(append([]string{"-q", "ingest", "-o", parts[i]}, o.Args...), "--", in) // -- : an input named -x is not a flag
			c := exec.CommandContext(ctx, o.Exe, args...)
			c.Stdin, c.Stdout, c.Stderr = nil, io.Discard, os.Stderr
			c.Env = append(os.Environ(), supervise.Env+"=1", supervise.JobChildEnv+"=1") // the child does the work itself
			c.Cancel = func() error { return c.Process.Signal(syscall.SIGTERM) }
			c.WaitDelay = 10 * time.Second
			supervise.StopWithParent(c) // kill -9 of this process stops the children too
			if err := c.Run(); err != nil {
				if ctx.Err() != nil {
					// Stopped because another child failed (or Ctrl-C):
					// not this input's failure (exec reports the child's
					// exit status here, not the cancellation).
					errs[i] = context.Canceled
					return
				}
				errs[i] = childError(in, err)
				cancel() // stop the others: the dataset cannot be complete
			}
		}()
	}
	wg.Wait()
	if parent.Err() != nil { // Ctrl-C or SIGTERM
		return nil, fmt.Errorf("ingest: nothing written to %s: %w", out, context.Canceled)
	}
	for i, err := range errs { // the first real failure; the others were stopped because of it
		if err == nil || errors.Is(err, context.Canceled) {
			continue
		}
		var ue *OptionError
		if errors.As(err, &ue) {
			return nil, err
		}
		return nil, fmt.Errorf("ingest: %s: %w (nothing written to %s)", inputs[i], err, out)
	}
	for i, p := range parts {
		r, err := dataset.Open(p)
		if err != nil {
			return nil, fmt.Errorf("ingest: %s: %w", inputs[i], err)
		}
		for _, in := range r.Manifest.Inputs {
			if strings.Contains(in.Format, "yelp") {
				return nil, &OptionError{Err: fmt.Errorf("ingest: --jobs: %s is a Yelp file; Yelp files must be read in one process (the business file names the businesses of the review files): use --jobs 1", inputs[i])}
			}
		}
	}
	m, err := dataset.Combine(ctx, parts, out)
	if err != nil {
		var ce *dataset.CombineError
		if errors.As(err, &ce) {
			return nil, fmt.Errorf("ingest: --jobs: the inputs cannot form one dataset: %w (use --jobs 1 when one object's updates are spread over several inputs)", err)
		}
		return nil, fmt.Errorf("ingest: %w (nothing written to %s)", err, out)
	}
	return &JobsSummary{Inputs: len(inputs), Jobs: min(jobs, len(inputs)), Elapsed: time.Since(start), Out: out, Counts: m.Counts}, nil
}

// String is what RunJobs did, as one ingest says it: the inputs, the
// processes, the counts of the joined manifest and what was left out, by
// reason (the children are quiet).
func (s *JobsSummary) String() string {
	var b strings.Builder
	c := s.Counts
	fmt.Fprintf(&b, "ingested %s inputs in %d parallel processes in %s: %s pages kept of %s, %s revisions read → %s updates → %s\n",
		human.Comma(int64(s.Inputs)), s.Jobs, s.Elapsed.Round(time.Millisecond),
		human.Comma(c.PagesKept), human.Comma(c.PagesRead), human.Comma(c.RevisionsRead), human.Comma(c.Updates), human.Path(s.Out))
	for _, k := range slices.Sorted(maps.Keys(c.Skipped)) {
		if n := c.Skipped[k]; n != 0 {
			fmt.Fprintf(&b, "  left out: %s %s\n", human.Comma(n), k)
		}
	}
	return b.String()
}

// childError turns a child ingest's failure into an error: bad usage stays
// bad usage (its message is on stderr already).
func childError(input string, err error) error {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		switch code := ee.ExitCode(); {
		case code == supervise.ExitUsageChild:
			return &OptionError{Err: fmt.Errorf("ingest: %s: bad usage (see above)", input)}
		case code == supervise.ExitUsage: // the Go runtime's exit code (see internal/supervise)
			return supervise.InternalError{Err: fmt.Errorf("stopped by the Go runtime (out of memory, or an internal error: see the message above); exit code 3")}
		case code == -1: // killed by a signal
			return fmt.Errorf("stopped (%v)", ee.ProcessState)
		}
		return fmt.Errorf("exit %d (see the message above)", ee.ExitCode())
	}
	return err
}
