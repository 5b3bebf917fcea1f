// Package series holds the domain types every stage of revisit shares: one
// object's update series (a Wikipedia page, a Yelp business, a file in a git
// history) and the tabulated distribution function every estimator returns.
//
// It is deliberately small and has no dependencies beyond the standard
// library: ingest produces these values, every later stage consumes them.
package series

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// Page is one object's update series after ingest: the metadata SPEC §2 keeps
// and the sorted, unique update times. Times are Unix seconds (UTC).
type Page struct {
	ID     int64
	Source string // enwiki, yelp, generated, …
	// SourceID is the page's id as its source spells it (a MediaWiki page
	// id in decimal, a Yelp business id, a generic log's id values joined
	// by "/"), to join results back to the source: ID may be a hash of
	// it. Empty in datasets written before it was kept.
	SourceID  string
	Title     string
	Namespace int32
	Group     string // namespace name, a business's city, a site: the unit policies group by
	Redirect  bool   // not stored in the dataset (redirects are filtered or kept at ingest)

	// Collapsed counts revisions merged into another one because they
	// shared its timestamp (at the source's resolution).
	Collapsed int64
	// Resolution is the time resolution of the source in seconds (1 for
	// MediaWiki, 86400 for date-only Yelp files).
	Resolution int32
	// Updates are Unix seconds, strictly increasing.
	Updates []int64
}

// MinTime and MaxTime bound the Unix seconds a dataset can hold: Parquet
// stores timestamp[s] as TIMESTAMP(MILLIS), so seconds·1000 must fit in an
// int64 (about ±292 million years). Readers refuse times outside
// [MinTime, MaxTime] as bad timestamps, where the record is known.
const (
	MinTime = math.MinInt64 / 1000
	MaxTime = math.MaxInt64 / 1000
)

// NUpdates is the number of updates, len(Updates).
func (p *Page) NUpdates() int { return len(p.Updates) }

// First is the time of the first update (the zero time when there is none).
func (p *Page) First() time.Time {
	if len(p.Updates) == 0 {
		return time.Time{}
	}
	return time.Unix(p.Updates[0], 0).UTC()
}

// Last is the time of the last update (the zero time when there is none).
func (p *Page) Last() time.Time {
	if len(p.Updates) == 0 {
		return time.Time{}
	}
	return time.Unix(p.Updates[len(p.Updates)-1], 0).UTC()
}

// Validate checks the invariants a stored page must satisfy: at least one
// update, strictly increasing update times.
func (p *Page) Validate() error {
	if len(p.Updates) == 0 {
		return fmt.Errorf("page %d %q: no updates", p.ID, p.Title)
	}
	for i := 1; i < len(p.Updates); i++ {
		if p.Updates[i] <= p.Updates[i-1] {
			return fmt.Errorf("page %d %q: updates not strictly increasing at index %d (%d after %d)",
				p.ID, p.Title, i, p.Updates[i], p.Updates[i-1])
		}
	}
	return nil
}

// RawPage is one object as a reader found it in its input: revision times in
// input order, possibly out of order and with same-second duplicates. Ingest
// turns it into a Page with Normalize.
type RawPage struct {
	ID         int64
	Source     string
	SourceID   string // Page.SourceID; ingest fills it from ID for MediaWiki pages
	Title      string
	Namespace  int32
	Group      string
	Redirect   bool
	Resolution int32
	// Revisions are Unix seconds in input order.
	Revisions []int64
	// Anonymous and Minor, when not nil, have one flag per revision
	// (contributor was an IP; the edit was marked minor).
	Anonymous []bool
	Minor     []bool
	// Bot, when not nil, has one value per revision: NotBot, or the
	// first rule by which the contributor is a bot (a registered user
	// whom the source itself classifies as a bot, or whose name the
	// reader's bot test accepted). Readers fill it only when ingest asks
	// (--drop-bots): 1 byte per revision.
	Bot []BotRule
	// SHA1, when not nil, has one 64-bit digest per revision of the
	// revision's content checksum (MediaWiki <sha1>): equal content gives
	// equal digests, 0 means the revision has none (deleted or absent
	// content) and matches nothing. Readers fill it only when ingest asks
	// (--drop-reverts): 8 bytes per revision, freed before the write.
	SHA1 []uint64
	// Revert and Reverted, when not nil, are the source's own identity
	// revert flags per revision (mediawiki_history's
	// revision_is_identity_revert and revision_is_identity_reverted), used
	// instead of SHA1.
	Revert, Reverted []bool
	// Offset is the byte offset (or Line the line) in the decompressed
	// input where the object starts, for error messages.
	Offset int64
	Line   int64
	// TooMany, when > 0, says that the object had more revisions than the
	// reader's cap (ingest's --max-revisions-per-page): TooMany is how many
	// it had, Revisions (and the flags) are nil so that memory stays
	// bounded, and ingest skips the object as bad input, counting them.
	TooMany int64
	// Truncated says that the input ended (cut short, or its
	// decompression failed) inside this object: Revisions are the
	// complete revisions read before the cut, and the object's observation
	// window ([u_first, u_last]) ends at the last of them. Ingest keeps
	// such an object under --skip-bad and lists it as truncated.
	Truncated bool
}

// BotRule says why a revision's contributor counts as a bot
// (RawPage.Bot). A contributor several rules classify gets the first, in
// the order of the constants: the source's own classification before
// ingest's --bot-list before its name pattern, so that the count of each
// rule is what it adds to the ones before it.
type BotRule uint8

const (
	NotBot BotRule = iota
	// BotByDumpHistorical: mediawiki_history's
	// event_user_is_bot_by_historical is not empty (Wikimedia classified
	// the user as a bot, by name or group, at the time of the edit).
	BotByDumpHistorical
	// BotByDump: mediawiki_history's event_user_is_bot_by is not empty
	// (the same classification as of the snapshot).
	BotByDump
	// BotByList: the user's name is in ingest's --bot-list.
	BotByList
	// BotByName: the user's name matches ingest's bot pattern.
	BotByName
)

// Normalize sorts the revisions, collapses revisions with the same
// timestamp into one update and counts how many were collapsed (SPEC §1.1).
// The revisions slice of r is sorted in place.
func (r *RawPage) Normalize() Page {
	revs := r.Revisions
	if !slices.IsSorted(revs) {
		slices.Sort(revs)
	}
	ups := slices.Compact(slices.Clone(revs))
	return r.page(ups, len(revs)-len(ups))
}

// page is r's metadata with the given updates and collapsed count.
func (r *RawPage) page(ups []int64, collapsed int) Page {
	return Page{
		ID:         r.ID,
		Source:     r.Source,
		SourceID:   r.SourceID,
		Title:      r.Title,
		Namespace:  r.Namespace,
		Group:      r.Group,
		Redirect:   r.Redirect,
		Collapsed:  int64(collapsed),
		Resolution: r.Resolution,
		Updates:    ups,
	}
}

// NormalizeInPlace is Normalize without the copy: the updates of the
// returned page share r.Revisions' array (sorted and compacted in place),
// which saves 8 bytes per revision on large pages. r.Revisions is set to
// nil, since its contents are no longer the revisions.
func (r *RawPage) NormalizeInPlace() Page {
	revs := r.Revisions
	if !slices.IsSorted(revs) {
		slices.Sort(revs)
	}
	n := len(revs)
	ups := slices.Compact(revs)
	r.Revisions = nil
	return r.page(ups, n-len(ups))
}
