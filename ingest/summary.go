package ingest

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/dustin/go-humanize"

	"github.com/revisit-dev/revisit/dataset"
)

// Summary is what a run did, for people (String) and the manifest.
type Summary struct {
	Output  string
	Inputs  []dataset.Input
	Filters dataset.Filters
	Counts  dataset.Counts
	// Bad counts bad records skipped under SkipBad, by reason ("timestamp",
	// "xml", "truncated", "json", "duplicate-page", …); they are also in
	// Counts.Skipped as "bad_<reason>".
	Bad map[string]int64
	// Remapped counts pages whose id clashed with another source's and was
	// replaced (see idRegistry).
	Remapped int64
	// YelpJoined and YelpUnjoined count Yelp businesses found and not found
	// in the business file (both 0 without one).
	YelpJoined, YelpUnjoined int64
	Bytes                    int64 // stored bytes read
	Elapsed                  time.Duration
}

func (d *driver) summary(elapsed time.Duration) *Summary {
	d.badMu.Lock()
	bad := maps.Clone(d.bad)
	badRevs := d.badRevisions
	d.badMu.Unlock()
	// Revisions of pages skipped as bad are read revisions too.
	d.counts.RevisionsRead += badRevs
	if badRevs > 0 {
		d.counts.Skipped["revisions_of_skipped_pages"] += badRevs
	}
	for k, v := range bad {
		d.counts.Skipped["bad_"+k] += v
	}
	f := dataset.Filters{
		Namespaces:  d.ns,
		MinUpdates:  d.opt.MinUpdates,
		NoRedirects: d.opt.NoRedirects,
		SkipBad:     d.opt.SkipBad,
	}
	if d.hasSince {
		t := time.Unix(d.since, 0).UTC()
		f.Since = &t
	}
	if d.hasUntil {
		t := time.Unix(d.until, 0).UTC()
		f.Until = &t
	}
	return &Summary{Output: d.opt.Output, Inputs: d.inputs, Filters: f, Counts: d.counts, Bad: bad,
		Remapped: d.ids.remapped, Bytes: d.bytes, Elapsed: elapsed, YelpJoined: d.yelpJoined, YelpUnjoined: d.yelpUnjoined}
}

func n(v int64) string { return humanize.Comma(v) }

// String is the summary printed at the end of `revisit ingest`.
func (s *Summary) String() string {
	var b strings.Builder
	c := s.Counts
	rate := ""
	if sec := s.Elapsed.Seconds(); sec > 0 {
		rate = fmt.Sprintf(", %s/s, %s revisions/s", humanize.Bytes(uint64(float64(s.Bytes)/sec)), n(int64(float64(c.RevisionsRead)/sec)))
	}
	fmt.Fprintf(&b, "ingested %d input(s), %s, in %s%s → %s\n", len(s.Inputs), humanize.Bytes(uint64(s.Bytes)), s.Elapsed.Round(time.Millisecond), rate, s.Output)
	for _, in := range s.Inputs {
		bad := ""
		if len(in.Bad) > 0 {
			var items []string
			for _, k := range slices.Sorted(maps.Keys(in.Bad)) {
				items = append(items, fmt.Sprintf("%s %s", k, n(in.Bad[k])))
			}
			bad = ", bad records skipped: " + strings.Join(items, ", ")
		}
		fmt.Fprintf(&b, "  %s (%s, %s%s)\n", in.Name, in.Format, humanize.Bytes(uint64(in.Size)), bad)
	}
	fmt.Fprintf(&b, "pages:     %s read, %s kept\n", n(c.PagesRead), n(c.PagesKept))
	fmt.Fprintf(&b, "revisions: %s read, %s kept → %s updates (%s same-second revisions collapsed)\n",
		n(c.RevisionsRead), n(c.RevisionsKept), n(c.Updates), n(c.Collapsed))
	var pages, other []string
	for _, k := range slices.Sorted(maps.Keys(c.Skipped)) {
		v := c.Skipped[k]
		if v == 0 || strings.HasPrefix(k, "bad_") {
			continue
		}
		item := fmt.Sprintf("%s %s", strings.ReplaceAll(k, "_", " "), n(v))
		if strings.HasPrefix(k, "revisions_") || strings.HasPrefix(k, "archive_") {
			other = append(other, item)
		} else {
			pages = append(pages, item)
		}
	}
	if len(pages) > 0 {
		fmt.Fprintf(&b, "skipped pages: %s\n", strings.Join(pages, ", "))
	}
	if len(other) > 0 {
		fmt.Fprintf(&b, "also left out: %s\n", strings.Join(other, ", "))
	}
	if len(s.Bad) > 0 {
		var items []string
		var total int64
		for _, k := range slices.Sorted(maps.Keys(s.Bad)) {
			items = append(items, fmt.Sprintf("%s %s", k, n(s.Bad[k])))
			total += s.Bad[k]
		}
		fmt.Fprintf(&b, "bad records skipped (--skip-bad): %s (%s)\n", n(total), strings.Join(items, ", "))
	}
	if s.YelpJoined+s.YelpUnjoined > 0 {
		fmt.Fprintf(&b, "yelp businesses: %s joined to the business file, %s not in it\n", n(s.YelpJoined), n(s.YelpUnjoined))
	}
	if s.Remapped > 0 {
		fmt.Fprintf(&b, "page ids remapped because two sources used the same id: %s\n", n(s.Remapped))
	}
	return b.String()
}
