// Command stubgen writes a synthetic MediaWiki stub-meta-history dump (schema
// 0.11, the elements Wikimedia's stub dumps carry per revision) of about a
// given size to standard output, for the ingest benchmarks in bench/. Pages
// have heavy-tailed revision counts and realistic metadata; the output is
// the same for the same -seed.
//
//	go run ./bench/stubgen -size 200MB > stub.xml
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/dustin/go-humanize"

	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/model"
)

func main() {
	size := flag.String("size", "200MB", "approximate output size (e.g. 200MB, 2.1GB)")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	n, err := humanize.ParseBytes(*size)
	if err != nil {
		fmt.Fprintln(os.Stderr, "stubgen: -size:", err)
		os.Exit(2)
	}
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	if err := write(w, int64(n), *seed); err != nil {
		fmt.Fprintln(os.Stderr, "stubgen:", err)
		os.Exit(1)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "stubgen:", err)
		os.Exit(1)
	}
}

type counter struct {
	w *bufio.Writer
	n int64
}

func (c *counter) s(s string) { c.n += int64(len(s)); c.w.WriteString(s) }

func write(w *bufio.Writer, size int64, seed uint64) error {
	rng := model.NewRand(seed, 0)
	c := &counter{w: w}
	c.s(`<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.mediawiki.org/xml/export-0.11/ http://www.mediawiki.org/xml/export-0.11.xsd" version="0.11" xml:lang="en">
  <siteinfo>
    <sitename>Benchpedia</sitename>
    <dbname>benchwiki</dbname>
    <base>https://bench.wikipedia.org/wiki/Main_Page</base>
    <generator>MediaWiki 1.41.0-wmf.1</generator>
    <case>first-letter</case>
    <namespaces>
      <namespace key="0" case="first-letter" />
      <namespace key="1" case="first-letter">Talk</namespace>
      <namespace key="2" case="first-letter">User</namespace>
    </namespaces>
  </siteinfo>
`)
	start := time.Date(2001, 1, 15, 0, 0, 0, 0, time.UTC).Unix()
	rev := int64(1)
	var b strings.Builder
	for id := int64(1); c.n < size; id++ {
		ns := 0
		title := "Article " + strconv.FormatInt(id, 10)
		if id%4 == 3 {
			ns, title = 1, "Talk:Article "+strconv.FormatInt(id-1, 10)
		}
		// Pareto-like revision counts: most pages have a few, some thousands.
		nrev := int(math.Min(20000, math.Floor(2/math.Pow(1-rng.Float64(), 1/1.1))))
		b.Reset()
		fmt.Fprintf(&b, "  <page>\n    <title>%s</title>\n    <ns>%d</ns>\n    <id>%d</id>\n", title, ns, id)
		if id%50 == 0 {
			b.WriteString("    <redirect title=\"Somewhere &amp; else\" />\n")
		}
		c.s(b.String())
		t := start + rng.Int64N(units.Day*365*10)
		for j := 0; j < nrev; j++ {
			t += 1 + int64(rng.ExpFloat64()*units.Day*3)
			b.Reset()
			fmt.Fprintf(&b, "    <revision>\n      <id>%d</id>\n", rev)
			if j > 0 {
				fmt.Fprintf(&b, "      <parentid>%d</parentid>\n", rev-1)
			}
			fmt.Fprintf(&b, "      <timestamp>%s</timestamp>\n", time.Unix(t, 0).UTC().Format("2006-01-02T15:04:05Z"))
			if rng.IntN(4) == 0 {
				fmt.Fprintf(&b, "      <contributor>\n        <ip>192.0.%d.%d</ip>\n      </contributor>\n", rng.IntN(256), rng.IntN(256))
			} else {
				u := rng.IntN(100000)
				fmt.Fprintf(&b, "      <contributor>\n        <username>Editor%d</username>\n        <id>%d</id>\n      </contributor>\n", u, u+1)
			}
			if rng.IntN(3) == 0 {
				b.WriteString("      <minor />\n")
			}
			fmt.Fprintf(&b, "      <comment>/* Section %d */ copyedit &amp; fix refs</comment>\n      <model>wikitext</model>\n      <format>text/x-wiki</format>\n", rng.IntN(20))
			fmt.Fprintf(&b, "      <text bytes=\"%d\" sha1=\"phoiac9h4m842xq45sp7s6u21eteeq1\" location=\"tt:%d\" id=\"%d\" />\n      <sha1>phoiac9h4m842xq45sp7s6u21eteeq1</sha1>\n    </revision>\n", 1000+rng.IntN(50000), rev, rev)
			c.s(b.String())
			rev++
		}
		c.s("  </page>\n")
	}
	c.s("</mediawiki>\n")
	return nil
}
