package ingest

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/revisit-dev/revisit/series"
)

// What counts as an update on a wiki: the revision filters --drop-reverts,
// --drop-bots and --drop-minor. They run on each page after the namespace
// and redirect filters and before --since/--until, on the page's
// revisions sorted by time (a stable sort: revisions in the same second
// keep their input order, which in a dump is revision id order). A
// revision left out is counted once, under the first reason that applies,
// in this order:
//
//   - revisions_identity_revert: an identity revert. In XML dumps a
//     revision whose <sha1> equals that of an earlier revision with 1 to
//     RevertRadius (15) revisions in between, which it undoes (the
//     identity-revert definition of mwreverts, radius 15, as in
//     Halfaker et al. and the revert literature; a revision equal to the
//     one just before it is a null edit, not a revert). In
//     mediawiki_history dumps, revision_is_identity_revert.
//   - revisions_identity_reverted: a revision strictly between the restored
//     revision and the reverting one (mediawiki_history:
//     revision_is_identity_reverted). A reverted revision stays in the
//     comparison window (a later revision may restore it, as in mwreverts).
//   - revisions_bot: a revision by a bot: a registered user (never an IP)
//     whose name matches the bot pattern or is in --bot-list; in
//     mediawiki_history dumps also a user Wikimedia classifies as a bot
//     (event_user_is_bot_by_historical or event_user_is_bot_by not
//     empty). Each is also counted under the first rule that classifies
//     its user (series.BotRule: Wikimedia's columns, --bot-list, the
//     pattern) in the manifest (extra.revisions_bot_by) and the summary.
//   - revisions_minor: a revision marked minor (<minor/>,
//     revision_minor_edit).
//
// A page with no revision left is skipped as revision_filters. In dumps
// without <sha1> (export schema 0.4/0.5, such as the real Anarchism
// history) the checksum is MediaWiki's SHA-1 of the revision's text,
// computed while the text streams past (mediawiki/texthash.go), as
// mwreverts does; they are counted in the manifest
// (extra.revisions_sha1_of_text) and the summary. Revisions with neither
// (deleted content, or a stub dump's revisions before export schema 0.6:
// a stub holds no text) take a place in the window but match nothing, so
// none of them is ever found to be a revert; with --drop-reverts they are
// counted in the manifest (extra.revisions_without_sha1, beside
// extra.revisions_with_sha1) and the summary, which says when no revision
// at all could be checked.

// DefaultRevertRadius is the most revisions an identity revert can undo
// (mwreverts' default radius): each revision is compared with the
// DefaultRevertRadius+1 before it.
const DefaultRevertRadius = 15

// DefaultBotPattern is the bot test used by --drop-bots unless
// --bot-pattern replaces it: the user name contains "bot" in any case at
// the end of a word — followed by nothing or by a character that is not
// an ASCII letter ("ClueBot NG", "AnomieBOT", "Cydebot", "Bot1058"; not
// "Abbott" or "Botany"). Wikipedia's bot policy (WP:BOTACC) asks bot
// accounts to make the word "bot" part of their name; Wikimedia's
// mediawiki_history classifies users "by name" with the same kind of
// test. Names of humans such as "Talbot" match too: give --bot-pattern or
// --no-bot-pattern with --bot-list for another choice.
const DefaultBotPattern = `(?i)bot($|[^a-z])`

// defaultBot is DefaultBotPattern without the regular expression engine
// (it runs once per revision of a dump).
func defaultBot(name string) bool {
	for i := 0; i+3 <= len(name); i++ {
		if (name[i]|0x20) != 'b' || (name[i+1]|0x20) != 'o' || (name[i+2]|0x20) != 't' {
			continue
		}
		if i+3 == len(name) {
			return true
		}
		if c := name[i+3] | 0x20; c < 'a' || c > 'z' {
			return true
		}
	}
	return false
}

// botTest is the bot test of the options (nil when DropBots is off): the
// rule by which a registered user's name is a bot's — series.BotByList
// when it is in --bot-list, else series.BotByName when it matches the
// pattern, else series.NotBot.
func (o *Options) botTest() (func(string) series.BotRule, error) {
	if !o.DropBots {
		return nil, nil
	}
	names := map[string]bool{}
	for _, n := range o.BotNames {
		if n = normalizeUser(n); n != "" {
			names[n] = true
		}
	}
	var match func(string) bool
	switch {
	case o.NoBotPattern:
		if len(names) == 0 {
			return nil, fmt.Errorf("--no-bot-pattern needs --bot-list: no bot could be recognised")
		}
	case o.BotPattern == "":
		match = defaultBot
	default:
		re, err := regexp.Compile(o.BotPattern)
		if err != nil {
			return nil, fmt.Errorf("--bot-pattern: %w", err)
		}
		match = re.MatchString
	}
	return func(user string) series.BotRule {
		if len(names) > 0 && names[normalizeUser(user)] {
			return series.BotByList
		}
		if match != nil && match(user) {
			return series.BotByName
		}
		return series.NotBot
	}, nil
}

// normalizeUser is a user name as compared with --bot-list: trimmed, with
// underscores as spaces (lists often come from URLs).
func normalizeUser(s string) string {
	return strings.ReplaceAll(strings.TrimSpace(s), "_", " ")
}

// ParseBotList reads a --bot-list file's contents: one user name per line;
// empty lines and lines starting with # are ignored.
func ParseBotList(b []byte) []string {
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(strings.TrimSuffix(l, "\r"))
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		out = append(out, l)
	}
	return out
}

func (o *Options) revertRadius() int {
	if o.RevertRadius == 0 {
		return DefaultRevertRadius
	}
	return o.RevertRadius
}

func (o *Options) revisionFilters() bool { return o.DropReverts || o.DropBots || o.DropMinor }

// Manifest keys of the revision filters (their skip reasons are SkipRevert …).
const (
	extraNoSHA1   = "revisions_without_sha1" // neither <sha1> nor text: never found to be a revert
	extraWithSHA1 = "revisions_with_sha1"    // a <sha1> or the SHA-1 of the text: checked
	extraTextSHA1 = "revisions_sha1_of_text" // checksums computed from the text (dumps without <sha1>)
	extraFilters  = "revision_filters"
	revertsSource = "sha1 of an earlier revision (<sha1>, or the SHA-1 of the text in dumps without it), undoing at most %d revisions (mwreverts identity revert); mediawiki_history: revision_is_identity_revert/_reverted"
)

// IdentityReverts marks, in revert and reverted (of len(sha)), the identity
// reverts of a page's revisions in time order and the revisions they revert:
// revision i is a revert when sha[i] ≠ 0 equals sha[j] for some j in
// [i−radius−1, i−2] (the latest such j), and then revisions j+1 … i−1 are
// reverted: a revert undoes 1 to radius revisions. This is mwreverts'
// Detector(radius), whose history holds radius+1 checksums ("radius: the
// maximum number of revisions that a revert can span"). O(n·radius) time,
// no memory beyond the flags.
func IdentityReverts(sha []uint64, radius int, revert, reverted []bool) {
	for i, s := range sha {
		if s == 0 {
			continue
		}
		for j := i - 1; j >= 0 && j >= i-radius-1; j-- {
			if sha[j] != s {
				continue
			}
			if j < i-1 {
				revert[i] = true
				for k := j + 1; k < i; k++ {
					reverted[k] = true
				}
			}
			break
		}
	}
}

// sortRevisions sorts p's revisions by time, stably, with their flags.
func sortRevisions(p *series.RawPage) {
	if slices.IsSorted(p.Revisions) {
		return
	}
	n := len(p.Revisions)
	idx := make([]int32, n)
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortStableFunc(idx, func(a, b int32) int {
		ta, tb := p.Revisions[a], p.Revisions[b]
		switch {
		case ta < tb:
			return -1
		case ta > tb:
			return 1
		}
		return 0
	})
	p.Revisions = permute(p.Revisions, idx)
	p.Anonymous = permute(p.Anonymous, idx)
	p.Minor = permute(p.Minor, idx)
	p.Bot = permute(p.Bot, idx)
	p.SHA1 = permute(p.SHA1, idx)
	p.Revert = permute(p.Revert, idx)
	p.Reverted = permute(p.Reverted, idx)
}

func permute[T any](s []T, idx []int32) []T {
	if len(s) != len(idx) {
		return nil // not aligned (never filled): nothing to keep
	}
	out := make([]T, len(s))
	for i, j := range idx {
		out[i] = s[j]
	}
	return out
}

// filterRevisions applies the revision filters to p (see above), counting
// what they leave out; false means no revision is left and the page was
// counted as skipped. The per-revision flags are released either way.
func (d *driver) filterRevisions(p *series.RawPage) bool {
	defer func() { p.Bot, p.SHA1, p.Revert, p.Reverted = nil, nil, nil, nil }()
	if !d.opt.revisionFilters() {
		return true
	}
	sortRevisions(p)
	n := len(p.Revisions)
	var revert, reverted []bool
	if d.opt.DropReverts {
		switch {
		case len(p.SHA1) == n:
			revert, reverted = make([]bool, n), make([]bool, n)
			IdentityReverts(p.SHA1, d.opt.revertRadius(), revert, reverted)
			d.sha1Seen += int64(n)
			for _, s := range p.SHA1 {
				if s == 0 {
					d.noSHA1++
				}
			}
		case len(p.Revert) == n && len(p.Reverted) == n:
			revert, reverted = p.Revert, p.Reverted
		}
	}
	bot := d.opt.DropBots && len(p.Bot) == n
	minor := d.opt.DropMinor && len(p.Minor) == n
	// Counted per page, added to the map once per reason: a map update
	// per dropped revision would be the loop's main cost.
	var nRevert, nReverted, nBot, nMinor int64
	var byRule BotCounts
	kept := p.Revisions[:0]
	for i, t := range p.Revisions {
		switch {
		case revert != nil && revert[i]:
			nRevert++
		case reverted != nil && reverted[i]:
			nReverted++
		case bot && p.Bot[i] != series.NotBot:
			nBot++
			byRule[p.Bot[i]]++
		case minor && p.Minor[i]:
			nMinor++
		default:
			kept = append(kept, t)
		}
	}
	for _, c := range [...]struct {
		r SkipReason
		n int64
	}{{SkipRevert, nRevert}, {SkipReverted, nReverted}, {SkipBot, nBot}, {SkipMinor, nMinor}} {
		if c.n > 0 {
			d.addSkip(c.r, c.n)
		}
	}
	if nBot > 0 {
		for r, v := range byRule {
			d.botBy[r] += v
		}
	}
	if len(kept) < n {
		p.Revisions = kept
		p.Anonymous, p.Minor = nil, nil // no longer aligned
	}
	if len(kept) == 0 {
		d.addSkip(SkipRevisionFilters, 1)
		return false
	}
	return true
}

// appendRevisions appends p's revisions and flags to q's (pages of an
// ungrouped reader merged across inputs); a flag slice one of them lacks
// is filled with zero values, so that the flags stay aligned.
func appendRevisions(q, p *series.RawPage) {
	nq, np := len(q.Revisions), len(p.Revisions)
	q.Anonymous = appendFlags(q.Anonymous, nq, p.Anonymous, np)
	q.Minor = appendFlags(q.Minor, nq, p.Minor, np)
	q.Bot = appendFlags(q.Bot, nq, p.Bot, np)
	q.SHA1 = appendFlags(q.SHA1, nq, p.SHA1, np)
	q.Revert = appendFlags(q.Revert, nq, p.Revert, np)
	q.Reverted = appendFlags(q.Reverted, nq, p.Reverted, np)
	q.Revisions = append(q.Revisions, p.Revisions...)
}

func appendFlags[T any](q []T, nq int, p []T, np int) []T {
	if q == nil && p == nil {
		return nil
	}
	if len(q) != nq {
		q = append(q[:0:0], make([]T, nq)...)
	}
	if len(p) != np {
		return append(q, make([]T, np)...)
	}
	return append(q, p...)
}

// hasNamespaces reports whether pages of kind have MediaWiki namespaces
// (the --namespaces filter applies to them).
func hasNamespaces(kind string) bool { return kind == KindMediaWiki || kind == KindMWHistory }

// dropFlags releases a page's per-revision flags.
func dropFlags(p *series.RawPage) {
	p.Anonymous, p.Minor, p.Bot, p.SHA1, p.Revert, p.Reverted = nil, nil, nil, nil, nil, nil
}

// RevisionFilters are the revision filters in force, for the manifest
// (extra.revision_filters) and the summary.
type RevisionFilters struct {
	DropReverts  bool     `json:"drop_reverts"`
	RevertRadius int      `json:"revert_radius,omitempty"`
	Reverts      string   `json:"reverts,omitempty"` // how reverts are found
	DropBots     bool     `json:"drop_bots"`
	BotPattern   string   `json:"bot_pattern,omitempty"`
	BotList      string   `json:"bot_list,omitempty"`
	BotNames     int      `json:"bot_names,omitempty"`
	DropMinor    bool     `json:"drop_minor"`
	Order        []string `json:"order,omitempty"` // the reasons, in the order a revision is counted under the first
}

func (o *Options) revisionFiltersInfo() RevisionFilters {
	f := RevisionFilters{DropReverts: o.DropReverts, DropBots: o.DropBots, DropMinor: o.DropMinor}
	if o.DropReverts {
		f.RevertRadius = o.revertRadius()
		f.Reverts = fmt.Sprintf(revertsSource, f.RevertRadius)
	}
	if o.DropBots {
		switch {
		case o.NoBotPattern:
		case o.BotPattern == "":
			f.BotPattern = DefaultBotPattern
		default:
			f.BotPattern = o.BotPattern
		}
		f.BotList, f.BotNames = o.BotList, len(o.BotNames)
	}
	if o.revisionFilters() {
		f.Order = []string{string(SkipRevert), string(SkipReverted), string(SkipBot), string(SkipMinor)}
	}
	return f
}

// nBotRules is the number of series.BotRule values.
const nBotRules = int(series.BotByName) + 1

// extraBotBy is the manifest key of the bot revisions left out by rule.
const extraBotBy = "revisions_bot_by"

// botRuleKeys are the manifest names of the bot rules (extra.revisions_bot_by).
var botRuleKeys = [nBotRules]string{
	series.BotByDumpHistorical: "event_user_is_bot_by_historical",
	series.BotByDump:           "event_user_is_bot_by",
	series.BotByList:           "bot_list",
	series.BotByName:           "bot_pattern",
}

// BotCounts are the revisions --drop-bots left out, by the first rule that
// classified their contributor as a bot (series.BotRule): they add up to
// Counts.Skipped["revisions_bot"].
type BotCounts [nBotRules]int64

// Map is the counts by rule name, for the manifest: only rules that left
// something out.
func (c BotCounts) Map() map[string]int64 {
	m := map[string]int64{}
	for r, v := range c {
		if v > 0 && botRuleKeys[r] != "" {
			m[botRuleKeys[r]] = v
		}
	}
	return m
}
