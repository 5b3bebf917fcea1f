package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/revisit-dev/revisit/analysis"
	"github.com/revisit-dev/revisit/crawllog"
	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/internal/atomicdir"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/memlimit"
	"github.com/revisit-dev/revisit/internal/usage"
	"github.com/revisit-dev/revisit/replay"
)

func newMergeCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "merge KIND SHARD_DIR... -o OUT",
		Short: "Combine shard outputs (--shard i/N) or separately ingested datasets into one",
		Long: `merge combines the outputs of shards 0…N−1 of one replay, analysis or estimate
(each run with --shard i/N, the same dataset or logs and the same options) into
OUT, which then holds the same tables as one unsharded run, byte for
byte (docs/scale-out.md):

  merge replay DIR... -o OUT    estimates.parquet in the unsharded order
                                (dataset order, or the --top pages busiest
                                first, chosen among all shards), replay.json
                                with the counts added and the mean errors
                                and choices recomputed ("created" and
                                "elapsed_s" differ: elapsed_s sums the shards)
  merge analysis DIR... -o OUT  the analysis of the whole dataset from the
                                shards' partial statistics: page_stats in
                                dataset order, page_errors in replay order,
                                every table and figure as one analyze run
  merge estimate DIR... -o OUT  estimates.parquet in the order the URLs were
                                read, estimate.json with the counts added
                                ("created" and "elapsed_s" differ), the
                                tables and figures of one estimate run
  merge dataset DS... -o OUT    one dataset from datasets ingested separately
                                (one ingest per dump file, run in parallel
                                as processes or jobs): their Parquet files
                                are linked, not re-encoded, in the order
                                given; same filters and no page in two of
                                them, or exit 2

Every shard must be given exactly once; shards of different splits or
replays made with different options are refused (exit 2). OUT is written
atomically, like every output.`,
		Example: `  revisit merge replay out/replay-0 out/replay-1 out/replay-2 -o out/replay
  revisit merge replay out/replay-* -o out/replay
  revisit merge analysis out/analysis-* -o out/analysis
  revisit merge estimate out/est-* -o out/est
  revisit merge dataset ds-01 ds-02 ds-03 -o enwiki`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			out, _ := cmd.Flags().GetString("output")
			if out == "" {
				return usagef("merge: no output directory (-o)")
			}
			if err := outNotInput(out, args[1:]); err != nil {
				return err
			}
			defer memlimit.Set()()
			switch args[0] {
			case "replay":
				if err := checkOutput("merge", out, replay.MetaFile, "replay output"); err != nil {
					return err // before reading the shards
				}
				meta, err := replay.Merge(cmd.Context(), args[1:], out)
				if err != nil {
					return mergeError(err)
				}
				if !g.quiet {
					meta.WriteSummary(cmd.OutOrStdout(), out)
				}
				return nil
			case "analysis", "analyze":
				if err := checkResults("merge", out, "analysis"); err != nil {
					return err
				}
				var log io.Writer
				if !g.quiet {
					log = os.Stderr
				}
				_, err := analysis.MergeShards(cmd.Context(), args[1:], out, analysis.ReadReplay, log)
				if err != nil {
					return mergeError(err)
				}
				if !g.quiet {
					fmt.Fprintf(cmd.OutOrStdout(), "merged %d analysis shards → %s\n", len(args)-1, human.Path(out))
				}
				return nil
			case "estimate":
				// refuse a wrong -o before reading the shards (exit 2), as estimate does
				if err := checkOutput("merge", out, crawllog.EstimateMetaFile, "estimate output"); err != nil {
					return err
				}
				meta, err := crawllog.MergeEstimates(cmd.Context(), args[1:], out)
				if err != nil {
					return mergeError(err)
				}
				if !g.quiet {
					printEstimateSummary(cmd.OutOrStdout(), meta, out)
				}
				return nil
			case "dataset":
				if err := checkOutput("merge", out, dataset.ManifestFile, "dataset"); err != nil {
					return err
				}
				m, err := dataset.Combine(cmd.Context(), args[1:], out)
				if err != nil {
					return fmt.Errorf("merge: %w", err)
				}
				if !g.quiet {
					fmt.Fprintf(cmd.OutOrStdout(), "combined %d datasets → %s (%s, %s)\n", len(args)-1, human.Path(out), human.Count(m.Counts.PagesKept, "page", "pages"), human.Count(m.Counts.Updates, "update", "updates"))
				}
				return nil
			default:
				return usagef("merge: KIND must be replay, analysis, estimate or dataset, got %q", args[0])
			}
		},
	}
	cmd.Flags().StringP("output", "o", "", "output directory (required)")
	return cmd
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
