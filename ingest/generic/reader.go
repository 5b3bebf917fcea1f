package generic

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"io"
	"slices"

	"github.com/revisit-dev/revisit/ingest/source"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/series"
)

// Stats count what a Reader read, for the ingest summary and manifest.
type Stats struct {
	Format     string // the format read (auto resolved)
	TimeLayout string // the time layout used ("iso" when auto found the ISO family)
	Lines      int64  // physical lines read, header and skipped lines included
	SkipLines  int64  // lines skipped before the header (Options.SkipLines)
	Blank      int64  // blank lines in JSON lines and TSV input (passed over; CSV skips them too, uncounted)
	Records    int64  // good records (for jsonkeys: keys)
	Bad        int64  // bad records skipped with SkipBad
	BadLines   int64  // physical lines spanned by the bad records
	// LongestRecord is the most physical lines one good CSV record spanned
	// (quoted newlines), at line LongestRecordLine: a large value in a file
	// of one-line records means an unbalanced quote swallowed the lines
	// after it, which RFC 4180 cannot tell from a long quoted field.
	LongestRecord     int64
	LongestRecordLine int64
	Objects           int   // distinct objects (pages) found
	Revisions         int64 // timestamps kept (= Records)
	DateOnly          int64 // timestamps without a time of day
	// FirstTime is the first timestamp read, in input order (Unix
	// seconds), when TimesFound.
	FirstTime  int64
	TimesFound bool
	// TitleChanges counts records whose --title value (non-empty) differs
	// from the title their object already had; the first one is kept.
	TitleChanges int64
}

// Reader reads one generic log and yields one *series.RawPage per object.
// Records need not be grouped by object: the whole input is read on the
// first call to Next (memory: 8 bytes per record, plus append's slack, and
// one entry per object; an object past source.Options.MaxRevisions keeps
// only its count),
// then objects are returned sorted by their key (byte order: the id string,
// or the tuple of the id columns' values, see Options.ID). Page ids are
// PageID(key); Title is the title column's first non-empty value, else the
// id (the values joined by "/" for several id columns); Revisions are in
// input order.
type Reader struct {
	opt   Options
	so    source.Options
	br    *bufio.Reader
	cnt   *countingReader
	tp    *timeParser
	stats Stats

	skipBytes int64 // bytes of the lines skipped before the header
	several   bool  // several id columns: keys are escaped tuples
	key       []byte

	index map[string]int32
	objs  []object
	order []int32
	next  int
	done  bool // gathered
	err   error
}

type object struct {
	id      string // the key (see Options.ID)
	title   string // from the title column; "" until one is seen
	group   string
	times   []int64
	tooMany int64 // > 0: the object passed the revision cap; its count, times dropped
	line    int64
	offset  int64
}

// NewReader returns a Reader of r, an already-decompressed generic log.
// Invalid options are reported here as plain errors (usage errors); bad
// input is reported by Next as *source.ParseError.
func NewReader(r io.Reader, opt Options, so source.Options) (*Reader, error) {
	if err := opt.check(); err != nil {
		return nil, fmt.Errorf("generic reader: %w", err)
	}
	if opt.Source == "" {
		opt.Source = "generic"
	}
	if so.File == "" {
		so.File = opt.FileName
	}
	cnt := &countingReader{r: r}
	rd := &Reader{
		opt:   opt,
		so:    so,
		cnt:   cnt,
		br:    bufio.NewReaderSize(cnt, 1<<20),
		tp:    newTimeParser(opt.TimeLayout, opt.TimeOrigin),
		index: map[string]int32{},
	}
	if !opt.IDFromFileName {
		cols, _ := idColumns(opt.ID) // checked
		rd.several = len(cols) > 1
	}
	if opt.Format == "" || opt.Format == FormatAuto {
		head, err := rd.br.Peek(64 << 10)
		if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
			return nil, source.ReadError(so.File, 0, 0, "", err)
		}
		for i := 0; i < opt.SkipLines; i++ {
			if j := bytes.IndexByte(head, '\n'); j >= 0 {
				head = head[j+1:]
			}
		}
		f := SniffFormat(head)
		if f == "" {
			return nil, &source.ParseError{File: so.File, Offset: 0, Line: 1, Reason: "format",
				Err: fmt.Errorf("not a generic log: neither CSV/TSV with a header nor JSON lines nor a JSON object keyed by timestamps (a title line before the header? skip it, or give the format)")}
		}
		rd.opt.Format = f
	}
	if rd.opt.Format == FormatJSONKeys && !rd.opt.IDFromFileName {
		return nil, fmt.Errorf("generic reader: %s: a jsonkeys file is one object: take the id from the file name", so.File)
	}
	if rd.opt.Format == FormatJSONKeys && rd.opt.Title != "" {
		return nil, fmt.Errorf("generic reader: %s: a jsonkeys file has no columns, so no title column", so.File)
	}
	if rd.opt.Format != FormatJSONKeys && rd.opt.Time == "" {
		return nil, fmt.Errorf("generic reader: %s: no time column", so.File)
	}
	rd.stats.Format = rd.opt.Format
	return rd, nil
}

// Next returns the next object, io.EOF after the last, or the first error:
// a *source.ParseError for bad input without SkipBad.
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
		if err := r.sortObjects(); err != nil {
			r.err = err
			return nil, err
		}
	}
	if r.next >= len(r.order) {
		return nil, io.EOF
	}
	o := &r.objs[r.order[r.next]]
	r.next++
	p := &series.RawPage{
		ID:         PageID(o.id),
		Source:     r.opt.Source,
		SourceID:   keyTitle(o.id, r.several),
		Title:      r.title(o),
		Group:      o.group,
		Resolution: r.tp.resolution(),
		Revisions:  o.times,
		Offset:     o.offset,
		Line:       o.line,
		TooMany:    o.tooMany,
	}
	o.times = nil // handed over
	return p, nil
}

// Stats returns the counts so far (complete after Next returned io.EOF).
func (r *Reader) Stats() Stats {
	s := r.stats
	s.TimeLayout = r.tp.Layout()
	s.DateOnly = r.tp.dateOnly
	s.FirstTime, s.TimesFound = r.tp.first, r.tp.n > 0
	s.Objects = len(r.objs)
	return s
}

func (r *Reader) gather() error {
	if err := r.skipLines(); err != nil {
		return err
	}
	var err error
	switch r.opt.Format {
	case FormatCSV:
		err = r.gatherCSV()
	case FormatTSV:
		err = r.gatherTSV()
	case FormatJSONL:
		err = r.gatherJSONL()
	case FormatJSONKeys:
		err = r.gatherJSONKeys()
	}
	r.stats.Lines = r.cnt.physicalLines()
	return err
}

// skipLines passes over Options.SkipLines lines before the header.
func (r *Reader) skipLines() error {
	for i := 0; i < r.opt.SkipLines; i++ {
		line, err := r.br.ReadSlice('\n')
		for err == bufio.ErrBufferFull {
			r.skipBytes += int64(len(line))
			line, err = r.br.ReadSlice('\n')
		}
		r.skipBytes += int64(len(line))
		if err == io.EOF {
			if len(line) > 0 {
				r.stats.SkipLines++
			}
			return nil
		}
		if err != nil {
			return source.ReadError(r.so.File, r.skipBytes, int64(i+1), "", err)
		}
		r.stats.SkipLines++
	}
	return nil
}

// title is the object's name for people: its title, else its id.
func (r *Reader) title(o *object) string {
	if o.title != "" {
		return o.title
	}
	return keyTitle(o.id, r.several)
}

// add records one timestamp of the object with key id (copied when new),
// read at line and offset, with its title and group values (nil: none). An object past the revision cap (so.MaxRevisions) is an
// error without SkipBad; with it, its timestamps are dropped and counted
// from then on, and Next returns it with TooMany set.
func (r *Reader) add(id, title, group []byte, t int64, line, offset int64) error {
	k, ok := r.index[string(id)]
	if !ok {
		k = int32(len(r.objs))
		r.index[string(id)] = k
		r.objs = append(r.objs, object{id: string(id), group: string(group), line: line, offset: offset})
	}
	o := &r.objs[k]
	if len(title) > 0 {
		if o.title == "" {
			o.title = string(title)
		} else if o.title != string(title) {
			r.stats.TitleChanges++
		}
	}
	r.stats.Records++
	r.stats.Revisions++
	if o.tooMany > 0 {
		o.tooMany++
		return nil
	}
	if max := r.so.MaxRevisions; max > 0 && int64(len(o.times)) >= max {
		if !r.so.SkipBad {
			return &source.ParseError{File: r.so.File, Offset: offset, Line: line, Page: r.title(o), Reason: "too-many-revisions",
				Err: fmt.Errorf("object %q has more than %s revisions (--max-revisions-per-page)", r.title(o), human.Comma(max))}
		}
		o.tooMany = int64(len(o.times)) + 1
		o.times = nil
		return nil
	}
	o.times = append(o.times, t)
	return nil
}

// readErr handles a failure to read the stream at offset (line): a corrupt
// or truncated compressed stream is a bad record (with SkipBad it is
// counted, nil is returned and the stream ends there); any other read
// error is returned.
func (r *Reader) readErr(offset, line int64, err error) error {
	pe := source.ReadError(r.so.File, offset, line, "", err)
	if pe.Reason == "corrupt" {
		return r.bad(pe, 0)
	}
	return pe
}

// bad handles one bad record: counts it and goes on with SkipBad, or
// returns it.
func (r *Reader) bad(e *source.ParseError, lines int64) error {
	if err := r.so.Bad(e); err != nil {
		return err
	}
	r.stats.Bad++
	r.stats.BadLines += lines
	return nil
}

// sortObjects orders objects by id and checks that no two ids share a
// PageID.
func (r *Reader) sortObjects() error {
	r.order = make([]int32, len(r.objs))
	for i := range r.order {
		r.order[i] = int32(i)
	}
	slices.SortFunc(r.order, func(a, b int32) int { return cmp.Compare(r.objs[a].id, r.objs[b].id) })
	return CheckCollisions(len(r.objs), func(i int) string { return r.objs[i].id }, r.so.File)
}

// CheckCollisions reports an error naming two distinct ids among id(0),
// …, id(n-1) that have the same PageID (file names the input).
func CheckCollisions(n int, id func(int) string, file string) error {
	return checkCollisionsHash(n, id, file, PageID)
}

func checkCollisionsHash(n int, id func(int) string, file string, hash func(string) int64) error {
	type hid struct {
		h int64
		i int
	}
	hs := make([]hid, n)
	for i := range hs {
		hs[i] = hid{hash(id(i)), i}
	}
	slices.SortFunc(hs, func(a, b hid) int { return cmp.Compare(a.h, b.h) })
	for i := 1; i < len(hs); i++ {
		if hs[i].h == hs[i-1].h && id(hs[i].i) != id(hs[i-1].i) {
			return fmt.Errorf("%s: page id collision: %q and %q both hash to %d", file, id(hs[i-1].i), id(hs[i].i), hs[i].h)
		}
	}
	return nil
}

// countingReader counts the bytes and newlines that pass through it.
type countingReader struct {
	r     io.Reader
	n     int64
	lines int64
	last  byte
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if n > 0 {
		c.n += int64(n)
		c.lines += int64(bytes.Count(p[:n], []byte{'\n'}))
		c.last = p[n-1]
	}
	return n, err
}

// physicalLines is the number of lines in what was read so far: newlines,
// plus one for a last line without its newline.
func (c *countingReader) physicalLines() int64 {
	if c.n > 0 && c.last != '\n' {
		return c.lines + 1
	}
	return c.lines
}

var _ source.Reader = (*Reader)(nil)
