package generate

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/internal/console"
	"github.com/revisit-dev/revisit/internal/usage"
)

// commandOptions are the command line's defaults (revisit generate
// without flags), writing under dir.
func commandOptions(dir string) CommandOptions {
	return CommandOptions{
		Options:  Options{Config: Config{Pages: 5, Seed: 1, TalkFraction: 0.1, MaxUpdates: 10_000_000}, Format: FormatMediaWiki, GzipImpl: "pgzip", Out: filepath.Join(dir, "g.xml")},
		UnitText: "h", ModelTexts: []string{"exp:0.1"}, SpanText: "30d", StartText: "2020-01-01",
	}
}

// Every value the command line can get wrong is bad usage naming its
// flag, with the message the command has always printed, found before
// anything is written.
func TestValidateMessages(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		set  func(o *CommandOptions)
		want string
	}{
		{func(o *CommandOptions) { o.UnitText = "q" }, `--unit "q": want s, m, h, d, w or y`},
		{func(o *CommandOptions) { o.ModelTexts = []string{"bogus:1"} }, "--model: "},
		{func(o *CommandOptions) { o.SpanText = "1q" }, "--span: "},
		{func(o *CommandOptions) { o.StartText = "2020-13-01" }, "--start: "},
		{func(o *CommandOptions) { o.Format = "csv" }, `--format "csv": want mediawiki, yelp or parquet`},
		{func(o *CommandOptions) { o.Format, o.Out = "csv", "" }, `--format "csv": want mediawiki, yelp or parquet`},
		{func(o *CommandOptions) { o.Format, o.Out = FormatParquet, "-" }, "--format parquet writes a directory: give -o DIR"},
		{func(o *CommandOptions) { o.Format, o.BotRate = FormatYelp, 0.1 }, "--inject-reverts and --inject-bots need --format mediawiki"},
		{func(o *CommandOptions) { o.Format, o.RevertRate = FormatParquet, 0.1 }, "--inject-reverts and --inject-bots need --format mediawiki"},
		{func(o *CommandOptions) { o.GzipImpl = "zz" }, `gzip implementation "zz": want pgzip or gzip`},
	} {
		o := commandOptions(dir)
		c.set(&o)
		err := Command(context.Background(), o, console.Console{Out: new(bytes.Buffer), Err: new(bytes.Buffer)})
		if !usage.Is(err) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("got %v (usage %v), want bad usage starting %q", err, usage.Is(err), c.want)
		}
	}
	if es, _ := os.ReadDir(dir); len(es) != 0 {
		t.Errorf("refused options wrote %v", es)
	}
	for format, want := range map[string]string{FormatMediaWiki: "generated-stub-meta-history.xml.gz", FormatYelp: "generated-yelp", FormatParquet: "generated-dataset"} {
		o := commandOptions(dir)
		o.Format, o.Out = format, ""
		if err := o.Validate(); err != nil || o.Out != want {
			t.Errorf("%s: default output %q (%v), want %q", format, o.Out, err, want)
		}
	}
	o := commandOptions(dir)
	o.UnitText = "d"
	if err := o.Validate(); err != nil {
		t.Fatal(err)
	}
	if o.Unit != 86400 || o.UnitName != "d" || o.Span != 30*86400 || !o.Start.Equal(time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)) || len(o.Models) != 1 {
		t.Errorf("parsed unit %g %q, span %d, start %v, %d models", o.Unit, o.UnitName, o.Span, o.Start, len(o.Models))
	}
}

// Command writes the corpus and says so in one line per fact on standard
// error (none under -q); an output file it did not write is refused
// (usage.Refused) and left as it was.
func TestCommand(t *testing.T) {
	dir := t.TempDir()
	o := commandOptions(dir)
	o.RevertRate = 0.5
	var stdout, stderr bytes.Buffer
	if err := Command(context.Background(), o, console.Console{Out: &stdout, Err: &stderr}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "generate: 5 pages, ") || !strings.HasSuffix(lines[0], " → "+o.Out+", truth "+filepath.Join(dir, "g.truth.json")) ||
		!strings.HasPrefix(lines[1], "generate: injected ") || stdout.Len() != 0 {
		t.Errorf("stdout %q, stderr:\n%s", stdout.String(), stderr.String())
	}
	stderr.Reset()
	if err := Command(context.Background(), o, console.Console{Out: &stdout, Err: &stderr, Quiet: true}); err != nil || stderr.Len() != 0 {
		t.Errorf("-q: %v, stderr %q", err, stderr.String())
	}

	mine := filepath.Join(dir, "mine.xml")
	if err := os.WriteFile(mine, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	o.Out = mine
	err := Command(context.Background(), o, console.Console{Out: &stdout, Err: &stderr})
	if !usage.IsRefused(err) || !strings.HasPrefix(err.Error(), "generate: ") {
		t.Errorf("a file generate did not write: %v, want a refusal", err)
	}
	if b, _ := os.ReadFile(mine); string(b) != "mine" {
		t.Errorf("the user's file changed: %q", b)
	}
}

// WriteSummary gives the size and rate only when bytes were counted, and
// the truth only when there is one.
func TestWriteSummary(t *testing.T) {
	var b bytes.Buffer
	s := &Summary{Totals: Totals{Pages: 1000, Revisions: 12345, Updates: 12340, Collapsed: 5}, Out: "ds", Elapsed: 2 * time.Second}
	s.WriteSummary(&b)
	want := "generate: 1,000 pages, 12,345 revisions, 12,340 updates (5 same-second revisions collapsed) in 2s → ds\n"
	if b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
}
