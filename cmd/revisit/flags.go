package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/revisit-dev/revisit/replay"
)

// shardHelp is the help of --shard, shared by replay and analyze.
const shardHelp = "only the pages of shard `i/N` (page id hash mod N = i, 0-based); N alone takes i from JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID or AWS_BATCH_JOB_ARRAY_INDEX; combine the N outputs with 'revisit merge' (docs/scale-out.md)"

// topOrSample applies --top and --sample (run and replay) as
// replay.TopOrSample, with what the command line was given.
func topOrSample(cmd *cobra.Command, top, sample *int) error {
	return replay.TopOrSample(top, sample, cmd.Flags().Changed("top"), cmd.Flags().Changed("sample"))
}

// countFlag is a count given as an integer or in float notation (5e8),
// which must be a whole number that fits an int64.
type countFlag int64

func (c *countFlag) String() string { return strconv.FormatInt(int64(*c), 10) }
func (c *countFlag) Type() string   { return "N" }
func (c *countFlag) Set(s string) error {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || v != math.Trunc(v) || !(math.Abs(v) < 1<<63) {
		return fmt.Errorf("%q is not a whole number (e.g. 500000000 or 5e8)", s)
	}
	*c = countFlag(v)
	return nil
}

// Help of the work limits, shared by replay and run.
const (
	maxVisitsHelp = "leave out a page × sampler expected to need more than N visits (λ·T + 1, about 25 ns each)"
	maxPairsHelp  = "leave out a page × sampler whose M6 (random delays) expects more than N pairs of visits within x_max (about 1 ns each)"
)

// indent indents every line of s but the first by two spaces, for a
// block of syntax quoted in a help text.
func indent(s string) string {
	body, last := strings.CutSuffix(s, "\n")
	body = strings.ReplaceAll(body, "\n", "\n  ")
	if last {
		body += "\n"
	}
	return body
}
