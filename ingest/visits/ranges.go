package visits

// Byte ranges: shard i of N reads only its part of the inputs when every
// input is an uncompressed file whose lines can be cut between URLs —
// a change-bit trace (one line = one URL, every crawl of it), or a CDX or
// CDXJ index read with Sorted (lines grouped by urlkey). The inputs are
// taken as one stream, in the order given; the N cut points are at
// i·total/N bytes, each moved forward to the start of a line (a trace),
// or to the first line whose urlkey differs from the previous line's
// (CDX, CDXJ: a URL's lines are never cut apart; an empty line, a legend
// or a one-field line is never a cut point, nor the line after it), so
// every shard computes the same cuts and shard i reads the lines that
// begin in [cut_i, cut_{i+1}). The format and layout (legend) of an input
// come from its first line, which every shard reads.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/zeebo/xxh3"

	"github.com/revisit-dev/revisit/ingest/generic/linescan"
	"github.com/revisit-dev/revisit/internal/decompress"
	"github.com/revisit-dev/revisit/internal/shard"
)

// Orders of RangeInfo.Order: how the URL ids of byte ranges increase.
const (
	OrderLengthBytes = "length-bytes" // trace ids: by length, then bytes (numeric order for plain numbers)
	OrderBytes       = "bytes"        // CDX and CDXJ urlkeys (Sorted)
)

// RangeInfo is what a reader of one byte range read (Stats.Range).
type RangeInfo struct {
	I, N       int
	Start, End int64 // the range, in bytes of the inputs taken as one stream
	Total      int64 // the inputs' bytes
	// IDs counts the URL ids read (passed on or not), First and Last are
	// the first and last, in Order: the ranges of a split hold no id
	// twice when each range's Last comes before the next one's First.
	IDs         int64
	First, Last string
	Order       string
	// Ordered: every id came after the one before, in Order (a sorted
	// index's always do: a key out of order is a bad line). A trace's
	// may not; then only all the ids read tell whether one was read
	// twice (the merge's work).
	Ordered bool
}

// Before reports whether URL id a comes before b in order (OrderBytes or
// OrderLengthBytes).
func Before(order, a, b string) bool {
	if order == OrderLengthBytes {
		return before([]byte(a), b)
	}
	return a < b
}

// rangeInput is one input of a byte-range read: its size, where it begins
// in the stream, and its state after its first line.
type rangeInput struct {
	path   string
	size   int64
	off    int64
	format string
	st     lineState // the format and layout its first line gave
	legend string    // its first line when a CDX legend
}

// rangePlan is the inputs of a byte-range read.
type rangePlan struct {
	in    []rangeInput
	total int64
	order string
}

// PlanRanges reports whether the inputs (companion files given among the
// paths are left out, as Read leaves them out) can be read by byte
// ranges with opt, and why not: "" when they can.
func PlanRanges(paths []string, opt Options) (why string, err error) {
	_, why, err = planRanges(paths, opt)
	return why, err
}

func planRanges(paths []string, opt Options) (*rangePlan, string, error) {
	if opt.Format != "" && opt.Format != "auto" {
		f, err := ParseFormat(opt.Format)
		if err != nil {
			return nil, "", err
		}
		opt.Format = f
	}
	if opt.MaxObservations <= 0 {
		opt.MaxObservations = DefaultMaxObservations
	}
	if opt.MaxLineBytes <= 0 {
		opt.MaxLineBytes = DefaultMaxLineBytes
	}
	r := &reader{opt: opt}
	p := &rangePlan{}
	for _, path := range paths {
		if path == "-" {
			return nil, "standard input", nil
		}
		fi, err := os.Stat(path)
		if err != nil {
			return nil, "", fmt.Errorf("observations %s: %w", path, err)
		}
		if !fi.Mode().IsRegular() {
			return nil, path + " is not a regular file", nil
		}
		f, err := os.Open(path)
		if err != nil {
			return nil, "", fmt.Errorf("observations %s: %w", path, err)
		}
		in, why, err := r.firstOf(f, path, fi.Size())
		f.Close()
		if err != nil || why != "" {
			return nil, why, err
		}
		if in == nil { // a companion file
			continue
		}
		order := OrderLengthBytes
		if in.format != Trace {
			order = OrderBytes
		}
		if in.format != "" {
			if p.order != "" && p.order != order {
				return nil, "traces and CDX together", nil
			}
			p.order = order
		}
		in.off = p.total
		p.total += in.size
		p.in = append(p.in, *in)
	}
	if len(p.in) == 0 {
		return nil, "no input", nil
	}
	return p, "", nil
}

// firstOf reads an input's first line: nil for a companion file (auto
// format), why not when it cannot be read by byte ranges.
func (r *reader) firstOf(f *os.File, path string, size int64) (*rangeInput, string, error) {
	head := make([]byte, 512)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, "", fmt.Errorf("observations %s: %w", path, err)
	}
	head = head[:n]
	if c := decompress.Detect(head, path); c != decompress.Plain {
		return nil, path + " is " + c + "-compressed", nil
	}
	if decompress.IsTar(head) {
		return nil, path + " is a tar archive", nil
	}
	in := &rangeInput{path: path, size: size}
	sc := linescan.New(io.NewSectionReader(f, 0, size), 4096)
	sc.SetMaxFrom(r.lineCap())
	for {
		line, err := sc.Next()
		if err == io.EOF {
			return in, "", nil // empty: nothing to cut
		}
		if err != nil {
			return nil, path + ": its first line cannot be read", nil
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if sniffsCompanions(r.opt.Format) && sniff(string(line)) != "" {
			return nil, "", nil
		}
		if _, ok := parseIdx(string(line)); ok {
			return nil, path + " is a ZipNum cluster index (its shards are gzip)", nil
		}
		if err := r.detect(line, &in.st); err != nil {
			return nil, path + ": the format of its first line is not known", nil
		}
		in.format = in.st.format
		if in.format == CDX && isLegend(line) {
			in.legend = string(bytes.TrimSpace(line))
		}
		switch in.format {
		case Trace:
		case CDX, CDXJ:
			if !r.opt.Sorted {
				return nil, path + " is a " + in.format + " index read without --sorted", nil
			}
			if r.opt.Key == KeyURL {
				return nil, "--key url (the index is sorted by urlkey)", nil
			}
			if in.format == CDX && in.st.nf == 0 { // no legend: the first line's fields, as cdxLine takes them
				nf := len(bytes.Fields(line))
				if nf != 7 && nf != 9 && nf != 11 {
					return nil, path + ": its first CDX line has " + fmt.Sprint(nf) + " fields", nil
				}
				in.st.cols, in.st.nf = cdxDefault, nf
			}
		default:
			return nil, path + " is a " + in.format + " log (byte ranges: traces, and CDX or CDXJ with --sorted)", nil
		}
		in.st.header = false
		return in, "", nil
	}
}

// key is the URL key of a line of in for cutting (CDX, CDXJ): "" for a
// line that is no capture (empty, a legend, a resume key) or plainly a
// bad one (its fields, timestamp or JSON), so that a bad line inside a
// key's lines, which one read skips (--skip-bad), does not cut them apart.
func (in *rangeInput) key(line []byte) string {
	line = bytes.TrimPrefix(line, bom)
	fs := bytes.Fields(line)
	switch {
	case in.format == CDX && isLegend(line), len(fs) < 3:
		return ""
	case in.format == CDX:
		k, t := in.st.cols["urlkey"], in.st.cols["timestamp"]
		if len(fs) != in.st.nf || k >= len(fs) || t >= len(fs) {
			return ""
		}
		if _, err := cdxTimestamp(string(fs[t])); err != nil {
			return ""
		}
		return string(fs[k])
	}
	// cdxj: SURT timestamp {json}
	if _, err := cdxTimestamp(string(fs[1])); err != nil {
		return ""
	}
	if i := bytes.IndexByte(line, '{'); i < 0 || !json.Valid(line[i:]) {
		return ""
	}
	return string(fs[0])
}

var bom = []byte("\ufeff")

// cursor reads the lines of the stream forward from a line start.
type cursor struct {
	p   *rangePlan
	fs  []*os.File
	k   int   // the input read
	pos int64 // stream offset of the next line
	br  *bufio.Reader
	buf []byte
	max int
}

func (p *rangePlan) open(max int) (*cursor, error) {
	c := &cursor{p: p, max: max}
	for _, in := range p.in {
		f, err := os.Open(in.path)
		if err != nil {
			c.close()
			return nil, fmt.Errorf("observations %s: %w", in.path, err)
		}
		c.fs = append(c.fs, f)
	}
	return c, nil
}

func (c *cursor) close() {
	for _, f := range c.fs {
		f.Close()
	}
}

// input is the index of the input holding stream offset g (len(in) at
// the end).
func (p *rangePlan) input(g int64) int {
	for k := range p.in {
		if g < p.in[k].off+p.in[k].size {
			return k
		}
	}
	return len(p.in)
}

// seek puts c at stream offset g, which must be a line start.
func (c *cursor) seek(g int64) {
	c.k = c.p.input(g)
	c.pos = g
	c.br = nil
	if c.k < len(c.fs) {
		in := &c.p.in[c.k]
		c.br = bufio.NewReaderSize(io.NewSectionReader(c.fs[c.k], g-in.off, in.size-(g-in.off)), 8192)
	}
}

// next reads the line at c.pos (its first max bytes at most, without its
// terminator) and moves past it; io.EOF at the end of the stream.
func (c *cursor) next() (line []byte, k int, start int64, err error) {
	for c.k < len(c.fs) {
		if c.br == nil {
			c.seek(c.pos)
			continue
		}
		c.buf = c.buf[:0]
		start, k = c.pos, c.k
		for {
			frag, err := c.br.ReadSlice('\n')
			c.pos += int64(len(frag))
			if len(c.buf) < c.max+2 {
				c.buf = append(c.buf, frag[:min(len(frag), c.max+2-len(c.buf))]...)
			}
			if err == bufio.ErrBufferFull {
				continue
			}
			if err == io.EOF {
				c.k++
				c.br = nil
				if c.pos == start { // the input ended at a line start
					break
				}
			} else if err != nil {
				return nil, 0, 0, fmt.Errorf("observations %s: %w", c.p.in[k].path, err)
			}
			line := bytes.TrimRight(c.buf, "\r\n")
			if c.pos-start > int64(c.max)+2 {
				line = nil // too long to be a capture (a bad line): no key, as in prevKey
			}
			return line, k, start, nil
		}
	}
	return nil, 0, 0, io.EOF
}

// lineStart is the first line start at or after stream offset b.
func (c *cursor) lineStart(b int64) (int64, error) {
	k := c.p.input(b)
	if k == len(c.p.in) {
		return c.p.total, nil
	}
	in := &c.p.in[k]
	if b == in.off {
		return b, nil
	}
	// the line holding byte b−1 ends at its '\n' (or the input's end)
	c.seek(b - 1)
	_, _, _, err := c.next()
	if err != nil && err != io.EOF {
		return 0, err
	}
	if c.k > k { // that line ended the input
		return in.off + in.size, nil
	}
	return c.pos, nil
}

// prevKey is the key of the line that ends right before line start g: the
// last line of the previous non-empty input when g begins an input.
func (c *cursor) prevKey(g int64) (string, error) {
	k := c.p.input(g)
	local := int64(0)
	if k < len(c.p.in) {
		local = g - c.p.in[k].off
	}
	for local == 0 {
		if k == 0 {
			return "", nil
		}
		k--
		local = c.p.in[k].size
	}
	in := &c.p.in[k]
	f := c.fs[k]
	// the line ends at local (exclusive, its terminator included): find
	// the '\n' before it
	end := local
	var one [1]byte
	if _, err := f.ReadAt(one[:], end-1); err != nil {
		return "", fmt.Errorf("observations %s: %w", in.path, err)
	}
	if one[0] == '\n' {
		end--
	}
	start := end
	chunk := make([]byte, 4096)
	for start > 0 {
		n := min(int64(len(chunk)), start)
		if _, err := f.ReadAt(chunk[:n], start-n); err != nil {
			return "", fmt.Errorf("observations %s: %w", in.path, err)
		}
		if i := bytes.LastIndexByte(chunk[:n], '\n'); i >= 0 {
			start = start - n + int64(i) + 1
			break
		}
		start -= n
		if local-start > int64(c.max)+2 {
			return "", nil // a line too long to be a capture: a bad line, no key
		}
	}
	if local-start > int64(c.max)+2 { // its bytes with the terminator, as next counts them
		return "", nil
	}
	line := make([]byte, end-start)
	if _, err := f.ReadAt(line, start); err != nil {
		return "", fmt.Errorf("observations %s: %w", in.path, err)
	}
	return in.key(bytes.TrimRight(line, "\r")), nil
}

// cut is where the shard that begins at (or near) stream offset b
// begins.
func (c *cursor) cut(b int64) (int64, error) {
	if b <= 0 {
		return 0, nil
	}
	p, err := c.lineStart(b)
	if err != nil || p >= c.p.total || c.p.order == OrderLengthBytes {
		return p, err
	}
	prev, err := c.prevKey(p)
	if err != nil {
		return 0, err
	}
	c.seek(p)
	for {
		line, k, start, err := c.next()
		if err == io.EOF {
			return c.p.total, nil
		}
		if err != nil {
			return 0, err
		}
		key := c.p.in[k].key(line)
		if key != "" && prev != "" && key != prev {
			return start, nil
		}
		prev = key
	}
}

// shardRange is the byte range [start, end) of shard s.
func (p *rangePlan) shardRange(s shard.Spec, maxLine int) (start, end int64, err error) {
	c, err := p.open(maxLine)
	if err != nil {
		return 0, 0, err
	}
	defer c.close()
	at := func(i int) int64 { // ⌊i·total/N⌋ without overflow
		q, r := p.total/int64(s.N), p.total%int64(s.N)
		return q*int64(i) + r*int64(i)/int64(s.N)
	}
	if start, err = c.cut(at(s.I)); err != nil {
		return 0, 0, err
	}
	if s.I+1 == s.N {
		return start, p.total, nil
	}
	end, err = c.cut(at(s.I + 1))
	return start, max(start, end), err
}

// readRanges reads the byte range of Options.Range of the inputs.
func (r *reader) readRanges(paths []string) error {
	p, why, err := planRanges(paths, r.opt)
	if err != nil {
		return err
	}
	if why != "" {
		return fmt.Errorf("observations: cannot read byte range %s: %s", r.opt.Range, why)
	}
	start, end, err := p.shardRange(r.opt.Range, r.maxLine())
	if err != nil {
		return err
	}
	r.rng = &RangeInfo{I: r.opt.Range.I, N: r.opt.Range.N, Start: start, End: end, Total: p.total, Order: p.order, Ordered: true}
	r.stats.Range = r.rng
	windows := p.sampleWindows()
	for k := range p.in {
		in := &p.in[k]
		r.stats.Inputs = append(r.stats.Inputs, InputStats{Name: in.path, Size: in.size, Format: in.format})
		r.in = &r.stats.Inputs[len(r.stats.Inputs)-1]
		r.name = in.path
		if err := r.readRange(in, max(start-in.off, 0), min(end-in.off, in.size), windows[k]); err != nil {
			return err
		}
	}
	return nil
}

// readRange reads bytes [a, b) of input in (none when a ≥ b) and records
// its fingerprint: the hash of those bytes, and of the windows ws that
// every range reads.
func (r *reader) readRange(in *rangeInput, a, b int64, ws []window) error {
	f, err := os.Open(in.path)
	if err != nil {
		return fmt.Errorf("observations %s: %w", in.path, err)
	}
	defer f.Close()
	p := Print{Name: in.path, Size: in.size}
	if p.Samples, err = hashWindows(f, ws); err != nil {
		return fmt.Errorf("observations %s: %w", in.path, err)
	}
	if a < b {
		r.legend = in.legend
		st, base := in.st, a
		if a == 0 {
			st, base = lineState{}, -1 // from its first line, numbered
		}
		h := xxh3.New()
		if _, err := r.scan(&hashingReader{r: io.NewSectionReader(f, a, b-a), h: h}, &st, base); err != nil {
			return err
		}
		p.Start, p.End, p.Range = a, b, hex128(h)
	}
	r.stats.Prints = append(r.stats.Prints, p)
	return nil
}

// noteID records URL id as read, in a byte range.
func (r *reader) noteID(id string) {
	g := r.rng
	if g == nil {
		return
	}
	if g.IDs == 0 {
		g.First = id
	} else if !Before(g.Order, g.Last, id) {
		g.Ordered = false
	}
	g.Last = id
	g.IDs++
}
