package ingest

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/series"
)

// Times that cannot be dates. A log whose times are relative (seconds
// since a page's first edit, as in mikewesthad's Revisions.csv) read as
// epoch seconds lands in 1970–1982 and reports "1969-12-31 to 1982-05-17"
// as if it were history. Ingest says so:
//
//   - an input read by the generic reader with numeric times and no
//     --time-origin whose first time (in file order) lies on 1970-01-01
//     ([0, 86400) s: numbers that start near 0, as a log of times since
//     the first edit does with its 0) is named as relative, with the hint
//     to give --time-origin; later times do not count (a misaligned
//     record of a broken CSV may put any number in the time column);
//   - whatever the source, updates kept before 1990-01-01 (before any web
//     crawl or wiki) are counted, with the earliest;
//
// both in the summary (a warning line) and in the manifest
// (extra.time_warning). Nothing is changed or left out: the intervals of
// relative times are exact, and a date before 1990 may be true.

// earlyTime is the time before which kept updates are counted as
// suspicious: 1990-01-01T00:00:00Z.
const earlyTime = 631152000

// relativeBelow is the first time below which (and at or after 0) a
// numeric generic input is taken for relative times: the first day.
const relativeBelow = units.Day

// Manifest keys: extra.time_warning (TimeWarning) and extra.time_origin
// (--time-origin, RFC 3339, when it placed a generic input's times).
const (
	extraTimeWarning = "time_warning"
	extraTimeOrigin  = "time_origin"
)

// TimeWarning is what ingest found suspicious about the times it kept.
type TimeWarning struct {
	// UpdatesBefore1990 counts updates kept before 1990-01-01; Earliest is
	// the earliest update kept (RFC 3339).
	UpdatesBefore1990 int64  `json:"updates_before_1990"`
	Earliest          string `json:"earliest,omitempty"`
	// Relative names the inputs whose numeric times start on 1970-01-01
	// (relative times read as epoch seconds).
	Relative []string `json:"relative_inputs,omitempty"`
	Note     string   `json:"note"`
}

// timeNote is the advice of a TimeWarning.
const timeNote = "times before 1990 are likely relative (seconds since a first edit) or in another unit read as epoch seconds: give --time-origin DATE to place relative times, or --time-layout for another unit"

// noteTimes counts pg's updates before earlyTime and keeps the earliest.
func (d *driver) noteTimes(pg *series.Page) {
	if len(pg.Updates) == 0 {
		return
	}
	if !d.hasEarliest || pg.Updates[0] < d.earliest {
		d.earliest, d.hasEarliest = pg.Updates[0], true
	}
	if pg.Updates[0] < earlyTime {
		n, _ := slices.BinarySearch(pg.Updates, int64(earlyTime))
		d.before1990 += int64(n)
	}
}

// timeWarning is the warning for the manifest and summary, nil when there
// is nothing to say.
func (d *driver) timeWarning() *TimeWarning {
	if d.before1990 == 0 && len(d.relative) == 0 {
		return nil
	}
	w := &TimeWarning{UpdatesBefore1990: d.before1990, Relative: d.relative, Note: timeNote}
	if d.hasEarliest {
		w.Earliest = time.Unix(d.earliest, 0).UTC().Format(time.RFC3339)
	}
	return w
}

// lines are the summary's warning lines.
func (w *TimeWarning) lines() []string {
	if w == nil {
		return nil
	}
	var out []string
	if w.UpdatesBefore1990 > 0 {
		out = append(out, fmt.Sprintf("warning: %s before 1990 (earliest %s): relative times or another unit read as epoch seconds? --time-origin DATE places relative times",
			human.Count(w.UpdatesBefore1990, "update is", "updates are"), strings.TrimSuffix(w.Earliest, "T00:00:00Z")))
	}
	if len(w.Relative) > 0 {
		out = append(out, fmt.Sprintf("warning: the times of %s start on 1970-01-01: relative times (seconds since a first edit) read as epoch seconds; give --time-origin DATE to place them",
			strings.Join(w.Relative, ", ")))
	}
	return out
}
