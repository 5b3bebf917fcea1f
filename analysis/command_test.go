package analysis

import (
	"math"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/analysis/nhpp"
	"github.com/revisit-dev/revisit/analysis/staleness"
	"github.com/revisit-dev/revisit/internal/usage"
)

// TestExtraZeroMeansNone: --extra 0 asks for no interpolation points, and
// Options.Extra = 0 would mean the default 9; the mapping gives −1, which
// every consumer reads as none (Compare inserts points only for
// extra > 0), and keeps other values.
func TestExtraZeroMeansNone(t *testing.T) {
	for _, c := range []struct{ in, want int }{{0, -1}, {1, 1}, {9, 9}, {20, 20}} {
		if got := extraOption(c.in); got != c.want {
			t.Errorf("--extra %d: Options.Extra %d, want %d", c.in, got, c.want)
		}
	}
}

// commandDefaults are the options as revisit analyze's flags give them
// by default: valid.
func commandDefaults() CommandOptions {
	return CommandOptions{
		Options: Options{Top: DefaultTop, MinUpdates: DefaultScreenUpdates, Band: DefaultBand, MaxLag: DefaultMaxLag, Closest: DefaultClosest,
			Extra: DefaultExtra, Seed: 1, Reps: DefaultReps, AggregateMax: DefaultAggregateMax, Out: "out",
			Localized: LocalizedOptions{Theta: nhpp.DefaultTheta, Staleness: true, Epsilon: staleness.DefaultEpsilon, SelectMax: DefaultSelectMax}},
		Inputs: []string{"ds"}, SelectMiB: DefaultSelectBytes >> 20, Age: "no", Sampler: "random",
	}
}

// TestCommandValidate: every value the command line can get wrong is
// refused as bad usage (exit 2) with the message naming the flag, the
// first check in the order the flags are checked winning; valid options
// pass, and with them --unit d and --shard 1/3 parse.
func TestCommandValidate(t *testing.T) {
	if err := commandDefaults().Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	for i, c := range []struct {
		set  func(*CommandOptions)
		want string
	}{
		{func(o *CommandOptions) { o.UnitText = "fortnight" }, "--unit: "},
		{func(o *CommandOptions) { o.Band = 0 }, "--band 0: want a value in (0, 1]"},
		{func(o *CommandOptions) { o.Band = 1.5 }, "--band 1.5: want a value in (0, 1]"},
		{func(o *CommandOptions) { o.Band = math.NaN() }, "--band NaN: want a value in (0, 1]"},
		{func(o *CommandOptions) { o.Localized.Theta = 1 }, "--nhpp-theta 1: want a threshold in (0, 1)"},
		{func(o *CommandOptions) { o.Localized.Epsilon = 0 }, "--stale-eps 0: want a staleness in (0, 1)"},
		{func(o *CommandOptions) { o.Localized.Delta = -2 }, "--stale-delta -2: want Δ ≥ 0 (0: each page's E[U])"},
		{func(o *CommandOptions) { o.Closest = 0 }, "--reps, --top, --screen-updates, --max-lag and --closest must be at least 1"},
		{func(o *CommandOptions) { o.MinUpdates = 0 }, "--reps, --top, --screen-updates, --max-lag and --closest must be at least 1"},
		{func(o *CommandOptions) { o.Workers = -1 }, "--workers -1: want 0 (all cores) or more"},
		{func(o *CommandOptions) { o.Extra = -3 }, "--extra -3: want 0 or more points per step"},
		{func(o *CommandOptions) { o.XMax = math.Inf(1) }, "--x-max +Inf: want a finite value ≥ 0 (0: each page's own replay grid)"},
		{func(o *CommandOptions) { o.Localized.SelectMax = 0 }, "--aggregate-max and --select-max must be at least 1"},
		{func(o *CommandOptions) { o.ScenarioFlags = []string{"sampler", "old-m3"} }, "--sampler describes the scenario of --recommend; it does nothing without it"},
		{func(o *CommandOptions) { o.Inputs = nil }, "analyze: missing DATASET"},
		{func(o *CommandOptions) { o.Out = "" }, "analyze: missing -o OUT"},
		{func(o *CommandOptions) { o.SelectMiB = 0 }, "analyze: --select-mib must be at least 1, got 0"},
		{func(o *CommandOptions) { o.Shard = "2/1" }, "analyze: --shard: "},
		{func(o *CommandOptions) { o.Band, o.Workers = 0, -1 }, "--band 0: want a value in (0, 1]"},
		{func(o *CommandOptions) { o.Recommend, o.Age = true, "maybe" }, `--age "maybe": want yes or no`},
		{func(o *CommandOptions) { o.Recommend, o.Sampler = true, "sometimes" }, `--sampler "sometimes": want constant or random`},
		{func(o *CommandOptions) { o.Recommend, o.OldM3 = true, true }, "recommend: M3 traces come from a constant revisit interval; --old-m3 needs --sampler=constant"},
		{func(o *CommandOptions) { o.Recommend = true }, "--recommend: give REPLAY_DIR alone, or DATASET REPLAY_DIR -o OUT"},
		{func(o *CommandOptions) { o.Recommend, o.Inputs, o.Out = true, []string{"ds", "replay"}, "" }, "--recommend: give REPLAY_DIR alone, or DATASET REPLAY_DIR -o OUT"},
		// -o, --shard and --select-mib are not dropped silently with --recommend.
		{func(o *CommandOptions) { o.Recommend, o.Inputs = true, nil }, "--recommend: give REPLAY_DIR alone, or DATASET REPLAY_DIR -o OUT"},
		{func(o *CommandOptions) { o.Recommend, o.Inputs, o.Shard = true, []string{"ds", "replay"}, "0/2" }, "analyze: --recommend needs the whole analysis, and a shard (--shard) holds partial statistics only"},
		{func(o *CommandOptions) { o.Recommend, o.Inputs, o.SelectMiB = true, []string{"ds", "replay"}, 0 }, "analyze: --select-mib must be at least 1, got 0"},
	} {
		o := commandDefaults()
		c.set(&o)
		err := o.Validate()
		if err == nil || !usage.Is(err) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("case %d: %v, want bad usage %q", i, err, c.want)
		}
	}
	o := commandDefaults()
	o.UnitText, o.Shard, o.Extra = "d", "1/3", 0
	c, err := o.parse()
	if err != nil {
		t.Fatal(err)
	}
	if c.opt.Unit != 86400 || c.shard.String() != "1/3" || c.opt.Extra != -1 || c.opt.Localized.SelectBytes != DefaultSelectBytes {
		t.Errorf("parsed: unit %g, shard %s, extra %d, select bytes %d", c.opt.Unit, c.shard, c.opt.Extra, c.opt.Localized.SelectBytes)
	}
	// --recommend DATASET REPLAY_DIR -o OUT runs the analysis: its
	// --select-mib is checked and applied as without --recommend.
	o = commandDefaults()
	o.Recommend, o.Inputs, o.SelectMiB = true, []string{"ds", "replay"}, 3
	if c, err = o.parse(); err != nil || c.opt.Localized.SelectBytes != 3<<20 {
		t.Errorf("--recommend DATASET REPLAY_DIR -o OUT --select-mib 3: select bytes %d (%v), want %d", c.opt.Localized.SelectBytes, err, 3<<20)
	}
	// --recommend alone, with a replay, or with DATASET REPLAY -o OUT.
	for _, in := range [][]string{nil, {"replay"}} {
		o := commandDefaults()
		o.Recommend, o.Inputs, o.Out = true, in, ""
		if err := o.Validate(); err != nil {
			t.Errorf("--recommend %v: %v", in, err)
		}
	}
}

// TestParseScenario: the spellings of --age and --sampler, in any case,
// and the scenario each gives (its recommended method: SPEC §5).
func TestParseScenario(t *testing.T) {
	for _, c := range []struct {
		age, sampler string
		oldM3        bool
		method       string
	}{
		{"YES", "random", false, "M2"}, {"y", "Constant", false, "M2"}, {"1", "const", false, "M2"},
		{"no", "constant", false, "M4"}, {"", "CONST", true, "M5"}, {"false", "random", false, "M6"},
	} {
		sc, err := ParseScenario(c.age, c.sampler, c.oldM3)
		if err != nil {
			t.Fatalf("%q %q: %v", c.age, c.sampler, err)
		}
		rec, err := Recommend(sc, nil)
		if err != nil || rec.Method != c.method {
			t.Errorf("--age %q --sampler %q --old-m3=%v: %s (%v), want %s", c.age, c.sampler, c.oldM3, rec.Method, err, c.method)
		}
	}
}

// TestWriteRecommendation: the recommendation for constant revisits
// without age (M4) lists the errors of the methods that scenario can
// observe, best mean WMRD first, with M4 marked; an age method, an F_U
// estimate and a random sampler's estimate are left out; without any
// summary it says where to find them.
func TestWriteRecommendation(t *testing.T) {
	sc := Scenario{Sampler: "constant"}
	sum := []MethodSummary{
		{Sampler: "const:1", Method: "M4", Kind: "G", Constant: true, Pages: 1200, MeanWMRD: 0.05, MedianWMRD: 0.04, MeanKS: 0.03, MedianKS: 0.02},
		{Sampler: "const:1", Method: "M3", Kind: "G", Constant: true, Pages: 1200, MeanWMRD: 0.5, MedianWMRD: 0.4, MeanKS: 0.3, MedianKS: 0.2},
		{Sampler: "const:1", Method: "M5", Kind: "G", Constant: true, Pages: 7, MeanWMRD: 0.01, MedianWMRD: 0.01, MeanKS: 0.01, MedianKS: 0.01},
		{Sampler: "const:1", Method: "M2", Kind: "G", Constant: true, Age: true, Pages: 1200, MeanWMRD: 0.001},
		{Sampler: "const:1", Method: "M4", Kind: "F", Constant: true, Pages: 1200, MeanWMRD: 0.002},
		{Sampler: "exp:1", Method: "M6", Kind: "G", Pages: 1200, MeanWMRD: 0.003},
	}
	var b strings.Builder
	if err := WriteRecommendation(&b, sc, sum); err != nil {
		t.Fatal(err)
	}
	want := "Scenario: constant S, new measurement\nRecommended method: M4\n  " + referenceReason["M4"] + "\n" +
		"\nMeasured errors against the true G_U (constant samplers), best mean WMRD first:\n" +
		"  sampler      method    pages  mean WMRD   med WMRD    mean KS     med KS\n" +
		"  const:1      M5            7       0.01       0.01       0.01       0.01\n" +
		"* const:1      M4        1,200       0.05       0.04       0.03       0.02\n" +
		"  const:1      M3        1,200        0.5        0.4        0.3        0.2\n"
	if got := b.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	b.Reset()
	if err := WriteRecommendation(&b, Scenario{Sampler: "random"}, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), "Recommended method: M6\n"; !strings.Contains(got, want) || !strings.Contains(got, "No measured errors for this scenario") || !strings.Contains(got, "≥ 99 intervals") {
		t.Errorf("without summaries:\n%s", got)
	}
}
