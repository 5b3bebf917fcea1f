package generate

import (
	"io"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/revisit-dev/revisit/model"
)

// MediaWiki dump constants: the output is a stub-meta-history dump of
// export schema 0.11 for a wiki called DBName.
const (
	DBName   = "generatedwiki"
	SiteName = "Generated Wiki"
)

const mediawikiHeader = `<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.mediawiki.org/xml/export-0.11/ http://www.mediawiki.org/xml/export-0.11.xsd" version="0.11" xml:lang="en">
  <siteinfo>
    <sitename>` + SiteName + `</sitename>
    <dbname>` + DBName + `</dbname>
    <base>https://generated.invalid/wiki/Main_Page</base>
    <generator>revisit generate (MediaWiki export schema 0.11)</generator>
    <case>first-letter</case>
    <namespaces>
      <namespace key="-2" case="first-letter">Media</namespace>
      <namespace key="-1" case="first-letter">Special</namespace>
      <namespace key="0" case="first-letter" />
      <namespace key="1" case="first-letter">Talk</namespace>
      <namespace key="2" case="first-letter">User</namespace>
      <namespace key="3" case="first-letter">User talk</namespace>
      <namespace key="4" case="first-letter">Wikipedia</namespace>
      <namespace key="5" case="first-letter">Wikipedia talk</namespace>
      <namespace key="10" case="first-letter">Template</namespace>
      <namespace key="11" case="first-letter">Template talk</namespace>
      <namespace key="14" case="first-letter">Category</namespace>
      <namespace key="15" case="first-letter">Category talk</namespace>
    </namespaces>
  </siteinfo>
`

// NamespaceName is the group of a page in namespace ns: "Talk" for 1 and
// "(Main)" for 0, as MediaWiki's own page lists name it.
func NamespaceName(ns int32) string {
	if ns == 1 {
		return "Talk"
	}
	return "(Main)"
}

var log50000 = math.Log(50000)

var comments = []string{"", "", "", "copyedit", "/* History */ expand", "rv vandalism & <cleanup>", "typo", "Added reference", "", ""}

// mediawikiWriter writes pages as <page> elements. Revision ids increase
// through the whole dump; each revision's contributor, flags, size and
// sha1 are drawn from the page's cosmetic stream.
type mediawikiWriter struct {
	w     io.Writer
	buf   []byte
	revID int64
	seed  uint64
	n     int64 // bytes written
}

func newMediaWikiWriter(w io.Writer, seed uint64) (*mediawikiWriter, error) {
	x := &mediawikiWriter{w: w, seed: seed, buf: make([]byte, 0, 1<<16)}
	x.buf = append(x.buf, mediawikiHeader...)
	return x, x.flush()
}

func (x *mediawikiWriter) flush() error {
	n, err := x.w.Write(x.buf)
	x.n += int64(n)
	x.buf = x.buf[:0]
	return err
}

func (x *mediawikiWriter) page(p *Page) error {
	r := model.NewRand(x.seed, uint64(p.Index)|cosmetic)
	b := x.buf
	b = append(b, "  <page>\n    <title>"...)
	b = appendEscaped(b, p.Title)
	b = append(b, "</title>\n    <ns>"...)
	b = strconv.AppendInt(b, int64(p.Namespace), 10)
	b = append(b, "</ns>\n    <id>"...)
	b = strconv.AppendInt(b, p.ID, 10)
	b = append(b, "</id>\n"...)
	size := 200 + r.IntN(5000)
	var idBuf, parentBuf [20]byte
	var parent []byte
	var ri *rand.Rand // the injected revisions' stream
	var lastSHA []byte
	inj := p.Inject
	if len(inj) > 0 {
		ri = model.NewRand(x.seed, uint64(p.Index)|inject|cosmetic)
		lastSHA = make([]byte, 0, 31)
	}
	for k, t := range p.Revisions {
		x.revID += 1 + int64(r.IntN(3))
		id := strconv.AppendInt(idBuf[:0], x.revID, 10)
		b = append(b, "    <revision>\n      <id>"...)
		b = append(b, id...)
		b = append(b, "</id>\n"...)
		if parent != nil {
			b = append(b, "      <parentid>"...)
			b = append(b, parent...)
			b = append(b, "</parentid>\n"...)
		}
		b = append(b, "      <timestamp>"...)
		b = appendTimestamp(b, t, 'T', true)
		b = append(b, "</timestamp>\n      <contributor>\n"...)
		v := r.Uint64()
		if v%5 == 0 {
			b = append(b, "        <ip>"...)
			b = appendIP(b, v>>8)
			b = append(b, "</ip>\n"...)
		} else {
			u := logUniform(r, 50000, log50000)
			b = append(b, "        <username>Editor"...)
			b = strconv.AppendInt(b, int64(u), 10)
			b = append(b, "</username>\n        <id>"...)
			b = strconv.AppendInt(b, int64(u)*7+3, 10)
			b = append(b, "</id>\n"...)
		}
		b = append(b, "      </contributor>\n"...)
		if v>>40%4 == 0 {
			b = append(b, "      <minor />\n"...)
		}
		if c := comments[v>>48%uint64(len(comments))]; c != "" {
			b = append(b, "      <comment>"...)
			b = appendEscaped(b, c)
			b = append(b, "</comment>\n"...)
		}
		b = append(b, "      <origin>"...)
		b = append(b, id...)
		b = append(b, "</origin>\n      <model>wikitext</model>\n      <format>text/x-wiki</format>\n      <text bytes=\""...)
		size += int(v>>20%401) - 180
		if size < 0 {
			size = -size
		}
		b = strconv.AppendInt(b, int64(size), 10)
		b = append(b, "\" id=\""...)
		b = append(b, id...)
		b = append(b, "\" />\n      <sha1>"...)
		n := len(b)
		b = appendSHA1(b, r)
		if lastSHA != nil {
			lastSHA = append(lastSHA[:0], b[n:]...)
		}
		b = append(b, "</sha1>\n    </revision>\n"...)
		parent = append(parentBuf[:0], id...)
		for len(inj) > 0 && inj[0].After == k {
			x.revID += 1 + int64(ri.IntN(3))
			b = appendInjected(b, x.revID, parent, inj[0], lastSHA, ri)
			parent = strconv.AppendInt(parentBuf[:0], x.revID, 10)
			inj = inj[1:]
		}
		if len(b) > 1<<16 {
			x.buf = b
			if err := x.flush(); err != nil {
				return err
			}
			b = x.buf
		}
	}
	b = append(b, "  </page>\n"...)
	x.buf = b
	if len(b) > 1<<15 {
		return x.flush()
	}
	return nil
}

func (x *mediawikiWriter) close() error {
	x.buf = append(x.buf, "</mediawiki>\n"...)
	return x.flush()
}

func (x *mediawikiWriter) bytes() int64 { return x.n }

// appendIP appends an IPv4 address from the three documentation ranges
// (RFC 5737), so no real address appears in generated dumps.
func appendIP(b []byte, v uint64) []byte {
	nets := [3]string{"192.0.2.", "198.51.100.", "203.0.113."}
	b = append(b, nets[v%3]...)
	return strconv.AppendInt(b, int64(v>>2%254+1), 10)
}

// appendInjected appends one injected revision (see inject.go) with id
// and parent: a vandal edit by an IP, a revert restoring restore (the
// <sha1> of the revision before the gap) by a registered editor, or a bot
// edit. Its other fields are drawn from ri.
func appendInjected(b []byte, id int64, parent []byte, in Injected, restore []byte, ri *rand.Rand) []byte {
	b = append(b, "    <revision>\n      <id>"...)
	b = strconv.AppendInt(b, id, 10)
	b = append(b, "</id>\n      <parentid>"...)
	b = append(b, parent...)
	b = append(b, "</parentid>\n      <timestamp>"...)
	b = appendTimestamp(b, in.Time, 'T', true)
	b = append(b, "</timestamp>\n      <contributor>\n"...)
	v := ri.Uint64()
	comment := ""
	switch in.Kind {
	case InjectVandal:
		b = append(b, "        <ip>"...)
		b = appendIP(b, v>>8)
		b = append(b, "</ip>\n"...)
	case InjectRevert:
		b = append(b, "        <username>Patroller"...)
		b = strconv.AppendInt(b, int64(v%97), 10)
		b = append(b, "</username>\n        <id>"...)
		b = strconv.AppendInt(b, int64(v%97)*11+5, 10)
		b = append(b, "</id>\n"...)
		comment = "Reverted edits (identity revert)"
	case InjectBot:
		b = append(b, "        <username>"...)
		b = append(b, botNames[v%uint64(len(botNames))]...)
		b = append(b, "</username>\n        <id>"...)
		b = strconv.AppendInt(b, int64(v%uint64(len(botNames)))+900001, 10)
		b = append(b, "</id>\n"...)
		comment = "Bot: fixing links"
	}
	b = append(b, "      </contributor>\n"...)
	if comment != "" {
		b = append(b, "      <comment>"...)
		b = append(b, comment...)
		b = append(b, "</comment>\n"...)
	}
	b = append(b, "      <model>wikitext</model>\n      <format>text/x-wiki</format>\n      <text bytes=\""...)
	b = strconv.AppendInt(b, int64(100+v>>32%5000), 10)
	b = append(b, "\" id=\""...)
	b = strconv.AppendInt(b, id, 10)
	b = append(b, "\" />\n      <sha1>"...)
	if in.Kind == InjectRevert {
		b = append(b, restore...)
	} else {
		b = appendSHA1(b, ri)
	}
	return append(b, "</sha1>\n    </revision>\n"...)
}
