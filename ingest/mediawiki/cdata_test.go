package mediawiki

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"github.com/revisit-dev/revisit/ingest/source"
	"github.com/revisit-dev/revisit/internal/realdata"
	"github.com/revisit-dev/revisit/series"
)

// attack is the content of a CDATA section that looks like the end of a
// revision and two more: in XML it is text, never revisions.
const attack = `</text></comment></username></ip></revision><revision><id>66</id><timestamp>2031-01-01T00:00:00Z</timestamp>` +
	`<text>x</text></revision><revision><id>67</id><timestamp>2032-01-01T00:00:00Z</timestamp><text>`

// cdataDump is a dump with CDATA sections (and comments) wherever
// character data can be: in <text>, <comment>, <username>, <ip>, the
// title, the ids and a timestamp, and between elements, several of them
// one after another, with the attack above inside most.
func cdataDump() string {
	var b strings.Builder
	b.WriteString(`<mediawiki version="0.4"><siteinfo><dbname>x</dbname><namespaces><namespace key="1"><![CDATA[Talk]]></namespace></namespaces></siteinfo>` + "\n")
	b.WriteString(`<page><title>A<![CDATA[ & <B>]]></title><id><![CDATA[7]]></id>` + "\n")
	revs := []string{
		`<text xml:space="preserve"><![CDATA[` + attack + `]]></text>`,
		`<comment><![CDATA[` + attack + `]]></comment><text xml:space="preserve">plain &amp; simple</text>`,
		`<contributor><username>U<![CDATA[` + attack + `]]></username><id>3</id></contributor><text>t</text>`,
		`<contributor><ip><![CDATA[` + attack + `]]></ip></contributor><minor/><text>t</text>`,
		`<text>a<![CDATA[<b>]]><![CDATA[` + attack + `]]>&lt;c<!-- </text></revision> -->d</text>`,
		`<![CDATA[` + attack + `]]><!-- ` + attack + ` --><text/>`,
	}
	for i, body := range revs {
		ts := "2001-01-0" + string(rune('1'+i)) + "T00:00:00Z"
		if i == 2 {
			ts = "<![CDATA[" + ts + "]]>"
		}
		b.WriteString("<revision><id>" + string(rune('1'+i)) + "</id><timestamp>" + ts + "</timestamp>" + body + "</revision>\n")
	}
	b.WriteString("</page>\n<page><title><![CDATA[Talk:]]>T</title><id>8</id><revision><id>9</id><timestamp>2002-01-01T00:00:00Z</timestamp>" +
		"<text><![CDATA[" + attack + "]]></text></revision></page>\n</mediawiki>\n")
	return b.String()
}

// CDATA sections are text wherever they stand: the pages and revisions are
// those encoding/xml finds (refParse), read whole, byte by byte and in halves,
// with and without the options that read usernames and text; none comes from
// inside a section.
func TestCDATAIsText(t *testing.T) {
	doc := cdataDump()
	want := refParse(t, strings.NewReader(doc))
	if len(want) != 2 || len(want[0].Revisions) != 6 || want[0].Title != "A & <B>" || want[1].NS != 1 {
		t.Fatalf("reference: %+v", want)
	}
	opts := map[string]Options{
		"default": {},
		"bots":    {IsBot: func(string) series.BotRule { return series.NotBot }},
		"sha1":    {SHA1: true},
	}
	for oname, opt := range opts {
		for rname, r := range map[string]func() io.Reader{
			"whole":    func() io.Reader { return strings.NewReader(doc) },
			"one-byte": func() io.Reader { return iotest.OneByteReader(strings.NewReader(doc)) },
			"half":     func() io.Reader { return iotest.HalfReader(strings.NewReader(doc)) },
		} {
			opt.File = "cdata.xml"
			got, err := readAllPages(t, r(), opt)
			if err != nil {
				t.Fatalf("%s/%s: %v", oname, rname, err)
			}
			if len(got) != len(want) {
				t.Fatalf("%s/%s: %d pages, want %d", oname, rname, len(got), len(want))
			}
			for i, p := range got {
				g := refPage{ID: p.ID, Title: p.Title, NS: p.Namespace, Redirect: p.Redirect, Revisions: p.Revisions, Anonymous: p.Anonymous, Minor: p.Minor}
				if !reflect.DeepEqual(g, want[i]) {
					t.Errorf("%s/%s: page %d\n got %+v\nwant %+v", oname, rname, i, g, want[i])
				}
			}
		}
	}
}

// The checksum of a text is that of its characters: entities decoded outside
// CDATA sections and not inside, comments left out, sections split anywhere (a
// window boundary inside "]]>" included) joined.
func TestCDATATextChecksums(t *testing.T) {
	long := strings.Repeat("a]]b]c&amp;<x>", 200_000) // 2.8 MB: several windows, "]" everywhere
	cases := []struct{ xml, text string }{
		{`<![CDATA[a &amp; <b>]]>`, "a &amp; <b>"},
		{`x &amp; <![CDATA[&amp;]]> y`, "x & &amp; y"},
		{`<![CDATA[]]]]><![CDATA[>]]>`, "]]>"},
		{`<![CDATA[]]>`, ""},
		{`a<!-- c -->b`, "ab"},
		{`<![CDATA[` + attack + `]]>`, attack},
		{`<![CDATA[` + long + `]]>`, long},
		{`&lt;<![CDATA[` + long + `]]>&gt;`, "<" + long + ">"},
	}
	var b strings.Builder
	b.WriteString(`<mediawiki version="0.4"><siteinfo><dbname>x</dbname></siteinfo><page><title>T</title><ns>0</ns><id>1</id>`)
	for i, c := range cases {
		b.WriteString("<revision><id>1</id><timestamp>2001-01-01T00:00:0" + string(rune('0'+i)) + "Z</timestamp><text xml:space=\"preserve\">" + c.xml + "</text></revision>")
	}
	b.WriteString("</page></mediawiki>")
	for rname, r := range map[string]io.Reader{
		"whole": strings.NewReader(b.String()),
		"half":  iotest.HalfReader(strings.NewReader(b.String())),
	} {
		mr := NewReader(r, Options{Options: source.Options{File: "f.xml"}, SHA1: true})
		p, err := mr.Next()
		if err != nil {
			t.Fatalf("%s: %v", rname, err)
		}
		if len(p.SHA1) != len(cases) {
			t.Fatalf("%s: %d revisions, want %d", rname, len(p.SHA1), len(cases))
		}
		for i, c := range cases {
			if want := SHA1Digest([]byte(TextSHA1([]byte(c.text)))); p.SHA1[i] != want {
				t.Errorf("%s: text %d (%.40q): digest %x, want %x", rname, i, c.xml, p.SHA1[i], want)
			}
		}
	}
}

// xmlText decodes XML character data (entities and character references)
// with encoding/xml.
func xmlText(t *testing.T, s string) string {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader("<x>" + s + "</x>"))
	var v string
	if err := d.DecodeElement(&v, nil); err != nil {
		t.Fatalf("decoding %.60q: %v", s, err)
	}
	return v
}

// toCDATA writes the character data s (escaped XML) as the same text in
// another form: its first half (cut between characters) escaped again,
// its second half in CDATA sections, a section split wherever the text
// holds "]]>".
func toCDATA(t *testing.T, s string) string {
	v := xmlText(t, s)
	cut := len(v) / 2
	for cut > 0 && !utf8.RuneStart(v[cut]) {
		cut--
	}
	var b strings.Builder
	xml.EscapeText(&b, []byte(v[:cut]))
	b.WriteString("<![CDATA[" + strings.ReplaceAll(v[cut:], "]]>", "]]]]><![CDATA[>") + "]]>")
	return b.String()
}

var (
	textElem  = regexp.MustCompile(`(?s)(<text(?:\s[^>]*[^/])?>)(.*?)(</text>)`)
	sha1Elem  = regexp.MustCompile(`<sha1>[^<]*</sha1>|<sha1\s*/>`)
	leafElems = []*regexp.Regexp{
		regexp.MustCompile(`(?s)(<title>)(.*?)(</title>)`),
		regexp.MustCompile(`(?s)(<comment>)(.*?)(</comment>)`),
		regexp.MustCompile(`(?s)(<username>)(.*?)(</username>)`),
	}
)

// rewrite replaces the content of every match of re (three groups: start
// tag, content, end tag) with f of it.
func rewrite(re *regexp.Regexp, doc string, f func(string) string) string {
	return re.ReplaceAllStringFunc(doc, func(m string) string {
		g := re.FindStringSubmatch(m)
		return g[1] + f(g[2]) + g[3]
	})
}

// Real dumps with their text, titles, comments and usernames moved into
// CDATA sections read as the originals: the same pages and revisions, and
// (with the <sha1> elements removed, so that texts are hashed) the
// checksum of every text is the SHA-1 of its characters as encoding/xml
// decodes them from the original. Where the original has MediaWiki's own
// <sha1>, nearly all agree (a few real revisions carry a stored checksum
// that is not their text's). The attack inside one text adds no revision.
func TestCDATARealDumps(t *testing.T) {
	revElem := regexp.MustCompile(`(?s)<revision>.*?</revision>`)
	sha1Value := regexp.MustCompile(`<sha1>([^<]+)</sha1>`)
	for _, f := range []string{
		"wikimedia__analytics-refinery-source/MediawikiDumperOutputTest.Simplewiki.Sample.xml",
		"Schuwi__wikiwho_rs/Hallo.xml",
		"wikimedia__pywikibot/article-pyrus.xml",
	} {
		data, err := os.ReadFile(realdata.Path(t, "wikipedia/"+f))
		if err != nil {
			t.Fatal(err)
		}
		doc := string(data)
		// The reference: per revision in document order, the digest of
		// its decoded text (0: no text to hash) and of its <sha1>.
		var ref, stored []uint64
		for _, r := range revElem.FindAllString(doc, -1) {
			var d, s uint64
			if m := textElem.FindStringSubmatch(r); m != nil {
				d = SHA1Digest([]byte(TextSHA1([]byte(xmlText(t, m[2])))))
			}
			if m := sha1Value.FindStringSubmatch(r); m != nil {
				s = SHA1Digest([]byte(m[1]))
			}
			ref, stored = append(ref, d), append(stored, s)
		}
		cdata := rewrite(textElem, doc, func(s string) string { return toCDATA(t, s) })
		for _, re := range leafElems {
			cdata = rewrite(re, cdata, func(s string) string { return toCDATA(t, s) })
		}
		cdata = sha1Elem.ReplaceAllString(cdata, "")
		i := strings.Index(cdata, "</text>")
		attacked := cdata[:i] + "<![CDATA[" + attack + "]]>" + cdata[i:]

		opt := Options{Options: source.Options{File: f}, SHA1: true}
		orig, err := readAllPages(t, strings.NewReader(doc), opt)
		if err != nil {
			t.Fatal(err)
		}
		for name, d := range map[string]string{"cdata": cdata, "attacked": attacked} {
			got, err := readAllPages(t, strings.NewReader(d), opt)
			if err != nil {
				t.Fatalf("%s %s: %v", f, name, err)
			}
			if len(got) != len(orig) {
				t.Fatalf("%s %s: %d pages, want %d", f, name, len(got), len(orig))
			}
			var digests []uint64
			for k, p := range got {
				o := orig[k]
				if p.ID != o.ID || p.Title != o.Title || p.Namespace != o.Namespace || !reflect.DeepEqual(p.Revisions, o.Revisions) ||
					!reflect.DeepEqual(p.Anonymous, o.Anonymous) || !reflect.DeepEqual(p.Minor, o.Minor) {
					t.Errorf("%s %s: page %d differs\n got %+v\nwant %+v", f, name, k, p, o)
				}
				digests = append(digests, p.SHA1...)
			}
			if len(digests) != len(ref) {
				t.Fatalf("%s %s: %d revisions, reference %d", f, name, len(digests), len(ref))
			}
			hashed, agree, withSHA1 := 0, 0, 0
			for j, want := range ref {
				if want == 0 || (name == "attacked" && j == 0) {
					continue // no text, or the text holding the attack
				}
				hashed++
				if digests[j] != want {
					t.Errorf("%s %s: revision %d: digest %x, SHA-1 of the decoded text %x", f, name, j, digests[j], want)
				}
				if stored[j] != 0 {
					withSHA1++
					if digests[j] == stored[j] {
						agree++
					}
				}
			}
			t.Logf("%s %s: %d texts hashed, %d of %d agree with MediaWiki's <sha1>", f, name, hashed, agree, withSHA1)
			if hashed < 5 || (withSHA1 > 0 && agree*10 < withSHA1*9) {
				t.Errorf("%s %s: %d texts hashed; %d of %d agree with MediaWiki's <sha1>", f, name, hashed, agree, withSHA1)
			}
		}
	}
}

// A CDATA section or comment never closed ends the input inside it: the
// dump is truncated there, not read on as markup.
func TestCDATAUnterminated(t *testing.T) {
	for _, body := range []string{
		`<revision><id>1</id><timestamp>2001-01-01T00:00:00Z</timestamp><text><![CDATA[` + attack + `</text></revision></page></mediawiki>`,
		`<revision><id>1</id><timestamp>2001-01-01T00:00:00Z</timestamp><text>a<!-- </text></revision></page></mediawiki>`,
		`<![CDATA[<revision><id>1</id><timestamp>2001-01-01T00:00:00Z</timestamp><text/></revision></page></mediawiki>`,
	} {
		for _, sha := range []bool{false, true} {
			doc := head + `<page><title>T</title><ns>0</ns><id>1</id>` + body
			got, err := readAllPages(t, bytes.NewReader([]byte(doc)), Options{Options: source.Options{File: "f.xml"}, SHA1: sha})
			if err == nil || len(got) != 0 {
				t.Errorf("sha1 %v, %.60q: %+v, %v; want an error and no page", sha, body, got, err)
			}
		}
	}
}

// A processing instruction (<?target …?>) is markup whose content is
// neither text nor tags, up to its "?>": like a comment, it is nothing,
// wherever it stands — in <text>, in a leaf such as <comment> or <title>,
// between a revision's elements — and the attack inside one adds no
// revision, and no character to a text's checksum. Before, a '>' ended it,
// and the 2031 and 2032 revisions inside one were read.
func TestProcessingInstructionsAreNothing(t *testing.T) {
	pi := "<?x " + attack + "?>"
	var b strings.Builder
	b.WriteString(`<?xml version="1.0"?><mediawiki version="0.4"><siteinfo><dbname>x</dbname></siteinfo>` + "\n")
	b.WriteString(`<page><title>A` + pi + `B</title><id>7</id>` + "\n")
	revs := []string{
		`<text xml:space="preserve">a` + pi + `b</text>`,
		`<comment>c` + pi + `</comment><text>ab</text>`,
		pi + `<contributor><ip>1.2.3.4` + pi + `</ip></contributor><text>a<?y >?>b</text>`,
		`<text><?z ]]> <![CDATA[ </text>?>a<![CDATA[b]]></text>`,
	}
	for i, body := range revs {
		b.WriteString("<revision><id>" + string(rune('1'+i)) + "</id><timestamp>2001-01-0" + string(rune('1'+i)) + "T00:00:00Z</timestamp>" + body + "</revision>\n")
	}
	b.WriteString("</page>\n</mediawiki>\n")
	doc := b.String()
	want := refParse(t, strings.NewReader(doc))
	if len(want) != 1 || len(want[0].Revisions) != len(revs) || want[0].Title != "AB" {
		t.Fatalf("reference: %+v", want)
	}
	ab := SHA1Digest([]byte(TextSHA1([]byte("ab"))))
	for oname, opt := range map[string]Options{"default": {}, "sha1": {SHA1: true}} {
		for rname, r := range map[string]func() io.Reader{
			"whole":    func() io.Reader { return strings.NewReader(doc) },
			"one-byte": func() io.Reader { return iotest.OneByteReader(strings.NewReader(doc)) },
		} {
			opt.File = "pi.xml"
			got, err := readAllPages(t, r(), opt)
			if err != nil {
				t.Fatalf("%s/%s: %v", oname, rname, err)
			}
			if len(got) != 1 {
				t.Fatalf("%s/%s: %d pages, want 1", oname, rname, len(got))
			}
			p := got[0]
			g := refPage{ID: p.ID, Title: p.Title, NS: p.Namespace, Redirect: p.Redirect, Revisions: p.Revisions, Anonymous: p.Anonymous, Minor: p.Minor}
			if !reflect.DeepEqual(g, want[0]) {
				t.Errorf("%s/%s:\n got %+v\nwant %+v", oname, rname, g, want[0])
			}
			if opt.SHA1 {
				for i, s := range p.SHA1 {
					if s != ab {
						t.Errorf("%s/%s: revision %d: text digest %x, want that of \"ab\" %x", oname, rname, i, s, ab)
					}
				}
			}
		}
	}
}
