package mediawiki

// The Reader: its options, what it says about the dump (site, version,
// source name, progress), and Next.

import (
	"bytes"
	"crypto/sha1"
	"hash"
	"io"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"

	"github.com/revisit-dev/revisit/ingest/source"
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
