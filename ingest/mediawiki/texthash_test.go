package mediawiki

import (
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/ingest/source"
)

// MediaWiki's rev_sha1 of the empty text is the well-known
// "phoiac9h4m842xq45sp7s6u21eteeq1" (SHA-1 da39a3ee… in base 36, 31
// digits); a short one is zero-padded.
func TestTextSHA1(t *testing.T) {
	if got := TextSHA1(nil); got != "phoiac9h4m842xq45sp7s6u21eteeq1" {
		t.Errorf("TextSHA1(\"\") = %s", got)
	}
	if got := base36(make([]byte, 20)); got != strings.Repeat("0", 31) {
		t.Errorf("base36(0) = %s", got)
	}
}

// A dump without <sha1> (schema 0.4): the checksums are those of the texts,
// unescaped (so "a &amp; b" and "a &#38; b" are the same text), and a text
// split across the scanner's window is hashed whole.
func TestTextChecksumsWithoutSHA1(t *testing.T) {
	long := strings.Repeat("x&amp;y ", 300_000) // 2.4 MB: several windows
	texts := []string{"a &amp; b", "vandal", "a &#38; b", long, "c", long, "", "gone"}
	var b strings.Builder
	b.WriteString(`<mediawiki version="0.4"><siteinfo><dbname>x</dbname></siteinfo><page><title>T</title><ns>0</ns><id>1</id>`)
	for i, tx := range texts {
		text := `<text xml:space="preserve">` + tx + `</text>`
		switch {
		case tx == "":
			text = `<text xml:space="preserve" />`
		case tx == "gone":
			text = `<text deleted="deleted" />`
		}
		b.WriteString("<revision><id>" + string(rune('1'+i)) + "</id><timestamp>2001-01-01T00:00:0" + string(rune('0'+i)) + "Z</timestamp>" + text + "</revision>")
	}
	b.WriteString("</page></mediawiki>")
	r := NewReader(strings.NewReader(b.String()), Options{Options: source.Options{File: "f.xml"}, SHA1: true})
	p, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	want := func(text string) uint64 { return SHA1Digest([]byte(TextSHA1([]byte(text)))) }
	wants := []uint64{want("a & b"), want("vandal"), want("a & b"), want(strings.Repeat("x&y ", 300_000)), want("c"),
		want(strings.Repeat("x&y ", 300_000)), want(""), 0}
	for i, w := range wants {
		if p.SHA1[i] != w {
			t.Errorf("revision %d: digest %x, want %x", i+1, p.SHA1[i], w)
		}
	}
	if r.TextHashed() != 7 {
		t.Errorf("TextHashed %d, want 7", r.TextHashed())
	}
}

// A dump with <sha1>: its values are used, and text is hashed only until
// the first <sha1> is seen.
func TestSHA1ElementWins(t *testing.T) {
	doc := `<mediawiki version="0.10"><siteinfo><dbname>x</dbname></siteinfo><page><title>T</title><ns>0</ns><id>1</id>` +
		`<revision><id>1</id><timestamp>2001-01-01T00:00:00Z</timestamp><text>a</text><sha1>s1</sha1></revision>` +
		`<revision><id>2</id><timestamp>2001-01-01T00:00:01Z</timestamp><text>b</text><sha1/></revision>` +
		`<revision><id>3</id><timestamp>2001-01-01T00:00:02Z</timestamp><text>c</text></revision></page></mediawiki>`
	r := NewReader(strings.NewReader(doc), Options{Options: source.Options{File: "f.xml"}, SHA1: true})
	p, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	if p.SHA1[0] != SHA1Digest([]byte("s1")) || p.SHA1[1] != 0 || p.SHA1[2] != 0 || r.TextHashed() != 0 {
		t.Errorf("digests %x, text hashed %d; want s1's, 0, 0 and none", p.SHA1, r.TextHashed())
	}
}

// A self-closing <text> is the empty text only when it says so (bytes="0")
// or has neither a size nor an address of stored text (schema 0.3): a
// stub's text, with its id or location, is text the dump does not hold,
// and deleted text is nobody's to hash. Tags as MediaWiki's
// XmlDumpWriter writes them.
func TestEmptyText(t *testing.T) {
	for tag, want := range map[string]bool{
		`text/`:                       true,
		`text xml:space="preserve" /`: true,
		`text bytes="0" /`:            true,
		`text id="5" bytes="0" /`:     true,
		`text id="5" bytes="12" /`:    false, // stub, schema 0.5–0.10
		`text id="5" /`:               false, // stub, schema 0.4
		`text bytes="12" sha1="x" location="tt:5" id="5" /`: false, // stub, schema 0.11
		`text bytes="12" /`:                   false, // content that could not be loaded
		`text deleted="deleted" /`:            false,
		`text bytes="-1" deleted="deleted" /`: false,
	} {
		if got := emptyText([]byte(tag)); got != want {
			t.Errorf("<%s>: empty %v, want %v", tag, got, want)
		}
	}
}
