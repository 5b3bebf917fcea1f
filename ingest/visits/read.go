package visits

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/revisit-dev/revisit/ingest/generic/linescan"
	"github.com/revisit-dev/revisit/internal/decompress"
	"github.com/revisit-dev/revisit/internal/units"
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
	// about 60 bytes of peak RSS each under the commands' soft memory
	// limit (pipeline.MemoryLimit; 72 without it), as measured with Go's
	// slice growth and collector (bench/estimate-memory.sh); each URL held counts as
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
	// Observed.Source).
	Importance, URLs string
	// Key groups CDX-family captures: KeySURT ("" too), the urlkey, as
	// archives do (it merges http/https, www. and other variants), or
	// KeyURL, the original URL as crawled.
	Key string
}

// Keys of Options.Key.
const (
	KeySURT = "surt"
	KeyURL  = "url"
)

// Defaults of Options.
const (
	// DefaultMaxObservations keeps `revisit estimate` within 256 MiB of
	// peak RSS (3·10⁶ captures of 3·10⁴ URLs: 211 MiB measured by
	// bench/estimate-memory.sh); a larger log is read with Sorted, or with
	// a raised cap at about 60 bytes per capture.
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
	// MergedKeys counts the keys (URLs passed on) under which captures of
	// more than one original URL were grouped (Observed.Originals > 1),
	// MergedOriginals those original URLs.
	MergedKeys      int64 `json:"merged_keys,omitempty"`
	MergedOriginals int64 `json:"merged_originals,omitempty"`
}

// BadRecordError is a bad line, located.
type BadRecordError struct {
	File   string
	Line   int64
	Reason string // short reason, the key of InputStats.Bad
	Err    error
}

func (e *BadRecordError) Error() string {
	return fmt.Sprintf("%s line %d: %v", e.File, e.Line, e.Err)
}
func (e *BadRecordError) Unwrap() error { return e.Err }

// Value kinds of a capture.
const (
	kindDigest = 1 + iota
	kindChanged
	kindLastMod
)

// urlBytes is about what a URL held in memory costs besides its id's
// bytes and its captures: its map entry, group and the slack of its first
// slice (measured: 1M URLs of one capture each took 377 MB when only the
// captures were counted, 24 bytes each).
const urlBytes = 120

// urlCost is what URL id costs in memory, in captures of 24 bytes: held
// counts it so that MaxObservations bounds memory also when most URLs
// have few captures.
func urlCost(id string) int64 { return int64(len(id)+urlBytes+23) / 24 }

// rec is one capture held in memory: 24 bytes.
type rec struct {
	t     int64
	v     uint64 // digest hash (FNV-1a 64), changed bit, or Last-Modified
	kind  uint8
	flags uint8
	why   uint8 // fSkip: the index of its reason in revisitSkips
}

const (
	fAbsent  uint8 = 1 << iota // the capture saw no page
	fRevisit                   // a revisit record: resolved in build
	fSkip                      // neither content nor absent (counted): held for the revisits of it
)

type group struct {
	recs []rec
	// FNV-1a 64 of the distinct original URLs (CDX family): the first,
	// and the others (counted in held, one capture each)
	orig1 uint64
	orig  []uint64
}

type reader struct {
	ctx    context.Context
	opt    Options
	groups map[string]*group
	held   int64
	stats  *Stats
	in     *InputStats
	name   string
	fn     func(*Observed) error
	fnErr  error               // fn failed: reading stops
	traces map[string]struct{} // ids of the trace lines passed to fn
	cur    string              // Sorted: the URL being read
	done   string              // Sorted: the last URL passed to fn
	any    bool                // Sorted: some URL was passed to fn
	imp    map[string]float64  // URL_ID → importance (Options.Importance)
	// original is the original URL of the capture being added (CDX
	// family), "" for other formats
	original string
	urls     map[string]string // URL_ID → URL (Options.URLs)
}

// Read reads the inputs (paths, "-" for standard input), groups their
// captures by URL, and calls fn for each URL with what the crawler saw of
// it. A trace line holds a whole URL and is passed to fn at once (in file
// order). Other captures are held in memory until every input is read (at
// most Options.MaxObservations), then passed in increasing order of the
// URL's id; with Options.Sorted, each URL is passed as soon as the next
// begins. A bad line is a *BadRecordError naming the file and line,
// unless SkipBad. fn may keep the Observed.
func Read(ctx context.Context, paths []string, opt Options, fn func(*Observed) error) (*Stats, error) {
	if opt.MaxObservations <= 0 {
		opt.MaxObservations = DefaultMaxObservations
	}
	if opt.MaxLineBytes <= 0 {
		opt.MaxLineBytes = DefaultMaxLineBytes
	}
	switch opt.Key {
	case "", KeySURT, KeyURL:
	default:
		return nil, fmt.Errorf("unknown key %q (want %s or %s)", opt.Key, KeySURT, KeyURL)
	}
	if opt.Format != "" && opt.Format != "auto" {
		f, err := ParseFormat(opt.Format)
		if err != nil {
			return nil, err
		}
		opt.Format = f
	}
	r := &reader{ctx: ctx, opt: opt, groups: map[string]*group{}, stats: &Stats{Skipped: map[string]int64{}}, fn: fn,
		traces: map[string]struct{}{}}
	paths, err := r.companions(paths)
	if err != nil {
		return nil, err
	}
	for _, p := range paths {
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
			if err := r.loadCompanion(c.path, c.kind); err != nil {
				return nil, err
			}
		}
	}
	if r.opt.Format != "" && r.opt.Format != "auto" {
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
			if err := r.loadCompanion(p, kind); err != nil {
				return nil, err
			}
			continue
		}
		rest = append(rest, p)
	}
	return rest, nil
}

// flush passes URL id's captures to fn and drops them.
func (r *reader) flush(id string) error {
	g := r.groups[id]
	delete(r.groups, id)
	r.held -= int64(len(g.recs)+len(g.orig)) + urlCost(id)
	o := r.build(id, g)
	if o == nil {
		return nil
	}
	if len(g.orig) > 0 {
		o.Originals = 1 + len(g.orig)
		r.stats.MergedKeys++
		r.stats.MergedOriginals += int64(o.Originals)
	}
	r.companion(o)
	r.stats.URLs++
	return r.fn(o)
}

func (r *reader) readInput(path string) error {
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
	return nil
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
	cols   map[string]int // cdx / cdx-json / generic columns
	nf     int            // cdx, cdx-json: the fields of every line (the legend's or header's; 0: not known yet)
	comma  byte
	header bool // the next line is a generic log's header
	blank  bool // the previous line was empty (cdx) or the row [] (cdx-json): a resume key may follow
}

// readStream reads one stream (a file or archive member) and returns its
// format.
func (r *reader) readStream(src io.Reader) (string, error) {
	sc := linescan.New(src, 1<<20)
	sc.SetMax(r.maxLine())
	var st lineState
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
				if e := r.fail(sc.Line(), "line_too_long", err); e != nil {
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
		if st.format == "" {
			if err := r.detect(line, &st); err != nil {
				if e := r.fail(sc.Line(), "format", err); e != nil {
					return "", e
				}
				continue
			}
			if st.header {
				st.header = false
				continue
			}
			if st.format == CDX && isLegend(line) { // the legend line
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
			if e := r.fail(sc.Line(), reason, err); e != nil {
				return st.format, e
			}
		}
		if r.held > r.opt.MaxObservations {
			return st.format, fmt.Errorf("observations %s line %d: more than %d captures to hold in memory (a URL held counts as (len(URL) + 120)/24 captures more; logs are grouped by URL before estimating): give --sorted if the logs are sorted by URL (CDX and CDXJ indexes are; one URL is then held at a time), estimate fewer logs at a time, or raise --max-observations at about 60 bytes of memory per capture", r.name, sc.Line(), r.opt.MaxObservations)
		}
	}
}

// maxLine is the longest line kept: MaxLineBytes, and no more bytes than
// MaxObservations captures take (24 bytes each), so that the cap bounds
// the memory of a long line (a trace line holds a whole URL) too; a longer
// line is a bad line, line_too_long, and is not kept while it is read.
func (r *reader) maxLine() int {
	return int(min(int64(r.opt.MaxLineBytes), max(r.opt.MaxObservations, 1<<16/24)*24))
}

// fail is the error of a bad line, or nil (counted) under SkipBad.
func (r *reader) fail(line int64, reason string, err error) error {
	if r.opt.SkipBad {
		r.bad(reason)
		return nil
	}
	return &BadRecordError{File: r.name, Line: line, Reason: reason, Err: err}
}

// detect sets st from the first line of a stream.
func (r *reader) detect(line []byte, st *lineState) error {
	s := strings.TrimSpace(string(line))
	f := r.opt.Format
	if f == "" || f == "auto" {
		switch {
		case strings.HasPrefix(s, "["):
			f = CDXJSON
		case strings.HasPrefix(s, "{"):
			f = CCJSON
		case strings.HasPrefix(s, "CDX ") || strings.HasPrefix(string(line), " CDX"):
			f = CDX
		default:
			if isTraceLine(s) {
				f = Trace
				break
			}
			if isTraceHeader(s) {
				f, st.header = Trace, true
				break
			}
			fs := strings.Fields(s)
			switch {
			case len(fs) >= 3 && strings.HasPrefix(fs[2], "{"):
				f = CDXJ
			case len(fs) >= 6 && isDigits(fs[1]):
				f = CDX
			case strings.ContainsAny(s, ",\t"):
				f = LogChanged // a generic log; the header says which
			default:
				return fmt.Errorf("cannot tell the observation format from the first line %.80q (give --format: %s)", s, strings.Join(Formats, ", "))
			}
		}
	}
	st.format = f
	switch f {
	case CDX:
		if isLegend(line) {
			return cdxLegend(s, st)
		}
	case Trace:
		st.header = isTraceHeader(s)
	case LogChanged, LogDigest, LogLastMod:
		st.comma = ','
		if strings.Contains(s, "\t") {
			st.comma = '\t'
		}
		st.cols = map[string]int{}
		for i, c := range splitFields(s, st.comma) {
			c = strings.ToLower(strings.TrimSpace(c))
			switch c {
			case "id", "url", "urlkey", "page", "page_id":
				st.cols["id"] = i
			case "time", "timestamp", "visit_time", "crawl_time":
				st.cols["time"] = i
			case "changed", "change", "q":
				st.cols["value"], st.format = i, LogChanged
			case "digest", "hash", "checksum":
				st.cols["value"], st.format = i, LogDigest
			case "last_modified", "last-modified", "lastmod":
				st.cols["value"], st.format = i, LogLastMod
			}
		}
		for _, c := range []string{"id", "time", "value"} {
			if _, ok := st.cols[c]; !ok {
				return fmt.Errorf("visit log header %.80q has no %s column (want id, time and one of changed, digest, last_modified)", s, c)
			}
		}
		st.header = true
	}
	return nil
}

// isTraceLine: "id<TAB>[…" or Bing's "id<TAB>offset<TAB>[…".
func isTraceLine(s string) bool {
	id, rest, ok := strings.Cut(s, "\t")
	if !ok || strings.TrimSpace(id) == "" {
		return false
	}
	rest = strings.TrimSpace(rest)
	if strings.HasPrefix(rest, "[") {
		return true
	}
	off, rest, ok := strings.Cut(rest, "\t")
	if _, err := strconv.ParseFloat(strings.TrimSpace(off), 64); !ok || err != nil {
		return false
	}
	return strings.HasPrefix(strings.TrimSpace(rest), "[")
}

// isTraceHeader: the column names of Bing's urlid_offset_history.txt
// (URL_ID, First_crawl_time_offset, Crawl_and_change_history).
func isTraceHeader(s string) bool {
	fs := strings.Split(strings.ToLower(s), "\t")
	return len(fs) == 3 && strings.Contains(fs[0], "id") && strings.Contains(fs[1], "offset")
}

// cdxLegendFields are the legend letters revisit reads (the IIPC CDX
// format): N the massaged URL (SURT urlkey), b the timestamp, a the
// original URL, m the MIME type, s the status, k the digest.
var cdxLegendFields = map[string]string{"N": "urlkey", "b": "timestamp", "a": "original", "m": "mimetype", "s": "statuscode", "k": "digest"}

// isLegend: " CDX N b a …" (the first byte is the delimiter) or "CDX …".
func isLegend(line []byte) bool {
	return bytes.HasPrefix(line, []byte(" CDX ")) || bytes.HasPrefix(line, []byte("CDX "))
}

// cdxLegend sets st's columns and field count from a legend line: every
// later line must have exactly its fields (the classic 11-field
// "N b a m s k r M S V g", the older 9-field "N b a m s k r V g", …).
func cdxLegend(s string, st *lineState) error {
	letters := strings.Fields(s)[1:]
	cols := map[string]int{}
	for i, c := range letters {
		if name, ok := cdxLegendFields[c]; ok {
			cols[name] = i
		}
	}
	for _, c := range []string{"urlkey", "timestamp", "digest"} {
		if _, ok := cols[c]; !ok {
			return fmt.Errorf("CDX legend %q has no %s column", s, c)
		}
	}
	st.cols, st.nf = cols, len(letters)
	return nil
}

// cdxDefault is the layout of a CDX file without a legend: the Wayback CDX
// server's default "urlkey timestamp original mimetype statuscode digest
// length" (7 fields) or the 9- and 11-field index lines, which begin with
// the same six.
var cdxDefault = map[string]int{"urlkey": 0, "timestamp": 1, "original": 2, "mimetype": 3, "statuscode": 4, "digest": 5}

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

// cdxTimestamp parses a Wayback timestamp: 4 to 14 digits, the missing
// ones taken as the earliest (2020 → 2020-01-01 00:00:00 UTC).
func cdxTimestamp(s string) (int64, error) {
	if len(s) < 4 || len(s) > 14 || !isDigits(s) {
		return 0, fmt.Errorf("timestamp %q: want 4 to 14 digits YYYYMMDDhhmmss", s)
	}
	full := s + "00000101000000"[len(s):]
	t, err := time.Parse("20060102150405", full)
	if err != nil {
		return 0, fmt.Errorf("timestamp %q: %v", s, err)
	}
	return t.Unix(), nil
}

// status classifies a capture's HTTP status: content, absent (404, 410),
// or a skip reason.
func status(s string) (absent bool, skip string) {
	s = strings.TrimSpace(s)
	switch {
	case s == "-" || s == "" || (len(s) == 3 && s[0] == '2'):
		return false, "" // "-": a revisit record (content unchanged)
	case s == "404" || s == "410":
		return true, ""
	case len(s) == 3 && s[0] >= '3' && s[0] <= '5':
		return false, "status_" + s[:1] + "xx"
	}
	return false, "status_other"
}

func fnv64(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// parseLine reads one line of st.format; on error it returns the reason.
func (r *reader) parseLine(line []byte, st *lineState) (string, error) {
	switch st.format {
	case CDX:
		if isLegend(line) { // a legend further down (concatenated files)
			if err := cdxLegend(strings.TrimSpace(string(line)), st); err != nil {
				return "legend", err
			}
			return "", nil
		}
		fs := strings.Fields(string(line))
		if len(fs) == 1 && st.blank { // the pagination footer: "", then the resume key
			r.in.ResumeKeys++
			return "", nil
		}
		if st.nf == 0 {
			if len(fs) != 7 && len(fs) != 9 && len(fs) != 11 {
				return "fields", fmt.Errorf("%d fields: a CDX line without a legend has 7 (urlkey timestamp original mimetype statuscode digest length), 9 or 11; give the \" CDX …\" legend line", len(fs))
			}
			st.cols, st.nf = cdxDefault, len(fs)
		}
		if len(fs) != st.nf {
			return "fields", fmt.Errorf("%d fields, the CDX legend (or first line) has %d", len(fs), st.nf)
		}
		get := func(c string) string {
			if i, ok := st.cols[c]; ok {
				return fs[i]
			}
			return ""
		}
		return r.capture(get("urlkey"), get("timestamp"), get("statuscode"), get("digest"), get("mimetype"), get("original"))
	case CDXJSON:
		s := strings.TrimSpace(string(line))
		if s == "]" {
			return "", nil
		}
		if strings.HasPrefix(s, "[[") && strings.HasSuffix(s, "]]") && strings.Count(s, "],") > 0 {
			var rows [][]string // the whole array on one line
			if err := json.Unmarshal([]byte(s), &rows); err != nil {
				return "json", fmt.Errorf("CDX JSON: %v", err)
			}
			for _, row := range rows {
				reason, err := r.cdxRow(row, st)
				if r.fnErr != nil {
					return "", nil
				}
				if err != nil {
					if !r.opt.SkipBad || reason == "header" {
						return reason, err
					}
					r.bad(reason) // one bad row: count it and read the rest of the line
				}
			}
			return "", nil
		}
		s = strings.TrimPrefix(s, ",")
		if strings.HasPrefix(s, "[[") {
			s = s[1:]
		}
		s = strings.TrimSuffix(s, ",")
		if strings.HasSuffix(s, "]]") {
			s = s[:len(s)-1]
		}
		var row []string
		if err := json.Unmarshal([]byte(s), &row); err != nil {
			return "json", fmt.Errorf("CDX JSON row: %v", err)
		}
		return r.cdxRow(row, st)
	case CDXJ, CCJSON:
		s := strings.TrimSpace(string(line))
		var key, ts, js string
		if strings.HasPrefix(s, "{") { // the index server's output=json: urlkey and timestamp inside
			js = s
		} else {
			var ok1, ok2 bool
			key, s, ok1 = strings.Cut(s, " ")
			ts, js, ok2 = strings.Cut(strings.TrimLeft(s, " "), " ")
			if !ok1 || !ok2 {
				return "fields", errors.New("want SURT timestamp {json}")
			}
		}
		var v struct {
			URLKey    string          `json:"urlkey"`
			Timestamp json.RawMessage `json:"timestamp"`
			URL       string          `json:"url"`
			Mime      string          `json:"mime"`
			Digest    string          `json:"digest"`
			Status    json.RawMessage `json:"status"`
		}
		if err := json.Unmarshal([]byte(js), &v); err != nil {
			return "json", fmt.Errorf("%s: %v", st.format, err)
		}
		if key == "" {
			key, ts = v.URLKey, strings.Trim(string(v.Timestamp), `"`)
			if key == "" || ts == "" {
				return "fields", errors.New("JSON capture without urlkey or timestamp")
			}
		}
		stat := strings.Trim(string(v.Status), `"`)
		return r.capture(key, ts, stat, v.Digest, v.Mime, v.URL)
	case Trace:
		return r.traceLine(line)
	default:
		return r.logLine(line, st)
	}
}

// cdxRow reads one row of the CDX server's JSON output: the header row
// (column names), a capture, or the pagination footer (the row [], then
// the resume key alone in a row). A header row again (concatenated pages)
// is passed over; a row of another length than the header is bad.
func (r *reader) cdxRow(row []string, st *lineState) (string, error) {
	blank := st.blank
	st.blank = len(row) == 0
	switch {
	case len(row) == 0:
		return "", nil
	case len(row) == 1 && blank:
		r.in.ResumeKeys++
		return "", nil
	}
	if st.cols == nil {
		st.cols = map[string]int{}
		for i, c := range row {
			st.cols[strings.ToLower(c)] = i
		}
		st.nf = len(row)
		for _, c := range []string{"urlkey", "timestamp", "digest"} {
			if _, ok := st.cols[c]; !ok {
				return "header", fmt.Errorf("CDX JSON header %q has no %s column", row, c)
			}
		}
		return "", nil
	}
	if len(row) != st.nf {
		return "fields", fmt.Errorf("%d fields, the header has %d", len(row), st.nf)
	}
	get := func(c string) string {
		if i, ok := st.cols[c]; ok {
			return row[i]
		}
		return ""
	}
	if strings.EqualFold(get("urlkey"), "urlkey") && strings.EqualFold(get("timestamp"), "timestamp") {
		return "", nil // the header of a page concatenated after the first
	}
	return r.capture(get("urlkey"), get("timestamp"), get("statuscode"), get("digest"), get("mimetype"), get("original"))
}

// emptyDigest is the base-32 SHA-1 of an empty payload: the digest of a
// revisit of a redirect (or of any empty response).
const emptyDigest = "3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ"

// revisitSkips are the skip reasons of held captures that are no visit
// but that a revisit record may repeat (rec.why).
var revisitSkips = []string{"", "status_3xx", "status_4xx", "status_5xx", "status_other"}

// capture records one CDX-family capture. A revisit record (MIME type
// warc/revisit, or status "-") is held with its digest and resolved when
// the URL is built; captures with another status than content or absent
// are counted and held too (when they have a digest) so that a revisit of
// them is known for what it is.
func (r *reader) capture(key, ts, stat, digest, mime, original string) (string, error) {
	if r.opt.Key == KeyURL {
		if original == "" || original == "-" {
			return "fields", errors.New("--key url: a capture without its original URL")
		}
		key = original
	}
	r.original = original
	if key == "" {
		return "fields", errors.New("empty urlkey")
	}
	t, err := cdxTimestamp(ts)
	if err != nil {
		return "timestamp", err
	}
	digest = strings.TrimPrefix(digest, "sha1:")
	hasDigest := digest != "" && digest != "-"
	if strings.EqualFold(mime, "warc/revisit") || strings.TrimSpace(stat) == "-" {
		if !hasDigest {
			return "digest", errors.New("a revisit record without a digest")
		}
		if digest == emptyDigest { // a revisit of an empty payload: a redirect's
			r.in.Records++
			r.stats.Captures++
			r.stats.Skipped["revisit_empty_payload"]++
			return "", nil
		}
		return r.add(key, rec{t: t, kind: kindDigest, flags: fRevisit, v: fnv64(digest)})
	}
	absent, skip := status(stat)
	if skip == "" && !absent && !hasDigest {
		return "digest", errors.New("a capture with content but no digest")
	}
	if skip != "" {
		r.stats.Skipped[skip]++
		if !hasDigest || digest == emptyDigest {
			r.in.Records++
			r.stats.Captures++
			return "", nil
		}
		return r.add(key, rec{t: t, kind: kindDigest, flags: fSkip, why: uint8(slices.Index(revisitSkips, skip)), v: fnv64(digest)})
	}
	rc := rec{t: t, kind: kindDigest}
	if absent {
		rc.flags = fAbsent
	}
	if hasDigest { // an absent page's too: a revisit may repeat it
		rc.v = fnv64(digest)
	}
	return r.add(key, rc)
}

func (r *reader) add(id string, rc rec) (string, error) {
	if _, dup := r.traces[id]; dup {
		return "duplicate", fmt.Errorf("URL %q: a trace line and other observations of the same id", id)
	}
	if r.opt.Sorted && id != r.cur {
		if r.any && id <= r.done || r.cur != "" && id < r.cur {
			return "unsorted", fmt.Errorf("URL %q after %q: the logs are not sorted by URL (drop --sorted to group them in memory)", id, max(r.cur, r.done))
		}
		if r.cur != "" {
			r.done, r.any = r.cur, true
			if err := r.flush(r.cur); err != nil {
				r.fnErr = err
				return "", nil
			}
		}
		r.cur = id
	}
	g := r.groups[id]
	if g == nil {
		g = &group{}
		// a copy: id is a piece of the whole line, which the map key
		// would otherwise keep alive
		r.groups[strings.Clone(id)] = g
		r.held += urlCost(id)
	} else if g.recs[0].kind != rc.kind {
		return "mixed", fmt.Errorf("URL %q: observations of different kinds (digest, changed bit, Last-Modified)", id)
	}
	g.recs = append(g.recs, rc)
	r.held++
	if r.original != "" {
		switch h := fnv64(r.original); {
		case len(g.recs) == 1:
			g.orig1 = h
		case h != g.orig1 && !slices.Contains(g.orig, h):
			g.orig = append(g.orig, h)
			r.held++ // 8 bytes, counted as a capture
		}
		r.original = ""
	}
	r.in.Records++ // counted only once the capture is good
	r.stats.Captures++
	return "", nil
}

// traceLine reads one change-bit trace line, in either form:
//
//   - Bing's "URL_ID<TAB>first_crawl_offset<TAB>[[d, c], …]": the first
//     crawl at the offset (days since the collection began) is a visit
//     with content, a reference (nothing is known before it), and pair k
//     is the crawl d days after the previous one, c = 1 when the page
//     changed since it; every pair is an interval between two real crawls;
//   - "id<TAB>[[d, c], …]" (what revisit writes): the first pair's delay is
//     since a crawl before the first listed, at time 0. A first pair
//     [0, c] means there was none. A first pair [d, 0] is an unchanged
//     interval after that crawl, which becomes a reference visit at 0; a
//     first pair [d, 1] is a change (or the creation: replay writes the
//     crawl before a page existed so) since the crawl at 0, which is kept
//     as Observed.HasPrev with FirstChanged.
//
// c is 0/1 or true/false. Times are whole seconds: round(days·86400) per
// delay (round(offset·86400) for the first crawl); crawls in the same
// second are merged (changed bits or-ed, counted as same_second). The
// pair list is scanned in place, not decoded into values: a line of more
// pairs than the cap of captures is refused before any visit is made.
func (r *reader) traceLine(line []byte) (string, error) {
	id, rest, ok := bytes.Cut(line, []byte{'\t'})
	id = bytes.TrimSpace(id)
	if !ok || len(id) == 0 {
		return "fields", errors.New("want id<TAB>[[days_since_prev_crawl, changed], …] or id<TAB>first_crawl_offset<TAB>[[…], …]")
	}
	rest = bytes.TrimSpace(rest)
	var t0 int64
	offset := false
	if len(rest) == 0 || rest[0] != '[' {
		off, pairs, ok := bytes.Cut(rest, []byte{'\t'})
		if !ok {
			return "fields", errors.New("want id<TAB>first_crawl_offset<TAB>[[days_since_prev_crawl, changed], …]")
		}
		d, err := strconv.ParseFloat(string(bytes.TrimSpace(off)), 64)
		if err != nil || !(d >= 0) || d > 1e7 {
			return "fields", fmt.Errorf("trace: first crawl offset %.40q is not a number of days in [0, 10⁷]", off)
		}
		t0, offset, rest = int64(math.Round(d*86400)), true, bytes.TrimSpace(pairs)
	}
	// an upper bound of the pairs, before any is decoded: every pair opens
	// a bracket
	n := int64(bytes.Count(rest, []byte{'['})) - 1
	if n < 1 {
		return "fields", errors.New("trace: no crawl")
	}
	if n+1 > r.opt.MaxObservations-r.held {
		r.fnErr = fmt.Errorf("observations %s: trace %q has %d crawls, more than the %d captures --max-observations allows in memory (with %d held): raise it, at about 90 bytes of memory per crawl of the line", r.name, id, n, r.opt.MaxObservations, r.held)
		return "", nil
	}
	o := &Observed{Visits: make([]Visit, 0, n+1)}
	sc := pairScanner{b: rest}
	var t, same, pairs int64
	for i := 0; ; i++ {
		d, c, more, err := sc.next()
		if err != nil {
			return "fields", fmt.Errorf("trace entry %d: %v", i+1, err)
		}
		if !more {
			break
		}
		pairs++
		gap := int64(math.Round(d * 86400))
		switch {
		case i == 0 && offset:
			t = t0
			o.Visits = append(o.Visits, Visit{T: t0})
			if gap == 0 {
				same++
			} else {
				o.Visits = append(o.Visits, Visit{T: t0 + gap, Changed: c})
			}
		case i == 0 && gap == 0: // no crawl before the first
			o.Visits = append(o.Visits, Visit{T: 0, Changed: c})
		case i == 0 && c:
			o.HasPrev, o.Prev, o.FirstChanged = true, 0, true
			o.Visits = append(o.Visits, Visit{T: gap, Changed: true})
		case i == 0: // an unchanged interval after a real crawl at 0
			o.Visits = append(o.Visits, Visit{T: 0}, Visit{T: gap})
		case gap == 0: // the same second: or-ed into the previous visit
			o.Visits[len(o.Visits)-1].Changed = o.Visits[len(o.Visits)-1].Changed || c
			same++
		default:
			o.Visits = append(o.Visits, Visit{T: t + gap, Changed: c})
		}
		t += gap
	}
	if pairs == 0 {
		return "fields", errors.New("trace: no crawl")
	}
	sid := string(id)
	_, dup := r.traces[sid]
	if _, held := r.groups[sid]; dup || held || (r.opt.Sorted && r.any && sid == r.done) {
		return "duplicate", fmt.Errorf("trace id %q given twice (or also in another log)", sid)
	}
	r.in.Records++
	r.stats.Captures += pairs
	if offset {
		r.stats.Captures++ // the first crawl, at the offset
	}
	if same > 0 {
		r.stats.Skipped["same_second"] += same
	}
	r.traces[sid] = struct{}{}
	o.ID = sid
	r.companion(o)
	r.stats.URLs++
	if err := r.fn(o); err != nil {
		r.fnErr = err
	}
	return "", nil
}

// pairScanner reads a trace's pair list [[d, c], …] in place.
type pairScanner struct {
	b     []byte
	i     int
	begun bool
	ended bool
}

func (p *pairScanner) ws() {
	for p.i < len(p.b) && (p.b[p.i] == ' ' || p.b[p.i] == '\t' || p.b[p.i] == '\r') {
		p.i++
	}
}

func (p *pairScanner) expect(c byte) error {
	p.ws()
	if p.i >= len(p.b) || p.b[p.i] != c {
		if p.i >= len(p.b) {
			return fmt.Errorf("want %q, the line ends", c)
		}
		return fmt.Errorf("want %q at byte %d, found %q", c, p.i, p.b[p.i])
	}
	p.i++
	return nil
}

// token is the next run of bytes up to a comma, bracket or white space.
func (p *pairScanner) token() []byte {
	p.ws()
	j := p.i
	for p.i < len(p.b) && p.b[p.i] != ',' && p.b[p.i] != ']' && p.b[p.i] != ' ' && p.b[p.i] != '\t' {
		p.i++
	}
	return p.b[j:p.i]
}

// next reads one pair: its days d ≥ 0 and changed bit; more is false after
// the closing bracket (then only white space may follow).
func (p *pairScanner) next() (d float64, c, more bool, err error) {
	if p.ended {
		return 0, false, false, nil
	}
	if !p.begun {
		p.begun = true
		if err := p.expect('['); err != nil {
			return 0, false, false, err
		}
		p.ws()
		if p.i < len(p.b) && p.b[p.i] == ']' {
			p.i++
			return 0, false, false, p.end()
		}
	}
	if err := p.expect('['); err != nil {
		return 0, false, false, err
	}
	tok := p.token()
	d, perr := strconv.ParseFloat(string(tok), 64)
	if perr != nil || !(d >= 0) || d > 1e7 {
		return 0, false, false, fmt.Errorf("days %.40q is not a number in [0, 10⁷]", tok)
	}
	if err := p.expect(','); err != nil {
		return 0, false, false, err
	}
	switch tok := p.token(); string(tok) {
	case "1", "true":
		c = true
	case "0", "false":
	default:
		return 0, false, false, fmt.Errorf("changed %.40q is not 0, 1, true or false", tok)
	}
	if err := p.expect(']'); err != nil {
		return 0, false, false, err
	}
	p.ws()
	switch {
	case p.i < len(p.b) && p.b[p.i] == ',':
		p.i++
	case p.i < len(p.b) && p.b[p.i] == ']':
		p.i++
		if err := p.end(); err != nil {
			return 0, false, false, err
		}
	default:
		return 0, false, false, errors.New("want ',' or ']' after a pair")
	}
	return d, c, true, nil
}

func (p *pairScanner) end() error {
	p.ended = true
	p.ws()
	if p.i != len(p.b) {
		return fmt.Errorf("%d bytes after the closing bracket", len(p.b)-p.i)
	}
	return nil
}

// logTime reads a generic log's time: epoch seconds, RFC 3339 /
// YYYY-MM-DD[ HH:MM:SS], or an HTTP date (Last-Modified headers).
func logTime(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		return v, nil
	}
	// units.ParseISO, not generic.ParseISO: its wrapped error would be
	// built and dropped on every line with an HTTP date
	if sec, _, _, err := units.ParseISO([]byte(s)); err == nil {
		return sec, nil
	}
	if t, err := http.ParseTime(s); err == nil {
		return t.Unix(), nil
	}
	return 0, fmt.Errorf("time %q: want epoch seconds, RFC 3339 or an HTTP date", s)
}

func (r *reader) logLine(line []byte, st *lineState) (string, error) {
	fs := splitFields(strings.TrimRight(string(line), "\r"), st.comma)
	need := max(st.cols["id"], st.cols["time"], st.cols["value"])
	if len(fs) <= need {
		return "fields", fmt.Errorf("%d fields, want at least %d", len(fs), need+1)
	}
	id := strings.TrimSpace(fs[st.cols["id"]])
	if id == "" {
		return "fields", errors.New("empty id")
	}
	t, err := logTime(fs[st.cols["time"]])
	if err != nil {
		return "timestamp", err
	}
	val := strings.TrimSpace(fs[st.cols["value"]])
	kind := map[string]uint8{LogChanged: kindChanged, LogDigest: kindDigest, LogLastMod: kindLastMod}[st.format]
	rc := rec{t: t, kind: kind}
	switch {
	case val == "" || val == "-":
		rc.flags = fAbsent
	case kind == kindDigest:
		rc.v = fnv64(val)
	case kind == kindChanged:
		switch strings.ToLower(val) {
		case "1", "true", "yes":
			rc.v = 1
		case "0", "false", "no":
		default:
			return "fields", fmt.Errorf("changed %q is not 0, 1, true or false", val)
		}
	default:
		lm, err := logTime(val)
		if err != nil {
			return "last_modified", fmt.Errorf("last_modified: %v", err)
		}
		if lm > t {
			return "last_modified", fmt.Errorf("last_modified %s is after the visit at %s", val, fs[st.cols["time"]])
		}
		rc.v = uint64(lm)
	}
	return r.add(id, rc)
}

// build turns a URL's captures into what the crawler saw (nil when no
// capture had content).
func (r *reader) build(id string, g *group) *Observed {
	recs := g.recs
	o := &Observed{ID: id}
	slices.SortStableFunc(recs, func(a, b rec) int {
		switch {
		case a.t < b.t:
			return -1
		case a.t > b.t:
			return 1
		}
		return 0
	})
	kind := recs[0].kind
	o.Ages = kind == kindLastMod
	var vals []uint64
	var orig map[uint64]rec // digest → the first capture with it that is no revisit
	for _, rc := range recs {
		if rc.flags&fRevisit != 0 {
			orig = map[uint64]rec{}
			for _, rc := range recs {
				if _, seen := orig[rc.v]; !seen && rc.flags&fRevisit == 0 {
					orig[rc.v] = rc
				}
			}
			break
		}
	}
	absents := 0
	for _, rc := range recs {
		if rc.flags&fSkip != 0 {
			continue // counted when read
		}
		if rc.flags&fRevisit != 0 {
			o, ok := orig[rc.v]
			switch {
			case ok && o.flags&fSkip != 0:
				r.stats.Skipped["revisit_"+revisitSkips[o.why]]++
				continue
			case ok:
				rc.flags = o.flags // content, or absent
			case len(vals) > 0 && vals[len(vals)-1] == rc.v:
				rc.flags = 0 // the same payload as the previous visit: unchanged
			default:
				r.stats.Skipped["revisit_unresolved"]++
				continue
			}
		}
		if rc.flags&fAbsent != 0 {
			if len(o.Visits) > 0 {
				r.stats.Skipped["absent_after_first"]++
				continue
			}
			absents++
			o.HasPrev, o.Prev = true, rc.t
			continue
		}
		if n := len(o.Visits); n > 0 && o.Visits[n-1].T == rc.t {
			r.stats.Skipped["same_second"]++
			if kind == kindChanged {
				o.Visits[n-1].Changed = o.Visits[n-1].Changed || rc.v == 1
			} else {
				vals[n-1] = rc.v
			}
			continue
		}
		if o.HasPrev && len(o.Visits) == 0 && o.Prev == rc.t {
			// no page and a page in the same second: no previous visit
			o.HasPrev = false
			r.stats.Skipped["absent_unused"] += int64(absents) // every one before, too
			absents = 0
		}
		o.Visits = append(o.Visits, Visit{T: rc.t, Changed: kind == kindChanged && rc.v == 1})
		vals = append(vals, rc.v)
	}
	if absents > 1 {
		r.stats.Skipped["absent_unused"] += int64(absents - 1)
	}
	if len(o.Visits) == 0 {
		r.stats.Skipped["no_content"]++
		return nil
	}
	o.FirstChanged = o.HasPrev // the page was absent at Prev: created since
	for j := range o.Visits {
		switch kind {
		case kindDigest:
			o.Visits[j].Changed = j > 0 && vals[j] != vals[j-1]
		case kindLastMod:
			o.Visits[j].LastMod = int64(vals[j])
			if j > 0 {
				o.Visits[j].Changed = o.Visits[j].LastMod > o.Visits[j-1].T
			}
		}
	}
	if kind == kindChanged {
		o.Visits[0].Changed = o.HasPrev // the first bit compares with an unknown visit: a reference
	}
	return o
}
