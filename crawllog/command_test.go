package crawllog

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/crawllog/logs"
	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/internal/console"
	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/internal/usage"
)

// cmdOptions are CommandOptions as the command line's defaults set them.
func cmdOptions(out string) CommandOptions {
	return CommandOptions{UnitText: "h", CurvesText: string(estimates.CurvesCompact), EstimateOptions: EstimateOptions{Out: out, Top: 10, MinChanges: DefaultMinChanges, ConstTol: 1,
		ShardBy: ShardByAuto, Read: logs.Options{Format: "auto", Key: logs.KeySURT, MaxObservations: logs.DefaultMaxObservations}}}
}

// Each bad value is bad usage (exit 2) with the flag's message, the
// command line's word for word; the first bad one is named.
func TestEstimateValidate(t *testing.T) {
	t.Setenv("JOB_COMPLETION_INDEX", "")
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	t.Setenv("AWS_BATCH_JOB_ARRAY_INDEX", "")
	for _, c := range []struct {
		set  func(o *CommandOptions)
		want string
	}{
		{func(o *CommandOptions) { o.ShardText = "7/7" }, `estimate: --shard: shard "7/7": i must be a whole number in 0…6`},
		{func(o *CommandOptions) { o.UnitText = "fortnight" }, `--unit: `},
		{func(o *CommandOptions) { o.Read.Format = "bogus" }, `estimate: --format: unknown observation format "bogus" (want ` + strings.Join(logs.Formats, ", ") + `)`},
		{func(o *CommandOptions) { o.Read.Key = "bogus" }, `estimate: --key: unknown key "bogus" (want surt or url)`},
		{func(o *CommandOptions) { o.Top = 0 }, "estimate: --top must be ≥ 1"},
		{func(o *CommandOptions) { o.Read.MaxObservations = 0 }, "estimate: --max-observations must be ≥ 1"},
		{func(o *CommandOptions) { o.MinChanges = 0 }, "estimate: --min-changes must be ≥ 1"},
		{func(o *CommandOptions) { o.ConstTol = -1 }, "estimate: --const-tolerance must be ≥ 0 seconds"},
		{func(o *CommandOptions) { o.Out = "" }, "estimate: -o OUT is required"},
		{func(o *CommandOptions) { o.CurvesText = "some" }, `estimate: --curves "some": want compact or full`},
		{func(o *CommandOptions) { o.Top = 0; o.Out = "" }, "estimate: --top must be ≥ 1"},
	} {
		o := cmdOptions("out")
		c.set(&o)
		err := o.Validate()
		if !usage.Is(err) || !strings.HasPrefix(err.Error(), c.want) || (!strings.HasSuffix(c.want, ": ") && err.Error() != c.want) {
			t.Errorf("got %v (usage %v), want bad usage %q", err, usage.Is(err), c.want)
		}
	}
}

// Validate resolves the command line's text: a unit of days is 86,400 s,
// "2/7" shard 2 of 7, "7" takes its index from the job array's
// environment, FULL is full; and it accepts what it resolved.
func TestEstimateValidateResolves(t *testing.T) {
	t.Setenv("JOB_COMPLETION_INDEX", "")
	t.Setenv("AWS_BATCH_JOB_ARRAY_INDEX", "")
	t.Setenv("SLURM_ARRAY_TASK_MIN", "")
	t.Setenv("SLURM_ARRAY_TASK_ID", "3")
	o := cmdOptions("out")
	o.UnitText, o.ShardText, o.CurvesText = "d", "2/7", "FULL"
	if err := o.Validate(); err != nil {
		t.Fatal(err)
	}
	if o.Unit != 86400 || o.Shard != (shard.Spec{I: 2, N: 7}) || o.Curves != estimates.CurvesFull {
		t.Errorf("unit %g, shard %v, curves %q; want 86400, 2/7, full", o.Unit, o.Shard, o.Curves)
	}
	if err := o.Validate(); err != nil {
		t.Errorf("validated options refused: %v", err)
	}
	o.ShardText = "7"
	if err := o.Validate(); err != nil || o.Shard != (shard.Spec{I: 3, N: 7}) {
		t.Errorf("--shard 7 with SLURM_ARRAY_TASK_ID=3: %v, %v; want 3/7", o.Shard, err)
	}
}

// The summary of an estimate, by hand from its counts: the URLs estimated
// and read, the grids' empty bins (25 of 200: 12.5%), the bad lines and
// skips (sorted, "_" read as " ") and the verdicts; a shard that
// estimated none says so, and what it read, with no verdict.
func TestWriteSummary(t *testing.T) {
	m := &EstimateMeta{Inputs: make([]logs.InputStats, 2), Estimated: 3, Constant: 1, Captures: 1234, URLs: 5, Rows: 1, Bins: 200, EmptyBins: 25, EmptyShare: 0.125,
		Bad: 1, Skipped: map[string]int64{"too_few_visits": 2, "no_applicable_method": 1000}, Threshold: 0.1, MinChanges: 185,
		Verdicts: map[string]int{VerdictPoisson: 1, VerdictUndecided: 2}, FewChanges: 2}
	var b strings.Builder
	m.WriteSummary(&b, "out/e")
	want := "estimated 3 URLs (1 with constant delays) from 1,234 captures of 5 URLs in 2 inputs → out/e/estimates.parquet (1 row)\n" +
		"  grids: 12.5% of the bins without a pair of visits (25 of 200; per URL in urls.csv)\n" +
		"  skipped 1 bad line (--skip-bad; per input in estimate.json)\n" +
		"  skipped  no applicable method  1,000\n" +
		"  skipped  too few visits        2\n" +
		"Poisson verdict (KS between estimated G_U and the poisson-mle exponential ≤ 0.1, on 185 or more changes seen): 1 Poisson, 0 not Poisson, 2 undecided (2 with fewer than 185 changes)\n"
	if b.String() != want {
		t.Errorf("summary\n%s\nwant\n%s", b.String(), want)
	}
	sh := &EstimateMeta{Inputs: make([]logs.InputStats, 1), Captures: 1, URLs: 1, Shard: "1/2"}
	b.Reset()
	sh.WriteSummary(&b, "o\x1b")
	want = "shard 1/2 estimated none of the 1 URL read (1 capture in 1 input): they are other shards', or left out as counted below; 'revisit merge estimate' of every shard's output writes the estimate → \"o\\x1b\"\n"
	if b.String() != want {
		t.Errorf("shard summary\n%s\nwant\n%s", b.String(), want)
	}
}

// Command refuses an output it would not replace before it reads any
// input (the input here does not exist): a usage.Refused naming the
// command.
func TestCommandRefusesOutputFirst(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	os.MkdirAll(out, 0o755)
	os.WriteFile(filepath.Join(out, "mine.txt"), []byte("x"), 0o644)
	o := cmdOptions(out)
	o.Inputs = []string{filepath.Join(dir, "missing.csv")}
	err := Command(context.Background(), o, console.Console{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}})
	if !usage.IsRefused(err) || !strings.HasPrefix(err.Error(), "estimate: ") || strings.Contains(err.Error(), "missing.csv") {
		t.Errorf("got %v, want the output refused before the input is read", err)
	}
}

// A --const-tolerance of 0 is exact equality: delays of 3,600 and
// 3,601 s are then irregular, while the default tolerance (1 s) takes
// them as constant. The tolerance is recorded as given. Under -q the
// command prints nothing; without, the summary on Out and its log on Err.
func TestCommandConstTolZeroIsExact(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "v.csv")
	data := "url,time,changed\nc,1600000000,1\nc,1600003600,0\nc,1600007201,1\nc,1600010801,1\n"
	if err := os.WriteFile(log, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		tol      int64
		quiet    bool
		constant int
	}{{0, true, 0}, {1, false, 1}} {
		out := filepath.Join(dir, "out")
		o := cmdOptions(out)
		o.Inputs, o.ConstTol = []string{log}, c.tol
		var stdout, stderr bytes.Buffer
		if err := Command(context.Background(), o, console.Console{Out: &stdout, Err: &stderr, Quiet: c.quiet}); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(out, EstimateMetaFile))
		if err != nil {
			t.Fatal(err)
		}
		var m EstimateMeta
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if m.Constant != c.constant || m.ConstTol != c.tol {
			t.Errorf("--const-tolerance %d: %d URLs with constant delays, tolerance %d recorded; want %d, %d", c.tol, m.Constant, m.ConstTol, c.constant, c.tol)
		}
		if c.quiet != (stdout.Len() == 0) || c.quiet != (stderr.Len() == 0) || !c.quiet && (!strings.HasPrefix(stdout.String(), "estimated 1 URL (1 with constant delays)") ||
			!strings.HasPrefix(stderr.String(), "estimate: 1 URL estimated (1 with constant delays)")) {
			t.Errorf("quiet %v: stdout %q, stderr %q", c.quiet, stdout.String(), stderr.String())
		}
	}
}
