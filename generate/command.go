package generate

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/internal/atomicdir"
	"github.com/revisit-dev/revisit/internal/console"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/internal/usage"
)

// CommandOptions is what 'revisit generate' is given: Run's options and
// the text of the flags that Validate parses into its Config.
type CommandOptions struct {
	Options
	// UnitText (--unit) is the time unit of the model parameters (s, m,
	// h, d, w, y); ModelTexts (--model) the models, [WEIGHT*]SPEC, in
	// that unit; SpanText (--span) the window's length with its unit;
	// StartText (--start) its start, YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ.
	UnitText   string
	ModelTexts []string
	SpanText   string
	StartText  string
}

// defaultOut is the output of each format when -o is not given.
var defaultOut = map[string]string{
	FormatMediaWiki: "generated-stub-meta-history.xml.gz",
	FormatYelp:      "generated-yelp",
	FormatParquet:   "generated-dataset",
}

// Validate checks every value of the command line before anything is
// written, parses the text of the flags into Config, and gives Out its
// format's default when empty: bad usage (usage.Error) naming the flag,
// then Check's refusals as bad usage too.
func (o *CommandOptions) Validate() error {
	unit, ok := units.Short(o.UnitText)
	if !ok {
		return usage.Errorf("--unit %q: want s, m, h, d, w or y", o.UnitText)
	}
	ms, err := ParseModels(o.ModelTexts, unit)
	if err != nil {
		return usage.Errorf("--model: %v", err)
	}
	span, err := units.ParseDuration(o.SpanText)
	if err != nil {
		return usage.Errorf("--span: %v", err)
	}
	start, err := units.ParseStart(o.StartText)
	if err != nil {
		return usage.Errorf("--start: %v", err)
	}
	o.UnitName, o.Unit, o.Models, o.Span, o.Start = o.UnitText, unit, ms, span, start
	if o.Out == "" {
		o.Out = defaultOut[o.Format]
	}
	if _, ok := defaultOut[o.Format]; !ok {
		return usage.Errorf("--format %q: want mediawiki, yelp or parquet", o.Format)
	}
	if o.Out == "-" && o.Format == FormatParquet {
		return usage.Errorf("--format parquet writes a directory: give -o DIR")
	}
	if (o.RevertRate > 0 || o.BotRate > 0) && o.Format != FormatMediaWiki {
		return usage.Errorf("--inject-reverts and --inject-bots need --format mediawiki")
	}
	if err := o.Check(); err != nil {
		return usage.Errorf("%v", err)
	}
	return nil
}

// Command is 'revisit generate': it writes a synthetic corpus whose
// update process is known (SPEC §6.1) in opt.Format, with its truth.json,
// drawing a progress bar on a terminal and saying what it wrote unless
// -q. Every value, and a Parquet output directory, is checked before
// anything is written; an output revisit generate did not write is
// refused (usage.Refused).
func Command(ctx context.Context, opt CommandOptions, con console.Console) error {
	if err := opt.Validate(); err != nil {
		return err
	}
	if opt.Format == FormatParquet {
		// Run's own checks leave the dataset directory to dataset.Create.
		if err := atomicdir.CheckOutput("generate", opt.Out, dataset.ManifestFile, "dataset"); err != nil {
			return err
		}
	}
	opt.Stdout, opt.Context = con.Out, ctx
	bar := con.Bar(opt.Pages, "generate", "pages")
	if bar != nil {
		opt.Progress = func(n int, _ int64) {
			if n%64 == 0 || n == opt.Pages {
				bar.Set(n)
			}
		}
	}
	sum, err := Run(opt.Options)
	if bar != nil {
		bar.Finish()
	}
	if errors.Is(err, ErrNotOurs) {
		return &usage.Refused{Err: fmt.Errorf("generate: %w", err)}
	}
	if err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	if !con.Quiet {
		sum.WriteSummary(con.Err)
	}
	return nil
}

// WriteSummary says what a run wrote, for the terminal: the pages,
// revisions, updates and collapsed revisions, the bytes and their rate,
// the time, the output and its truth; and a second line when reverts and
// bot edits were injected.
func (s *Summary) WriteSummary(w io.Writer) {
	size := ""
	if s.Bytes > 0 {
		size = ", " + human.Bytes(s.Bytes) + " uncompressed"
		if s.Elapsed > 0 {
			size += " (" + human.ByteRate(s.Bytes, s.Elapsed) + ")"
		}
	}
	where := human.Path(s.Out)
	if s.Truth != "" {
		where += ", truth " + human.Path(s.Truth)
	}
	fmt.Fprintf(w, "generate: %s pages, %s revisions, %s updates (%s same-second revisions collapsed)%s in %s → %s\n",
		human.Comma(s.Pages), human.Comma(s.Revisions), human.Comma(s.Updates),
		human.Comma(s.Collapsed), size, human.Elapsed(s.Elapsed), where)
	if n := s.InjectedReverts + s.InjectedBots; n > 0 {
		fmt.Fprintf(w, "generate: injected %s identity reverts undoing %s revisions, %s bot edits (not updates)\n",
			human.Comma(s.InjectedReverts), human.Comma(s.InjectedReverted), human.Comma(s.InjectedBots))
	}
}
