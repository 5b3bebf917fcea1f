package yelp

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/revisit-dev/revisit/ingest/generic"
	"github.com/revisit-dev/revisit/ingest/generic/jsonscan"
	"github.com/revisit-dev/revisit/ingest/generic/linescan"
	"github.com/revisit-dev/revisit/ingest/source"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/series"
)

// Source is the dataset source name of every Yelp page.
const Source = "yelp"

// ErrAggregatedCheckins is the cause when a check-in file is in the old
// format (weekday/hour counts in checkin_info), which has no timestamps.
var ErrAggregatedCheckins = errors.New("old Yelp check-in format: checkin_info (≤2016) or time (2017-2018) holds weekday/hour counts, not timestamps, so it has no update times (use the 2019+ check-in file, whose date field lists every check-in)")

// Stats count what a Reader read, for the ingest summary and manifest.
type Stats struct {
	Kind       string // review, tip or checkin
	Lines      int64  // lines read, blank ones included
	Blank      int64  // blank lines passed over
	Records    int64  // good records (reviews, tips, check-in lines)
	Timestamps int64  // timestamps kept (= Records except for check-ins)
	DateOnly   int64  // timestamps without a time of day
	Bad        int64  // bad records skipped with SkipBad
	Businesses int    // distinct businesses (pages)
	Joined     int    // businesses found in the business file (SetBusinesses)
	Resolution int32  // 86400 if any date was date-only, else 1
}

// Reader reads one Yelp review, tip or check-in file (JSON lines) and
// yields one *series.RawPage per business. Records are not grouped by
// business in general, so the whole input is read on the first call to Next
// (memory: 8 bytes per timestamp plus one entry per business; no text is
// kept); businesses are then returned sorted by business_id (byte order).
//
// A page's ID is generic.PageID(business_id), the same in the review, tip
// and check-in files of one dataset; Title is the business's name and Group
// its city when SetBusinesses was given the business file, else Title is the
// business_id and Group is empty. Resolution is decided per file: 86400 s if
// any date is date-only ("YYYY-MM-DD", the coarsest resolution present
// wins), else 1 s. Revisions are in input order.
type Reader struct {
	opt   source.Options
	ls    *linescan.Scanner
	kind  string
	stats Stats
	bs    Businesses

	// per-record scratch, filled by onMember
	bid, date       jsonscan.Value
	hasBid, hasDate bool
	onMember        jsonscan.MemberFunc
	parsed          []int64

	index map[string]int32
	biz   []business
	order []int32
	next  int
	first []byte // the first record, read by NewReader
	done  bool
	err   error
}

type business struct {
	id      string
	times   []int64
	tooMany int64 // > 0: past the revision cap; the count, times dropped
	line    int64
	offset  int64
}

// NewReader returns a Reader of r, an already-decompressed Yelp review,
// tip or check-in file. It reads the first record to tell the file's kind;
// a business file, an old aggregated check-in file (ErrAggregatedCheckins)
// or a file that is not Yelp's is an error here. Bad lines before the first
// good record are handled by opt like any bad record.
func NewReader(r io.Reader, opt source.Options) (*Reader, error) {
	rd := &Reader{opt: opt, ls: linescan.New(r, 1<<20), index: map[string]int32{}}
	rd.ls.SetMax(opt.MaxLineBytes)
	rd.onMember = rd.member
	for {
		line, err := rd.ls.Next()
		if err == io.EOF {
			return nil, &source.ParseError{File: opt.File, Offset: rd.ls.Consumed(), Line: rd.ls.Line(), Reason: "empty",
				Err: errors.New("no Yelp record in the file")}
		}
		if tl, ok := linescan.IsTooLong(err); ok {
			rd.stats.Lines++
			if err := rd.bad(&source.ParseError{Offset: rd.ls.Offset(), Line: rd.ls.Line(), Reason: "line-too-long", Err: tl}); err != nil {
				return nil, err
			}
			continue
		}
		if err != nil {
			return nil, source.ReadError(opt.File, rd.ls.Consumed(), rd.ls.Line()+1, "", err)
		}
		rd.stats.Lines++
		if isBlank(line) {
			rd.stats.Blank++
			continue
		}
		var sh shape
		serr := jsonscan.Members(line, func(key []byte, v jsonscan.Value) error {
			sh.member(key, v)
			return nil
		})
		if serr != nil {
			reason, cause := generic.JSONCause(serr)
			if err := rd.bad(&source.ParseError{Offset: rd.ls.Offset(), Line: rd.ls.Line(), Reason: reason, Err: cause}); err != nil {
				return nil, err
			}
			continue
		}
		pe := &source.ParseError{File: opt.File, Offset: rd.ls.Offset(), Line: rd.ls.Line(), Reason: "format"}
		switch k := sh.kind(); {
		case k == KindBusiness:
			pe.Err = errors.New("this is the Yelp business file: read it with ReadBusinesses and join it to the review, tip or check-in files")
			return nil, pe
		case k == KindCheckin && sh.aggregated():
			pe.Err = ErrAggregatedCheckins
			return nil, pe
		case k == "":
			pe.Err = errors.New("not a Yelp review, tip or check-in record (no business_id with review_id, user_id or date)")
			return nil, pe
		default:
			rd.kind = k
		}
		rd.first = line // valid until the next ls.Next: consumed first in gather
		break
	}
	rd.stats.Kind = rd.kind
	return rd, nil
}

// Kind is the file's kind: review, tip or checkin.
func (r *Reader) Kind() string { return r.kind }

// SetBusinesses joins the business file: pages get the business's name as
// Title and its city as Group. Call it before the first Next.
func (r *Reader) SetBusinesses(bs Businesses) { r.bs = bs }

// Stats returns the counts so far (complete after Next returned io.EOF).
func (r *Reader) Stats() Stats {
	s := r.stats
	s.Businesses = len(r.biz)
	s.Resolution = r.resolution()
	return s
}

func (r *Reader) resolution() int32 {
	if r.stats.DateOnly > 0 {
		return units.Day
	}
	return 1
}

// Next returns the next business, io.EOF after the last, or the first
// error: a *source.ParseError for bad input without SkipBad.
func (r *Reader) Next() (*series.RawPage, error) {
	if r.err != nil {
		return nil, r.err
	}
	if !r.done {
		r.done = true
		if err := r.gather(); err != nil {
			r.err = err
			return nil, err
		}
		r.order = make([]int32, len(r.biz))
		for i := range r.order {
			r.order[i] = int32(i)
		}
		slices.SortFunc(r.order, func(a, b int32) int { return cmp.Compare(r.biz[a].id, r.biz[b].id) })
		if err := generic.CheckCollisions(len(r.biz), func(i int) string { return r.biz[i].id }, r.opt.File); err != nil {
			r.err = err
			return nil, err
		}
		for i := range r.biz {
			if _, ok := r.bs[r.biz[i].id]; ok {
				r.stats.Joined++
			}
		}
	}
	if r.next >= len(r.order) {
		return nil, io.EOF
	}
	b := &r.biz[r.order[r.next]]
	r.next++
	p := &series.RawPage{
		ID:         generic.PageID(b.id),
		Source:     Source,
		SourceID:   b.id,
		Title:      b.id,
		Resolution: r.resolution(),
		Revisions:  b.times,
		Offset:     b.offset,
		Line:       b.line,
		TooMany:    b.tooMany,
	}
	if info, ok := r.bs[b.id]; ok {
		p.Title, p.Group = info.Name, info.City
		if p.Title == "" {
			p.Title = b.id
		}
	}
	b.times = nil // handed over
	return p, nil
}

// readErr handles a failure to read the stream: a corrupt or truncated
// compressed stream is a bad record (with SkipBad it is counted, nil is
// returned and the stream ends there); any other read error is returned.
func (r *Reader) readErr(err error) error {
	pe := source.ReadError(r.opt.File, r.ls.Consumed(), r.ls.Line()+1, "", err)
	if pe.Reason == "corrupt" {
		return r.bad(pe)
	}
	return pe
}

// bad handles one bad record (File is filled in by opt.Bad).
func (r *Reader) bad(e *source.ParseError) error {
	if err := r.opt.Bad(e); err != nil {
		return err
	}
	r.stats.Bad++
	return nil
}

func (r *Reader) member(key []byte, v jsonscan.Value) error {
	switch string(key) {
	case "business_id":
		r.bid, r.hasBid = v, true
	case "date":
		r.date, r.hasDate = v, true
	}
	return nil
}

// gather reads every record.
func (r *Reader) gather() error {
	if line := r.first; line != nil { // read by NewReader
		r.first = nil
		if err := r.record(line); err != nil {
			return err
		}
	}
	for {
		line, err := r.ls.Next()
		if err == io.EOF {
			return nil
		}
		if tl, ok := linescan.IsTooLong(err); ok {
			r.stats.Lines++
			if err := r.bad(&source.ParseError{Offset: r.ls.Offset(), Line: r.ls.Line(), Reason: "line-too-long", Err: tl}); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			return r.readErr(err)
		}
		r.stats.Lines++
		if isBlank(line) {
			r.stats.Blank++
			continue
		}
		if err := r.record(line); err != nil {
			return err
		}
	}
}

// record parses one line and adds its timestamps, or handles it as bad.
func (r *Reader) record(line []byte) error {
	r.hasBid, r.hasDate = false, false
	serr := jsonscan.Members(line, r.onMember)
	var bid []byte
	if r.hasBid && r.bid.Kind == jsonscan.String {
		bid = r.bid.Str()
	}
	var reason string
	var cause error
	switch {
	case serr != nil:
		reason, cause = generic.JSONCause(serr)
	case !r.hasBid || len(bid) == 0:
		reason, cause = "missing-field", errors.New("no business_id (or not a non-empty string)")
	case !r.hasDate || r.date.Kind != jsonscan.String:
		reason, cause = "missing-field", errors.New("no date (or not a string)")
	default:
		times, dateOnly, err := r.parseDates(r.date.Str())
		if err != nil {
			reason, cause = "timestamp", err
			break
		}
		if err := r.add(bid, times); err != nil {
			return err
		}
		r.stats.Records++
		r.stats.Timestamps += int64(len(times))
		r.stats.DateOnly += dateOnly
		return nil
	}
	// Built only here, so that good records allocate nothing.
	return r.bad(&source.ParseError{Offset: r.ls.Offset(), Line: r.ls.Line(), Page: string(bid), Reason: reason, Err: cause})
}

// parseDates parses a date, or for check-ins a comma-separated list of
// them ("2010-10-08 22:21:20, 2010-11-01 21:29:14").
func (r *Reader) parseDates(d []byte) ([]int64, int64, error) {
	r.parsed = r.parsed[:0]
	var dateOnly int64
	for {
		item := d
		i := -1
		if r.kind == KindCheckin {
			i = bytes.IndexByte(d, ',')
			if i >= 0 {
				item = d[:i]
			}
			item = bytes.TrimSpace(item)
		}
		sec, only, _, err := generic.ParseISO(item)
		if err != nil {
			return nil, 0, fmt.Errorf("date: %w", err)
		}
		r.parsed = append(r.parsed, sec)
		if only {
			dateOnly++
		}
		if i < 0 {
			return r.parsed, dateOnly, nil
		}
		d = d[i+1:]
	}
}

// add records the timestamps of one record of business bid. A business
// past the revision cap (opt.MaxRevisions) is an error without SkipBad;
// with it, its timestamps are dropped and counted from then on, and Next
// returns it with TooMany set.
func (r *Reader) add(bid []byte, times []int64) error {
	k, ok := r.index[string(bid)]
	if !ok {
		k = int32(len(r.biz))
		id := string(bid)
		r.index[id] = k
		r.biz = append(r.biz, business{id: id, line: r.ls.Line(), offset: r.ls.Offset()})
	}
	b := &r.biz[k]
	if b.tooMany > 0 {
		b.tooMany += int64(len(times))
		return nil
	}
	if max := r.opt.MaxRevisions; max > 0 && int64(len(b.times)+len(times)) > max {
		if !r.opt.SkipBad {
			return &source.ParseError{File: r.opt.File, Offset: r.ls.Offset(), Line: r.ls.Line(), Page: b.id, Reason: "too-many-revisions",
				Err: fmt.Errorf("business %q has more than %s timestamps (--max-revisions-per-page)", b.id, human.Comma(max))}
		}
		b.tooMany = int64(len(b.times) + len(times))
		b.times = nil
		return nil
	}
	b.times = append(b.times, times...)
	return nil
}

var _ source.Reader = (*Reader)(nil)
