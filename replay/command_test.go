package replay

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/internal/console"
	"github.com/revisit-dev/revisit/internal/usage"
)

// The replay summary's table is printed by the one table printer
// (tables.Fprint), as analyze, schedule, policies and simulate print
// theirs: names left-aligned under a line of dashes, numbers in the
// report's format with an ASCII minus, "—" where no page had a defined
// estimate. A WMRD below 10⁻³ puts its column in scientific notation;
// the KS column, none below, keeps 4 significant digits.
func TestReplaySummaryTable(t *testing.T) {
	wm, ks := 7.451e-4, 0.002349
	m := &Meta{Pages: 10, Samplers: []string{"exp:20x"}, UnitName: "h", Seed: 1, Rows: 20,
		Summary: []MethodSummary{
			{Sampler: "exp:20x", Method: "M2", Kind: "G", Pages: 10, WMRD: &wm, KS: &ks},
			{Sampler: "exp:20x", Method: "M3", Kind: "G", Undefined: 1234},
		}}
	var b strings.Builder
	m.WriteSummary(&b, "out")
	s := b.String()
	want := "Mean WMRD and KS against each page's true G_U (kind G) or F_U (kind F)\n" +
		"sampler  method  kind  pages  undefined  mean WMRD   mean KS\n" +
		"-------  ------  ----  -----  ---------  ---------  --------\n" +
		"exp:20x  M2      G        10          0  7.451e-04  0.002349\n" +
		"exp:20x  M3      G         0      1,234          —         —\n\n"
	if !strings.HasSuffix(s, want) {
		t.Errorf("got\n%s\nwant it to end with\n%s", s, want)
	}
}

// The one given of --top and --sample replaces the other's default; both
// given is bad usage.
func TestTopOrSample(t *testing.T) {
	for _, c := range []struct {
		top, sample           int
		topGiven, sampleGiven bool
		wantTop, wantSample   int
		bad                   bool
	}{
		{10, 0, false, false, 10, 0, false},
		{0, 0, true, false, 0, 0, false},
		{3, 7, true, false, 3, 0, false},
		{10, 7, false, true, 0, 7, false},
		{10, 7, true, true, 10, 7, true},
	} {
		top, sample := c.top, c.sample
		err := TopOrSample(&top, &sample, c.topGiven, c.sampleGiven)
		if (err != nil) != c.bad || (err != nil && !usage.Is(err)) {
			t.Errorf("%+v: error %v", c, err)
		}
		if !c.bad && (top != c.wantTop || sample != c.wantSample) {
			t.Errorf("%+v: top %d, sample %d", c, top, sample)
		}
	}
}

// Command refuses bad options before it opens the dataset (which does
// not exist here), in the command's order (--unit first) and words, as
// bad usage.
func TestCommandRefusesBeforeWork(t *testing.T) {
	dir := t.TempDir()
	base := CommandOptions{Options: Options{Dataset: filepath.Join(dir, "missing"), Out: filepath.Join(dir, "out"),
		MaxVisits: estimator.DefaultMaxVisits, MaxPairs: estimator.DefaultMaxPairs, Seeds: 1},
		CurvesText: "compact"}
	for _, c := range []struct {
		set  func(o *CommandOptions)
		want string
	}{
		{func(o *CommandOptions) { o.UnitText, o.TopGiven, o.SampleGiven = "zz", true, true },
			`--unit: unknown time unit "zz" (want s, min, h, d, w or y)`},
		{func(o *CommandOptions) { o.Top, o.Sample, o.TopGiven, o.SampleGiven = 3, 4, true, true },
			"--top 3 and --sample 4: give one (the busiest pages, or a random sample)"},
		{func(o *CommandOptions) { o.ShardText = "3/3" }, `replay: --shard: shard "3/3": i must be a whole number in 0…2`},
		{func(o *CommandOptions) { o.CurvesText = "most" }, `replay: --curves "most": want compact or full`},
		{func(o *CommandOptions) { o.Seeds = 0 }, "replay: --max-visits, --max-pairs and --seeds must be ≥ 1"},
		{func(o *CommandOptions) { o.H = -1 }, "replay: bin width h must be > 0 (or 0: per page), got -1"},
		{func(o *CommandOptions) { o.Selection.Match = "(" }, "replay: --match"},
	} {
		o := base
		c.set(&o)
		var out, errw strings.Builder
		v := o // Validate applies the text to its receiver
		verr := v.Validate()
		err := Command(context.Background(), o, console.Console{Out: &out, Err: &errw})
		if !usage.Is(err) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("error %v, want bad usage %q", err, c.want)
		}
		if o.Selection.Match == "" && (verr == nil || verr.Error() != err.Error()) {
			t.Errorf("Validate: %v, want Command's %v", verr, err)
		}
		if out.Len() != 0 || errw.Len() != 0 {
			t.Errorf("%q: printed %q, %q", c.want, out.String(), errw.String())
		}
	}
}

// Simulate's command line: --T is parsed when no windows are given, and
// negative workers are refused, as bad usage named for the flag.
func TestSimCommandOptionsValidate(t *testing.T) {
	o := SimCommandOptions{TText: "1e2..1e4"}
	if err := o.Validate(); err != nil || !slices.Equal(o.Ts, []float64{100, 1000, 10000}) {
		t.Errorf("Ts %v, %v; want 100, 1000, 10000", o.Ts, err)
	}
	for _, c := range []struct {
		o    SimCommandOptions
		want string
	}{
		{SimCommandOptions{}, `--T: window length "": want a number > 0`},
		{SimCommandOptions{TText: "1e3..1e2"}, `--T: window lengths "1e3..1e2": 1000 > 100`},
		{SimCommandOptions{SimOptions: SimOptions{Ts: []float64{1}, Workers: -1}}, "--workers -1: want 0 (all cores) or more"},
	} {
		if err := c.o.Validate(); !usage.Is(err) || err.Error() != c.want {
			t.Errorf("error %v, want bad usage %q", err, c.want)
		}
	}
}

// Command speaks on its console: log lines on Err when it is not a
// terminal, and on Out the summary of what it wrote (the Meta read back
// from replay.json); under Quiet nothing, and the same output is
// written. An output it wrote is replaced, and a directory it did not
// write is refused (usage.Refused) before the dataset is read.
func TestCommandSpeaks(t *testing.T) {
	ds, _ := writeDataset(t, 4)
	for _, quiet := range []bool{false, true} {
		out := filepath.Join(t.TempDir(), "out")
		opt := CommandOptions{Options: Options{Dataset: ds, Out: out, Samplers: []string{"exp:2"}, Methods: []string{"M2"}, Top: 10,
			MaxVisits: estimator.DefaultMaxVisits, MaxPairs: estimator.DefaultMaxPairs, Seeds: 1, Workers: 2},
			CurvesText: "compact"}
		for range 2 { // the second replaces the first
			var o, e strings.Builder
			if err := Command(context.Background(), opt, console.Console{Out: &o, Err: &e, Quiet: quiet}); err != nil {
				t.Fatal(err)
			}
			m, err := ReadMeta(out)
			if err != nil {
				t.Fatal(err)
			}
			var want strings.Builder
			m.WriteSummary(&want, out)
			switch {
			case quiet && (o.Len() != 0 || e.Len() != 0):
				t.Errorf("quiet: printed %q, %q", o.String(), e.String())
			case !quiet && o.String() != want.String():
				t.Errorf("summary\n%s\nwant\n%s", o.String(), want.String())
			case !quiet && !strings.Contains(e.String(), "replay: x_max "):
				t.Errorf("no log line on Err: %q", e.String())
			}
		}
	}
	notOurs := t.TempDir()
	if err := os.WriteFile(filepath.Join(notOurs, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	opt := CommandOptions{Options: Options{Dataset: filepath.Join(t.TempDir(), "missing"), Out: notOurs, MaxVisits: 1, MaxPairs: 1, Seeds: 1}, CurvesText: "full"}
	if err := Command(context.Background(), opt, console.Console{Out: io.Discard, Err: io.Discard}); !usage.IsRefused(err) {
		t.Errorf("an output revisit did not write: %v, want it refused", err)
	}
}

// SimulateCommand prints its header line and tables without -o whatever
// Quiet says (they are its result), with -o only without Quiet, and then
// says on Err what it wrote; a -o revisit did not write is refused
// before the simulation.
func TestSimulateCommandSpeaks(t *testing.T) {
	for _, c := range []struct {
		quiet, out, tables, line bool
	}{{false, false, true, false}, {true, false, true, false}, {false, true, true, true}, {true, true, false, false}} {
		opt := SimCommandOptions{SimOptions: SimOptions{Update: "exp:1", Samplers: []string{"const:0.5"}, Paths: 2, Methods: []string{"M2"}, Seed: 1}, TText: "100"}
		if c.out {
			opt.Out = filepath.Join(t.TempDir(), "sim")
		}
		var o, e strings.Builder
		if err := SimulateCommand(context.Background(), opt, console.Console{Out: &o, Err: &e, Quiet: c.quiet}); err != nil {
			t.Fatal(err)
		}
		if got := strings.HasPrefix(o.String(), "simulate: update exp:1 (E[U] = 1)") && strings.Contains(o.String(), "\n\n"); got != c.tables {
			t.Errorf("%+v: tables printed %v:\n%s", c, got, o.String())
		}
		if got := strings.HasPrefix(e.String(), "simulate: ") && strings.Contains(e.String(), " figures → "+opt.Out+"\n"); got != c.line {
			t.Errorf("%+v: stderr %q", c, e.String())
		}
		if _, err := os.Stat(opt.Out); c.out && err != nil {
			t.Errorf("%+v: %v", c, err)
		}
	}
	notOurs := t.TempDir()
	if err := os.WriteFile(filepath.Join(notOurs, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	opt := SimCommandOptions{SimOptions: SimOptions{Update: "exp:1", Samplers: []string{"const:0.5"}, Paths: 1000}, TText: "1e9", Out: notOurs}
	if err := SimulateCommand(context.Background(), opt, console.Console{Out: io.Discard, Err: io.Discard}); !usage.IsRefused(err) {
		t.Errorf("an output revisit did not write: %v, want it refused", err)
	}
}
