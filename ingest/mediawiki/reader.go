package mediawiki

import (
	"bytes"
	"crypto/sha1"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"

	"github.com/revisit-dev/revisit/ingest/source"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/series"
)

// Options configure a Reader.
type Options struct {
	source.Options
	// Source overrides the source name of every page; by default it is the
	// dump's <dbname>, else a wiki database name at the start of the file
	// name ("enwiki-20140102-…"), else one derived from <base>
	// ("https://de.wiktionary.org/…" → "dewiktionary"), else "mediawiki".
	Source string
	// Keep, if not nil, tells the namespaces the caller keeps. A page of
	// another namespace past the revision cap is not an error even
	// without SkipBad: its revisions are counted and dropped, and it is
	// returned with TooMany set, for the caller to leave out as it would
	// anyway.
	Keep func(namespace int32) bool
	// IsBot, if not nil, is asked about the <username> of each revision's
	// registered contributor (unescaped); RawPage.Bot is filled with its
	// answers (series.NotBot for IP contributors, who are never bots).
	IsBot func(user string) series.BotRule
	// SHA1 fills RawPage.SHA1 with the digest of each revision's <sha1>
	// (see SHA1Digest); 0 for a revision without one.
	SHA1 bool
}

// SHA1Digest is the 64-bit digest of a <sha1> value kept per revision:
// FNV-1a 64 of its bytes (surrounding white space removed), never 0 (0
// marks a revision without a checksum; a value hashing to 0 gets 1). Equal
// checksums give equal digests; two different ones collide with
// probability 2⁻⁶⁴ per comparison, so over the 15 comparisons per
// revision of the revert detection a billion revisions expect about 10⁻⁹
// false matches.
func SHA1Digest(v []byte) uint64 {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return 0
	}
	h := uint64(14695981039346656037)
	for _, c := range v {
		h ^= uint64(c)
		h *= 1099511628211
	}
	if h == 0 {
		h = 1
	}
	return h
}

// SiteInfo is what the dump's <siteinfo> says about the wiki.
type SiteInfo struct {
	DBName     string
	Base       string
	Namespaces *Namespaces // the English defaults when the dump lists none
}

// Reader streams the pages of one dump. It implements source.Reader: Next
// returns each page as soon as its </page> is read, with its revision
// timestamps in dump order (Resolution 1 s) and per-revision Anonymous
// (<ip> contributor) and Minor flags, and Bot flags and SHA1 digests when
// Options ask for them. Memory is bounded by the largest page's revision
// count, not by the dump: at most Options.MaxRevisions·B bytes, B = 10 (8
// for the time, 1 for each flag), + 1 with IsBot, + 8 with SHA1, plus
// append's slack (≤ 25 %). A page
// with more revisions than that cap is bad input, reason
// "too-many-revisions": without SkipBad the revision past the cap is the
// error; with SkipBad the page's revisions are counted and dropped, and the
// page is returned with TooMany set and no revisions, for ingest to count.
type Reader struct {
	s    *scanner
	opt  Options
	site SiteInfo
	src  string

	nsNames   map[int32]string // collected from <siteinfo>
	inSite    bool
	rootSeen  bool
	rootEnded bool
	version   string

	// current page
	inPage, inRev, inContrib, inUpload bool
	pageStart                          int64
	page                               *series.RawPage
	pageIDSet, nsSet, titleSet         bool
	pageBad                            bool
	pageErr                            *source.ParseError // the first bad record of the page, reported at its end (SkipBad)
	nrev                               int64              // good revisions of the page, those past the cap included
	// current revision
	revStart        int64
	revID           int64
	revTime         int64
	revHasTime      bool
	revBad          bool
	revAnon, revMin bool
	revBot          series.BotRule
	revSHA1         uint64

	live atomic.Int64 // nrev rounded down to liveStep, for PageRevisions from another goroutine

	salvaged *series.RawPage // the page cut by the end of input, for Next to return (see salvage)

	// Checksums of the text when the dump has no <sha1> (texthash.go).
	sawSHA1     bool   // a <sha1> element was seen: no more text is hashed
	revSHA1Elem bool   // the revision has a <sha1> element
	revTextSHA1 uint64 // SHA1Digest of the TextSHA1 of the revision's text, 0 if none
	textHash    hash.Hash
	sumBuf      [sha1.Size]byte
	scratch     []byte // unescaped text, one window's worth at most
	textHashed  int64  // revisions whose checksum is their text's
}

// NewReader reads a dump from r (decompressed XML). opt.File names it in
// errors.
func NewReader(r io.Reader, opt Options) *Reader {
	return &Reader{s: newScanner(r), opt: opt}
}

// Site returns the dump's site information (complete once the first page
// has been returned).
func (r *Reader) Site() SiteInfo { return r.site }

// Version is the export schema version from <mediawiki version="…">.
func (r *Reader) Version() string { return r.version }

// PageRevisions is the number of good revisions read so far of the page
// being read, rounded down to a multiple of liveStep (so 0 before the first
// page and for small pages). Unlike the other methods it may be called from
// another goroutine while Next runs: a progress display shows the work
// inside a page of a million revisions with it.
func (r *Reader) PageRevisions() int64 { return r.live.Load() }

// liveStep is how often (in revisions of a page) PageRevisions is updated:
// an atomic store per revision would cost a few % of parsing a stub dump.
const liveStep = 64

// hashingText reports whether revision text is hashed (see texthash.go).
func (r *Reader) hashingText() bool { return r.opt.SHA1 && !r.sawSHA1 }

// TextHashed is the number of revisions returned so far whose checksum is
// the SHA-1 of their text, computed because the dump has no <sha1>.
func (r *Reader) TextHashed() int64 { return r.textHashed }

// Offset is the number of decompressed bytes consumed so far.
func (r *Reader) Offset() int64 { return r.s.offset(r.s.pos) }

// Source is the source name given to pages (see Options.Source).
func (r *Reader) Source() string {
	if r.src == "" {
		r.src = r.deriveSource()
	}
	return r.src
}

var wikiDB = regexp.MustCompile(`^[a-z][a-z0-9_]*(wiki|wiktionary|wikibooks|wikinews|wikiquote|wikisource|wikiversity|wikivoyage|wikimedia)$`)

func (r *Reader) deriveSource() string {
	if r.opt.Source != "" {
		return r.opt.Source
	}
	if r.site.DBName != "" {
		return r.site.DBName
	}
	base := filepath.Base(r.opt.File)
	if i := strings.IndexAny(base, "-."); i > 0 {
		base = base[:i]
	}
	if wikiDB.MatchString(base) {
		return base
	}
	if u, err := url.Parse(r.site.Base); err == nil && u.Host != "" {
		parts := strings.Split(u.Hostname(), ".")
		if len(parts) == 3 && parts[2] == "org" {
			project := strings.TrimSuffix(parts[1], "pedia") // wikipedia → wiki
			db := strings.ReplaceAll(parts[0], "-", "_") + project
			if wikiDB.MatchString(db) {
				return db
			}
		}
	}
	return "mediawiki"
}

func (r *Reader) perr(off int64, reason string, err error) *source.ParseError {
	pe := &source.ParseError{File: r.opt.File, Offset: off, Reason: reason, Err: err}
	if r.inPage && r.page != nil {
		switch {
		case r.titleSet:
			pe.Page = r.page.Title
		case r.pageIDSet:
			pe.Page = fmt.Sprintf("id %d", r.page.ID)
		}
	}
	return pe
}

// bad reports a bad record; it returns a non-nil error when the reader
// must stop (SkipBad not set).
func (r *Reader) bad(off int64, reason string, err error) error {
	if e := r.opt.Bad(r.perr(off, reason, err)); e != nil {
		return e
	}
	return nil
}

// badPage reports a bad record that drops the whole page being read: the
// page's revisions read so far go with it (ParseError.Revisions), so that
// they are counted.
func (r *Reader) badPage(off int64, reason string, err error) error {
	pe := r.perr(off, reason, err)
	if r.inPage {
		pe.Revisions = r.nrev
	}
	return r.opt.Bad(pe)
}

// Next returns the next page, or io.EOF after the last one. Errors are
// *source.ParseError (with SkipBad, bad revisions and pages are reported
// to OnBad and skipped; a truncated input ends the stream after reporting,
// and the page it cut is returned first with its complete revisions and
// RawPage.Truncated set).
func (r *Reader) Next() (*series.RawPage, error) {
	p, err := r.next()
	if err != nil && r.salvaged != nil {
		p, r.salvaged = r.salvaged, nil
		return p, nil
	}
	return p, err
}

func (r *Reader) next() (*series.RawPage, error) {
	s := r.s
	for {
		if r.inRev && !r.revBad {
			r.revisionBody()
		}
		// Inline fast path for the few bytes of indentation between tags.
		if i, lim := s.pos, min(s.end, s.pos+32); true {
			for i < lim && s.buf[i] != '<' {
				i++
			}
			if i < lim {
				s.pos = i
			} else if !s.skipToByte('<') {
				return nil, r.atEnd()
			}
		}
		if s.end-s.pos < 512 && !s.eof {
			s.more(s.pos) // keep short tags inside the window
		}
		// Scan the element name, then (only if attributes follow) the '>'.
		buf := s.buf[s.pos:s.end]
		start := 1
		if len(buf) > 1 && buf[1] == '/' {
			start = 2
		}
		n := start
		for n < len(buf) && !nameEnd[buf[n]] {
			n++
		}
		gt := n
		if n >= len(buf) || buf[n] != '>' {
			gt = s.indexByte('>')
			if gt < 0 {
				return nil, r.atEnd()
			}
			buf = s.buf[s.pos:s.end]
			for n < gt && !nameEnd[buf[n]] {
				n++
			}
		}
		tag := buf[1:gt]
		name := buf[start:n]
		off := s.offset(s.pos)
		s.pos += gt + 1
		if len(tag) == 0 {
			if err := r.malformed(off, "empty tag <>"); err != nil {
				return nil, err
			}
			continue
		}
		switch tag[0] {
		case '/':
			p, err := r.endTag(name, off)
			if err != nil || p != nil {
				return p, err
			}
			continue
		case '?':
			continue
		case '!':
			if bytes.HasPrefix(tag, []byte("!--")) && !bytes.HasSuffix(tag, []byte("--")) {
				if !s.skipPast([]byte("-->")) {
					return nil, r.atEnd()
				}
			}
			continue
		}
		self := tag[len(tag)-1] == '/'
		if err := r.startTag(name, tag, self, off); err != nil {
			return nil, err
		}
	}
}

// nameEnd marks the bytes that end an element name.
var nameEnd = [256]bool{' ': true, '/': true, '>': true, '\t': true, '\n': true, '\r': true}

// content reads the character data after a start tag, up to the next '<'.
// When the closing tag "</name>" follows at once (a leaf element, as
// in every dump), it is consumed too, which saves the main loop a turn.
func (r *Reader) content(off int64, name string) ([]byte, error) {
	s := r.s
	i := s.indexByte('<')
	if i < 0 {
		return nil, r.atEnd()
	}
	c := s.buf[s.pos : s.pos+i]
	s.pos += i
	if name != "" {
		s.closeLeaf(name)
	}
	return c, nil
}

var cdataStart = []byte("<![CDATA[")

// charData reads the character data of a leaf element after its start tag
// — text with entities, and CDATA sections taken as they are — up to the
// next tag, and consumes "</name>" when that is the tag. The bool is false when
// it was not read: a bad entity or character reference is malformed XML
// (the error is malformed's), and the end of input inside it is atEnd's error.
func (r *Reader) charData(off int64, name string) (string, bool, error) {
	s := r.s
	var out []byte
	for {
		c, err := r.content(off, "")
		if err != nil {
			return "", false, err
		}
		v, err := unescape(c) // before has, which may move the window under c
		if err != nil {
			return "", false, r.malformed(off, name+": bad character data: "+err.Error())
		}
		if !s.has(len(cdataStart)) || !bytes.HasPrefix(s.buf[s.pos:s.end], cdataStart) {
			s.closeLeaf(name)
			if out == nil { // no CDATA: the usual case
				return v, true, nil
			}
			return string(append(out, v...)), true, nil
		}
		out = append(out, v...)
		end := s.index(cdataEnd)
		if end < 0 {
			return "", false, r.atEnd()
		}
		out = append(out, s.buf[s.pos+len(cdataStart):s.pos+end]...)
		s.pos += end + len(cdataEnd)
	}
}

var cdataEnd = []byte("]]>")

// skipLeaf skips the character data after a start tag up to the next '<'
// within the window, and the closing tag "</name>" if that is what
// follows. name must point into the current window (no refill since the
// tag was read); outside the window nothing is skipped and the main loop
// carries on as usual.
func (s *scanner) skipLeaf(name []byte) {
	i := bytes.IndexByte(s.buf[s.pos:s.end], '<')
	if i < 0 {
		return
	}
	s.pos += i
	b := s.buf[s.pos:s.end]
	if n := len(name); len(b) >= n+3 && b[1] == '/' && b[2+n] == '>' && string(b[2:2+n]) == string(name) {
		s.pos += n + 3
	}
}

// closeLeaf consumes "</name>" at the current position when it is there.
func (s *scanner) closeLeaf(name string) {
	b := s.buf[s.pos:s.end]
	if n := len(name); len(b) >= n+3 && b[1] == '/' && b[2+n] == '>' && string(b[2:2+n]) == name {
		s.pos += n + 3
	}
}

// malformed reports malformed XML. Inside a page it makes the page bad:
// without SkipBad that is the error; with SkipBad the page's first such
// record is reported at the page's end, with the page's revision count.
func (r *Reader) malformed(off int64, msg string) error {
	pe := r.perr(off, "xml", errors.New("malformed XML: "+msg))
	if r.inPage && r.opt.SkipBad && r.pageErr == nil {
		r.pageBad, r.pageErr = true, pe
		return nil
	}
	if err := r.opt.Bad(pe); err != nil {
		return err
	}
	if r.inPage {
		r.pageBad = true
	}
	return nil
}

// reportPageErr reports the pending bad record of a page (see malformed)
// with the revisions the page had.
func (r *Reader) reportPageErr() error {
	pe := r.pageErr
	if pe == nil {
		return nil
	}
	r.pageErr = nil
	pe.Revisions = r.nrev
	return r.opt.Bad(pe)
}

func (r *Reader) startTag(name, tag []byte, self bool, off int64) error {
	switch string(name) {
	case "mediawiki":
		r.rootSeen = true
		r.version = attr(tag, "version")
	case "siteinfo":
		r.inSite = !self
		r.nsNames = map[int32]string{}
	case "dbname", "base":
		if !r.inSite || self {
			return nil
		}
		c, err := r.content(off, "")
		if err != nil {
			return err
		}
		v, _ := unescape(bytes.TrimSpace(c))
		if name[0] == 'd' {
			r.site.DBName = v
		} else {
			r.site.Base = v
		}
	case "namespace":
		if !r.inSite {
			return nil
		}
		k, ok := parseInt([]byte(attr(tag, "key")))
		if !ok {
			return r.bad(off, "xml", errors.New("malformed XML: <namespace> without a numeric key"))
		}
		v := ""
		if !self {
			c, err := r.content(off, "namespace")
			if err != nil {
				return err
			}
			if v, err = unescape(c); err != nil {
				return r.bad(off, "xml", err)
			}
		}
		r.nsNames[int32(k)] = v
	case "page":
		if r.inPage {
			// The previous page never ended: report it, start afresh.
			if r.pageErr != nil {
				if err := r.reportPageErr(); err != nil {
					return err
				}
			} else if err := r.badPage(r.pageStart, "xml", errors.New("malformed XML: <page> not closed before the next <page>")); err != nil {
				return err
			}
		}
		r.startPage(off)
	case "title":
		if !r.inPage || r.inRev || self {
			return nil
		}
		t, ok, err := r.charData(off, "title")
		if !ok {
			return err
		}
		r.page.Title, r.titleSet = t, true
	case "ns":
		if !r.inPage || r.inRev || self {
			return nil
		}
		c, err := r.content(off, "ns")
		if err != nil {
			return err
		}
		n, ok := parseInt(c)
		if !ok || n != int64(int32(n)) {
			return r.malformed(off, fmt.Sprintf("<ns> %q is not a number", c))
		}
		r.page.Namespace, r.nsSet = int32(n), true
	case "id":
		if !r.inPage || r.inContrib || r.inUpload || self {
			return nil
		}
		if !r.inRev && r.pageIDSet {
			return nil
		}
		c, err := r.content(off, "id")
		if err != nil {
			return err
		}
		n, ok := parseInt(c)
		if !ok {
			return r.malformed(off, fmt.Sprintf("<id> %q is not a number", c))
		}
		if r.inRev {
			r.revID = n
		} else {
			r.page.ID, r.pageIDSet = n, true
		}
	case "redirect":
		if r.inPage && !r.inRev {
			r.page.Redirect = true
		}
	case "revision":
		if !r.inPage {
			return r.bad(off, "xml", errors.New("malformed XML: <revision> outside a <page>"))
		}
		if r.inRev {
			if err := r.malformed(off, "<revision> inside a <revision>"); err != nil {
				return err
			}
		}
		if self {
			return nil
		}
		r.inRev, r.inContrib = true, false
		r.revStart, r.revID, r.revHasTime, r.revBad, r.revAnon, r.revMin = off, 0, false, false, false, false
		r.revBot, r.revSHA1, r.revSHA1Elem, r.revTextSHA1 = series.NotBot, 0, false, 0
	case "timestamp":
		if !r.inRev || r.inContrib || self {
			return nil
		}
		c, err := r.content(off, "timestamp")
		if err != nil {
			return err
		}
		t, perr := parseTimestamp(c)
		if perr != nil {
			r.revBad = true
			return r.bad(off, "timestamp", fmt.Errorf("revision %d: %w: %v", r.revID, source.ErrTimestamp, perr))
		}
		r.revTime, r.revHasTime = t, true
	case "contributor":
		if r.inRev && !self {
			r.inContrib = true
		}
	case "ip":
		if r.inContrib {
			r.revAnon = true
		}
		if !self {
			r.s.skipLeaf(name)
		}
	case "minor":
		if r.inRev {
			r.revMin = true
		}
	case "text":
		if r.hashingText() && r.inRev && !r.inContrib {
			switch {
			case self && attr(tag, "deleted") != "":
				// deleted text: no checksum
			case self:
				r.revTextSHA1 = SHA1Digest([]byte(TextSHA1(nil)))
			default:
				sum, ok := r.hashText()
				if !ok {
					return r.atEnd()
				}
				r.revTextSHA1 = SHA1Digest([]byte(sum))
				r.s.closeLeaf("text")
			}
			return nil
		}
		if !self && !r.s.skipPast([]byte("</text>")) {
			return r.atEnd()
		}
	case "upload":
		if r.inPage && !r.inRev && !self {
			r.inUpload = true
		}
	case "username":
		if r.opt.IsBot == nil || !r.inContrib || self {
			if !self {
				r.s.skipLeaf(name)
			}
			return nil
		}
		u, ok, err := r.charData(off, "username")
		if !ok {
			return err
		}
		r.revBot = r.opt.IsBot(u)
	case "sha1":
		if r.opt.SHA1 && r.inRev && !r.inContrib {
			r.sawSHA1, r.revSHA1Elem = true, true
		}
		if !r.opt.SHA1 || !r.inRev || r.inContrib || self {
			if !self {
				r.s.skipLeaf(name)
			}
			return nil
		}
		c, err := r.content(off, "sha1")
		if err != nil {
			return err
		}
		r.revSHA1 = SHA1Digest(c)
	case "parentid", "comment", "model", "format", "origin", "sitename", "generator", "case", "restrictions":
		// Leaves of no interest: their content and closing tag at once.
		if !self {
			r.s.skipLeaf(name)
		}
	}
	return nil
}

func (r *Reader) startPage(off int64) {
	if r.inSite {
		r.inSite = false
	}
	if r.site.Namespaces == nil {
		if len(r.nsNames) == 0 {
			r.site.Namespaces = defaultNamespaces()
		} else {
			r.site.Namespaces = newNamespaces(r.nsNames)
		}
		r.src = r.deriveSource()
	}
	r.inPage, r.inRev, r.inContrib, r.inUpload = true, false, false, false
	r.pageStart = off
	r.page = &series.RawPage{Source: r.src, Resolution: 1, Offset: off}
	r.pageIDSet, r.nsSet, r.titleSet, r.pageBad = false, false, false, false
	if r.nrev >= liveStep {
		r.live.Store(0)
	}
	r.pageErr, r.nrev = nil, 0
}

// droppedNamespace reports whether the caller leaves out the page being
// read for its namespace (Options.Keep), as far as it is known yet.
func (r *Reader) droppedNamespace() bool {
	switch {
	case r.opt.Keep == nil:
		return false
	case r.nsSet:
		return !r.opt.Keep(r.page.Namespace)
	case r.titleSet:
		return !r.opt.Keep(r.site.Namespaces.FromTitle(r.page.Title))
	}
	return false
}

// endTag handles a closing tag; at </page> it returns the finished page.
func (r *Reader) endTag(name []byte, off int64) (*series.RawPage, error) {
	switch string(name) {
	case "siteinfo":
		r.inSite = false
	case "contributor":
		r.inContrib = false
	case "upload":
		r.inUpload = false
	case "revision":
		if !r.inRev {
			return nil, r.malformed(off, "</revision> without <revision>")
		}
		r.inRev, r.inContrib = false, false
		if r.revBad {
			return nil, nil // already reported
		}
		if !r.revHasTime {
			return nil, r.bad(r.revStart, "timestamp", fmt.Errorf("revision %d has no <timestamp>", r.revID))
		}
		r.nrev++
		if r.nrev%liveStep == 0 {
			r.live.Store(r.nrev)
		}
		p := r.page
		if max := r.opt.MaxRevisions; max > 0 && r.nrev > max {
			if p.TooMany == 0 {
				if !r.opt.SkipBad && !r.droppedNamespace() {
					return nil, r.bad(r.revStart, "too-many-revisions", fmt.Errorf("revision %d: the page has more than %s revisions (--max-revisions-per-page)", r.revID, human.Comma(max)))
				}
				// Counted from here on, not kept; ingest reports the
				// page (with its count) when it is returned.
				p.Revisions, p.Anonymous, p.Minor, p.Bot, p.SHA1 = nil, nil, nil, nil, nil
			}
			p.TooMany = r.nrev
			return nil, nil
		}
		p.Revisions = append(p.Revisions, r.revTime)
		p.Anonymous = append(p.Anonymous, r.revAnon)
		p.Minor = append(p.Minor, r.revMin)
		if r.opt.IsBot != nil {
			bot := r.revBot
			if r.revAnon {
				bot = series.NotBot
			}
			p.Bot = append(p.Bot, bot)
		}
		if r.opt.SHA1 {
			sum := r.revSHA1
			if !r.revSHA1Elem && r.revTextSHA1 != 0 {
				sum = r.revTextSHA1
				r.textHashed++
			}
			p.SHA1 = append(p.SHA1, sum)
		}
	case "page":
		if !r.inPage {
			return nil, r.malformed(off, "</page> without <page>")
		}
		if r.inRev {
			if err := r.malformed(off, "</page> inside an open <revision>"); err != nil {
				return nil, err
			}
		}
		r.inPage, r.inRev, r.inContrib, r.inUpload = false, false, false, false
		p := r.page
		r.page = nil
		switch {
		case r.pageBad:
			return nil, r.reportPageErr() // reported here if it was pending
		case !r.titleSet || !r.pageIDSet:
			r.inPage = true // so the error names what is known of the page
			r.page = p
			err := r.badPage(r.pageStart, "xml", errors.New("malformed XML: page without <title> or <id>"))
			r.inPage, r.page = false, nil
			return nil, err
		case p.TooMany > 0:
			// Over the cap (reported when it was passed, under SkipBad):
			// returned without revisions so that ingest counts them.
		case len(p.Revisions) == 0:
			r.inPage, r.page = true, p
			err := r.bad(r.pageStart, "no-revisions", source.ErrNoUpdates)
			r.inPage, r.page = false, nil
			return nil, err
		}
		if !r.nsSet {
			p.Namespace = r.site.Namespaces.FromTitle(p.Title)
		}
		p.Group = r.site.Namespaces.Group(p.Namespace)
		return p, nil
	case "mediawiki":
		r.rootEnded = true
	}
	return nil, nil
}

// atEnd decides what the end of input means: io.EOF after </mediawiki>;
// otherwise the dump is truncated (or the decompressor failed), which is
// reported with the page being read.
func (r *Reader) atEnd() error {
	s := r.s
	if s.err == nil && r.rootEnded && !r.inPage {
		return io.EOF
	}
	off := s.offset(s.end)
	reason, cause := "truncated", error(source.ErrTruncated)
	switch {
	case s.err != nil && errors.Is(s.err, errTooLong):
		reason, cause = "xml", s.err
	case s.err != nil:
		reason, cause = "corrupt", s.err
		if sh, ok := s.err.(interface{ Short() string }); ok {
			cause = shortError{s.err, sh.Short()} // file and offset are in the ParseError
		}
	case !r.rootSeen:
		reason, cause = "xml", errors.New("not a MediaWiki XML export (no <mediawiki> element)")
	}
	if r.inPage && r.pageErr != nil {
		// The page had a bad record pending: it goes with the page's
		// revisions, the end of input on its own.
		if err := r.reportPageErr(); err != nil {
			return err
		}
		r.nrev = 0
		r.live.Store(0)
	}
	if r.inPage && (reason == "truncated" || reason == "corrupt") && !r.pageBad && r.titleSet && r.pageIDSet && r.nrev > 0 {
		return r.salvage(off, reason, cause)
	}
	if err := r.badPage(off, reason, cause); err != nil {
		return err
	}
	r.inPage = false
	r.rootEnded = true
	s.err = nil
	s.eof = true
	return io.EOF
}

// salvage ends the input inside a page that has complete revisions (its
// title and id known, no bad record): the cut is reported as one bad record
// (reason "truncated" or "corrupt") that drops nothing, and the page is
// kept with its complete revisions, marked Truncated, for Next to return
// before io.EOF — the revision being read at the cut is lost, as in what
// `xz -dc` recovers. Without SkipBad the cut is the error, saying how many
// complete revisions --skip-bad keeps.
func (r *Reader) salvage(off int64, reason string, cause error) error {
	if !r.opt.SkipBad {
		return r.perr(off, reason, fmt.Errorf("%w, after %s of the page (--skip-bad keeps them, with the pages before, and marks the page truncated)",
			cause, human.Count(r.nrev, "complete revision", "complete revisions")))
	}
	if err := r.opt.Bad(r.perr(off, reason, fmt.Errorf("%w; the page's %s before it are kept and the page is marked truncated",
		cause, human.Count(r.nrev, "complete revision", "complete revisions")))); err != nil {
		return err
	}
	p := r.page
	if !r.nsSet {
		p.Namespace = r.site.Namespaces.FromTitle(p.Title)
	}
	p.Group = r.site.Namespaces.Group(p.Namespace)
	p.Truncated = true
	r.salvaged = p
	r.page, r.inPage, r.inRev, r.inContrib, r.inUpload = nil, false, false, false, false
	r.rootEnded = true
	r.s.err = nil
	r.s.eof = true
	return io.EOF
}

// attr returns the value of name="…" in a tag's bytes ("" if absent).
func attr(tag []byte, name string) string {
	i := 0
	for {
		j := bytes.Index(tag[i:], []byte(name+"="))
		if j < 0 {
			return ""
		}
		j += i
		if j > 0 && tag[j-1] != ' ' && tag[j-1] != '\t' && tag[j-1] != '\n' {
			i = j + len(name)
			continue
		}
		v := tag[j+len(name)+1:]
		if len(v) == 0 || (v[0] != '"' && v[0] != '\'') {
			return ""
		}
		k := bytes.IndexByte(v[1:], v[0])
		if k < 0 {
			return ""
		}
		s, _ := unescape(v[1 : 1+k])
		return s
	}
}

// shortError replaces the message of an error that repeats what the
// ParseError around it says, keeping it for errors.Is/As.
type shortError struct {
	err error
	msg string
}

func (e shortError) Error() string { return e.msg }
func (e shortError) Unwrap() error { return e.err }

// revisionBody is the fast path through a revision's elements: it jumps
// from '<' to '<' (character data never holds a literal '<' in a dump, so
// this also steps over text bodies) and handles the elements a stub or full
// dump repeats in every revision by their first bytes, without parsing tag
// names. At anything else — <id> and <timestamp> of the revision, </revision>,
// a tag with attributes it does not know, the end of the window — it
// returns with the scanner at that '<' and the main loop takes over, so
// malformed input is checked there as usual.
func (r *Reader) revisionBody() {
	s := r.s
	for {
		i := bytes.IndexByte(s.buf[s.pos:s.end], '<')
		if i < 0 {
			return
		}
		s.pos += i
		b := s.buf[s.pos:s.end]
		if len(b) < 16 {
			return
		}
		switch b[1] {
		case '/':
			switch {
			case b[2] == 'c' && string(b[2:14]) == "contributor>":
				r.inContrib = false
				s.pos += 14
				continue
			case b[2] == 'r' || b[2] == 'p' || b[2] == 'u' || b[2] == 'm':
				return // </revision>, </page>, … : bookkeeping in endTag
			}
		case 'i':
			if string(b[1:4]) == "ip>" {
				r.revAnon = r.revAnon || r.inContrib
				s.pos += 4
				continue
			}
			if string(b[1:4]) != "id>" {
				return
			}
			if !r.inContrib {
				// The revision's own id, when the value and "</id>" are in
				// the window and well formed; else startTag reads it.
				v, n, ok := leafValue(b[4:], "id")
				if !ok {
					return
				}
				id, ok := parseInt(v)
				if !ok {
					return
				}
				r.revID = id
				s.pos += 4 + n
				continue
			}
		case 'c':
			if string(b[1:13]) == "contributor>" {
				r.inContrib = true
				s.pos += 13
				continue
			}
			if string(b[1:9]) != "comment>" {
				return
			}
		case 'm':
			if string(b[1:6]) == "minor" && nameEnd[b[6]] {
				r.revMin = true
			} else if string(b[1:7]) != "model>" {
				return
			}
		case 't':
			if string(b[1:11]) == "timestamp>" && !r.inContrib {
				v, n, ok := leafValue(b[11:], "timestamp")
				if !ok {
					return
				}
				t, err := parseTimestamp(v)
				if err != nil {
					return // startTag reports it
				}
				r.revTime, r.revHasTime = t, true
				s.pos += 11 + n
				continue
			}
			if string(b[1:5]) != "text" || !nameEnd[b[5]] || r.hashingText() {
				return
			}
		case 'p':
			if string(b[1:10]) != "parentid>" {
				return
			}
		case 'u':
			if string(b[1:10]) != "username>" || r.opt.IsBot != nil {
				return
			}
		case 's':
			if string(b[1:6]) != "sha1>" || r.opt.SHA1 {
				return
			}
		case 'f':
			if string(b[1:8]) != "format>" {
				return
			}
		case 'o':
			if string(b[1:8]) != "origin>" {
				return
			}
		default:
			return
		}
		s.pos++ // an element of no interest, or its closing tag
	}
}

// leafValue splits b, the bytes after a start tag, into the character data
// up to "</name>" and the length consumed including that closing tag; ok is
// false when the closing tag is not next (or not in b).
func leafValue(b []byte, name string) (v []byte, n int, ok bool) {
	i := bytes.IndexByte(b, '<')
	if i < 0 || len(b) < i+len(name)+3 || b[i+1] != '/' || string(b[i+2:i+2+len(name)]) != name || b[i+2+len(name)] != '>' {
		return nil, 0, false
	}
	return b[:i], i + len(name) + 3, true
}
