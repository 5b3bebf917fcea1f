package pipeline

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/revisit-dev/revisit/analysis"
	"github.com/revisit-dev/revisit/crawllog"
	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/internal/atomicdir"
	"github.com/revisit-dev/revisit/internal/console"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/memlimit"
	"github.com/revisit-dev/revisit/internal/tables"
	"github.com/revisit-dev/revisit/internal/usage"
	"github.com/revisit-dev/revisit/replay"
)

// MergeOptions are what `revisit merge` is given.
type MergeOptions struct {
	// Kind is what the inputs are: replay, analysis (or analyze),
	// estimate (shards of one run, --shard i/N) or dataset (datasets
	// ingested separately).
	Kind   string
	Inputs []string // the shard directories or datasets, each once
	Out    string   // the merged output
}

// Merge is `revisit merge`: it combines the outputs of shards 0…N−1 of
// one replay, analysis or estimate into Out, which then holds the same
// tables as one unsharded run (replay.Merge, analysis.MergeShards,
// crawllog.MergeEstimates), or datasets ingested separately into one
// (dataset.Combine). An Out that is one of the inputs, lies inside one
// or holds one, and an Out merge could not replace, are refused before
// any input is read; a summary goes to con.Out unless con.Quiet.
func Merge(ctx context.Context, o MergeOptions, con console.Console) error {
	if o.Out == "" {
		return usagef("merge: no output directory (-o)")
	}
	if err := outNotInput(o.Out, o.Inputs); err != nil {
		return err
	}
	defer memlimit.Set()()
	out, w := o.Out, con.Out
	switch o.Kind {
	case "replay":
		if err := atomicdir.CheckOutput("merge", out, replay.MetaFile, "replay output"); err != nil {
			return err // before reading the shards
		}
		meta, err := replay.Merge(ctx, o.Inputs, out)
		if err != nil {
			return mergeError(err)
		}
		if !con.Quiet {
			meta.WriteSummary(w, out)
		}
	case "analysis", "analyze":
		if err := tables.CheckResultsOutput("merge", out, "analysis"); err != nil {
			return err
		}
		var log io.Writer
		if !con.Quiet {
			log = con.Err
		}
		if _, err := analysis.MergeShards(ctx, o.Inputs, out, analysis.ReadReplay, log); err != nil {
			return mergeError(err)
		}
		if !con.Quiet {
			fmt.Fprintf(w, "merged %d analysis shards → %s\n", len(o.Inputs), human.Path(out))
		}
	case "estimate":
		if err := atomicdir.CheckOutput("merge", out, crawllog.EstimateMetaFile, "estimate output"); err != nil {
			return err
		}
		meta, err := crawllog.MergeEstimates(ctx, o.Inputs, out)
		if err != nil {
			return mergeError(err)
		}
		if !con.Quiet {
			meta.WriteSummary(w, out)
		}
	case "dataset":
		if err := atomicdir.CheckOutput("merge", out, dataset.ManifestFile, "dataset"); err != nil {
			return err
		}
		m, err := dataset.Combine(ctx, o.Inputs, out)
		if err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		if !con.Quiet {
			fmt.Fprintf(w, "combined %d datasets → %s (%s, %s)\n", len(o.Inputs), human.Path(out), human.Count(m.Counts.PagesKept, "page", "pages"), human.Count(m.Counts.Updates, "update", "updates"))
		}
	default:
		return usagef("merge: KIND must be replay, analysis, estimate or dataset, got %q", o.Kind)
	}
	return nil
}

// mergeError is err, a merge's failure: bad usage (shards that do not form
// one run, a usage.Error) as the merge said it, anything else prefixed
// with "merge: ".
func mergeError(err error) error {
	if usage.Is(err) {
		return err
	}
	return fmt.Errorf("merge: %w", err)
}

// outNotInput refuses an output directory that is one of the inputs
// (however spelled: the same file by os.SameFile), lies inside one, or
// holds one: merge would replace that shard or dataset with the merged
// output, or write into it (an entry revisit's list of the input does not
// name, and for datasets hard links to the input's own files), and a
// shard lost this way must be computed again.
func outNotInput(out string, inputs []string) error {
	ost, statErr := os.Stat(out)
	o, oErr := resolved(out)
	for _, in := range inputs {
		if ist, err := os.Stat(in); statErr == nil && err == nil && os.SameFile(ost, ist) {
			return usagef("merge: -o %s is the input %s; it would be replaced by the merge: choose another output", out, in)
		}
		a, err := resolved(in)
		if oErr != nil || err != nil {
			continue // merge reports on it when it reads it
		}
		if atomicdir.Within(o, a) {
			return usagef("merge: -o %s is inside the input %s; merge does not write into its inputs: choose another output", out, in)
		}
		if atomicdir.Within(a, o) {
			return usagef("merge: the input %s is inside -o %s, which the merge replaces: choose another output", in, out)
		}
	}
	return nil
}

// resolved is p absolute, with the symbolic links of its existing part
// resolved.
func resolved(p string) (string, error) {
	a, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return atomicdir.EvalExisting(a)
}
