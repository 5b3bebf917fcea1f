package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/ingest/generic"
	"github.com/revisit-dev/revisit/ingest/mediawiki"
	"github.com/revisit-dev/revisit/ingest/mwhistory"
	"github.com/revisit-dev/revisit/ingest/source"
	"github.com/revisit-dev/revisit/ingest/yelp"
	"github.com/revisit-dev/revisit/internal/decompress"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/series"
)

// OptionError is a problem with the options rather than the input (exit
// code 2 in the CLI).
type OptionError struct{ Err error }

func (e *OptionError) Error() string { return e.Err.Error() }
func (e *OptionError) Unwrap() error { return e.Err }

// FormatError is an input whose content no reader recognises.
type FormatError struct {
	File string
	Head string // the first bytes, quoted for the message
	// NUL is the offset of the first NUL byte in the head, -1 if none: text
	// logs have none, binary data and UTF-16 text do.
	NUL int64
	// Generic says that --id/--time were given, so the generic reader was
	// tried and did not recognise the input either.
	Generic bool
}

func (e *FormatError) Error() string {
	if e.Head == `""` {
		return e.File + ": empty input (no bytes to read)"
	}
	if e.NUL >= 0 {
		return fmt.Sprintf("%s: unknown format: byte %d is a NUL byte, so this is not text in UTF-8 (binary data, or UTF-16 text: convert it) (starts with %s)", e.File, e.NUL, e.Head)
	}
	if e.Generic {
		return fmt.Sprintf("%s: unknown format: not MediaWiki XML, not a mediawiki_history TSV dump, not Yelp JSON lines, not a CSV/TSV log with a header or JSON lines (a title line before the header? --skip-lines) (starts with %s)", e.File, e.Head)
	}
	return fmt.Sprintf("%s: unknown format: not MediaWiki XML, not a mediawiki_history TSV dump, not Yelp JSON lines; for a CSV/TSV/JSON log give --id and --time (starts with %s)", e.File, e.Head)
}

// ArchiveError is an archive none of whose members is in a format ingest
// reads (or that has no member at all): an error even with --skip-bad,
// which would otherwise read nothing from it and say little.
type ArchiveError struct {
	File    string
	Archive string   // "tar" or "7z"
	Members []string // each member's name and first bytes
}

// maxMembersNamed is how many members an ArchiveError names.
const maxMembersNamed = 10

func (e *ArchiveError) Error() string {
	if len(e.Members) == 0 {
		return fmt.Sprintf("%s: the %s archive has no file member", e.File, e.Archive)
	}
	list := e.Members
	more := ""
	if len(list) > maxMembersNamed {
		more = fmt.Sprintf(" and %s more", human.Comma(int64(len(list)-maxMembersNamed)))
		list = list[:maxMembersNamed]
	}
	return fmt.Sprintf("%s: no member of the %s archive is in a format ingest reads (MediaWiki XML, mediawiki_history TSV, Yelp JSON lines, or with --id/--time a CSV/TSV/JSON log; compressed members are decompressed first): %s%s",
		e.File, e.Archive, strings.Join(list, ", "), more)
}

// formatError describes an input no reader recognises from its head.
func (d *driver) formatError(name string, head []byte) *FormatError {
	nul := int64(bytes.IndexByte(head, 0))
	if d.opt.genericGiven() && nul >= 0 {
		// A NUL after the first line does not stop the generic reader
		// (generic.SniffFormat): only one in the first line is reported.
		if i := bytes.IndexByte(head, '\n'); i >= 0 && int64(i) < nul {
			nul = -1
		}
	}
	return &FormatError{File: name, Head: quoteHead(head), NUL: nul, Generic: d.opt.genericGiven()}
}

// bigPage is the number of updates from which a page is large enough that
// its write is preceded by a garbage collection (see page).
const bigPage = 1 << 20

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
	noSHA1   int64                       // revisions without a <sha1> under --drop-reverts
	textSHA1 int64                       // revisions whose checksum is their text's (no <sha1> in the dump)
	mwOther  int64                       // mediawiki_history events that are not revision creations

	businesses               yelp.Businesses
	yelpJoined, yelpUnjoined int64
	yelpIDTitles             int64 // Yelp businesses written without a business file: titled by id
}

// liveCounter counts the bytes read through it; Load is safe from another
// goroutine. Once ctx is done it reads nothing more and returns ctx's
// error: a reader that takes in its whole input before its first page
// (generic logs, mediawiki_history, Yelp) stops at its next read when
// Ctrl-C comes, not at the end of a file of many GB.
type liveCounter struct {
	r   io.Reader
	ctx context.Context
	n   atomic.Int64
}

func (c *liveCounter) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

type mergeKey struct {
	source string
	id     int64
}

// Run ingests opt.Inputs into the dataset opt.Output. On any error nothing
// is left at opt.Output (an existing dataset there is kept); bad input is
// reported as a *source.ParseError, *decompress.CorruptError or
// *FormatError naming the file, and option problems as *OptionError.
func Run(ctx context.Context, opt Options) (*Summary, error) {
	start := time.Now()
	if err := opt.check(); err != nil {
		return nil, &OptionError{err}
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
		return nil, &OptionError{err}
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
	r, err := decompress.Open(path)
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
	in := dataset.Input{Name: r.Name(), Size: size, SHA256: sum, Format: format, SkipLines: d.skippedLines}
	d.badMu.Lock()
	if len(d.inputBad) > 0 {
		in.Bad = d.inputBad
	}
	d.badMu.Unlock()
	d.inputs = append(d.inputs, in)
	d.bytes += size
	return nil
}

// badInput handles damage the reader found outside a parser — when the
// input was opened, between archive members, past the tar end marker or the
// parser's last read: without SkipBad it is returned; with SkipBad a
// *decompress.CorruptError is one counted bad record ("corrupt") and the
// input ends there.
func (d *driver) badInput(r *decompress.Reader, name string, err error) error {
	var ce *decompress.CorruptError
	if !d.opt.SkipBad || !errors.As(err, &ce) {
		return d.skipBadHint(err)
	}
	pe := source.ReadError(name, ce.Offset, 0, "", err)
	so := d.sourceOptions(r.Name())
	return so.Bad(pe)
}

// skipBadHint adds to the error of an input cut short or damaged (a
// *source.ParseError of reason "truncated" or "corrupt", or a
// *decompress.CorruptError) what --skip-bad would do with it, when the
// message does not say so already.
func (d *driver) skipBadHint(err error) error {
	if d.opt.SkipBad || strings.Contains(err.Error(), "--skip-bad") {
		return err
	}
	const hint = " (--skip-bad keeps what was read before it)"
	var pe *source.ParseError
	if errors.As(err, &pe) {
		if pe.Reason == "truncated" || pe.Reason == "corrupt" {
			pe.Err = hinted{pe.Err, hint}
		}
		return err
	}
	var ce *decompress.CorruptError
	if errors.As(err, &ce) {
		return hinted{err, hint}
	}
	return err
}

// hinted is an error with a hint after its message, unwrapping to it.
type hinted struct {
	err  error
	hint string
}

func (e hinted) Error() string { return e.err.Error() + e.hint }
func (e hinted) Unwrap() error { return e.err }

func quoteHead(head []byte) string {
	if len(head) > 40 {
		head = head[:40]
	}
	return fmt.Sprintf("%q", head)
}

// report passes the stored and decompressed bytes read since the last call
// to Progress, with pages and revisions.
func (d *driver) report(r *decompress.Reader, pages, revs int64) {
	if d.opt.Progress == nil {
		return
	}
	c, l := r.Consumed(), d.live.n.Load()
	d.opt.Progress.Add(c-d.lastConsumed, l-d.lastLive, pages, revs)
	d.lastConsumed, d.lastLive = c, l
}

// ticking runs fn (which reads the current input and calls no Progress
// method) in its own goroutine and reports progress every
// ProgressInterval until it returns: a large member passed over or a
// large Yelp business file does not freeze the display.
func (d *driver) ticking(r *decompress.Reader, fn func() error) error {
	if d.opt.Progress == nil {
		return fn()
	}
	done := make(chan error, 1)
	go func() { done <- fn() }()
	t := time.NewTicker(ProgressInterval)
	defer t.Stop()
	for {
		select {
		case err := <-done:
			return err
		case <-t.C:
			d.report(r, 0, 0)
		}
	}
}

// reportEnd reports the end of an input of the given stored size: what is
// left of it counts as read (a decompressor may stop before trailing
// bytes), so that the stored bytes reported add up to the total.
func (d *driver) reportEnd(r *decompress.Reader, size int64) {
	if d.opt.Progress == nil {
		return
	}
	d.report(r, 0, 0)
	if size > d.lastConsumed {
		d.opt.Progress.Add(size-d.lastConsumed, 0, 0, 0)
		d.lastConsumed = size
	}
}

func (d *driver) sourceOptions(name string) source.Options {
	return source.Options{File: name, SkipBad: d.opt.SkipBad, OnBad: d.onBad,
		MaxRevisions: d.opt.maxRevisions(), MaxLineBytes: d.opt.maxLineBytes()}
}

// onBad counts a skipped bad record; readers call it from the parsing
// goroutine.
func (d *driver) onBad(e *source.ParseError) {
	d.badMu.Lock()
	d.bad[e.Reason]++
	if d.inputBad != nil {
		d.inputBad[e.Reason]++
	}
	d.badRevisions += e.Revisions
	d.badMu.Unlock()
	if d.compressed {
		e.Decompressed = true
	}
	if d.opt.OnBad != nil {
		d.opt.OnBad(e)
	}
}

// newReader builds the reader for one stream.
func (d *driver) newReader(r *decompress.Reader, name, kind string) (source.Reader, error) {
	switch kind {
	case KindMediaWiki:
		mo := mediawiki.Options{Options: d.sourceOptions(name), Source: d.opt.Source, IsBot: d.isBot, SHA1: d.opt.DropReverts}
		if d.ns != nil {
			mo.Keep = d.keepNamespace
		}
		return mediawiki.NewReader(d.live, mo), nil
	case KindMWHistory:
		return mwhistory.NewReader(d.live, mwhistory.Options{Options: d.sourceOptions(name), Source: d.opt.Source,
			IsBot: d.isBot, Reverts: d.opt.DropReverts}), nil
	case KindGeneric:
		g := d.opt.Generic
		if g.Source == "" {
			g.Source = d.opt.Source
		}
		g.FileName = name
		g.SkipLines = d.skipLines
		if m := r.MemberName(); m != "" {
			g.FileName = m
		} else if r.Name() != "<stdin>" {
			g.FileName = r.Name()
		}
		gr, err := generic.NewReader(d.live, g, d.sourceOptions(name))
		if err != nil {
			var pe *source.ParseError
			if errors.As(err, &pe) {
				return nil, err
			}
			return nil, &OptionError{err}
		}
		return gr, nil
	}
	return d.newYelpReader(r, name, kind)
}

// stream runs the reader in its own goroutine (so parsing overlaps with
// filtering and Parquet encoding here) and handles its pages in batches.
func (d *driver) stream(ctx context.Context, r *decompress.Reader, name, kind string) error {
	src, err := d.newReader(r, name, kind)
	if err != nil {
		return err
	}
	d.wikiRead = d.wikiRead || hasNamespaces(kind)
	checkRelative := kind == KindGeneric && d.opt.Generic.TimeOrigin.IsZero()
	type batch struct {
		pages []*series.RawPage
		err   error
	}
	ch := make(chan batch, 4)
	stop := make(chan struct{})
	go func() {
		defer close(ch)
		b := make([]*series.RawPage, 0, batchSize)
		for {
			p, err := src.Next()
			if errors.Is(err, io.EOF) {
				err = nil
			}
			if p != nil {
				b = append(b, p)
			}
			if err != nil || p == nil || len(b) == batchSize {
				select {
				case ch <- batch{b, err}:
				case <-stop:
					return
				}
				if err != nil || p == nil {
					return
				}
				b = make([]*series.RawPage, 0, batchSize)
			}
		}
	}()
	defer func() {
		close(stop)
		for range ch { // let the parser stop at its next batch
		}
	}()
	grouped := kind == KindMediaWiki
	// While the parser works on one long page (or gathers a whole
	// ungrouped input) no batch comes: the ticks keep the display moving,
	// with the revisions of the page being read when the reader tells them
	// (liveSent: revisions so reported since the last batch, which are
	// taken off the next batch's count, so that the revisions reported add
	// up to those of the batches).
	var tick <-chan time.Time
	if d.opt.Progress != nil {
		t := time.NewTicker(ProgressInterval)
		defer t.Stop()
		tick = t.C
	}
	live, _ := src.(interface{ PageRevisions() int64 })
	var liveSent int64
	for {
		var b batch
		select {
		case <-tick:
			var more int64
			if live != nil {
				if v := live.PageRevisions(); v > liveSent {
					more, liveSent = v-liveSent, v
				}
			}
			d.report(r, 0, more)
			continue
		case <-ctx.Done():
			// The parser stops at its next read (liveCounter).
			return ctx.Err()
		case bb, ok := <-ch:
			if !ok {
				if gr, ok := src.(*generic.Reader); ok {
					st := gr.Stats()
					d.titleChanges += st.TitleChanges
					d.skippedLines += st.SkipLines
					d.originUsed = d.originUsed || !d.opt.Generic.TimeOrigin.IsZero()
					numeric := st.TimeLayout == generic.LayoutEpoch || st.TimeLayout == generic.LayoutEpochMS
					if checkRelative && numeric && st.TimesFound && st.FirstTime >= 0 && st.FirstTime < relativeBelow {
						d.relative = append(d.relative, name)
					}
				}
				if mr, ok := src.(*mediawiki.Reader); ok {
					d.textSHA1 += mr.TextHashed()
				}
				if mr, ok := src.(*mwhistory.Reader); ok {
					st := mr.Stats()
					d.mwOther += st.OtherEvents
					d.counts.RevisionsRead += st.NoPageID
					d.addSkip(SkipNoPageID, st.NoPageID)
				}
				return nil
			}
			b = bb
		}
		var revs int64
		for _, p := range b.pages {
			revs += int64(len(p.Revisions))
			revs += p.TooMany
			if grouped {
				if err := d.page(p, kind, name); err != nil {
					return err
				}
			} else if err := d.merge(p, kind, name); err != nil {
				return err
			}
		}
		d.report(r, int64(len(b.pages)), revs-liveSent)
		liveSent = 0
		if b.err != nil {
			if err := ctx.Err(); err != nil {
				return err // the parser's read error is the cancel
			}
			return b.err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
}

// merge collects a page of an ungrouped reader; the same (source, id) from
// several inputs (a business in the review and the tip file) becomes one page.
// The revision cap applies to the merged page: past it, the page's
// revisions are counted, not kept (see page).
func (d *driver) merge(p *series.RawPage, kind, name string) error {
	k := mergeKey{p.Source, p.ID}
	q, ok := d.merged[k]
	if !ok {
		d.merged[k] = p
		d.mergeOrder = append(d.mergeOrder, k)
		d.kinds[k] = kind
		d.files[k] = name
		return nil
	}
	if q.TooMany > 0 || p.TooMany > 0 {
		q.TooMany = revisionCount(q) + revisionCount(p)
		q.Revisions = nil
		dropFlags(q)
		return nil
	}
	if max := d.opt.maxRevisions(); int64(len(q.Revisions)+len(p.Revisions)) > max {
		if !d.opt.SkipBad {
			return d.tooMany(p, name, int64(len(q.Revisions)+len(p.Revisions)), "with the earlier inputs")
		}
		q.TooMany = int64(len(q.Revisions) + len(p.Revisions))
		q.Revisions = nil
		dropFlags(q)
		return nil
	}
	appendRevisions(q, p)
	return nil
}

// revisionCount is the number of revisions a page had as read.
func revisionCount(p *series.RawPage) int64 {
	if p.TooMany > 0 {
		return p.TooMany
	}
	return int64(len(p.Revisions))
}

// tooMany reports page p of file, with n revisions, as over the revision
// cap (reason "too-many-revisions"): the error without SkipBad, else
// counted with its revisions.
func (d *driver) tooMany(p *series.RawPage, file string, n int64, where string) error {
	if where != "" {
		where = " " + where
	}
	pe := &source.ParseError{File: file, Offset: p.Offset, Line: p.Line, Page: p.Title, Reason: "too-many-revisions", Revisions: n,
		Err: fmt.Errorf("%s revisions%s, more than the limit of %s (--max-revisions-per-page)", human.Comma(n), where, human.Comma(d.opt.maxRevisions()))}
	if p.Line > 0 {
		pe.Offset = -1
	}
	so := d.sourceOptions(file)
	return so.Bad(pe)
}

// flushMerged writes the pages held to the end, stopping at a cancel
// (millions of objects of a large log take a while to write).
func (d *driver) flushMerged(ctx context.Context) error {
	for i, k := range d.mergeOrder {
		if i%batchSize == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		p := d.merged[k]
		delete(d.merged, k)
		d.joinBusiness(p, d.kinds[k])
		if err := d.page(p, d.kinds[k], d.files[k]); err != nil {
			return err
		}
	}
	d.mergeOrder = nil
	return nil
}

// keepNamespace reports whether the namespace filter keeps ns (d.ns not nil).
func (d *driver) keepNamespace(ns int32) bool {
	_, ok := slices.BinarySearch(d.ns, ns)
	return ok
}

func (d *driver) skip(reason SkipReason, p *series.RawPage) {
	d.addSkip(reason, 1)
	d.addSkip(SkipRevisionsOfSkippedPages, int64(len(p.Revisions)))
}

// page applies the filters of SPEC §1.1 in order — namespace, redirect,
// revision filters (--drop-reverts/--drop-bots/--drop-minor, see
// wikifilter.go), time range (on revisions), collapsing, minimum updates,
// id uniqueness —
// counting each, and writes what is left.
func (d *driver) page(p *series.RawPage, kind, file string) error {
	c := &d.counts
	if p.Truncated {
		d.noteTruncated(p, file)
	}
	if p.TooMany > 0 {
		// Over the revision cap: the reader dropped the revisions.
		if hasNamespaces(kind) && d.ns != nil && !d.keepNamespace(p.Namespace) {
			// Left out for its namespace anyway, which is no error.
			c.PagesRead++
			c.RevisionsRead += p.TooMany
			d.addSkip(SkipNamespace, 1)
			d.addSkip(SkipRevisionsOfSkippedPages, p.TooMany)
			return nil
		}
		return d.tooMany(p, file, p.TooMany, "")
	}
	c.PagesRead++
	c.RevisionsRead += int64(len(p.Revisions))
	if hasNamespaces(kind) && d.ns != nil && !d.keepNamespace(p.Namespace) {
		d.skip(SkipNamespace, p)
		return nil
	}
	if d.opt.NoRedirects && p.Redirect {
		d.skip(SkipRedirect, p)
		return nil
	}
	if !d.filterRevisions(p) {
		return nil
	}
	if d.hasSince || d.hasUntil {
		kept := p.Revisions[:0]
		for _, t := range p.Revisions {
			if (!d.hasSince || t >= d.since) && (!d.hasUntil || t < d.until) {
				kept = append(kept, t)
			}
		}
		if out := len(p.Revisions) - len(kept); out > 0 {
			d.addSkip(SkipRevisionsOutsideTimeRange, int64(out))
			p.Revisions = kept
			p.Anonymous, p.Minor = nil, nil // no longer aligned
		}
		if len(kept) == 0 {
			d.skip(SkipTimeRange, p)
			return nil
		}
	}
	// Neither the flags nor the revisions as read are stored: the updates
	// take the revisions' memory (8 bytes per revision less at the write).
	p.Anonymous, p.Minor = nil, nil
	nrev := int64(len(p.Revisions))
	pg := p.NormalizeInPlace()
	if pg.NUpdates() < d.opt.MinUpdates {
		d.addSkip(SkipMinUpdates, 1)
		d.addSkip(SkipRevisionsOfSkippedPages, nrev)
		return nil
	}
	id, dup := d.ids.claim(pg.Source, pg.ID)
	if dup {
		what := fmt.Sprintf("page id %d of %s", pg.ID, pg.Source)
		if kind != KindMediaWiki && kind != KindMWHistory {
			// A hashed id means nothing to people: the object's name does.
			what = fmt.Sprintf("object %s of %s", named(p.Title, p.Group), pg.Source)
		}
		pe := &source.ParseError{File: file, Offset: p.Offset, Line: p.Line, Page: p.Title, Reason: "duplicate-page",
			Err: fmt.Errorf("%s was already read (overlapping inputs?)", what)}
		if p.Line > 0 {
			pe.Offset = -1
		}
		so := d.sourceOptions(file)
		if err := so.Bad(pe); err != nil {
			return err
		}
		d.addSkip(SkipRevisionsOfSkippedPages, nrev)
		return nil
	}
	pg.ID = id
	if len(pg.Updates) >= bigPage {
		// The garbage of reading a large page (append's copies) is of
		// the order of the page; collecting it before the writer
		// allocates its buffers keeps the peak near the live size.
		runtime.GC()
	}
	if err := d.w.Write(&pg); err != nil {
		return err
	}
	if p.Truncated {
		d.truncated[len(d.truncated)-1].Kept = true
	}
	d.noteTimes(&pg)
	c.PagesKept++
	c.RevisionsKept += nrev
	c.Updates += int64(len(pg.Updates))
	c.Collapsed += pg.Collapsed
	if pg.Resolution >= dayResolution {
		c.PagesDaily++
		c.CollapsedSameDay += pg.Collapsed
	}
	return nil
}

// named is a page's name for people: its title quoted, with its group
// when known ("Joe's Diner" (Tempe)).
func named(title, group string) string {
	if group != "" {
		return fmt.Sprintf("%q (%s)", title, group)
	}
	return fmt.Sprintf("%q", title)
}
