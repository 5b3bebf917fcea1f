package mediawiki

// Page and revision assembly: what each start and end tag does to the
// site information, the page and the revision being read, and the page
// returned at </page>.

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/revisit-dev/revisit/ingest/source"
	"github.com/revisit-dev/revisit/internal/human"
	"github.com/revisit-dev/revisit/series"
)

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
		c, ok, err := r.charData(off, string(name))
		if !ok {
			return err
		}
		v := string(bytes.TrimSpace(c))
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
			c, ok, err := r.charData(off, "namespace")
			if !ok {
				return err
			}
			v = string(c)
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
		r.page.Title, r.titleSet = string(t), true
	case "ns":
		if !r.inPage || r.inRev || self {
			return nil
		}
		c, ok, err := r.charData(off, "ns")
		if !ok {
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
		c, ok, err := r.charData(off, "id")
		if !ok {
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
		c, ok, err := r.charData(off, "timestamp")
		if !ok {
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
			case self && !emptyText(tag):
				// deleted text, or a stub's: not in the dump, no checksum
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
		if !self && !r.s.skipText() {
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
		r.revBot = r.opt.IsBot(string(u))
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
		c, ok, err := r.charData(off, "sha1")
		if !ok {
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
