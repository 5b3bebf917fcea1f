package schedule

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"net/url"
	"os"
	"strconv"
	"strings"

	"github.com/revisit-dev/revisit/internal/units"
)

// ParseRate reads a visit rate "B", "B/d", "B/h" or "B/UNIT" for any
// unit of units.Short (s, m, h, d, w, y) and returns visits per second.
// A bare number is visits per day.
func ParseRate(s string) (float64, error) {
	num, per, ok := strings.Cut(strings.TrimSpace(s), "/")
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
	return v / u, nil
}

// ParseError is a bad line of an importance or host-limits file.
type ParseError struct {
	File string
	Line int
	Err  error
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err) }
func (e *ParseError) Unwrap() error { return e.Err }

// readPairs reads "key<TAB>value" or "key,value" lines (the Bing trace's
// urlid_imp.txt is URL_ID<TAB>importance); blank lines and lines starting
// with # are skipped, and a first line whose value is not a number is a
// header. parse checks a value.
func readPairs(name string, r io.Reader, parse func(string) (float64, error)) (map[string]float64, error) {
	out := map[string]float64{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	line, data := 0, 0
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		data++
		sep := "\t"
		if !strings.Contains(s, sep) {
			sep = ","
		}
		k, v, ok := strings.Cut(s, sep)
		if !ok {
			return nil, &ParseError{name, line, fmt.Errorf("want KEY<TAB>VALUE or KEY,VALUE, got %q", s)}
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		w, err := parse(v)
		if err != nil {
			if data == 1 {
				continue // a header
			}
			return nil, &ParseError{name, line, err}
		}
		if _, dup := out[k]; dup {
			return nil, &ParseError{name, line, fmt.Errorf("%q given twice", k)}
		}
		out[k] = w
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	return out, nil
}

// ReadImportance reads page importances w_i ≥ 0 from a file (see
// readPairs), keyed by page title/URL or id.
func ReadImportance(path string) (map[string]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readPairs(path, f, func(s string) (float64, error) {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || !(v >= 0) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("importance %q: want a number ≥ 0", s)
		}
		return v, nil
	})
}

// ReadHostLimits reads per-host limits "host,RATE" (RATE as ParseRate:
// visits per day unless /h …), in visits per second.
func ReadHostLimits(path string) (map[string]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readPairs(path, f, ParseRate)
}

// Host is the host name of a page title that is a URL ("" otherwise):
// the unit of the politeness limits.
func Host(title string) string {
	if !strings.Contains(title, "://") {
		return ""
	}
	u, err := url.Parse(title)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}
