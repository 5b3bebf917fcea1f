package ingest

import (
	"fmt"
	"slices"
	"time"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/ingest/generic"
	"github.com/revisit-dev/revisit/ingest/source"
)

// Options are everything `revisit ingest` can be told.
type Options struct {
	// Inputs are file paths; "-" is standard input.
	Inputs []string
	// Output is the dataset directory (written atomically).
	Output string
	// Parts writes the dataset as this many part files partitioned by
	// page id (dataset.CreateParts: SplitMix64(id) mod Parts, the rule of
	// --shard); 0 writes the one file pages.parquet.
	Parts int

	// Namespaces keeps MediaWiki pages of these namespaces (nil: {0}, the
	// articles). AllNamespaces keeps every namespace. The filter applies to
	// MediaWiki inputs only; other sources have no namespaces.
	Namespaces    []int32
	AllNamespaces bool
	// MinUpdates drops pages with fewer updates, counted after the time
	// range and after collapsing same-second revisions.
	MinUpdates int
	// Since (inclusive) and Until (exclusive) keep revisions inside
	// [Since, Until); a zero time is no bound.
	Since, Until time.Time
	// NoRedirects drops MediaWiki redirect pages.
	NoRedirects bool
	// SkipBad counts bad records and goes on instead of failing.
	SkipBad bool
	// BuiltinDecoders decodes xz, LZMA-alone and 7z inputs in-process,
	// never with the system's xz or 7z (see decompress.OpenContext).
	BuiltinDecoders bool
	// MaxRevisionsPerPage caps the revisions of one page (or object of a
	// Yelp or generic input, over all inputs); 0 means
	// DefaultMaxRevisionsPerPage. A page with more is bad input, reason
	// "too-many-revisions": an error naming the file, position and page,
	// or with SkipBad a skipped page whose revisions are counted (read,
	// and in revisions_of_skipped_pages) but never held in memory.
	MaxRevisionsPerPage int64
	// MaxLineBytes caps a line of JSON-lines or TSV input, a CSV record
	// and a whole jsonkeys object; 0 means DefaultMaxLineBytes. A longer
	// one is bad input, reason "line-too-long" (with SkipBad it is passed
	// over without being held in memory and counted).
	MaxLineBytes int

	// Revision filters (what counts as an update on a wiki; see
	// wikifilter.go): DropReverts leaves out identity reverts and the
	// revisions they revert, DropBots the revisions of bots, DropMinor the
	// revisions marked minor. They apply to MediaWiki XML and
	// mediawiki_history inputs (other sources carry no such information),
	// before --since/--until; each revision left out is counted once,
	// under the first of these reasons that applies.
	DropReverts bool
	DropBots    bool
	DropMinor   bool
	// RevertRadius is the most revisions an identity revert in an XML
	// dump can undo (mwreverts' radius: a revision is compared with the
	// RevertRadius+1 before it); 0 means DefaultRevertRadius.
	RevertRadius int
	// BotPattern, when DropBots is set, is the regular expression a bot's
	// user name matches; "" means DefaultBotPattern, and NoBotPattern
	// uses BotNames alone.
	BotPattern   string
	NoBotPattern bool
	// BotNames are user names of bots (--bot-list FILE, one per line),
	// compared after replacing underscores by spaces.
	BotNames []string
	// BotList names the file BotNames came from, for the manifest.
	BotList string

	// Source overrides the source name of MediaWiki pages (default: the
	// dump's dbname, see mediawiki.Options) and names generic logs when
	// Generic.Source is empty (default "generic").
	Source string
	// Generic tells the generic CSV/JSON reader where ids and times are.
	// Inputs that are neither MediaWiki XML nor Yelp JSON are read with it
	// when an id is given (Generic.ID or Generic.IDFromFileName); a Format
	// other than "" or "auto" forces every non-MediaWiki input through it.
	// FileName is filled in per input.
	Generic generic.Options

	// Version is the tool version written to the manifest.
	Version string
	// Progress, if not nil, is told the total stored bytes and the work done.
	Progress Progress
	// OnBad, if not nil, sees every bad record skipped under SkipBad (to
	// log a few of them).
	OnBad func(*source.ParseError)
}

// Progress receives the progress of a run; internal/progress implements it
// for terminals and logs. Calls come from the goroutine that called Run.
type Progress interface {
	// Start is called once with the total stored size of the inputs
	// (−1 when one of them is a pipe).
	Start(total int64)
	// Add reports, since the last call, the stored (compressed) bytes
	// read, the decompressed bytes parsed, and the pages and revisions
	// handed over by the parsers. While a parser works on one long page
	// (a 1 GB page history) Add is still called about every
	// ProgressInterval with the bytes alone; at the end of an input the
	// stored bytes add up to its size.
	Add(stored, decompressed, pages, revisions int64)
	// Finish ends the display.
	Finish()
}

// ProgressInterval is the longest time between two calls of Progress.Add
// while an input is parsed.
const ProgressInterval = 250 * time.Millisecond

// DefaultNamespaces is the namespace filter when none is given: articles.
var DefaultNamespaces = []int32{0}

// Default caps on one page and one line. They bound ingest's memory for
// any input: bench/ingest-bombs.sh measures the worst case (a page at
// the cap right after a full row group) against 256 MiB of peak RSS. A
// page's revisions cost 8–10 bytes each as read, then its write 8 in the
// Arrow builder, 8 in the Parquet writer's conversion to milliseconds and
// 4 in list levels. The revision filters add, while a
// page is read, 1 byte per revision for --drop-bots and 8 for
// --drop-reverts (BenchmarkRevisionFlags in ingest/mediawiki), released
// before the write. The largest pages of the Wikimedia wikis have about
// 1–2 million revisions. A line or CSV record at the line cap costs at
// most about 4 times its length; real lines (a Yelp review or check-in
// line) are under 1 MiB.
const (
	DefaultMaxRevisionsPerPage = 4_000_000
	DefaultMaxLineBytes        = 16 << 20
)

func (o *Options) maxRevisions() int64 {
	if o.MaxRevisionsPerPage == 0 {
		return DefaultMaxRevisionsPerPage
	}
	return o.MaxRevisionsPerPage
}

func (o *Options) maxLineBytes() int {
	if o.MaxLineBytes == 0 {
		return DefaultMaxLineBytes
	}
	return o.MaxLineBytes
}

func (o *Options) check() error {
	if len(o.Inputs) == 0 {
		return fmt.Errorf("no input files")
	}
	if o.Output == "" {
		return fmt.Errorf("no output directory")
	}
	if o.Parts < 0 || o.Parts > dataset.MaxParts {
		return fmt.Errorf("--parts %d: want 0…%d", o.Parts, dataset.MaxParts)
	}
	stdin := 0
	for _, in := range o.Inputs {
		if in == "-" {
			stdin++
		}
	}
	if stdin > 1 {
		return fmt.Errorf("standard input (-) given %d times", stdin)
	}
	if o.MinUpdates < 0 {
		return fmt.Errorf("min updates %d < 0", o.MinUpdates)
	}
	if o.MaxRevisionsPerPage < 0 {
		return fmt.Errorf("max revisions per page %d < 0", o.MaxRevisionsPerPage)
	}
	if o.MaxLineBytes < 0 {
		return fmt.Errorf("max line bytes %d < 0", o.MaxLineBytes)
	}
	if o.RevertRadius < 0 {
		return fmt.Errorf("revert radius %d < 0", o.RevertRadius)
	}
	if _, err := o.botTest(); err != nil {
		return err
	}
	if !o.Since.IsZero() && !o.Until.IsZero() && !o.Since.Before(o.Until) {
		return fmt.Errorf("since %s is not before until %s", o.Since.Format(time.RFC3339), o.Until.Format(time.RFC3339))
	}
	g := o.Generic
	if g.Format == KindMWHistory {
		g.Format = generic.FormatAuto // ingest's format, not the generic reader's
	}
	if err := g.CheckFlags(); err != nil {
		if g.Format != o.Generic.Format || g.CheckFormat() == nil {
			return err
		}
		return fmt.Errorf("%w, or %s", err, KindMWHistory)
	}
	return nil
}

// Check refuses options that cannot work (*OptionError, its message
// starting "ingest: "), as Run does before it reads or writes anything:
// a command line that runs ingest later (revisit run) checks its flags
// with it first.
func (o *Options) Check() error {
	if err := o.check(); err != nil {
		return optionError(err)
	}
	return nil
}

func (o *Options) namespaces() []int32 {
	if o.AllNamespaces {
		return nil
	}
	if len(o.Namespaces) == 0 {
		return DefaultNamespaces
	}
	ns := slices.Clone(o.Namespaces)
	slices.Sort(ns)
	return slices.Compact(ns)
}

// genericForced reports whether the user asked for the generic reader
// explicitly (a format other than auto).
func (o *Options) genericForced() bool {
	return o.Generic.Format != "" && o.Generic.Format != generic.FormatAuto && o.Generic.Format != KindMWHistory
}

// genericGiven reports whether enough was given to read a generic log.
func (o *Options) genericGiven() bool {
	return o.Generic.ID != "" || o.Generic.IDFromFileName
}
