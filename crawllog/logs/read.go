package logs

// Read: its options and counts, the loop over inputs, streams and lines,
// telling a stream's format from its first line, and passing each line to
// its format's reader.

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/revisit-dev/revisit/ingest/generic/linescan"
	"github.com/revisit-dev/revisit/internal/decompress"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/series"
)

// Options configure Read.
type Options struct {
	// Format is one of Formats, or "" / "auto" to detect each input's
	// format from its first line (the log-* formats are told apart by the
	// header, so any of them reads any generic log).
	Format string
	// SkipBad counts and skips bad records instead of failing (a cut or
	// corrupt compressed stream then ends that input).
	SkipBad bool
	// MaxObservations caps the captures held in memory at once (every
	// input is grouped by URL before any is estimated: logs need not be
	// sorted). 0: DefaultMaxObservations. 24 bytes each in the slices,
	// more in peak RSS with Go's slice growth and collector under the
	// commands' soft memory limit (memlimit.Limit;
	// bench/estimate-memory.sh); each URL held counts as
	// (len(id) + 120)/24 captures more (its id, map entry and group). A
	// trace line's crawls count too (refused before they are held), and no
	// line is kept beyond 24 bytes per capture of the cap.
	MaxObservations int64
	// MaxLineBytes caps one line (a trace line holds a whole URL); 0:
	// DefaultMaxLineBytes.
	MaxLineBytes int
	// Sorted: the captures come grouped by URL in increasing order of its
	// id, across the inputs in the order given (a CDX or CDXJ file is
	// sorted by urlkey; Common Crawl's index shards are too, in order).
	// Each URL is then estimated when the next begins, and only one
	// URL's captures are held. A URL out of order is a bad record.
	Sorted bool
	// Importance and URLs are the Bing trace's companion files
	// (urlid_imp.txt, url_urlid_hostid.txt), read before the inputs; an
	// input whose first line has their form is read as one, too (unless
	// Format is given). A trace URL_ID they list gets its importance
	// (Observed.Importance) and its URL (Observed.ID, the URL_ID kept as
	// Observed.Source). They are counted and checked first, but not held
	// while the ids looked up increase (a trace in URL_ID order): each is
	// then read alongside, sorted first if it is not in that order
	// (companionjoin.go); ids out of order load them into memory, which
	// MaxObservations caps.
	Importance, URLs string
	// Key groups CDX-family captures: KeySURT ("" too), the urlkey, as
	// archives do (it merges http/https, www. and other variants), or
	// KeyURL, the original URL as crawled.
	Key string
	// Log, when set, is told how the reader reads: here, when trace ids
	// out of increasing order make it hold every id to refuse duplicates,
	// and how each companion file is joined (as it is, sorted, or held).
	Log func(format string, a ...any)
	// Range, when given (N ≥ 1), reads only byte range I of N of the
	// inputs (ranges.go); they must allow it (PlanRanges).
	Range shard.Spec
	// the external sort of a companion file (companionjoin.go), for tests:
	// bytes of a sorted run and runs merged at once; 0: the defaults
	chunkMem, fanIn int
}

// Keys of Options.Key.
const (
	KeySURT = "surt"
	KeyURL  = "url"
)

// Defaults of Options.
const (
	// DefaultMaxObservations keeps `revisit estimate` within 256 MiB of
	// peak RSS (bench/estimate-memory.sh measures it); a larger
	// log is read with Sorted, or with a raised cap.
	DefaultMaxObservations = 3_000_000
	DefaultMaxLineBytes    = 64 << 20
)

// InputStats are the counts of one input.
type InputStats struct {
	Name    string           `json:"name"`
	Format  string           `json:"format"` // e.g. "cdxj+gzip"
	Size    int64            `json:"size"`
	Records int64            `json:"records"` // lines with a capture (or a trace)
	Bad     map[string]int64 `json:"bad,omitempty"`
	// ResumeKeys counts the Wayback CDX server's pagination footers (an
	// empty line, or row [], then a one-field resume key) read and passed
	// over.
	ResumeKeys int64 `json:"resume_keys,omitempty"`
}

// Stats are what Read read and left out.
type Stats struct {
	Inputs   []InputStats `json:"inputs"`
	Captures int64        `json:"captures"` // captures read (a trace's entries count one each)
	URLs     int64        `json:"urls"`
	// Skipped counts captures not used as visits, by reason: "status_3xx",
	// "status_4xx", "status_5xx", "status_other" (neither content nor an
	// absent page), "absent_after_first" (no page after the first capture
	// with content), "absent_unused" (earlier captures without a page than
	// the one used as the previous visit), "same_second" (merged into
	// another visit in the same second: the last digest or Last-Modified
	// of the second is kept, changed bits are or-ed), "no_content" (URLs
	// without any capture with content, counted per URL).
	Skipped map[string]int64 `json:"skipped,omitempty"`
	Bad     int64            `json:"bad"` // bad records skipped (SkipBad)
	// MergedKeys counts the keys under which captures of more than one
	// original URL were grouped (Observed.Originals > 1 for those passed
	// on), with content or not (redirects only), MergedOriginals those
	// original URLs.
	MergedKeys      int64 `json:"merged_keys,omitempty"`
	MergedOriginals int64 `json:"merged_originals,omitempty"`
	// RevisitsResolved counts the revisit records used as visits (their
	// digest found in an earlier capture of the URL); those skipped are
	// in Skipped ("revisit_*").
	RevisitsResolved int64 `json:"revisits_resolved,omitempty"`
	// Range is the byte range read (Options.Range), nil without one.
	Range *RangeInfo `json:"range,omitempty"`
	// Prints are the inputs' fingerprints (fingerprint.go), in the order
	// they were read: the companion files first.
	Prints []Print `json:"prints,omitempty"`
}

// BadRecordError is a bad line, located.
type BadRecordError struct {
	File string
	Line int64
	// Offset is where the line begins in File when its number is not
	// known (Line 0: a shard of byte ranges begins inside a file).
	Offset int64
	Reason string // short reason, the key of InputStats.Bad
	Err    error
}

func (e *BadRecordError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s byte %d: %v", e.File, e.Offset, e.Err)
	}
	return fmt.Sprintf("%s line %d: %v", e.File, e.Line, e.Err)
}
func (e *BadRecordError) Unwrap() error { return e.Err }

type reader struct {
	ctx    context.Context
	opt    Options
	groups map[string]*group
	held   int64
	stats  *Stats
	in     *InputStats
	name   string
	fn     func(*series.Observed) error
	line   int64              // the line being read (0: not known, then offset)
	offset int64              // where the line being read begins in its file
	rng    *RangeInfo         // reading one byte range (Options.Range)
	legend string             // a byte range: the CDX legend of the input's first line
	fnErr  error              // fn failed: reading stops
	traces traceIDs           // ids of the trace lines passed to fn
	cur    string             // Sorted: the URL being read
	done   string             // Sorted: the last URL passed to fn
	any    bool               // Sorted: some URL was passed to fn
	imp    map[string]float64 // URL_ID → importance (Options.Importance)
	// original is the original URL of the capture being added (CDX
	// family), "" for other formats
	original string
	urls     map[string]string // URL_ID → URL (Options.URLs)
	// streams are the companion files joined by cursors (companionjoin.go)
	// while the ids looked up increase; lastLook is the last one
	streams  []*compStream
	lastLook string
	looked   bool
}

// CheckKey refuses a grouping key other than KeySURT ("" too) and KeyURL.
func CheckKey(key string) error {
	switch key {
	case "", KeySURT, KeyURL:
		return nil
	}
	return fmt.Errorf("unknown key %q (want %s or %s)", key, KeySURT, KeyURL)
}

// Read reads the inputs (paths, "-" for standard input), groups their
// captures by URL, and calls fn for each URL with what the crawler saw of
// it. A trace line holds a whole URL and is passed to fn at once (in file
// order). Other captures are held in memory until every input is read (at
// most Options.MaxObservations), then passed in increasing order of the
// URL's id; with Options.Sorted, each URL is passed as soon as the next
// begins. A bad line is a *BadRecordError naming the file and line,
// unless SkipBad. fn may keep the Observed.
func Read(ctx context.Context, paths []string, opt Options, fn func(*series.Observed) error) (*Stats, error) {
	if opt.MaxObservations <= 0 {
		opt.MaxObservations = DefaultMaxObservations
	}
	if opt.MaxLineBytes <= 0 {
		opt.MaxLineBytes = DefaultMaxLineBytes
	}
	if err := CheckKey(opt.Key); err != nil {
		return nil, err
	}
	if opt.Format != "" && opt.Format != "auto" {
		f, err := ParseFormat(opt.Format)
		if err != nil {
			return nil, err
		}
		opt.Format = f
	}
	r := &reader{ctx: ctx, opt: opt, groups: map[string]*group{}, stats: &Stats{Skipped: map[string]int64{}}, fn: fn}
	defer r.traces.close()
	defer r.closeCompanions()
	r.traces.fallback = func(id, last string) {
		if opt.Log != nil {
			opt.Log("observations %s %s: trace id %q after %q: the ids are not in increasing order (or other captures share them): a 128-bit hash of every trace id is held in memory to refuse duplicates (16 to 40 bytes each, counted under --max-observations)", r.name, r.where(), id, last)
		}
	}
	r.traces.room = func() int64 { return opt.MaxObservations - r.held }
	paths, err := r.companions(paths)
	if err != nil {
		return nil, err
	}
	if opt.Range.N > 0 {
		if err := r.readRanges(paths); err != nil {
			return nil, err
		}
	}
	for _, p := range paths {
		if opt.Range.N > 0 {
			break
		}
		if err := r.readInput(p); err != nil {
			return nil, err
		}
	}
	if r.cur != "" {
		if err := r.flush(r.cur); err != nil {
			return nil, err
		}
	}
	ids := make([]string, 0, len(r.groups))
	for id := range r.groups {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := r.flush(id); err != nil {
			return nil, err
		}
	}
	return r.stats, nil
}

// companions loads the companion files given in the options and those
// among paths (detected from their first line when the format is auto),
// and returns the other paths.
func (r *reader) companions(paths []string) ([]string, error) {
	for _, c := range []struct{ path, kind string }{{r.opt.Importance, Importance}, {r.opt.URLs, URLs}} {
		if c.path != "" {
			if err := r.addCompanion(c.path, c.kind); err != nil {
				return nil, err
			}
		}
	}
	if !sniffsCompanions(r.opt.Format) {
		return paths, nil
	}
	var rest []string
	for _, p := range paths {
		if p == "-" {
			rest = append(rest, p)
			continue
		}
		line, err := firstLine(p)
		if err != nil {
			return nil, fmt.Errorf("observations %s: %w", p, err)
		}
		if kind := sniff(line); kind != "" {
			if err := r.addCompanion(p, kind); err != nil {
				return nil, err
			}
			continue
		}
		rest = append(rest, p)
	}
	return rest, nil
}

func (r *reader) readInput(path string) error {
	if path != "-" { // a named file: a ZipNum index, or gzip read member by member (zipnum.go)
		if isIdxFile(path) {
			return r.readCluster(path)
		}
		if isGzipFile(path) {
			return r.readGzip(path)
		}
	}
	dr, err := decompress.Open(path)
	if err != nil {
		return fmt.Errorf("observations %s: %w", path, err)
	}
	defer dr.Close()
	r.stats.Inputs = append(r.stats.Inputs, InputStats{Name: path, Size: dr.Size()})
	r.in = &r.stats.Inputs[len(r.stats.Inputs)-1]
	formats := []string{}
	for {
		member, err := dr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if r.opt.SkipBad {
				r.bad("corrupt")
				break
			}
			return fmt.Errorf("observations %s: %w", path, err)
		}
		r.name = path
		if member != "" {
			r.name = path + ":" + member
		}
		f, err := r.readStream(dr)
		if err != nil {
			var ce *decompress.CorruptError
			if r.opt.SkipBad && errors.As(err, &ce) {
				r.bad("corrupt")
				break
			}
			return err
		}
		if f != "" && !slices.Contains(formats, f) {
			formats = append(formats, f)
		}
	}
	r.in.Format = strings.Join(formats, ",")
	if dr.Format() != decompress.Plain {
		r.in.Format += "+" + dr.Format()
	}
	return r.printWhole(path, dr)
}

func (r *reader) bad(reason string) {
	if r.in.Bad == nil {
		r.in.Bad = map[string]int64{}
	}
	r.in.Bad[reason]++
	r.stats.Bad++
}

// lineState is the format of one stream, found from its first line.
type lineState struct {
	format string
	fm     *Format        // the format named format
	cols   map[string]int // cdx / cdx-json / generic columns
	nf     int            // cdx, cdx-json: the fields of every line (the legend's or header's; 0: not known yet)
	comma  byte
	header bool // the first line, which detect read, is a header or legend: no record
	blank  bool // the previous line was empty (cdx) or the row [] (cdx-json): a resume key may follow
}

// readStream reads one stream (a file or archive member) and returns its
// format.
func (r *reader) readStream(src io.Reader) (string, error) {
	var st lineState
	return r.scan(src, &st, -1)
}

// scan reads the lines of src in state st: from the start of a stream
// (base −1: lines are numbered), or from byte base of a file with st set
// from its first line (a byte range: lines are located by offset).
func (r *reader) scan(src io.Reader, st0 *lineState, base int64) (string, error) {
	sc := linescan.New(src, 1<<20)
	sc.SetMaxFrom(r.lineCap())
	st := *st0
	defer func() { *st0 = st }() // the state goes on in the next part of the stream (a ZipNum block)
	at := func() {
		r.line, r.offset = sc.Line(), base+sc.Offset()
		if base < 0 {
			r.offset = sc.Offset()
		} else {
			r.line = 0
		}
	}
	for n := 0; ; n++ {
		if n%4096 == 0 {
			if err := r.ctx.Err(); err != nil {
				return st.format, err
			}
		}
		line, err := sc.Next()
		if err == io.EOF {
			return st.format, nil
		}
		if err != nil {
			if _, ok := linescan.IsTooLong(err); ok {
				at()
				if e := r.fail(r.line, "line_too_long", err); e != nil {
					return st.format, e
				}
				continue
			}
			return st.format, err // the decompressor's (CorruptError) or I/O
		}
		if len(bytes.TrimSpace(line)) == 0 {
			st.blank = true
			continue
		}
		at()
		if st.format == "" {
			if err := r.detect(line, &st); err != nil {
				if e := r.fail(r.line, "format", err); e != nil {
					return "", e
				}
				continue
			}
			if st.header { // a legend or header line
				st.header = false
				continue
			}
		}
		reason, err := r.parseLine(line, &st)
		if st.format != CDXJSON {
			st.blank = false
		}
		if r.fnErr != nil {
			return st.format, r.fnErr
		}
		if err != nil {
			if e := r.fail(r.line, reason, err); e != nil {
				return st.format, e
			}
		}
		if r.held+r.traces.held() > r.opt.MaxObservations {
			return st.format, fmt.Errorf("observations %s %s: more than %d captures to hold in memory (a URL held counts as (len(URL) + 120)/24 captures more, a trace id held %d; logs are grouped by URL before estimating): give --sorted if the logs are sorted by URL (CDX and CDXJ indexes are; one URL is then held at a time), estimate fewer logs at a time, or raise --max-observations at about 60 bytes of memory per capture", r.name, r.where(), r.opt.MaxObservations, idMapCost)
		}
	}
}

// maxLine is the longest line kept: MaxLineBytes, and no more bytes than
// MaxObservations captures take (24 bytes each), so that the cap bounds
// the memory of a long line (a trace line holds a whole URL) too; a longer
// line is a bad line, line_too_long, and is not kept while it is read.
func (r *reader) maxLine() int {
	max, _ := r.lineCap()
	return max
}

// lineCap is the longest line read, and the option that sets it: a line
// holds at most --max-observations captures of about 24 bytes each, and
// never more than MaxLineBytes, which no estimate option changes.
func (r *reader) lineCap() (int, string) {
	byObs := max(r.opt.MaxObservations, 1<<16/24) * 24
	if byObs < int64(r.opt.MaxLineBytes) {
		return int(byObs), "--max-observations"
	}
	return r.opt.MaxLineBytes, ""
}

// fail is the error of a bad line, or nil (counted) under SkipBad.
func (r *reader) fail(line int64, reason string, err error) error {
	if r.opt.SkipBad {
		r.bad(reason)
		return nil
	}
	e := &BadRecordError{File: r.name, Line: line, Reason: reason, Err: err}
	if line == 0 {
		e.Offset = r.offset
	}
	return e
}

// where is the line being read, for messages: "line 7", or "byte 1234"
// when its number is not known.
func (r *reader) where() string {
	if r.line == 0 {
		return fmt.Sprintf("byte %d", r.offset)
	}
	return fmt.Sprintf("line %d", r.line)
}

// idsErr is the error of looking up or adding trace id (traceIDs): the
// cap's, located and saying what to do, for errIDsCap.
func (r *reader) idsErr(id string, err error) error {
	if !errors.Is(err, errIDsCap) {
		return fmt.Errorf("observations %s: %w", r.name, err)
	}
	return fmt.Errorf("observations %s %s: trace id %.80q: the trace ids are not in increasing order, and refusing one given twice then holds a 128-bit hash of each (%s read so far, 1 capture each, %d each after the first out of order; %s other captures held): more than --max-observations %d allows: sort the trace by id (numerically for numbers: sort -n; in increasing order no id is held) or raise --max-observations at about 60 bytes of memory per capture",
		r.name, r.where(), id, human.Comma(r.traces.n), idMapCost, human.Comma(r.held), r.opt.MaxObservations)
}

// detect sets st from the first line of a stream: the format given, or
// the one whose sniffer is surest of the line (the first in formatTable
// on a tie), then the format's begin (a legend, a header).
func (r *reader) detect(line []byte, st *lineState) error {
	s := strings.TrimSpace(string(line))
	h := head{line: line, s: s, fs: strings.Fields(s)}
	f := lookup(r.opt.Format) // nil: "" or auto
	if f == nil {
		best := sniffNo
		for _, g := range formatTable {
			if g.sniff == nil {
				continue
			}
			if l := g.sniff(h); l > best {
				f, best = g, l
			}
		}
		if f == nil {
			return fmt.Errorf("cannot tell the observation format from the first line %.80q (give --format: %s)", s, strings.Join(Formats, ", "))
		}
	}
	st.format, st.fm = f.Name, f
	if f.begin == nil {
		return nil
	}
	err := f.begin(h, st)
	st.fm = lookup(st.format) // begin may name another (a generic log's header)
	return err                // under SkipBad the stream goes on in st's format
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func splitFields(s string, comma byte) []string {
	if !strings.Contains(s, `"`) {
		return strings.Split(s, string(comma))
	}
	cr := csv.NewReader(strings.NewReader(s))
	cr.Comma = rune(comma)
	cr.FieldsPerRecord = -1
	rec, err := cr.Read()
	if err != nil {
		return nil
	}
	return rec
}

// parseLine reads one line of st's format; on error it returns the reason.
func (r *reader) parseLine(line []byte, st *lineState) (string, error) {
	return st.fm.parse(r, line, st)
}
