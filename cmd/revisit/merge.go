package main

import (
	"github.com/spf13/cobra"

	"github.com/revisit-dev/revisit/pipeline"
)

func newMergeCmd(g *globals) *cobra.Command {
	var opt pipeline.MergeOptions
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
			opt.Kind, opt.Inputs = args[0], args[1:]
			return pipeline.Merge(cmd.Context(), opt, g.console(cmd))
		},
	}
	cmd.Flags().StringVarP(&opt.Out, "output", "o", "", "output directory (required)")
	return cmd
}
