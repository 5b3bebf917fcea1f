// Package units is revisit's one place for time units, durations and
// calendar dates: the unit names of --unit (ParseUnit, Name, Label), the
// durations of --span and --cycle (ParseDuration), and the proleptic
// Gregorian calendar of the readers (IsLeap, DaysIn, DaysFromCivil,
// ParseISO, ParseStart, ParseBound). It imports nothing of revisit, so
// that every stage can use it.
package units

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Units, in seconds. A year is the Julian year, 365.25 days.
const (
	Second = 1.0
	Minute = 60.0
	Hour   = 3600.0
	Day    = 86400.0
	Week   = 7 * Day
	Year   = 365.25 * Day
)

// Short is the length in seconds of a short unit name (s, m, min, h, d,
// w, y), exactly as written (case and spaces count), and whether there is
// one: the units of ParseDuration and of generate --unit.
func Short(name string) (float64, bool) {
	switch name {
	case "s":
		return Second, true
	case "m", "min":
		return Minute, true
	case "h":
		return Hour, true
	case "d":
		return Day, true
	case "w":
		return Week, true
	case "y":
		return Year, true
	}
	return 0, false
}

// ParseUnit reads a unit name — s, min (or m), h, d, w, y, their long
// forms (second, minute, hour, day, week, year, singular or plural) and
// sec — in any case, with surrounding spaces, and returns its length in
// seconds.
func ParseUnit(s string) (float64, error) {
	n := strings.ToLower(strings.TrimSpace(s))
	if u, ok := Short(n); ok {
		return u, nil
	}
	switch n {
	case "sec", "second", "seconds":
		return Second, nil
	case "minute", "minutes":
		return Minute, nil
	case "hour", "hours":
		return Hour, nil
	case "day", "days":
		return Day, nil
	case "week", "weeks":
		return Week, nil
	case "year", "years":
		return Year, nil
	}
	return 0, fmt.Errorf("unknown time unit %q (want s, min, h, d, w or y)", s)
}

// name is the short name of a named unit (s, min, h, d, w, y).
func name(unit float64) (string, bool) {
	switch unit {
	case Second:
		return "s", true
	case Minute:
		return "min", true
	case Hour:
		return "h", true
	case Day:
		return "d", true
	case Week:
		return "w", true
	case Year:
		return "y", true
	}
	return "", false
}

// Name is the short name of a unit of ParseUnit (s, min, h, d, w, y); any
// other length prints as a Go duration ("1m30s"). It is the unit_name of
// replay.json and the analysis results.
func Name(unit float64) string {
	if n, ok := name(unit); ok {
		return n
	}
	return time.Duration(unit * float64(time.Second)).String()
}

// Label names a unit for people: its short name as Name, any other length
// in seconds with the shortest exact decimal ("90 s", "1.5 s").
func Label(unit float64) string {
	if n, ok := name(unit); ok {
		return n
	}
	return strconv.FormatFloat(unit, 'g', -1, 64) + " s"
}

// MaxDuration is the longest duration ParseDuration takes, 10¹² s (about
// 31,700 years).
const MaxDuration = 1e12

// ParseDuration reads a duration as a non-negative decimal number and a
// short unit (s, m or min, h, d, w, y = 365.25 d) with no space between,
// e.g. "5y", "90d", "1.5h", and returns it in whole seconds (rounded to
// the nearest). It must lie in [1 s, MaxDuration].
func ParseDuration(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := strings.IndexFunc(t, func(c rune) bool { return (c < '0' || c > '9') && c != '.' })
	if i <= 0 {
		return 0, fmt.Errorf("duration %q: want a number and a unit (s, m, h, d, w, y), e.g. 5y", s)
	}
	v, err := strconv.ParseFloat(t[:i], 64)
	u, ok := Short(t[i:])
	if err != nil || !ok {
		return 0, fmt.Errorf("duration %q: want a number and a unit (s, m, h, d, w, y), e.g. 5y", s)
	}
	sec := v * u
	if !(sec >= 1) || sec > MaxDuration {
		return 0, fmt.Errorf("duration %q: must be between 1 s and 30,000 years", s)
	}
	return int64(math.Round(sec)), nil
}

// IsLeap reports whether y is a leap year of the proleptic Gregorian
// calendar: divisible by 4, and not by 100 unless by 400.
func IsLeap(y int64) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

// DaysIn is the number of days of month m (1–12) of year y.
func DaysIn(y, m int64) int64 {
	switch m {
	case 2:
		if IsLeap(y) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// DaysFromCivil is the number of days from 1970-01-01 to y-m-d in the
// proleptic Gregorian calendar (H. Hinnant's days_from_civil, eras of
// 400 years = 146,097 days, floored for negative years). It does not
// check the date: see DaysIn.
func DaysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// Why ParseISO refused a timestamp (its error's text).
var (
	errDateLayout = errors.New("want YYYY-MM-DD[ HH:MM:SS]")
	errNoDate     = errors.New("no such date")
	errTimeLayout = errors.New("want YYYY-MM-DD HH:MM:SS or YYYY-MM-DDTHH:MM:SS after the date")
	errClock      = errors.New("time of day is not HH:MM:SS")
	errClockRange = errors.New("time of day out of range")
	errFraction   = errors.New("empty fraction of a second")
	errZone       = errors.New("bad zone offset")
	errTrailing   = errors.New("trailing text after the time of day (want Z or ±HH:MM)")
)

// ParseISO parses a timestamp of the ISO 8601 / RFC 3339 family into Unix
// seconds: YYYY-MM-DD, or YYYY-MM-DD followed by 'T' or ' ' and HH:MM:SS,
// an optional fraction (floored to the second) and an optional zone (Z or
// ±HH:MM; none means UTC). dateOnly reports the first form, zoned whether
// a zone was given. The error says only why (callers name the value); it
// allocates nothing.
func ParseISO(b []byte) (sec int64, dateOnly, zoned bool, err error) {
	if len(b) < 10 || b[4] != '-' || b[7] != '-' {
		return 0, false, false, errDateLayout
	}
	y, ok1 := digits(b[0:4])
	mo, ok2 := digits(b[5:7])
	d, ok3 := digits(b[8:10])
	if !ok1 || !ok2 || !ok3 {
		return 0, false, false, errDateLayout
	}
	if mo < 1 || mo > 12 || d < 1 || d > DaysIn(y, mo) {
		return 0, false, false, errNoDate
	}
	days := DaysFromCivil(y, mo, d)
	if len(b) == 10 {
		return days * 86400, true, false, nil
	}
	if len(b) < 19 || (b[10] != 'T' && b[10] != ' ') || b[13] != ':' || b[16] != ':' {
		return 0, false, false, errTimeLayout
	}
	h, ok1 := digits(b[11:13])
	mi, ok2 := digits(b[14:16])
	s, ok3 := digits(b[17:19])
	if !ok1 || !ok2 || !ok3 {
		return 0, false, false, errClock
	}
	if h > 23 || mi > 59 || s > 59 {
		return 0, false, false, errClockRange
	}
	sec = days*86400 + h*3600 + mi*60 + s
	rest := b[19:]
	if len(rest) > 0 && rest[0] == '.' {
		i := 1
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if i == 1 {
			return 0, false, false, errFraction
		}
		rest = rest[i:]
	}
	switch {
	case len(rest) == 0:
		return sec, false, false, nil
	case len(rest) == 1 && (rest[0] == 'Z' || rest[0] == 'z'):
		return sec, false, true, nil
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		oh, ok1 := digits(rest[1:3])
		om, ok2 := digits(rest[4:6])
		if !ok1 || !ok2 || oh > 23 || om > 59 {
			return 0, false, false, errZone
		}
		off := oh*3600 + om*60
		if rest[0] == '+' {
			off = -off
		}
		return sec + off, false, true, nil
	}
	return 0, false, false, errTrailing
}

// digits reads unsigned decimal digits (all of b).
func digits(b []byte) (int64, bool) {
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// ParseStart reads a UTC date "2006-01-02" or time "2006-01-02T15:04:05Z"
// (also with an offset, without a zone, or with a space for the T; no
// zone means UTC).
func ParseStart(s string) (time.Time, error) {
	if t, ok := parseTime(s); ok {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("start %q: want a date YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ", s)
}

// ParseBound reads a time bound (ingest's --since, --until and
// --time-origin) as ParseStart reads a time: a date means its midnight
// UTC. "" is no bound, the zero time.
func ParseBound(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, ok := parseTime(s); ok {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("%q is not RFC 3339 (2006-01-02T15:04:05Z) or a date (2006-01-02)", s)
}

// parseTime reads a date or a time of ParseStart's forms, in UTC. The
// forms exclude each other, so the order of the layouts does not matter.
func parseTime(s string) (time.Time, bool) {
	for _, layout := range []string{"2006-01-02", time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}
