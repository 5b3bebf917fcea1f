package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/ingest/generic"
	"github.com/revisit-dev/revisit/ingest/source"
	"github.com/revisit-dev/revisit/internal/console"
	"github.com/revisit-dev/revisit/internal/usage"
)

// commandLine is CommandOptions as the command line's flags leave them
// when none is given.
func commandLine() CommandOptions {
	return CommandOptions{Options: Options{MaxRevisionsPerPage: DefaultMaxRevisionsPerPage, MaxLineBytes: DefaultMaxLineBytes,
		RevertRadius: DefaultRevertRadius, Generic: generic.Options{Format: "auto", TimeLayout: "auto"}}, NamespacesText: "0", Jobs: 1}
}

// givenFlags is a CommandOptions.Given of the flags named.
func givenFlags(names ...string) func(string) bool {
	return func(f string) bool { return slices.Contains(names, f) }
}

// ParseFlags refuses each bad flag as bad usage naming the command and
// the flag, in the words of the command line.
func TestParseFlagsRefuses(t *testing.T) {
	bots := filepath.Join(t.TempDir(), "no-such-bots.txt")
	for _, c := range []struct {
		set  func(*CommandOptions)
		want string
	}{
		{func(o *CommandOptions) { o.AllNamespaces, o.Given = true, givenFlags("namespaces") }, "ingest: --namespaces and --all-namespaces exclude each other"},
		{func(o *CommandOptions) { o.NamespacesText = "0,talk" }, `ingest: --namespaces: "talk" is not a namespace number`},
		{func(o *CommandOptions) { o.NamespacesText, o.Given = " , ", givenFlags("namespaces") }, "ingest: --namespaces: no namespace given"},
		{func(o *CommandOptions) { o.SinceText = "2001/01/01" }, `ingest: --since: "2001/01/01" is not RFC 3339 (2006-01-02T15:04:05Z) or a date (2006-01-02)`},
		{func(o *CommandOptions) { o.UntilText = "x" }, `ingest: --until: "x" is not RFC 3339 (2006-01-02T15:04:05Z) or a date (2006-01-02)`},
		{func(o *CommandOptions) { o.TimeOriginText = "y" }, `ingest: --time-origin: "y" is not RFC 3339 (2006-01-02T15:04:05Z) or a date (2006-01-02)`},
		{func(o *CommandOptions) { o.TimeOriginText, o.Generic.TimeLayout = "2020-01-01", "date" },
			"ingest: --time-origin places numeric times: --time-layout date is not numeric (want auto, epoch or epochms)"},
		{func(o *CommandOptions) { o.BotPattern, o.Given = "x", givenFlags("bot-pattern") }, "ingest: --bot-pattern and --no-bot-pattern need --drop-bots"},
		{func(o *CommandOptions) { o.NoBotPattern, o.Given = true, givenFlags("no-bot-pattern") }, "ingest: --bot-pattern and --no-bot-pattern need --drop-bots"},
		{func(o *CommandOptions) {
			o.DropBots, o.NoBotPattern, o.BotPattern, o.Given = true, true, "x", givenFlags("bot-pattern", "no-bot-pattern")
		}, "ingest: --bot-pattern and --no-bot-pattern exclude each other"},
		{func(o *CommandOptions) { o.RevertRadius, o.Given = 3, givenFlags("revert-radius") }, "ingest: --revert-radius needs --drop-reverts"},
		{func(o *CommandOptions) { o.DropReverts, o.RevertRadius = true, 0 }, "ingest: --revert-radius must be at least 1"},
		{func(o *CommandOptions) { o.BotList = bots }, "ingest: --bot-list: open " + bots + ": no such file or directory"},
		{func(o *CommandOptions) { o.MaxLineBytes = 0 }, "ingest: --max-revisions-per-page and --max-line-bytes must be at least 1"},
		{func(o *CommandOptions) { o.MaxRevisionsPerPage = 0 }, "ingest: --max-revisions-per-page and --max-line-bytes must be at least 1"},
	} {
		o := commandLine()
		c.set(&o)
		err := o.ParseFlags("ingest")
		if !usage.Is(err) || err.Error() != c.want {
			t.Errorf("%v, want bad usage %q", err, c.want)
		}
	}
	o := commandLine()
	o.SinceText = "x"
	if err := o.ParseFlags("run"); err == nil || !strings.HasPrefix(err.Error(), "run: --since: ") {
		t.Errorf("run's --since: %v, want the message to name run", err)
	}
}

// ParseFlags parses the text of the flags into the options, and
// --bot-list implies --drop-bots; without the command line's text it
// leaves the options as they are.
func TestParseFlagsParses(t *testing.T) {
	bots := write(t, t.TempDir(), "bots.txt", "# bots\nSome_Bot\n\nOther\n")
	o := commandLine()
	o.NamespacesText, o.SinceText, o.UntilText, o.TimeOriginText, o.BotList = " 1,0 ,-2", "2001-01-15", "2001-01-15T04:12:21+02:00", "2020-01-01 00:00:10", bots
	if err := o.ParseFlags("ingest"); err != nil {
		t.Fatal(err)
	}
	// date -u -d 2001-01-15 +%s and so on
	if !slices.Equal(o.Namespaces, []int32{1, 0, -2}) || o.Since.Unix() != 979516800 || o.Until.Unix() != 979524741 || o.Generic.TimeOrigin.Unix() != 1577836810 {
		t.Errorf("namespaces %v, since %v, until %v, time origin %v", o.Namespaces, o.Since, o.Until, o.Generic.TimeOrigin)
	}
	if !o.DropBots || !slices.Equal(o.BotNames, []string{"Some_Bot", "Other"}) {
		t.Errorf("--bot-list: drop bots %v, names %q", o.DropBots, o.BotNames)
	}
	lib := CommandOptions{Options: Options{Namespaces: []int32{4}, Since: time.Unix(5, 0), MaxRevisionsPerPage: 1, MaxLineBytes: 1, RevertRadius: 1}}
	if err := lib.ParseFlags("ingest"); err != nil || !slices.Equal(lib.Namespaces, []int32{4}) || !lib.Since.IsZero() {
		t.Errorf("no text: %v, namespaces %v, since %v (the text's zero bound)", err, lib.Namespaces, lib.Since)
	}
}

// BadRecordPrinter shows the first MaxBadShown skipped records, escaped,
// then says that the others are only counted; under -q it is nil.
func TestBadRecordPrinter(t *testing.T) {
	var errw bytes.Buffer
	on := BadRecordPrinter(console.Console{Err: &errw})
	var want strings.Builder
	for i := 1; i <= MaxBadShown+2; i++ {
		e := &source.ParseError{File: "f\x07.xml", Offset: int64(i), Page: "P", Reason: "read", Err: errors.New("bad")}
		on(e)
		if i <= MaxBadShown {
			fmt.Fprintf(&want, "revisit: skipped: f\\x07.xml at byte %d (page \"P\"): bad\n", i) // the file name escaped
		}
	}
	want.WriteString("revisit: (only the first 10 skipped records are shown; the summary counts all)\n")
	if errw.String() != want.String() {
		t.Errorf("printed:\n%s\nwant:\n%s", errw.String(), want.String())
	}
	if BadRecordPrinter(console.Console{Err: &errw, Quiet: true}) != nil {
		t.Error("a printer under -q")
	}
}

// Command refuses, before reading anything, a command line without input
// or output, --jobs 0 and options Check refuses (as Validate does), then
// an output ingest would not replace and --jobs with --parts; it prints
// the summary of a run, and nothing under -q.
func TestCommand(t *testing.T) {
	dir := t.TempDir()
	in := write(t, dir, "in.xml", xmlHead+xmlPage("A", 1, 3)+xmlPage("B", 2, 1)+"</mediawiki>")
	nx := filepath.Join(dir, "nx.xml")
	foreign := filepath.Join(dir, "foreign")
	os.Mkdir(foreign, 0o755)
	write(t, foreign, "notes.txt", "mine")
	for _, c := range []struct {
		set     func(*CommandOptions)
		want    string
		refused bool
		late    bool // Command's check after the output's: Validate passes it
	}{
		{func(o *CommandOptions) { o.Inputs = nil }, "ingest: no INPUT given", false, false},
		{func(o *CommandOptions) { o.Output = "" }, "ingest: -o DATASET_DIR is required", false, false},
		{func(o *CommandOptions) { o.MaxLineBytes = 0 }, "ingest: --max-revisions-per-page and --max-line-bytes must be at least 1", false, false},
		{func(o *CommandOptions) { o.Jobs = 0 }, "ingest: --jobs must be at least 1", false, false},
		{func(o *CommandOptions) { o.SinceText, o.UntilText = "2002-01-01", "2001-01-01" },
			"ingest: since 2002-01-01T00:00:00Z is not before until 2001-01-01T00:00:00Z", false, false},
		{func(o *CommandOptions) { o.Inputs, o.Jobs, o.Parts = []string{nx, nx + "2"}, 2, 2 },
			"ingest: --jobs and --parts exclude each other (each job writes one dataset; they are joined file by file)", false, true},
		{func(o *CommandOptions) { o.Output = foreign }, "ingest: ", true, true},
	} {
		o := commandLine()
		o.Inputs, o.Output = []string{nx}, filepath.Join(dir, "out")
		c.set(&o)
		v := o
		if verr := v.Validate(); c.late != (verr == nil) || (verr != nil && verr.Error() != c.want) {
			t.Errorf("Validate: %v, want %q (nil for Command's later checks)", verr, c.want)
		}
		var out, errw bytes.Buffer
		err := Command(context.Background(), o, console.Console{Out: &out, Err: &errw})
		switch {
		case c.refused && (!usage.IsRefused(err) || !strings.HasPrefix(err.Error(), c.want)):
			t.Errorf("%v, want a refused output", err)
		case !c.refused && (!usage.Is(err) || err.Error() != c.want):
			t.Errorf("%v, want bad usage %q", err, c.want)
		}
		if out.Len()+errw.Len() != 0 {
			t.Errorf("%q printed %q, %q", c.want, out.String(), errw.String())
		}
	}
	if _, err := os.Stat(filepath.Join(foreign, "notes.txt")); err != nil {
		t.Errorf("the refused output's file: %v", err)
	}

	for _, quiet := range []bool{false, true} {
		o := commandLine()
		o.Inputs, o.Output, o.MinUpdates = []string{in}, filepath.Join(dir, fmt.Sprint("ds-", quiet)), 2
		var out, errw bytes.Buffer
		if err := Command(context.Background(), o, console.Console{Out: &out, Err: &errw, Quiet: quiet}); err != nil {
			t.Fatal(err)
		}
		_, m := readDataset(t, o.Output)
		switch {
		case quiet && out.Len()+errw.Len() != 0:
			t.Errorf("-q printed %q, %q", out.String(), errw.String())
		case !quiet && (!strings.HasPrefix(out.String(), "ingested ") || !strings.Contains(out.String(), o.Output) || m.Counts.PagesKept != 1):
			t.Errorf("summary %q, %d pages kept (want 1: B has one update, below --min-updates 2)", out.String(), m.Counts.PagesKept)
		}
	}
}
