package ingest

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/series"
)

// What is kept of an input cut short. With --skip-bad, an input whose
// stream ends early (a cut file, a failing decompressor) keeps every page
// read before the cut, and the page being read at the cut keeps its
// complete revisions — those that `xz -dc` (or gzip -dc, …) recovers up to
// their </revision> — and is marked truncated: the revision being read at
// the cut is lost, and the page's observation window [u_first, u_last]
// (SPEC §3) ends at its last complete revision, not at the cut. The cut
// itself is one bad record ("truncated" or "corrupt") that drops nothing.
// Truncated pages are listed in the manifest (extra.truncated_pages) and
// the summary.

// extraTruncated is the manifest key of the truncated pages.
const extraTruncated = "truncated_pages"

// TruncatedPage is a page the end of its input cut (series.RawPage.Truncated).
type TruncatedPage struct {
	Input  string `json:"input"`
	Title  string `json:"title"`
	PageID int64  `json:"page_id"` // as in the input (before any remapping)
	// Revisions are the complete revisions read before the cut.
	Revisions int64 `json:"revisions"`
	// Last is the time of the last complete revision: the end of the
	// page's observation window.
	Last time.Time `json:"last_revision"`
	// Kept says whether the page is in the dataset (the filters may have
	// left it out like any other page).
	Kept bool `json:"kept"`
}

// noteTruncated records page p of file as truncated (before the filters).
func (d *driver) noteTruncated(p *series.RawPage, file string) {
	t := TruncatedPage{Input: file, Title: p.Title, PageID: p.ID, Revisions: revisionCount(p)}
	if len(p.Revisions) > 0 {
		t.Last = time.Unix(slices.Max(p.Revisions), 0).UTC()
	}
	d.truncated = append(d.truncated, t)
}

// maxTruncatedShown is how many truncated pages the summary names.
const maxTruncatedShown = 5

// truncatedLines are the summary's lines about truncated pages.
func (s *Summary) truncatedLines() []string {
	var out []string
	for i, t := range s.Truncated {
		if i == maxTruncatedShown {
			out = append(out, fmt.Sprintf("  … and %s more (manifest.json: extra.%s)", human.Comma(int64(len(s.Truncated)-i)), extraTruncated))
			break
		}
		fate := "kept, its window ending at its last complete revision " + t.Last.Format(time.RFC3339)
		if !t.Kept {
			fate = "left out by the filters"
		}
		out = append(out, fmt.Sprintf("  %q in %s: %s before the cut, %s", t.Title, t.Input,
			human.Count(t.Revisions, "complete revision", "complete revisions"), fate))
	}
	if len(out) > 0 {
		head := human.Count(int64(len(s.Truncated)), "page was", "pages were") + " cut by the end of the input (truncated):"
		out = append([]string{head}, out...)
	}
	return out
}

// EmptyError is a run that would write a dataset without a page: nothing
// is written, and the error says why from the counts.
type EmptyError struct{ Summary *Summary }

func (e *EmptyError) Error() string {
	s := e.Summary
	c := s.Counts
	var names []string
	for _, in := range s.Inputs {
		names = append(names, in.Name)
	}
	what := strings.Join(names, ", ")
	if what == "" {
		what = "ingest"
	}
	var why []string
	if len(s.Bad) > 0 {
		list, total := badList(s.Bad)
		why = append(why, human.Count(total, "bad record", "bad records")+" skipped ("+list+")")
	}
	for _, sk := range Skips(c) {
		if _, bad := sk.Reason.Bad(); bad {
			continue
		}
		why = append(why, s.skipPhrase(sk.Reason, sk.N))
	}
	msg := fmt.Sprintf("%s: no page to write: %s read, %s",
		what, human.Count(c.PagesRead, "page", "pages"), human.Count(c.RevisionsRead, "revision", "revisions"))
	if len(why) > 0 {
		msg += "; left out: " + strings.Join(why, "; ")
	}
	return msg
}
