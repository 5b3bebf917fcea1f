package mediawiki

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"testing"

	"github.com/revisit-dev/revisit/ingest/source"
	"github.com/revisit-dev/revisit/series"
)

// stubDump writes a stub-meta-history-like dump of about size bytes: the
// same elements per revision as Wikimedia's stub dumps (contributor,
// comment, model, format, self-closing <text>, sha1).
func stubDump(size int) []byte {
	var b bytes.Buffer
	b.WriteString(`<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" version="0.11" xml:lang="en">` + "\n")
	b.WriteString("  <siteinfo>\n    <dbname>benchwiki</dbname>\n  </siteinfo>\n")
	rev := int64(1)
	for id := 1; b.Len() < size; id++ {
		fmt.Fprintf(&b, "  <page>\n    <title>Page number %d</title>\n    <ns>0</ns>\n    <id>%d</id>\n", id, id)
		for j := 0; j < 1+id%50; j++ {
			fmt.Fprintf(&b, "    <revision>\n      <id>%d</id>\n      <parentid>%d</parentid>\n      <timestamp>20%02d-0%d-1%dT1%d:2%d:3%dZ</timestamp>\n", rev, rev-1, 1+j%20, 1+j%9, j%10, j%10, j%10, id%10)
			if j%3 == 0 {
				fmt.Fprintf(&b, "      <contributor>\n        <ip>192.0.2.%d</ip>\n      </contributor>\n", j%250)
			} else {
				fmt.Fprintf(&b, "      <contributor>\n        <username>Editor %d</username>\n        <id>%d</id>\n      </contributor>\n      <minor />\n", j, j+100)
			}
			fmt.Fprintf(&b, "      <comment>edit summary number %d with some words</comment>\n      <model>wikitext</model>\n      <format>text/x-wiki</format>\n", j)
			fmt.Fprintf(&b, "      <text bytes=\"%d\" sha1=\"phoiac9h4m842xq45sp7s6u21eteeq1\" location=\"tt:%d\" id=\"%d\" />\n      <sha1>phoiac9h4m842xq45sp7s6u21eteeq1</sha1>\n    </revision>\n", 1000+j, rev, rev)
			rev++
		}
		b.WriteString("  </page>\n")
	}
	b.WriteString("</mediawiki>\n")
	return b.Bytes()
}

func benchParse(b *testing.B, data []byte) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r := NewReader(bytes.NewReader(data), Options{Options: source.Options{File: "bench"}})
		for {
			_, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkStub is the parser alone on stub-style XML (goal ≥ 500 MB/s).
func BenchmarkStub(b *testing.B) { benchParse(b, stubDump(64<<20)) }

// BenchmarkText is the parser alone on text-heavy XML: 20 KB of escaped
// wikitext per revision (goal ≥ 1 GB/s).
func BenchmarkText(b *testing.B) {
	text := bytes.Repeat([]byte("''Anarchism'' is a [[political philosophy]] &lt;ref&gt;x&lt;/ref&gt; and &quot;more&quot;.\n"), 230)
	var d bytes.Buffer
	d.WriteString(`<mediawiki version="0.4"><siteinfo><base>http://en.wikipedia.org/wiki/Main_Page</base></siteinfo><page><title>Anarchism</title><id>12</id>`)
	for i := 0; d.Len() < 256<<20; i++ {
		fmt.Fprintf(&d, "<revision><id>%d</id><timestamp>2005-01-01T00:00:%02dZ</timestamp><contributor><username>X</username><id>1</id></contributor><comment>c</comment><text xml:space=\"preserve\">", i, i%60)
		d.Write(text)
		d.WriteString("</text></revision>\n")
	}
	d.WriteString("</page></mediawiki>")
	benchParse(b, d.Bytes())
}

// BenchmarkFile is the parser alone on the plain XML file named by
// REVISIT_BENCH_XML, streamed from disk (bench/ingest.sh); skipped when unset.
func BenchmarkFile(b *testing.B) {
	name := os.Getenv("REVISIT_BENCH_XML")
	if name == "" {
		b.Skip("set REVISIT_BENCH_XML to a plain XML dump")
	}
	st, err := os.Stat(name)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	for b.Loop() {
		f, err := os.Open(name)
		if err != nil {
			b.Fatal(err)
		}
		r := NewReader(f, Options{Options: source.Options{File: name}})
		for {
			_, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
		}
		f.Close()
	}
}

// BenchmarkRevisionFlags parses one page of 2²⁰ revisions (stub-style, with
// <username> and <sha1>) with the per-revision data ingest's revision
// filters ask for, and reports the bytes per revision the returned page
// holds (held-B/rev: the capacity of its slices, append's slack included)
// and allocates while growing them (alloc-B/rev), besides the parse rate.
func BenchmarkRevisionFlags(b *testing.B) {
	const n = 1 << 20
	var d bytes.Buffer
	d.WriteString(`<mediawiki version="0.11"><siteinfo><dbname>benchwiki</dbname></siteinfo><page><title>Big</title><ns>0</ns><id>1</id>` + "\n")
	for i := range n {
		fmt.Fprintf(&d, "<revision><id>%d</id><timestamp>20%02d-01-01T00:%02d:%02dZ</timestamp><contributor><username>Editor %d</username><id>%d</id></contributor><comment>c</comment><text bytes=\"10\" id=\"%d\" /><sha1>phoiac9h4m842xq45sp7s6u21e%05d</sha1></revision>\n",
			i, 10+i/(3600*24*365)%80, i/60%60, i%60, i%1000, i%1000+1, i, i%100000)
	}
	d.WriteString("</page></mediawiki>")
	data := d.Bytes()
	for _, tc := range []struct {
		name string
		opt  Options
	}{
		{"default", Options{}},
		{"bots", Options{IsBot: func(string) series.BotRule { return series.NotBot }}},
		{"sha1", Options{SHA1: true}},
		{"bots+sha1", Options{IsBot: func(string) series.BotRule { return series.NotBot }, SHA1: true}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			var held int
			for b.Loop() {
				r := NewReader(bytes.NewReader(data), tc.opt)
				p, err := r.Next()
				if err != nil || len(p.Revisions) != n {
					b.Fatal(err)
				}
				held = cap(p.Revisions)*8 + cap(p.Anonymous) + cap(p.Minor) + cap(p.Bot) + cap(p.SHA1)*8
			}
			b.ReportMetric(float64(held)/n, "held-B/rev")
		})
	}
}
