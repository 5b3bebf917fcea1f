// Package mwhistory reads Wikimedia's mediawiki_history dumps: the
// denormalized edit history of every Wikimedia wiki that researchers use
// instead of the XML dumps, published monthly as bzip2-compressed TSV files
// (https://dumps.wikimedia.org/other/mediawiki_history/, one file per wiki
// and period, e.g. 2024-10.simplewiki.all-time.tsv.bz2).
//
// Format (Wikitech, "Data Platform/Data Lake/Edits/MediaWiki history
// dumps"): one event per line, fields separated by tabs, no header; the
// columns are those of the snapshot's schema (Schema70 up to 2024,
// Schema76 since temporary accounts), told apart by their number. Strings
// escape tab, newline, carriage return and backslash with a backslash
// (\t, \n, \r, \\); an empty field is null; booleans are true/false;
// arrays (event_user_is_bot_by, …) are lists, empty when the field is
// empty, "[]" or "array()"; timestamps are "YYYY-MM-DD HH:MM:SS.f" in UTC
// (also accepted: a T separator, a Z suffix, no fraction, or MediaWiki's
// YYYYMMDDHHMMSS).
//
// Only lines with event_entity = revision and event_type = create are
// revisions; every other event (page and user events) is counted in
// Stats.OtherEvents, and revisions without a page_id in Stats.NoPageID.
// A page is (wiki_db, page_id), titled page_title, in page_namespace,
// redirect when page_is_redirect (all three as of the snapshot). As in the
// XML dumps, the title has spaces (the dumps' underscores replaced) and,
// outside namespace 0, the namespace name as prefix; the dumps give
// namespace numbers only, so names and groups are MediaWiki's canonical
// English ones ("Talk:…", group "Talk"; "ns<N>" for others). Per
// revision the reader keeps the event time (8 bytes), the anonymous and
// minor flags (revision_minor_edit) and, when asked, the bot flag (a
// registered user with event_user_is_bot_by_historical or
// event_user_is_bot_by not empty, Wikimedia's "name"/"group" bot
// classification, or whom Options.IsBot accepts) and the identity revert
// flags (revision_is_identity_revert, revision_is_identity_reverted):
// 10 to 13 bytes. The files are ordered by time, not by page, so every
// page is held until the end of the input (like generic logs); pages are
// then returned in (wiki_db, page_id) order.
package mwhistory

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/revisit-dev/revisit/ingest/generic/linescan"
	"github.com/revisit-dev/revisit/ingest/mediawiki"
	"github.com/revisit-dev/revisit/ingest/source"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/series"
)

// Options configure a Reader.
type Options struct {
	source.Options
	// Source overrides wiki_db as every page's source name.
	Source string
	// IsBot, if not nil, fills RawPage.Bot: a revision is a bot's when its
	// registered user is classified as a bot by the dump
	// (series.BotByDumpHistorical: event_user_is_bot_by_historical not
	// empty; else series.BotByDump: event_user_is_bot_by not empty) or,
	// failing that, by the rule IsBot returns for
	// event_user_text_historical or else event_user_text.
	IsBot func(user string) series.BotRule
	// Reverts fills RawPage.Revert and RawPage.Reverted.
	Reverts bool
}

// Stats count what a Reader passed over.
type Stats struct {
	Lines       int64 // lines read (events)
	OtherEvents int64 // events that are not revision creations
	NoPageID    int64 // revision creations without a page_id
}

type key struct {
	src string
	id  int64
}

// Reader reads one dump. It implements source.Reader.
type Reader struct {
	r      io.Reader
	opt    Options
	cols   columns
	known  bool // cols set from the first line
	pages  map[key]*series.RawPage
	order  []key
	next   int
	done   bool
	stats  Stats
	srcs   map[string]string // interned wiki_db values
	ns     *mediawiki.Namespaces
	fields [][]byte
}

// NewReader reads a dump from r (decompressed TSV).
func NewReader(r io.Reader, opt Options) *Reader {
	return &Reader{r: r, opt: opt, pages: map[key]*series.RawPage{}, srcs: map[string]string{}, ns: mediawiki.EnglishNamespaces()}
}

// Stats returns the counts so far.
func (r *Reader) Stats() Stats { return r.stats }

// Sniff reports whether head (the start of a decompressed stream) is a
// mediawiki_history dump: its first line has the column count of a known
// schema, an event_entity of revision, page or user and a timestamp that
// parses.
func Sniff(head []byte) bool {
	line := head
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		line = head[:i]
	} else if len(head) >= 64<<10 {
		return false // a first line longer than the head: cannot tell
	}
	line = bytes.TrimSuffix(line, []byte("\r"))
	f := bytes.Split(line, []byte("\t"))
	c, ok := schemas[len(f)]
	if !ok {
		return false
	}
	switch string(f[c.entity]) {
	case "revision", "page", "user":
	default:
		return false
	}
	_, err := ParseTimestamp(f[c.timestamp])
	return err == nil
}

// Next returns the next page, or io.EOF after the last one. The first call
// reads the whole input.
func (r *Reader) Next() (*series.RawPage, error) {
	if !r.done {
		if err := r.readAll(); err != nil {
			return nil, err
		}
		r.done = true
		slices.SortFunc(r.order, func(a, b key) int {
			if c := cmp.Compare(a.src, b.src); c != 0 {
				return c
			}
			return cmp.Compare(a.id, b.id)
		})
	}
	if r.next >= len(r.order) {
		return nil, io.EOF
	}
	k := r.order[r.next]
	r.next++
	p := r.pages[k]
	delete(r.pages, k)
	return p, nil
}

func (r *Reader) bad(pe *source.ParseError) error {
	if pe.File == "" {
		pe.File = r.opt.File
	}
	return r.opt.Bad(pe)
}

func (r *Reader) readAll() error {
	sc := linescan.New(r.r, 1<<20)
	sc.SetMax(r.opt.MaxLineBytes)
	for {
		line, err := sc.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			if tl, ok := linescan.IsTooLong(err); ok {
				if err := r.bad(&source.ParseError{Offset: sc.Offset(), Line: sc.Line(), Reason: "line-too-long", Err: tl}); err != nil {
					return err
				}
				continue
			}
			pe := source.ReadError(r.opt.File, sc.Consumed(), sc.Line()+1, "", err)
			if pe.Reason == "corrupt" {
				return r.bad(pe) // with SkipBad the input ends here
			}
			return pe
		}
		r.stats.Lines++
		if err := r.line(line, sc.Line(), sc.Offset()); err != nil {
			return err
		}
	}
}

// line handles one event.
func (r *Reader) line(line []byte, no, off int64) error {
	f := r.fields[:0]
	for {
		i := bytes.IndexByte(line, '\t')
		if i < 0 {
			f = append(f, line)
			break
		}
		f = append(f, line[:i])
		line = line[i+1:]
	}
	r.fields = f
	if !r.known {
		c, ok := schemas[len(f)]
		if !ok {
			return r.bad(&source.ParseError{Offset: off, Line: no, Reason: "columns",
				Err: fmt.Errorf("%d columns: not a mediawiki_history dump (70 or 76 tab-separated columns, no header)", len(f))})
		}
		r.cols, r.known = c, true
	}
	c := &r.cols
	if len(f) != c.n {
		return r.bad(&source.ParseError{Offset: off, Line: no, Reason: "columns",
			Err: fmt.Errorf("%d columns where the first line has %d", len(f), c.n)})
	}
	if string(f[c.entity]) != "revision" || string(f[c.typ]) != "create" {
		r.stats.OtherEvents++
		return nil
	}
	if len(f[c.pageID]) == 0 {
		r.stats.NoPageID++
		return nil
	}
	title := func() string { return Unescape(f[c.pageTitle]) }
	id, err := strconv.ParseInt(string(f[c.pageID]), 10, 64)
	if err != nil {
		return r.bad(&source.ParseError{Offset: off, Line: no, Page: title(), Reason: "field",
			Err: fmt.Errorf("page_id %q is not a number", f[c.pageID])})
	}
	t, err := ParseTimestamp(f[c.timestamp])
	if err != nil {
		return r.bad(&source.ParseError{Offset: off, Line: no, Page: title(), Reason: "timestamp",
			Err: fmt.Errorf("event_timestamp %q: %w: %v", f[c.timestamp], source.ErrTimestamp, err)})
	}
	src := r.opt.Source
	if src == "" {
		w := f[c.wiki]
		var ok bool
		if src, ok = r.srcs[string(w)]; !ok {
			src = string(w)
			if src == "" {
				src = "mediawiki"
			}
			r.srcs[string(w)] = src
		}
	}
	k := key{src, id}
	p, ok := r.pages[k]
	if !ok {
		n, _ := strconv.ParseInt(string(f[c.pageNS]), 10, 32)
		ns := int32(n)
		group := r.ns.Group(ns)
		t := strings.ReplaceAll(title(), "_", " ")
		if ns != 0 {
			t = group + ":" + t
		}
		p = &series.RawPage{ID: id, Source: src, Title: t, Namespace: ns, Group: group, Resolution: 1,
			Redirect: isTrue(f[c.redirect]), Offset: off, Line: no}
		r.pages[k] = p
		r.order = append(r.order, k)
	}
	if p.TooMany > 0 {
		p.TooMany++
		return nil
	}
	if max := r.opt.MaxRevisions; max > 0 && int64(len(p.Revisions)) >= max {
		if !r.opt.SkipBad {
			return r.bad(&source.ParseError{Offset: off, Line: no, Page: p.Title, Reason: "too-many-revisions",
				Err: fmt.Errorf("the page has more than %s revisions (--max-revisions-per-page)", human.Comma(max))})
		}
		p.TooMany = int64(len(p.Revisions)) + 1
		p.Revisions, p.Anonymous, p.Minor, p.Bot, p.Revert, p.Reverted = nil, nil, nil, nil, nil, nil
		return nil
	}
	anon := isTrue(f[c.userIsAnon])
	p.Revisions = append(p.Revisions, t)
	p.Anonymous = append(p.Anonymous, anon)
	p.Minor = append(p.Minor, isTrue(f[c.minor]))
	if r.opt.IsBot != nil {
		// The current name is asked about only when it differs from the
		// historical one (a renamed user): most lines repeat it.
		bot := series.NotBot
		switch {
		case anon:
		case nonEmptyArray(f[c.userIsBotBy]):
			bot = series.BotByDumpHistorical
		case nonEmptyArray(f[c.userIsBotByNow]):
			bot = series.BotByDump
		default:
			bot = r.opt.IsBot(Unescape(f[c.userText]))
			if bot == series.NotBot && !bytes.Equal(f[c.userTextNow], f[c.userText]) {
				bot = r.opt.IsBot(Unescape(f[c.userTextNow]))
			}
		}
		p.Bot = append(p.Bot, bot)
	}
	if r.opt.Reverts {
		p.Revert = append(p.Revert, isTrue(f[c.revert]))
		p.Reverted = append(p.Reverted, isTrue(f[c.reverted]))
	}
	return nil
}

func isTrue(b []byte) bool { return string(b) == "true" || string(b) == "1" }

// nonEmptyArray reports whether an array field holds at least one value.
func nonEmptyArray(b []byte) bool {
	b = bytes.TrimSpace(b)
	switch string(b) {
	case "", "[]", "array()", "{}", "\\N":
		return false
	}
	return true
}

// Unescape undoes the dumps' backslash escapes: \t, \n, \r and \\; a
// backslash before any other byte is dropped.
func Unescape(b []byte) string {
	if bytes.IndexByte(b, '\\') < 0 {
		return string(b)
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == '\\' && i+1 < len(b) {
			i++
			switch c = b[i]; c {
			case 't':
				c = '\t'
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			}
		}
		out = append(out, c)
	}
	return string(out)
}

// ParseTimestamp reads "YYYY-MM-DD HH:MM:SS[.f…]" (or with a T, a Z
// suffix) or "YYYYMMDDHHMMSS" as Unix seconds, UTC; a fraction is
// truncated to the second.
func ParseTimestamp(b []byte) (int64, error) {
	var y, mo, d, h, mi, s int
	num := func(b []byte) (int, bool) {
		n := 0
		for _, c := range b {
			if c < '0' || c > '9' {
				return 0, false
			}
			n = n*10 + int(c-'0')
		}
		return n, len(b) > 0
	}
	ok := true
	get := func(b []byte) int {
		n, k := num(b)
		ok = ok && k
		return n
	}
	switch {
	case len(b) == 14:
		y, mo, d, h, mi, s = get(b[0:4]), get(b[4:6]), get(b[6:8]), get(b[8:10]), get(b[10:12]), get(b[12:14])
	case len(b) >= 19 && b[4] == '-' && b[7] == '-' && (b[10] == ' ' || b[10] == 'T') && b[13] == ':' && b[16] == ':':
		y, mo, d, h, mi, s = get(b[0:4]), get(b[5:7]), get(b[8:10]), get(b[11:13]), get(b[14:16]), get(b[17:19])
		rest := bytes.TrimSuffix(b[19:], []byte("Z"))
		if len(rest) > 0 {
			if rest[0] != '.' {
				return 0, fmt.Errorf("unexpected %q after the seconds", rest)
			}
			get(rest[1:])
		}
	default:
		return 0, errors.New("want YYYY-MM-DD HH:MM:SS[.f] or YYYYMMDDHHMMSS")
	}
	if !ok || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60 {
		return 0, errors.New("not a valid date and time")
	}
	if int64(d) > units.DaysIn(int64(y), int64(mo)) {
		return 0, errors.New("not a valid date and time")
	}
	return units.DaysFromCivil(int64(y), int64(mo), int64(d))*units.Day + int64(h*3600+mi*60+s), nil
}
