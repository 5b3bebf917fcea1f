package ingest

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/revisit-dev/revisit/dataset"
)

// SkipReason is why ingest left pages, revisions or archive members out:
// the key of manifest.json's counts.skipped (dataset.Counts.Skipped), whose
// spelling is the manifest's format and never changes. Bad records skipped
// under --skip-bad are BadSkip(reason), "bad_<reason>".
type SkipReason string

// The skip reasons ingest counts.
const (
	SkipNamespace                 SkipReason = "namespace"                    // pages outside --namespaces
	SkipRedirect                  SkipReason = "redirect"                     // redirect pages (--no-redirects)
	SkipRevisionFilters           SkipReason = "revision_filters"             // pages with no revision left by the revision filters
	SkipTimeRange                 SkipReason = "time_range"                   // pages with no revision in [--since, --until)
	SkipMinUpdates                SkipReason = "min_updates"                  // pages below --min-updates
	SkipRevisionsOfSkippedPages   SkipReason = "revisions_of_skipped_pages"   // revisions of the pages above and of bad pages
	SkipRevert                    SkipReason = "revisions_identity_revert"    // identity reverts (--drop-reverts)
	SkipReverted                  SkipReason = "revisions_identity_reverted"  // revisions undone by one (--drop-reverts)
	SkipBot                       SkipReason = "revisions_bot"                // revisions by bots (--drop-bots)
	SkipMinor                     SkipReason = "revisions_minor"              // minor revisions (--drop-minor)
	SkipNoPageID                  SkipReason = "revisions_without_page_id"    // mediawiki_history revisions of no page
	SkipRevisionsOutsideTimeRange SkipReason = "revisions_outside_time_range" // revisions outside [--since, --until)
	SkipArchiveUnknownFormat      SkipReason = "archive_members_unknown_format"
	SkipArchiveSymlink            SkipReason = "archive_members_symlink"
	SkipArchiveHardlink           SkipReason = "archive_members_hardlink"
	SkipArchiveDevice             SkipReason = "archive_members_device"
	SkipArchiveFIFO               SkipReason = "archive_members_fifo"
	SkipArchiveOtherType          SkipReason = "archive_members_other_type"
)

// badPrefix starts the skip reason of a bad record.
const badPrefix = "bad_"

// BadSkip is the skip reason of bad records of the given kind ("xml",
// "timestamp", "corrupt", …) skipped under --skip-bad.
func BadSkip(reason string) SkipReason { return SkipReason(badPrefix + reason) }

// archiveSkip is the skip reason of archive members of a kind that holds
// no file data ("symlink", "hardlink", "device", "fifo", "other_type").
func archiveSkip(kind string) SkipReason { return SkipReason("archive_members_" + kind) }

// Bad reports whether r counts bad records, and their kind.
func (r SkipReason) Bad() (kind string, ok bool) { return strings.CutPrefix(string(r), badPrefix) }

// Flag is the option that leaves out what r counts ("" when it is no
// option's doing, e.g. archive members that are not files).
func (r SkipReason) Flag() string {
	switch r {
	case SkipNamespace:
		return "--namespaces"
	case SkipRedirect:
		return "--no-redirects"
	case SkipTimeRange, SkipRevisionsOutsideTimeRange:
		return "--since/--until"
	case SkipMinUpdates:
		return "--min-updates"
	case SkipRevert, SkipReverted:
		return "--drop-reverts"
	case SkipBot:
		return "--drop-bots"
	case SkipMinor:
		return "--drop-minor"
	case SkipRevisionFilters:
		return "--drop-reverts/--drop-bots/--drop-minor"
	}
	if _, ok := r.Bad(); ok {
		return "--skip-bad"
	}
	return ""
}

// Label says in words what r counts, for a table of counts (the run
// report's ingest table); minUpdates is the --min-updates in force.
func (r SkipReason) Label(minUpdates int) string {
	switch r {
	case SkipNamespace:
		return "left out: pages outside the namespaces"
	case SkipRedirect:
		return "left out: redirect pages"
	case SkipTimeRange:
		return "left out: pages with no revision in the time range"
	case SkipMinUpdates:
		return fmt.Sprintf("left out: pages with fewer than %d updates", minUpdates)
	case SkipRevisionsOfSkippedPages:
		return "left out: revisions of the pages left out"
	case SkipRevisionsOutsideTimeRange:
		return "left out: revisions outside the time range"
	case SkipRevert:
		return "left out: identity reverts (" + r.Flag() + ")"
	case SkipReverted:
		return "left out: revisions undone by an identity revert (" + r.Flag() + ")"
	case SkipBot:
		return "left out: revisions by bots (" + r.Flag() + ")"
	case SkipMinor:
		return "left out: minor revisions (" + r.Flag() + ")"
	case SkipRevisionFilters:
		return "left out: pages with no revision left by " + r.Flag()
	case SkipNoPageID:
		return "left out: mediawiki_history revisions without a page id"
	case SkipArchiveUnknownFormat:
		return "left out: archive members of unknown format"
	case SkipArchiveSymlink, SkipArchiveHardlink, SkipArchiveDevice, SkipArchiveFIFO:
		return "left out: archive members that are " + map[SkipReason]string{
			SkipArchiveSymlink: "symbolic links", SkipArchiveHardlink: "hard links",
			SkipArchiveDevice: "devices", SkipArchiveFIFO: "FIFOs"}[r] + " (not files)"
	case SkipArchiveOtherType:
		return "left out: archive members that are not regular files"
	}
	if kind, ok := r.Bad(); ok {
		return "skipped bad records: " + strings.ReplaceAll(kind, "_", " ")
	}
	return "left out: " + strings.ReplaceAll(string(r), "_", " ")
}

// Skip is a count of things left out for one reason.
type Skip struct {
	Reason SkipReason
	N      int64
}

// Skips are the non-zero counts of c.Skipped (as the manifest records
// them), by reason in the order of their keys.
func Skips(c dataset.Counts) []Skip {
	var s []Skip
	for _, k := range slices.Sorted(maps.Keys(c.Skipped)) {
		if v := c.Skipped[k]; v != 0 {
			s = append(s, Skip{SkipReason(k), v})
		}
	}
	return s
}

// addSkip counts n things left out for reason r.
func (d *driver) addSkip(r SkipReason, n int64) { d.counts.Skipped[string(r)] += n }
