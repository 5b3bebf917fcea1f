package ingest

import (
	"testing"

	"github.com/revisit-dev/revisit/dataset"
)

// The skip reasons keep the manifest's spelling (counts.skipped keys are
// a file format), each says in words what it counts and names its flag.
func TestSkipReasons(t *testing.T) {
	for _, c := range []struct {
		r          SkipReason
		key, label string
		flag       string
		minUpdates int
	}{
		{SkipNamespace, "namespace", "left out: pages outside the namespaces", "--namespaces", 0},
		{SkipRedirect, "redirect", "left out: redirect pages", "--no-redirects", 0},
		{SkipTimeRange, "time_range", "left out: pages with no revision in the time range", "--since/--until", 0},
		{SkipMinUpdates, "min_updates", "left out: pages with fewer than 7 updates", "--min-updates", 7},
		{SkipRevisionFilters, "revision_filters", "left out: pages with no revision left by --drop-reverts/--drop-bots/--drop-minor", "--drop-reverts/--drop-bots/--drop-minor", 0},
		{SkipRevisionsOfSkippedPages, "revisions_of_skipped_pages", "left out: revisions of the pages left out", "", 0},
		{SkipRevert, "revisions_identity_revert", "left out: identity reverts (--drop-reverts)", "--drop-reverts", 0},
		{SkipReverted, "revisions_identity_reverted", "left out: revisions undone by an identity revert (--drop-reverts)", "--drop-reverts", 0},
		{SkipBot, "revisions_bot", "left out: revisions by bots (--drop-bots)", "--drop-bots", 0},
		{SkipMinor, "revisions_minor", "left out: minor revisions (--drop-minor)", "--drop-minor", 0},
		{SkipNoPageID, "revisions_without_page_id", "left out: mediawiki_history revisions without a page id", "", 0},
		{SkipRevisionsOutsideTimeRange, "revisions_outside_time_range", "left out: revisions outside the time range", "--since/--until", 0},
		{SkipArchiveUnknownFormat, "archive_members_unknown_format", "left out: archive members of unknown format", "", 0},
		{archiveSkip("fifo"), "archive_members_fifo", "left out: archive members that are FIFOs (not files)", "", 0},
		{SkipArchiveOtherType, "archive_members_other_type", "left out: archive members that are not regular files", "", 0},
		{BadSkip("duplicate-page"), "bad_duplicate-page", "skipped bad records: duplicate-page", "--skip-bad", 0},
		{BadSkip("no_revisions"), "bad_no_revisions", "skipped bad records: no revisions", "--skip-bad", 0},
		{SkipReason("something_new"), "something_new", "left out: something new", "", 0},
	} {
		if string(c.r) != c.key || c.r.Label(c.minUpdates) != c.label || c.r.Flag() != c.flag {
			t.Errorf("%q: label %q, flag %q; want key %q, label %q, flag %q", c.r, c.r.Label(c.minUpdates), c.r.Flag(), c.key, c.label, c.flag)
		}
	}
	if k, ok := BadSkip("xml").Bad(); !ok || k != "xml" {
		t.Errorf("BadSkip(xml).Bad() = %q, %v", k, ok)
	}
	if _, ok := SkipNamespace.Bad(); ok {
		t.Error("namespace counted as bad records")
	}
}

// Skips lists the non-zero counts by key.
func TestSkips(t *testing.T) {
	got := Skips(dataset.Counts{Skipped: map[string]int64{"redirect": 2, "namespace": 5, "min_updates": 0, "bad_xml": 1}})
	want := []Skip{{BadSkip("xml"), 1}, {SkipNamespace, 5}, {SkipRedirect, 2}}
	if len(got) != len(want) {
		t.Fatalf("Skips = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Skips[%d] = %v, want %v", i, got[i], want[i])
		}
	}
}
