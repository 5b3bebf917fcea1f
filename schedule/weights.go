package schedule

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"net"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/revisit-dev/revisit/internal/units"
)

// ParseRate reads a visit rate "B", "B/d", "B/h" or "B/UNIT" for any
// unit of units.Short (s, m, h, d, w, y) and returns visits per second.
// A bare number is visits per day. The rate must be a finite number of
// visits in every unit revisit computes or shows rates in (up to a year),
// so that no plan holds +Inf rates: 1e308/h is refused.
func ParseRate(s string) (float64, error) {
	num, per, ok := strings.Cut(strings.TrimSpace(s), "/")
	if strings.TrimSpace(per) == "cycle" || strings.HasSuffix(strings.TrimSpace(s), "%") {
		return 0, fmt.Errorf("rate %q: a visit rate is visits per unit of time (B, B/d, B/h); downloads per download cycle or a percentage of the pages is the download policies' budget (revisit policies --budget)", s)
	}
	u := units.Day
	if ok {
		var known bool
		if u, known = units.Short(strings.TrimSpace(per)); !known {
			return 0, fmt.Errorf("rate %q: unknown unit %q (want d, h, m, s, w or y)", s, per)
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, fmt.Errorf("rate %q: want a number ≥ 0 of visits, optionally per d or h", s)
	}
	r := v / u
	if math.IsInf(r*units.Year, 0) {
		return 0, fmt.Errorf("rate %q: too large (not a finite number of visits per year)", s)
	}
	return r, nil
}

// ParseError is a bad line of an importance or host-limits file.
type ParseError struct {
	File string
	Line int
	Err  error
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err) }
func (e *ParseError) Unwrap() error { return e.Err }

// header names the columns a pair file's first line may name to be a
// header (case-insensitive): a key column and a value column.
type header struct{ keys, values []string }

// Documented headers of the importance and host-limits files: Bing's
// column names (URL_ID, Importance_score) and plain ones.
var (
	importanceHeader = header{keys: []string{"url_id", "url", "title", "id", "page_id", "key"}, values: []string{"importance_score", "importance", "weight"}}
	hostLimitsHeader = header{keys: []string{"host", "host_url"}, values: []string{"limit", "rate"}}
)

func (h header) String() string {
	return strings.Join(h.keys, "|") + " and " + strings.Join(h.values, "|")
}

func (h header) is(key, value string) bool {
	return slices.Contains(h.keys, strings.ToLower(key)) && slices.Contains(h.values, strings.ToLower(value))
}

// eachPair reads the lines of a pair file: "KEY<TAB>VALUE" (the Bing
// trace's urlid_imp.txt) or a CSV record "KEY,VALUE" (quote a key that
// holds a comma), one per line, after an optional UTF-8 byte-order mark;
// blank lines and lines starting with # are
// passed over, and the first other line is a header if it names the
// documented columns (h). Any other line must be a key and a value; fn
// checks the value. Errors are ParseErrors naming the file and line.
func eachPair(path string, h header, fn func(line int, key, value string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	line, data := 0, 0
	for sc.Scan() {
		line++
		s := sc.Text()
		if line == 1 {
			s = strings.TrimPrefix(s, "\ufeff") // a byte-order mark (spreadsheets' "CSV UTF-8")
		}
		s = strings.TrimSpace(s)
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		data++
		var fs []string
		if strings.Contains(s, "\t") {
			fs = strings.Split(s, "\t")
		} else {
			r := csv.NewReader(strings.NewReader(s))
			r.FieldsPerRecord = -1
			if fs, err = r.Read(); err != nil {
				var pe *csv.ParseError
				if errors.As(err, &pe) {
					err = pe.Err
				}
				return &ParseError{path, line, fmt.Errorf("%v in %.60q", err, s)}
			}
		}
		if len(fs) != 2 {
			return &ParseError{path, line, fmt.Errorf("%d fields, want KEY<TAB>VALUE or KEY,VALUE (quote a key with a comma): %.60q", len(fs), s)}
		}
		k, v := strings.TrimSpace(fs[0]), strings.TrimSpace(fs[1])
		if data == 1 && h.is(k, v) {
			continue
		}
		if k == "" {
			return &ParseError{path, line, errors.New("empty key")}
		}
		if err := fn(line, k, v); err != nil {
			if data == 1 {
				err = fmt.Errorf("%w (a header names the columns %s)", err, h)
			}
			return &ParseError{path, line, err}
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: %w", path, line+1, err)
	}
	return nil
}

// ParseImportance reads an importance: a finite number ≥ 0.
func ParseImportance(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v >= 0) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("importance %.40q: want a finite number ≥ 0", s)
	}
	return v, nil
}

// HostLimitSet is a host-limits file read by ReadHostLimits: per host
// (NormalHost) its limit in visits per second.
type HostLimitSet struct {
	File  string
	Limit map[string]float64
}

// ReadHostLimits reads per-host limits "host,RATE" (RATE as ParseRate:
// visits per day unless /h …), in visits per second. A host may be given
// as a URL (Bing's host_hostid_isconstrained.txt names hosts by URL): its
// host name counts. Hosts compare case-insensitively and without a
// trailing dot, as DNS names do (NormalHost); one given twice so is
// refused.
func ReadHostLimits(path string) (*HostLimitSet, error) {
	hl := &HostLimitSet{File: path, Limit: map[string]float64{}}
	lines := map[string]int{}
	err := eachPair(path, hostLimitsHeader, func(line int, key, value string) error {
		h := NormalHost(key)
		if strings.Contains(key, "://") {
			h = Host(key)
		}
		if h == "" || strings.ContainsAny(h, " /") {
			return fmt.Errorf("host %.60q: want a host name (or a URL)", key)
		}
		r, err := ParseRate(value)
		if err != nil {
			return err
		}
		if l, dup := lines[h]; dup {
			return fmt.Errorf("host %q given twice (first on line %d; hosts compare case-insensitively)", key, l)
		}
		lines[h] = line
		hl.Limit[h] = r
		return nil
	})
	if err != nil {
		return nil, err
	}
	return hl, nil
}

// Host is the host name of a page title that is a URL or a SURT key (the
// urlkey of a Wayback CDX or Common Crawl CDXJ estimate), "" otherwise,
// NormalHost: the unit of the politeness limits.
func Host(title string) string {
	if h, ok := surtHost(title); ok {
		return h
	}
	if !strings.Contains(title, "://") {
		return ""
	}
	u, err := url.Parse(title)
	if err != nil {
		return ""
	}
	return NormalHost(u.Hostname())
}

// surtHost reads the host of a SURT key: the labels of the host name in
// reverse order, comma-separated, an optional :port, then ")" and the path
// ("com,example,www)/a?b" → www.example.com), also in its long form
// "http://(com,example,www,)/a". Archives canonicalise a leading "www."
// away in their keys (pywb, the Wayback Machine), so such a key has the
// host without it.
func surtHost(key string) (string, bool) {
	if i := strings.Index(key, "://("); i >= 0 && !strings.ContainsAny(key[:i], "/?#()") {
		key = key[i+len("://("):]
	}
	end := strings.IndexByte(key, ')')
	if end <= 0 {
		return "", false
	}
	host := key[:end]
	if rest := key[end+1:]; rest != "" && rest[0] != '/' {
		return "", false
	}
	if p := strings.IndexByte(host, ':'); p >= 0 {
		host = host[:p]
	}
	if ip := net.ParseIP(host); ip != nil && ip.To4() != nil && !strings.Contains(host, ",") {
		return host, true // an IPv4 address is kept as it is
	}
	labels := strings.Split(strings.TrimSuffix(host, ","), ",")
	if len(labels) < 2 {
		return "", false // a bare word before ")" is no host (a title like "Foo (band)/b")
	}
	for _, l := range labels {
		if l == "" || strings.Trim(strings.ToLower(l), "abcdefghijklmnopqrstuvwxyz0123456789-_") != "" {
			return "", false
		}
	}
	for i, j := 0, len(labels)-1; i < j; i, j = i+1, j-1 {
		labels[i], labels[j] = labels[j], labels[i]
	}
	return NormalHost(strings.Join(labels, ".")), true
}

// NormalHost is a host name as hosts compare: lower case, without a
// trailing dot (DNS names are case-insensitive, and "example.com." is
// "example.com").
func NormalHost(h string) string {
	return strings.TrimSuffix(strings.ToLower(strings.TrimSpace(h)), ".")
}

// HostStats says how a host-limits file applied to the pages.
type HostStats struct {
	File    string
	Given   int      // hosts in the file
	Applied int      // of them, hosts of at least one page
	Pages   int      // pages under a limit
	Unused  []string // hosts naming no page's host, sorted (at most maxNamed)
	NUnused int
}

// maxNamed bounds the hosts or keys a message names.
const maxNamed = 5

// hostIndex gives pages their host's limit index (−1: none) as they come,
// and says which limits applied.
type hostIndex struct {
	set   *HostLimitSet
	index map[string]int32
	lim   Limits
	pages int
	host  string // the host of a page, for the error when none applies
}

func newHostIndex(set *HostLimitSet) *hostIndex {
	return &hostIndex{set: set, index: map[string]int32{}}
}

// add appends page's host index, given its title, in units of perUnit.
func (h *hostIndex) add(title string, perUnit float64) {
	k := int32(-1)
	if host := Host(title); host != "" {
		if h.host == "" {
			h.host = host
		}
		if l, ok := h.set.Limit[host]; ok {
			var seen bool
			if k, seen = h.index[host]; !seen {
				k = int32(len(h.lim.Limit))
				h.index[host] = k
				h.lim.Limit = append(h.lim.Limit, l*perUnit)
			}
			h.pages++
		}
	}
	h.lim.Host = append(h.lim.Host, k)
}

// done is the limits and what applied; an error when no limit names a
// page's host (a file for other pages, or hosts misspelt: a demanding
// user wants to know before trusting the plan).
func (h *hostIndex) done(pages int) (*Limits, HostStats, error) {
	st := HostStats{File: h.set.File, Given: len(h.set.Limit), Applied: len(h.lim.Limit), Pages: h.pages}
	for host := range h.set.Limit {
		if _, ok := h.index[host]; !ok {
			st.Unused = append(st.Unused, host)
		}
	}
	slices.Sort(st.Unused)
	st.NUnused = len(st.Unused)
	st.Unused = st.Unused[:min(len(st.Unused), maxNamed)]
	if st.Given > 0 && st.Applied == 0 {
		ex := "none of the pages' titles is a URL"
		if h.host != "" {
			ex = fmt.Sprintf("such as %q", h.host)
		}
		return nil, st, fmt.Errorf("schedule: %s: none of its %d hosts (%s) is the host of one of the %d pages (the host name of a title that is a URL, %s; hosts compare case-insensitively)",
			h.set.File, st.Given, strings.Join(st.Unused, ", "), pages, ex)
	}
	if st.Applied == 0 {
		return nil, st, nil
	}
	return &h.lim, st, nil
}

// Summary is one sentence on the host limits.
func (s HostStats) Summary() string {
	if s.File == "" {
		return ""
	}
	msg := fmt.Sprintf("host limits of %s: %d of %d hosts applied, to %d pages", s.File, s.Applied, s.Given, s.Pages)
	if s.NUnused > 0 {
		more := ""
		if s.NUnused > len(s.Unused) {
			more = ", …"
		}
		msg += fmt.Sprintf("; %d name no page's host (%s%s): not applied", s.NUnused, strings.Join(s.Unused, ", "), more)
	}
	return msg
}
