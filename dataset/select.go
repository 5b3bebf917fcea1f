package dataset

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/revisit-dev/revisit/internal/usage"
	"github.com/revisit-dev/revisit/series"
)

// Selection is the page filter of replay, analyze and run (--pages,
// --match, --in-group): a page is kept when it passes every criterion given,
//
//	keep(p) = (p.ID ∈ ids ∨ p.Title ∈ titles)   if a page list is given
//	        ∧ match(p.Title)                    if a regular expression is given
//	        ∧ p.Group ∈ groups                  if groups are given.
//
// A Selection is immutable and may be shared; what one pass over a dataset
// saw (pages read and kept, list entries and groups that matched no page)
// is a Tally. A nil *Selection keeps every page.
type Selection struct {
	spec   SelectionSpec
	ids    map[int64]bool
	titles map[string]bool
	list   []listEntry // the page list in file order (distinct entries)
	match  *regexp.Regexp
	groups map[string]bool
}

type listEntry struct {
	id    int64
	title string
	isID  bool
}

func (e listEntry) String() string {
	if e.isID {
		return strconv.FormatInt(e.id, 10)
	}
	return strconv.Quote(e.title)
}

// SelectionSpec is what a Selection selects, recorded in replay.json and
// an analysis' options: shards with different specs select different
// pages and are not merged.
type SelectionSpec struct {
	PagesFile string `json:"pages_file,omitempty"` // --pages, as given
	// PagesDigest is the SHA-256 (hex) of the page list's distinct ids
	// and titles, sorted: the same list whatever its comments, order or
	// duplicates.
	PagesDigest string   `json:"pages_digest,omitempty"`
	IDs         int      `json:"ids,omitempty"`    // distinct page ids in the list
	Titles      int      `json:"titles,omitempty"` // distinct titles in the list
	Match       string   `json:"match,omitempty"`  // --match, Go regexp syntax
	Groups      []string `json:"groups,omitempty"` // --in-group values, sorted
}

// SelectionSummary is a SelectionSpec with what one pass over a whole
// dataset found: pages read and kept, and the list entries and groups that
// match no page of the dataset (whatever the other criteria).
type SelectionSummary struct {
	SelectionSpec
	Read     int64 `json:"read"`     // pages of the dataset read
	Selected int64 `json:"selected"` // pages kept
	// Unmatched counts the list's ids and titles that name no page;
	// UnmatchedFirst lists the first MaxUnmatchedListed of them in file
	// order (ids as digits, titles quoted).
	Unmatched       int      `json:"unmatched,omitempty"`
	UnmatchedFirst  []string `json:"unmatched_first,omitempty"`
	UnmatchedGroups []string `json:"unmatched_groups,omitempty"` // --in-group values no page has
}

// MaxUnmatchedListed is how many unmatched list entries a summary names.
const MaxUnmatchedListed = 5

// SelectionError is a selection that cannot be built from its flags: a
// regular expression that does not compile or an empty group (bad usage,
// usage.Error). A page list that cannot be read or parsed is a plain
// error naming the file and line.
type SelectionError = usage.Error

// SelectionFlags are a page selection as the user gives it, on the
// command line of replay, analyze and run: --pages FILE, --match REGEX,
// --in-group VALUES. Build makes the Selection.
type SelectionFlags struct {
	Pages, Match string
	InGroups     []string
}

// Build is NewSelection of f (nil, nil when f selects nothing).
func (f SelectionFlags) Build() (*Selection, error) {
	return NewSelection(f.Pages, f.Match, f.InGroups)
}

// NewSelection builds the selection of --pages pagesFile, --match match
// and --in-group groups; all empty is no selection (nil, nil).
func NewSelection(pagesFile, match string, groups []string) (*Selection, error) {
	if pagesFile == "" && match == "" && len(groups) == 0 {
		return nil, nil
	}
	s := &Selection{}
	if match != "" {
		re, err := regexp.Compile(match)
		if err != nil {
			return nil, &SelectionError{Err: fmt.Errorf("--match %q: %w", match, err)}
		}
		s.match, s.spec.Match = re, match
	}
	if len(groups) > 0 {
		s.groups = map[string]bool{}
		for _, g := range groups {
			if g == "" {
				return nil, &SelectionError{Err: errors.New("--in-group: empty value (give comma-separated values of the dataset's group column)")}
			}
			if !s.groups[g] {
				s.groups[g] = true
				s.spec.Groups = append(s.spec.Groups, g)
			}
		}
		slices.Sort(s.spec.Groups)
	}
	if pagesFile != "" {
		l, err := ReadPageList(pagesFile)
		if err != nil {
			return nil, err
		}
		s.ids, s.titles = map[int64]bool{}, map[string]bool{}
		for _, id := range l.IDs {
			s.ids[id] = true
		}
		for _, t := range l.Titles {
			s.titles[t] = true
		}
		s.list = l.entries
		s.spec.PagesFile, s.spec.IDs, s.spec.Titles = pagesFile, len(l.IDs), len(l.Titles)
		s.spec.PagesDigest = listDigest(s.ids, s.titles)
	}
	return s, nil
}

// PageList is a --pages file: its distinct page ids and titles, each in
// file order.
type PageList struct {
	IDs     []int64
	Titles  []string
	entries []listEntry // ids and titles in file order
}

// ReadPageList reads a page list: one page id or title per line; blank
// lines and lines whose first non-blank character is # are ignored;
// leading and trailing blanks are trimmed; a line of ASCII digits only is
// a page id, any other line a title (matched exactly, case and
// underscores included). A list with no entry is an error, as is a line
// that is not UTF-8 or an id that does not fit an int64; errors name the
// file and line.
func ReadPageList(name string) (*PageList, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("--pages: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	l := &PageList{}
	seenID, seenTitle := map[int64]bool{}, map[string]bool{}
	line := 0
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if line == 1 {
			b = bytes.TrimPrefix(b, []byte("\uFEFF")) // a byte-order mark
		}
		s := strings.TrimSpace(string(b))
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		if !utf8.ValidString(s) {
			return nil, fmt.Errorf("--pages %s:%d: not UTF-8 text", name, line)
		}
		if allDigits(s) {
			id, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("--pages %s:%d: page id %s does not fit a 64-bit integer", name, line, s)
			}
			if !seenID[id] {
				seenID[id] = true
				l.IDs = append(l.IDs, id)
				l.entries = append(l.entries, listEntry{id: id, isID: true})
			}
			continue
		}
		if !seenTitle[s] {
			seenTitle[s] = true
			l.Titles = append(l.Titles, s)
			l.entries = append(l.entries, listEntry{title: s})
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("--pages %s:%d: line longer than 1 MiB", name, line+1)
		}
		return nil, fmt.Errorf("--pages %s: %w", name, err)
	}
	if len(l.entries) == 0 {
		return nil, fmt.Errorf("--pages %s: no page id or title (%d lines, all blank or # comments)", name, line)
	}
	return l, nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// listDigest is SelectionSpec.PagesDigest.
func listDigest(ids map[int64]bool, titles map[string]bool) string {
	is := make([]int64, 0, len(ids))
	for id := range ids {
		is = append(is, id)
	}
	slices.Sort(is)
	ts := make([]string, 0, len(titles))
	for t := range titles {
		ts = append(ts, t)
	}
	slices.Sort(ts)
	h := sha256.New()
	for _, id := range is {
		fmt.Fprintf(h, "id\x00%d\x00", id)
	}
	for _, t := range ts {
		fmt.Fprintf(h, "title\x00%s\x00", t)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Spec is what s selects; the zero SelectionSpec for no selection.
func (s *Selection) Spec() SelectionSpec {
	if s == nil {
		return SelectionSpec{}
	}
	sp := s.spec
	sp.Groups = slices.Clone(sp.Groups)
	return sp
}

// Tally starts one pass over a dataset; nil for no selection (a nil
// *Tally keeps every page).
func (s *Selection) Tally() *Tally {
	if s == nil {
		return nil
	}
	return &Tally{s: s, seenID: map[int64]bool{}, seenTitle: map[string]bool{}, seenGroup: map[string]bool{}}
}

// Tally is one pass of a Selection over a dataset: Keep decides each page
// and counts what it saw; Summary reports it. Keep may be called from
// several goroutines.
type Tally struct {
	s              *Selection
	mu             sync.Mutex
	read, selected int64
	seenID         map[int64]bool
	seenTitle      map[string]bool
	seenGroup      map[string]bool
}

// Keep reports whether the selection keeps page p, and notes which list
// entries and groups p matches. A nil Tally keeps every page.
func (t *Tally) Keep(p *series.Page) bool {
	if t == nil {
		return true
	}
	s := t.s
	t.mu.Lock()
	defer t.mu.Unlock()
	t.read++
	keep := true
	if s.ids != nil {
		byID, byTitle := s.ids[p.ID], s.titles[p.Title]
		if byID {
			t.seenID[p.ID] = true
		}
		if byTitle {
			t.seenTitle[p.Title] = true
		}
		keep = byID || byTitle
	}
	if s.groups != nil {
		if s.groups[p.Group] {
			t.seenGroup[p.Group] = true
		} else {
			keep = false
		}
	}
	if keep && s.match != nil {
		keep = s.match.MatchString(p.Title)
	}
	if keep {
		t.selected++
	}
	return keep
}

// Summary is what the pass saw so far (complete after the last page);
// nil for a nil Tally.
func (t *Tally) Summary() *SelectionSummary {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	sum := &SelectionSummary{SelectionSpec: t.s.Spec(), Read: t.read, Selected: t.selected}
	for _, e := range t.s.list {
		if e.isID && t.seenID[e.id] || !e.isID && t.seenTitle[e.title] {
			continue
		}
		if sum.Unmatched++; sum.Unmatched <= MaxUnmatchedListed {
			sum.UnmatchedFirst = append(sum.UnmatchedFirst, e.String())
		}
	}
	for _, g := range t.s.spec.Groups {
		if !t.seenGroup[g] {
			sum.UnmatchedGroups = append(sum.UnmatchedGroups, g)
		}
	}
	return sum
}

// Criteria describes the spec as flags: `--pages FILE (3 ids, 2 titles),
// --match "^A", --in-group (Main),Talk`.
func (sp SelectionSpec) Criteria() string {
	var parts []string
	if sp.PagesFile != "" {
		parts = append(parts, fmt.Sprintf("--pages %s (%s, %s)", sp.PagesFile, plural(sp.IDs, "id", "ids"), plural(sp.Titles, "title", "titles")))
	}
	if sp.Match != "" {
		parts = append(parts, "--match "+strconv.Quote(sp.Match))
	}
	if len(sp.Groups) > 0 {
		parts = append(parts, "--in-group "+strings.Join(sp.Groups, ","))
	}
	return strings.Join(parts, ", ")
}

// Describe is one line for summaries and the report's Source lines:
// `selected 12 of 100 pages by --pages list.txt (3 ids, 2 titles), --match
// "^A"; 1 id or title not found: "Foo"`.
func (s *SelectionSummary) Describe() string {
	if s == nil {
		return ""
	}
	d := fmt.Sprintf("selected %d of %s by %s", s.Selected, plural(int(s.Read), "page", "pages"), s.Criteria())
	if s.Unmatched > 0 {
		d += fmt.Sprintf("; %s not found: %s", plural(s.Unmatched, "id or title", "ids or titles"), strings.Join(s.UnmatchedFirst, ", "))
		if s.Unmatched > len(s.UnmatchedFirst) {
			d += fmt.Sprintf(" and %d more", s.Unmatched-len(s.UnmatchedFirst))
		}
	}
	if len(s.UnmatchedGroups) > 0 {
		d += fmt.Sprintf("; no page in group %s", strings.Join(s.UnmatchedGroups, ", "))
	}
	return d
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
