package ingest

// Run: the driver's state, the checks before anything is written, the
// loop over inputs and their archive members, and the manifest at the end.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/ingest/source"
	"github.com/revisit-dev/revisit/ingest/yelp"
	"github.com/revisit-dev/revisit/internal/decompress"
	"github.com/revisit-dev/revisit/series"
)

// batchSize is the number of pages the parsing goroutine hands over at once.
const batchSize = 256

type driver struct {
	opt      Options
	ns       []int32
	since    int64
	until    int64
	hasSince bool
	hasUntil bool

	w      *dataset.Writer
	ids    *idRegistry
	counts dataset.Counts
	inputs []dataset.Input
	bytes  int64

	badMu    sync.Mutex
	bad      map[string]int64
	inputBad map[string]int64 // of the input being read

	// Pages of ungrouped readers (generic, yelp), merged by (source, id)
	// across inputs and written after the last input.
	merged     map[mergeKey]*series.RawPage
	mergeOrder []mergeKey
	kinds      map[mergeKey]string
	files      map[mergeKey]string

	lastConsumed int64
	compressed   bool // the current input is compressed: parse offsets are in the decompressed stream

	// live counts the decompressed bytes the parsers of the current input
	// read (atomically: a progress tick reads it while they parse);
	// lastLive is its value at the last Progress.Add.
	live         *liveCounter
	lastLive     int64
	decompressed int64 // decompressed bytes of the inputs done

	titleChanges int64 // generic records whose --title differs from their object's first

	skipLines    int   // lines before a generic log's header in the current input (--skip-lines, FILE:skip=N)
	skippedLines int64 // lines the generic readers of the current input skipped

	// Suspicious times (timecheck.go): updates kept before 1990 and the
	// earliest; the whose numeric times look relative; whether --time-origin
	// placed the times of a generic input.
	before1990  int64
	earliest    int64
	hasEarliest bool
	relative    []string
	originUsed  bool

	wikiRead bool // an input of a kind with namespaces, redirects and revision flags was read

	badRevisions int64 // revisions of pages skipped as bad (ParseError.Revisions), under badMu

	truncated []TruncatedPage // pages cut by the end of their input (see truncated.go)

	isBot    func(string) series.BotRule // the bot test of --drop-bots (nil without)
	botBy    BotCounts                   // revisions --drop-bots left out, by rule
	noSHA1   int64                       // revisions without a checksum (neither <sha1> nor text) under --drop-reverts
	sha1Seen int64                       // revisions of XML dumps --drop-reverts looked at, with a checksum or without
	textSHA1 int64                       // revisions whose checksum is their text's (no <sha1> in the dump)
	mwOther  int64                       // mediawiki_history events that are not revision creations

	businesses               yelp.Businesses
	yelpJoined, yelpUnjoined int64
	yelpIDTitles             int64 // Yelp businesses written without a business file: titled by id
}

// Run ingests opt.Inputs into the dataset opt.Output. On any error nothing
// is left at opt.Output (an existing dataset there is kept); bad input is
// reported as a *source.ParseError, *decompress.CorruptError or
// *FormatError naming the file, and option problems as *OptionError
// (Check's, then those of the INPUT:skip=N suffixes and of a generic
// input's columns, found once it is opened).
func Run(ctx context.Context, opt Options) (*Summary, error) {
	start := time.Now()
	if err := opt.Check(); err != nil {
		return nil, err
	}
	d := &driver{
		opt:    opt,
		ns:     opt.namespaces(),
		ids:    newIDRegistry(),
		bad:    map[string]int64{},
		merged: map[mergeKey]*series.RawPage{},
		kinds:  map[mergeKey]string{},
		files:  map[mergeKey]string{},
	}
	d.counts.Skipped = map[string]int64{}
	d.isBot, _ = opt.botTest() // checked by opt.check
	if !opt.Since.IsZero() {
		d.since, d.hasSince = opt.Since.Unix(), true
	}
	if !opt.Until.IsZero() {
		d.until, d.hasUntil = opt.Until.Unix(), true
	}
	specs, err := opt.parseInputs()
	if err != nil {
		return nil, optionError(err)
	}
	// Every input must exist before anything is written.
	total := int64(0)
	for _, spec := range specs {
		in := spec.path
		if in == "-" {
			// Standard input redirected from a file has a size; a pipe has none.
			if st, err := os.Stdin.Stat(); err == nil && st.Mode().IsRegular() && total >= 0 {
				total += st.Size()
			} else {
				total = -1
			}
			continue
		}
		st, err := os.Stat(in)
		if err != nil {
			return nil, err
		}
		if st.IsDir() {
			return nil, fmt.Errorf("%s: is a directory", in)
		}
		if total >= 0 {
			total += st.Size()
		}
	}
	w, err := dataset.CreateParts(opt.Output, opt.Parts)
	if err != nil {
		return nil, err
	}
	d.w = w
	committed := false
	defer func() {
		if !committed {
			w.Abort()
		}
	}()
	if opt.Progress != nil {
		opt.Progress.Start(total)
		defer opt.Progress.Finish()
	}
	for _, spec := range specs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		d.skipLines = spec.skip
		if err := d.input(ctx, spec.path); err != nil {
			return nil, err
		}
	}
	if err := d.flushMerged(ctx); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err // a cancel after the last page: nothing is committed
	}
	s := d.summary(time.Since(start))
	if s.Counts.PagesKept == 0 {
		return nil, &EmptyError{s}
	}
	m := &dataset.Manifest{
		Tool:    "revisit",
		Version: opt.Version,
		Created: time.Now().UTC(),
		Inputs:  d.inputs,
		Filters: s.Filters,
		Counts:  d.counts,
		Extra: map[string]any{
			"remapped_page_ids":  d.ids.remapped,
			"sources":            d.ids.order,
			"decompressed_bytes": d.decompressed,
		},
	}
	if d.businesses != nil {
		m.Extra["yelp_businesses_joined"] = d.yelpJoined
		m.Extra["yelp_businesses_not_in_business_file"] = d.yelpUnjoined
		m.Extra["yelp_titles"] = "name"
	} else if d.yelpIDTitles > 0 {
		m.Extra["yelp_titles"] = yelpIDTitlesNote
	}
	if d.titleChanges > 0 {
		m.Extra["generic_title_changes"] = d.titleChanges
	}
	if opt.revisionFilters() {
		m.Extra[extraFilters] = s.RevisionFilters
	}
	if opt.DropBots {
		m.Extra[extraBotBy] = d.botBy.Map()
	}
	if opt.DropReverts {
		m.Extra[extraNoSHA1] = d.noSHA1
		m.Extra[extraWithSHA1] = d.sha1Seen - d.noSHA1
		if d.textSHA1 > 0 {
			m.Extra[extraTextSHA1] = d.textSHA1
		}
	}
	if d.mwOther > 0 {
		m.Extra["mediawiki_history_other_events"] = d.mwOther
	}
	if len(d.truncated) > 0 {
		m.Extra[extraTruncated] = d.truncated
	}
	if s.TimeOrigin != "" {
		m.Extra[extraTimeOrigin] = s.TimeOrigin
	}
	if s.TimeWarning != nil {
		m.Extra[extraTimeWarning] = s.TimeWarning
	}
	if err := w.Close(m); err != nil {
		return nil, err
	}
	committed = true
	return s, nil
}

// input reads every member of one input.
func (d *driver) input(ctx context.Context, path string) error {
	r, err := decompress.OpenContext(ctx, path, decompress.Options{Builtin: d.opt.BuiltinDecoders})
	if err != nil {
		return err
	}
	defer r.Close()
	d.lastConsumed, d.skippedLines = 0, 0
	d.live, d.lastLive = &liveCounter{r: r, ctx: ctx}, 0
	d.badMu.Lock()
	d.inputBad = map[string]int64{}
	d.badMu.Unlock()
	defer func() {
		d.badMu.Lock()
		d.inputBad = nil
		d.badMu.Unlock()
	}()
	d.compressed = r.Format() != decompress.Plain
	var kinds []string
	var unread []string // archive members of no format read, with their first bytes
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		// After a corrupt stream nothing more can be read; Next then
		// returns io.EOF.
		member, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if err := d.badInput(r, r.Name(), err); err != nil {
				return err
			}
			break
		}
		name := r.Name()
		if member != "" {
			name += ":" + member
		}
		// A compressed member is read decompressed: offsets in it are
		// decompressed bytes.
		mf := r.MemberFormat()
		d.compressed = r.Format() != decompress.Plain || (mf != "" && mf != decompress.Plain)
		head, err := r.Peek(64 << 10)
		if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) && len(head) == 0 {
			// Nothing decodes; with bytes before the error the reader
			// gets them, then the error.
			if err := d.badInput(r, name, err); err != nil {
				return err
			}
			continue
		}
		kind, ok := d.sniff(head)
		if !ok {
			if r.Archive() != decompress.NoArchive {
				// Archives hold other files too (licences, user lists):
				// counted, not fatal.
				d.addSkip(SkipArchiveUnknownFormat, 1)
				kinds = append(kinds, "skipped:"+member)
				unread = append(unread, member+" (starts with "+quoteHead(head)+")")
				if err := d.ticking(r, func() error { _, err := io.Copy(io.Discard, d.live); return err }); err != nil {
					if err := d.badInput(r, name, err); err != nil {
						return err
					}
				}
				continue
			}
			return d.formatError(name, head)
		}
		if kind == KindYelpBusiness {
			err = d.ticking(r, func() error { return d.readBusinesses(r, name) })
		} else {
			err = d.stream(ctx, r, name, kind)
		}
		if err != nil {
			if cerr := ctx.Err(); cerr != nil {
				return cerr
			}
			var pe *source.ParseError
			if errors.As(err, &pe) && d.compressed {
				pe.Decompressed = true
			}
			return d.skipBadHint(err)
		}
		if mf != "" && mf != decompress.Plain {
			kind += "+" + mf
		}
		kinds = append(kinds, kind)
	}
	if r.Archive() != decompress.NoArchive && !r.Failed() && len(unread) == len(kinds) {
		return &ArchiveError{File: r.Name(), Archive: r.Archive(), Members: unread}
	}
	for k, v := range r.SkippedMembers() {
		// Links, devices, FIFOs: no file data, but not dropped silently.
		d.addSkip(archiveSkip(k), v)
	}
	if len(kinds) == 0 && r.Failed() {
		kinds = append(kinds, "corrupt")
	}
	sum, err := r.SHA256()
	if err != nil {
		return err
	}
	size := r.Size()
	if size < 0 {
		size = r.Consumed()
	}
	d.reportEnd(r, size)
	d.decompressed += d.live.n.Load()
	format := strings.Join(slices.Compact(slices.Clone(kinds)), ",")
	switch {
	case r.Archive() == decompress.SevenZip:
		format = "7z[" + format + "]"
	case r.Archive() == decompress.Tar && r.Format() != decompress.Plain:
		format = "tar+" + r.Format() + "[" + format + "]"
	case r.Archive() == decompress.Tar:
		format = "tar[" + format + "]"
	case r.Format() != decompress.Plain:
		format += "+" + r.Format()
	}
	in := dataset.Input{Name: r.Name(), Size: size, SHA256: sum, Format: format, Decoder: r.Decoder(), SkipLines: d.skippedLines}
	d.badMu.Lock()
	if len(d.inputBad) > 0 {
		in.Bad = d.inputBad
	}
	d.badMu.Unlock()
	d.inputs = append(d.inputs, in)
	d.bytes += size
	return nil
}
