package visits

// Change-bit traces (Bing's urlid_offset_history.txt, or what revisit
// writes): recognising them, reading one line, and the in-place scanner of
// the pair list.

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/revisit-dev/revisit/internal/units"
)

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
		t0, offset, rest = int64(math.Round(d*units.Day)), true, bytes.TrimSpace(pairs)
	}
	// an upper bound of the pairs, before any is decoded: every pair opens
	// a bracket
	n := int64(bytes.Count(rest, []byte{'['})) - 1
	if n < 1 {
		return "fields", errors.New("trace: no crawl")
	}
	if held := r.held + r.traces.held(); n+1 > r.opt.MaxObservations-held {
		if n+1 <= r.opt.MaxObservations-r.held { // the trace ids held leave no room
			r.fnErr = r.idsErr(string(id), errIDsCap)
			return "", nil
		}
		r.fnErr = fmt.Errorf("observations %s: trace %.80q has %d crawls, more than the %d captures --max-observations allows in memory (with %d held): raise it, at about 90 bytes of memory per crawl of the line", r.name, id, n, r.opt.MaxObservations, held)
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
		gap := int64(math.Round(d * units.Day))
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
	dup, err := r.traces.has(sid)
	if err != nil {
		r.fnErr = r.idsErr(sid, err)
		return "", nil
	}
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
	if err := r.traces.add(sid); err != nil {
		r.fnErr = r.idsErr(sid, err)
		return "", nil
	}
	o.ID = sid
	r.noteID(sid)
	if err := r.companion(o); err != nil {
		r.fnErr = err
		return "", nil
	}
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

// decimal is the next token (token) read, in the same pass, as a plain
// decimal ("1", "0.996704", ".5", "2.") without allocating: ok only when
// its digits, the point left out, make an integer M ≤ 2⁵³ and it has
// k ≤ 22 digits after the point, so that M and 10^k are exact and
// d = M/10^k, one correctly rounded division, is the float64 nearest the
// decimal — what strconv.ParseFloat gives (its own exact fast path).
// Anything else (a sign, an exponent, more digits, "inf") is not ok, for
// strconv.ParseFloat to read from tok.
func (p *pairScanner) decimal() (tok []byte, d float64, ok bool) {
	p.ws()
	j := p.i
	var m uint64
	digits, frac, point, plain := 0, 0, false, true
	for ; p.i < len(p.b); p.i++ {
		c := p.b[p.i]
		switch {
		case c >= '0' && c <= '9':
			if m > (1<<53)/10 {
				plain = false
				continue
			}
			m = m*10 + uint64(c-'0')
			digits++
			if point {
				frac++
			}
			continue
		case c == '.' && !point:
			point = true
			continue
		case c == ',' || c == ']' || c == ' ' || c == '\t':
		default:
			plain = false
			continue
		}
		break
	}
	tok = p.b[j:p.i]
	if !plain || digits == 0 || m > 1<<53 || frac >= len(pow10) {
		return tok, 0, false
	}
	return tok, float64(m) / pow10[frac], true
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
	tok, d, ok := p.decimal()
	var perr error
	if !ok {
		d, perr = strconv.ParseFloat(string(tok), 64)
	}
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

// pow10 are the powers of ten exact in float64.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

func (p *pairScanner) end() error {
	p.ended = true
	p.ws()
	if p.i != len(p.b) {
		return fmt.Errorf("%d bytes after the closing bracket", len(p.b)-p.i)
	}
	return nil
}
