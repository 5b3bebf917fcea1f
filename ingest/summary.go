package ingest

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/internal/decompress"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/series"
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
	// YelpIDTitles counts Yelp businesses written without a business file
	// among the inputs: their titles are their business ids.
	YelpIDTitles int64
	// TitleChanges counts generic records whose --title value differed
	// from the title their object already had (the first is kept).
	TitleChanges int64
	// RevisionFilters are --drop-reverts, --drop-bots and --drop-minor as
	// given (their counts are in Counts.Skipped); NoSHA1 counts the
	// revisions --drop-reverts could not check (neither <sha1> nor text)
	// among the SHA1Seen revisions of XML dumps it looked at.
	RevisionFilters RevisionFilters
	NoSHA1          int64
	SHA1Seen        int64
	// BotBy are the revisions --drop-bots left out, by the rule that
	// classified their contributor (also in the manifest,
	// extra.revisions_bot_by).
	BotBy BotCounts
	// TextSHA1 counts the revisions whose checksum is the SHA-1 of their
	// text (dumps without <sha1>).
	TextSHA1 int64
	// TimeOrigin is --time-origin (RFC 3339) when it placed the numeric
	// times of a generic input; TimeWarning, if not nil, says which times
	// look relative or fall before 1990 (see timecheck.go).
	TimeOrigin  string
	TimeWarning *TimeWarning
	// Truncated are the pages cut by the end of their input, kept (under
	// SkipBad) with their complete revisions.
	Truncated []TruncatedPage
	Bytes     int64 // stored bytes read
	// Decompressed is the decompressed bytes read (= Bytes for inputs
	// that are not compressed): the work the parsers did.
	Decompressed int64
	Elapsed      time.Duration
}

func (d *driver) summary(elapsed time.Duration) *Summary {
	d.badMu.Lock()
	bad := maps.Clone(d.bad)
	badRevs := d.badRevisions
	d.badMu.Unlock()
	// Revisions of pages skipped as bad are read revisions too.
	d.counts.RevisionsRead += badRevs
	if badRevs > 0 {
		d.addSkip(SkipRevisionsOfSkippedPages, badRevs)
	}
	for k, v := range bad {
		d.addSkip(BadSkip(k), v)
	}
	f := dataset.Filters{
		Namespaces:  d.ns,
		MinUpdates:  d.opt.MinUpdates,
		NoRedirects: d.opt.NoRedirects,
		SkipBad:     d.opt.SkipBad,
	}
	if !d.wikiRead {
		f.NotApplicable = wikiOnlyFilters
	}
	if d.hasSince {
		t := time.Unix(d.since, 0).UTC()
		f.Since = &t
	}
	if d.hasUntil {
		t := time.Unix(d.until, 0).UTC()
		f.Until = &t
	}
	origin := ""
	if d.originUsed {
		origin = d.opt.Generic.TimeOrigin.UTC().Format(time.RFC3339)
	}
	return &Summary{TimeOrigin: origin, TimeWarning: d.timeWarning(), Output: d.opt.Output, Inputs: d.inputs, Filters: f, Counts: d.counts, Bad: bad,
		Remapped: d.ids.remapped, Bytes: d.bytes, Decompressed: d.decompressed, Elapsed: elapsed,
		YelpJoined: d.yelpJoined, YelpUnjoined: d.yelpUnjoined, YelpIDTitles: d.yelpIDTitles, TitleChanges: d.titleChanges,
		RevisionFilters: d.opt.revisionFiltersInfo(), NoSHA1: d.noSHA1, SHA1Seen: d.sha1Seen, BotBy: d.botBy, TextSHA1: d.textSHA1, Truncated: d.truncated}
}

// dayResolution is the time resolution (s) of date-only sources.
const dayResolution = units.Day

// CollapsedPhrase says how many revisions were collapsed into another at
// the same time, in the sources' resolution: "3 same-second revisions
// collapsed", "40 same-day revisions collapsed" when every kept page is
// date-only (Counts.PagesDaily), "3 same-second and 40 same-day revisions
// collapsed" when both kinds were kept.
func CollapsedPhrase(c dataset.Counts) string {
	day, sec := c.CollapsedSameDay, c.Collapsed-c.CollapsedSameDay
	switch {
	case c.PagesDaily == 0:
		return human.Count(sec, "same-second revision", "same-second revisions") + " collapsed"
	case c.PagesDaily == c.PagesKept:
		return human.Count(day, "same-day revision", "same-day revisions") + " collapsed (dates without a time of day)"
	}
	return human.Comma(sec) + " same-second and " + human.Count(day, "same-day revision", "same-day revisions") + " collapsed"
}

// badList is "1 json, 2 timestamp": the bad records by reason, sorted
// (only the reason when there is one), and their total.
func badList(bad map[string]int64) (string, int64) {
	var items []string
	var total int64
	for _, k := range slices.Sorted(maps.Keys(bad)) {
		items = append(items, human.Comma(bad[k])+" "+k)
		total += bad[k]
	}
	if len(bad) == 1 {
		for k := range bad {
			return k, total
		}
	}
	return strings.Join(items, ", "), total
}

// timeRange says which revisions --since/--until keep ("since
// 2010-01-01", "in [2010-01-01, 2020-01-01)") and names the flags.
func timeRange(f dataset.Filters) (what, flags string) {
	day := func(t *time.Time) string {
		if t.Equal(t.Truncate(24 * time.Hour)) {
			return t.Format("2006-01-02")
		}
		return t.Format(time.RFC3339)
	}
	switch {
	case f.Since != nil && f.Until != nil:
		return "in [" + day(f.Since) + ", " + day(f.Until) + ")", "--since, --until"
	case f.Since != nil:
		return "since " + day(f.Since), "--since"
	case f.Until != nil:
		return "before " + day(f.Until), "--until"
	}
	return "in the time range", "--since/--until"
}

// skipOrder is the order of the reasons in the summary: pages in the order
// of the filters, bad records, then revisions and archive members.
var skipOrder = []SkipReason{SkipNamespace, SkipRedirect, SkipRevisionFilters, SkipTimeRange, SkipMinUpdates, skipBadRecords, SkipRevisionsOfSkippedPages,
	SkipRevert, SkipReverted, SkipBot, SkipMinor, SkipNoPageID, SkipRevisionsOutsideTimeRange, SkipArchiveUnknownFormat, SkipArchiveSymlink, SkipArchiveHardlink,
	SkipArchiveDevice, SkipArchiveFIFO, SkipArchiveOtherType}

// skipBadRecords holds the place of the bad records (BadSkip) in skipOrder.
const skipBadRecords SkipReason = "bad"

// skipPhrase says what v items left out for reason are, number first and
// naming the flag ("1,063 pages below --min-updates 2").
func (s *Summary) skipPhrase(reason SkipReason, v int64) string {
	f := s.Filters
	switch reason {
	case SkipNamespace:
		var ns []string
		for _, x := range f.Namespaces {
			ns = append(ns, fmt.Sprint(x))
		}
		return human.Count(v, "page", "pages") + " outside --namespaces " + strings.Join(ns, ",")
	case SkipRedirect:
		return human.Count(v, "redirect page", "redirect pages") + " (--no-redirects)"
	case SkipTimeRange:
		what, flags := timeRange(f)
		return human.Count(v, "page", "pages") + " with no revision " + what + " (" + flags + ")"
	case SkipMinUpdates:
		return fmt.Sprintf("%s below --min-updates %d", human.Count(v, "page", "pages"), f.MinUpdates)
	case SkipRevisionFilters:
		return human.Count(v, "page", "pages") + " with no revision left by " + s.revisionFlags()
	case SkipRevert:
		return human.Count(v, "identity revert", "identity reverts") + " (--drop-reverts)"
	case SkipReverted:
		return human.Count(v, "revision", "revisions") + " undone by an identity revert (--drop-reverts)"
	case SkipBot:
		return human.Count(v, "revision", "revisions") + " by bots (--drop-bots" + s.botRules(v) + ")"
	case SkipNoPageID:
		return human.Count(v, "mediawiki_history revision", "mediawiki_history revisions") + " without a page_id (deleted pages)"
	case SkipMinor:
		return human.Count(v, "minor revision", "minor revisions") + " (--drop-minor)"
	case SkipRevisionsOfSkippedPages:
		return human.Count(v, "revision", "revisions") + " of the pages left out"
	case SkipRevisionsOutsideTimeRange:
		_, flags := timeRange(f)
		return human.Count(v, "revision", "revisions") + " outside the time range (" + flags + ")"
	case SkipArchiveUnknownFormat:
		return human.Count(v, "archive member", "archive members") + " of unknown format (not read)"
	case SkipArchiveSymlink, SkipArchiveHardlink, SkipArchiveDevice, SkipArchiveFIFO:
		return human.Count(v, "archive member that is", "archive members that are") + " " + map[SkipReason][2]string{
			SkipArchiveSymlink: {"a symbolic link", "symbolic links"}, SkipArchiveHardlink: {"a hard link", "hard links"},
			SkipArchiveDevice: {"a device", "devices"}, SkipArchiveFIFO: {"a FIFO", "FIFOs"}}[reason][min(v-1, 1)] +
			map[bool]string{true: " (not a file)", false: " (not files)"}[v == 1]
	case SkipArchiveOtherType:
		return human.Count(v, "archive member", "archive members") + " that are not regular files"
	}
	return human.Comma(v) + " " + strings.ReplaceAll(string(reason), "_", " ")
}

// revisionFlags names the revision filters in force ("--drop-reverts,
// --drop-bots").
func (s *Summary) revisionFlags() string {
	var f []string
	r := s.RevisionFilters
	for _, x := range []struct {
		on   bool
		flag string
	}{{r.DropReverts, "--drop-reverts"}, {r.DropBots, "--drop-bots"}, {r.DropMinor, "--drop-minor"}} {
		if x.on {
			f = append(f, x.flag)
		}
	}
	return strings.Join(f, ", ")
}

// botRules says which rule left out how many of the v bot revisions
// (": 2 by Wikimedia's bot classification at the edit
// (event_user_is_bot_by_historical), 1 by names matching …"), each
// revision under the first rule that classifies its contributor
// (series.BotRule); with one rule, "all by …".
func (s *Summary) botRules(v int64) string {
	r := s.RevisionFilters
	var parts []string
	for rule, n := range s.BotBy {
		if n == 0 {
			continue
		}
		var what string
		switch series.BotRule(rule) {
		case series.BotByDumpHistorical:
			what = "by Wikimedia's bot classification at the edit (event_user_is_bot_by_historical)"
		case series.BotByDump:
			what = "by Wikimedia's bot classification as of the dump (event_user_is_bot_by)"
		case series.BotByList:
			what = "by users in --bot-list"
			if r.BotList != "" {
				what += " " + r.BotList + " (" + human.Count(int64(r.BotNames), "name", "names") + ")"
			}
		case series.BotByName:
			what = "by names matching " + r.BotPattern
		default:
			continue
		}
		if n == v && len(parts) == 0 {
			return ": all " + what
		}
		parts = append(parts, human.Comma(n)+" "+what)
	}
	if len(parts) == 0 {
		return ""
	}
	return ": " + strings.Join(parts, ", ")
}

// String is the summary printed at the end of `revisit ingest`: what was
// read (stored and decompressed bytes, the rate in decompressed bytes per
// second), each input, pages and revisions read and kept, then one line per
// reason something was left out, number first and naming the flag. Counts
// have thousands separators; page ids never appear.
func (s *Summary) String() string {
	var b strings.Builder
	c := s.Counts
	// Compressed inputs: the decompressed bytes are the work done (a plain
	// tar's members are fewer bytes than the tar, and the tar's the work).
	read := human.Bytes(s.Bytes) + " read"
	if s.Decompressed > s.Bytes {
		read += " (" + human.Bytes(s.Decompressed) + " decompressed)"
	}
	rate := ""
	if s.Elapsed > 0 {
		rate = ": " + human.ByteRate(max(s.Decompressed, s.Bytes), s.Elapsed) + ", " + human.Rate(c.RevisionsRead, s.Elapsed) + " revisions/s"
	}
	fmt.Fprintf(&b, "ingested %s: %s in %s%s → %s\n", human.Count(int64(len(s.Inputs)), "input", "inputs"), read, human.Elapsed(s.Elapsed), rate, s.Output)
	for _, in := range s.Inputs {
		bad := ""
		if len(in.Bad) > 0 {
			list, total := badList(in.Bad)
			bad = "; " + human.Count(total, "bad record", "bad records") + " skipped: " + list
		}
		skipped := ""
		if in.SkipLines > 0 {
			skipped = ", " + human.Count(in.SkipLines, "line", "lines") + " skipped before the header"
		}
		decoder := ""
		if in.Decoder != "" && in.Decoder != decompress.Builtin {
			decoder = ", decoded by " + in.Decoder
		}
		fmt.Fprintf(&b, "  %s (%s, %s%s%s%s)\n", in.Name, in.Format, human.Bytes(in.Size), decoder, skipped, bad)
	}
	fmt.Fprintf(&b, "pages:     %s read, %s kept\n", human.Comma(c.PagesRead), human.Comma(c.PagesKept))
	fmt.Fprintf(&b, "revisions: %s read, %s kept → %s (%s)\n",
		human.Comma(c.RevisionsRead), human.Comma(c.RevisionsKept), human.Count(c.Updates, "update", "updates"), CollapsedPhrase(c))
	skipped := map[SkipReason]int64{}
	for _, sk := range Skips(c) {
		if _, bad := sk.Reason.Bad(); !bad {
			skipped[sk.Reason] = sk.N
		}
	}
	var lines []string
	for _, k := range skipOrder {
		if k == skipBadRecords {
			if len(s.Bad) > 0 {
				list, total := badList(s.Bad)
				lines = append(lines, human.Count(total, "bad record", "bad records")+" (--skip-bad): "+list)
			}
			continue
		}
		if v := skipped[k]; v != 0 {
			lines = append(lines, s.skipPhrase(k, v))
			delete(skipped, k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(skipped)) {
		lines = append(lines, s.skipPhrase(k, skipped[k]))
	}
	for i, l := range lines {
		if i == 0 {
			fmt.Fprintf(&b, "left out:  %s\n", l)
		} else {
			fmt.Fprintf(&b, "           %s\n", l)
		}
	}
	for _, l := range s.truncatedLines() {
		fmt.Fprintln(&b, l)
	}
	switch {
	case s.YelpJoined+s.YelpUnjoined > 0:
		fmt.Fprintf(&b, "yelp: %s joined to the business file (titled by name), %s not in it (titled by id)\n",
			human.Count(s.YelpJoined, "business", "businesses"), human.Comma(s.YelpUnjoined))
	case s.YelpIDTitles > 0:
		fmt.Fprintf(&b, "yelp: %s; titles are business ids: add yelp_academic_dataset_business.json to the inputs to show names\n",
			human.Count(s.YelpIDTitles, "business", "businesses"))
	}
	if s.TitleChanges > 0 {
		fmt.Fprintf(&b, "%s another --title value than %s object's first (the first is kept)\n",
			human.Count(s.TitleChanges, "record had", "records had"), map[bool]string{true: "its", false: "their"}[s.TitleChanges == 1])
	}
	if s.TextSHA1 > 0 {
		fmt.Fprintf(&b, "%s no <sha1>: the SHA-1 of %s text stands in for it (--drop-reverts)\n",
			human.Count(s.TextSHA1, "revision had", "revisions had"), map[bool]string{true: "its", false: "their"}[s.TextSHA1 == 1])
	}
	switch {
	case s.NoSHA1 > 0 && s.NoSHA1 == s.SHA1Seen:
		fmt.Fprintf(&b, "--drop-reverts: no identity revert can be detected: %s neither a <sha1> nor %s text (a stub dump before export schema 0.6 has neither), none was left out as one\n",
			human.Count(s.NoSHA1, "revision has", "revisions have"), map[bool]string{true: "its", false: "their"}[s.NoSHA1 == 1])
	case s.NoSHA1 > 0:
		fmt.Fprintf(&b, "%s neither a <sha1> nor %s text (deleted, or a stub's): identity reverts cannot be detected for them, none was taken for one (--drop-reverts)\n",
			human.Count(s.NoSHA1, "revision had", "revisions had"), map[bool]string{true: "its", false: "their"}[s.NoSHA1 == 1])
	}
	if u := s.unusedFlags(); u != "" {
		fmt.Fprintf(&b, "not applied: %s (MediaWiki XML and mediawiki_history only; no such input was read)\n", u)
	}
	if s.TimeOrigin != "" {
		fmt.Fprintf(&b, "numeric times are placed after --time-origin %s\n", s.TimeOrigin)
	}
	for _, l := range s.TimeWarning.lines() {
		fmt.Fprintln(&b, l)
	}
	if s.Remapped > 0 {
		fmt.Fprintf(&b, "%s remapped: two sources used the same id\n", human.Count(s.Remapped, "page id", "page ids"))
	}
	return b.String()
}
