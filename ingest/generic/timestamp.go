package generic

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/revisit-dev/revisit/ingest/source"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/series"
)

// Time layouts accepted in Options.TimeLayout. Anything else is taken as a
// Go reference layout for time.Parse (interpreted in UTC when it has no
// zone).
const (
	// LayoutAuto detects the layout from the first value of the column:
	// the ISO family (any of rfc3339, date, datetime), epoch seconds for a
	// number in [1e8, 1e11) (1973 to 5138), epoch milliseconds for a number
	// in [1e11, 1e14). Smaller numbers are refused: they are relative times
	// or counts far more often than dates before 1973. Every later epoch
	// value must fall in the same range (1973–5138) or it is a bad
	// timestamp; an explicit epoch or epochms layout takes any value.
	LayoutAuto = "auto"
	// LayoutRFC3339 is RFC 3339 with a zone: 2006-01-02T15:04:05Z,
	// …T15:04:05.123+02:00 (a space may replace the T).
	LayoutRFC3339 = "rfc3339"
	// LayoutDate is YYYY-MM-DD (UTC midnight; 1-day resolution).
	LayoutDate = "date"
	// LayoutDateTime is YYYY-MM-DD HH:MM:SS or YYYY-MM-DDTHH:MM:SS without
	// a zone, taken as UTC.
	LayoutDateTime = "datetime"
	// LayoutEpoch is seconds since 1970-01-01 UTC, integer or decimal
	// (fractions are floored), or since Options.TimeOrigin when one is
	// given. Relative seconds (since a page's first edit) read with this
	// layout keep their intervals exactly; a time origin places them.
	LayoutEpoch = "epoch"
	// LayoutEpochMS is milliseconds since 1970-01-01 UTC.
	LayoutEpochMS = "epochms"
	// layoutISO is what auto detects for the ISO family: any of rfc3339,
	// date and datetime, value by value.
	layoutISO = "iso"
)

// ParseISO parses a timestamp of the ISO 8601 / RFC 3339 family into Unix
// seconds (see units.ParseISO): YYYY-MM-DD, or YYYY-MM-DD followed by 'T'
// or ' ' and HH:MM:SS, an optional fraction (floored to the second) and an
// optional zone (Z or ±HH:MM; none means UTC). dateOnly reports the first
// form. zoned reports whether a zone was given. Errors wrap
// source.ErrTimestamp and quote the value.
func ParseISO(b []byte) (sec int64, dateOnly, zoned bool, err error) {
	sec, dateOnly, zoned, err = units.ParseISO(b)
	if err != nil {
		return 0, false, false, fmt.Errorf("%w: %q: %v", source.ErrTimestamp, b, err)
	}
	return sec, dateOnly, zoned, nil
}

// parseEpoch parses integer or decimal seconds (or other units, scale per
// second) and floors the result to whole seconds.
func parseEpoch(b []byte, scale int64) (int64, error) {
	s := string(b)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	ip, frac, hasFrac := strings.Cut(s, ".")
	if ip == "" || (hasFrac && frac == "") {
		return 0, fmt.Errorf("%w: %q is not a number of seconds", source.ErrTimestamp, b)
	}
	for _, c := range []byte(ip + frac) {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("%w: %q is not a number of seconds", source.ErrTimestamp, b)
		}
	}
	n, err := strconv.ParseInt(ip, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: %q: %v", source.ErrTimestamp, b, err)
	}
	q, r := n/scale, n%scale
	fracNonZero := r != 0 || strings.Trim(frac, "0") != ""
	if neg {
		q = -q
		if fracNonZero {
			q--
		}
	}
	return q, nil
}

// timeParser parses one column's timestamps with a fixed layout (auto is
// resolved on the first value) and remembers whether every value so far was
// date-only (→ 1-day resolution).
type timeParser struct {
	layout    string
	origin    int64 // Unix seconds added to numeric values (hasOrigin)
	hasOrigin bool
	first     int64 // the first value parsed (n > 0), in Unix seconds
	auto      bool  // the layout was detected (auto); epoch values keep the detected range
	n         int64 // values parsed
	dateOnly  int64 // values without time of day
}

func newTimeParser(layout string, origin time.Time) *timeParser {
	if layout == "" {
		layout = LayoutAuto
	}
	p := &timeParser{layout: layout}
	if !origin.IsZero() {
		p.origin, p.hasOrigin = origin.Unix(), true
	}
	return p
}

// resolve picks the layout for auto from the first value.
func (p *timeParser) resolve(b []byte) error {
	if p.hasOrigin {
		// Relative times: any number is seconds after the origin.
		if _, err := parseEpoch(b, 1); err != nil {
			return fmt.Errorf("%w: %q is not a number of seconds after the time origin (--time-origin places numeric times only)", source.ErrTimestamp, b)
		}
		p.layout = LayoutEpoch
		return nil
	}
	if _, _, _, err := ParseISO(b); err == nil {
		p.layout = layoutISO
		return nil
	}
	if v, err := strconv.ParseFloat(string(b), 64); err == nil && !strings.ContainsAny(string(b), "eExXpP_") {
		switch {
		case v >= 1e8 && v < 1e11:
			p.layout, p.auto = LayoutEpoch, true
			return nil
		case v >= 1e11 && v < 1e14:
			p.layout, p.auto = LayoutEpochMS, true
			return nil
		}
		return fmt.Errorf("%w: cannot tell the time layout from the first value %q: numbers below 1e8 are not taken as epoch seconds (before 1973) — relative seconds or a count? Give the layout explicitly (epoch keeps intervals of relative seconds)", source.ErrTimestamp, b)
	}
	return fmt.Errorf("%w: cannot tell the time layout from the first value %q: not RFC 3339, YYYY-MM-DD[ HH:MM:SS] or epoch seconds; give the layout explicitly (a Go layout such as 02/01/2006 15:04)", source.ErrTimestamp, b)
}

// Layout is the layout in use ("iso" once auto detected the ISO family).
func (p *timeParser) Layout() string { return p.layout }

func (p *timeParser) parse(b []byte) (int64, error) {
	if p.layout == LayoutAuto {
		if err := p.resolve(b); err != nil {
			return 0, err
		}
	}
	var sec int64
	var err error
	dateOnly := false
	switch p.layout {
	case layoutISO:
		sec, dateOnly, _, err = ParseISO(b)
	case LayoutRFC3339:
		var zoned bool
		sec, dateOnly, zoned, err = ParseISO(b)
		if err == nil && (dateOnly || !zoned) {
			err = fmt.Errorf("%w: %q is not RFC 3339 (date, time and zone)", source.ErrTimestamp, b)
		}
	case LayoutDate:
		sec, dateOnly, _, err = ParseISO(b)
		if err == nil && !dateOnly {
			err = fmt.Errorf("%w: %q is not YYYY-MM-DD", source.ErrTimestamp, b)
		}
	case LayoutDateTime:
		var zoned bool
		sec, dateOnly, zoned, err = ParseISO(b)
		if err == nil && (dateOnly || zoned) {
			err = fmt.Errorf("%w: %q is not YYYY-MM-DD HH:MM:SS", source.ErrTimestamp, b)
		}
	case LayoutEpoch, LayoutEpochMS:
		unit := int64(1)
		if p.layout == LayoutEpochMS {
			unit = 1000
		}
		sec, err = parseEpoch(b, unit)
		if err == nil && p.auto && (sec < 1e8 || sec >= 1e11) {
			// Detected from the first value: a value outside the range
			// that decided the unit is in another unit or no time at all.
			err = fmt.Errorf("%w: %q read as %s is outside 1973–5138, the range that auto-detection took the column's first value from (another unit? give --time-layout)", source.ErrTimestamp, b, p.layout)
		}
		if err == nil && p.hasOrigin {
			if sec > series.MaxTime-p.origin || sec < series.MinTime-p.origin {
				err = fmt.Errorf("%w: %q after the time origin is outside the ±%d s a dataset can store", source.ErrTimestamp, b, int64(series.MaxTime))
			} else {
				sec += p.origin
			}
		}
	default:
		var t time.Time
		t, err = time.Parse(p.layout, string(b))
		if err != nil {
			err = fmt.Errorf("%w: %v", source.ErrTimestamp, err)
		}
		sec = t.Unix()
	}
	if err == nil && (sec < series.MinTime || sec > series.MaxTime) {
		err = fmt.Errorf("%w: %q is %d s from 1970, outside the ±%d s a dataset can store (Parquet timestamps in milliseconds)", source.ErrTimestamp, b, sec, int64(series.MaxTime))
	}
	if err != nil {
		return 0, err
	}
	if p.n == 0 {
		p.first = sec
	}
	p.n++
	if dateOnly {
		p.dateOnly++
	}
	return sec, nil
}

// resolution is 86400 when any value parsed was date-only, else 1: a file
// that mixes dates and date-times has the coarsest resolution present, since
// its date-only updates are known only to the day.
func (p *timeParser) resolution() int32 {
	if p.dateOnly > 0 {
		return units.Day
	}
	return 1
}

func validLayout(l string) error {
	switch l {
	case "", LayoutAuto, LayoutRFC3339, LayoutDate, LayoutDateTime, LayoutEpoch, LayoutEpochMS:
		return nil
	}
	if !strings.ContainsAny(l, "0123456789") {
		return fmt.Errorf("time layout %q: want auto, rfc3339, date, datetime, epoch, epochms or a Go layout such as 2006-01-02 15:04", l)
	}
	return nil
}
