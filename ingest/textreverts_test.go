package ingest

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ulikunitz/xz/lzma"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/internal/realdata"
)

// referenceReverts is an independent statement of the identity-revert rule
// in mwreverts' form: a history of the radius+1 latest checksums; a
// revision whose checksum is in it (the latest occurrence) with revisions
// after that occurrence reverts them. "" is no checksum: it takes a place
// in the history and matches nothing. It returns the reverts and the
// revisions left out as reverted (a revert that is also reverted counts
// as a revert).
func referenceReverts(sums []string, radius int) (reverts, reverted int) {
	type entry struct {
		sum string
		i   int
	}
	var history []entry
	isRevert := make([]bool, len(sums))
	isReverted := make([]bool, len(sums))
	for i, s := range sums {
		if s != "" {
			for k := len(history) - 1; k >= 0; k-- {
				if history[k].sum != s {
					continue
				}
				if k < len(history)-1 {
					isRevert[i] = true
					for _, e := range history[k+1:] {
						isReverted[e.i] = true
					}
				}
				break
			}
		}
		history = append(history, entry{s, i})
		if len(history) > radius+1 {
			history = history[1:]
		}
	}
	for i := range sums {
		switch {
		case isRevert[i]:
			reverts++
		case isReverted[i]:
			reverted++
		}
	}
	return reverts, reverted
}

// A hand-made dump without <sha1>: texts A, B, A, C. Revision 3 restores
// revision 1, so it is an identity revert and revision 2 is reverted; A and C
// are kept.
func TestDropRevertsByText(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<mediawiki version="0.4"><siteinfo><dbname>x</dbname></siteinfo><page><title>T</title><id>1</id>`)
	for i, tx := range []string{"A &amp; co", "B", "A &amp; co", "C"} {
		b.WriteString("<revision><id>1</id><timestamp>2001-01-0" + string(rune('1'+i)) + "T00:00:00Z</timestamp><text xml:space=\"preserve\">" + tx + "</text></revision>\n")
	}
	b.WriteString("</page></mediawiki>\n")
	p := write(t, t.TempDir(), "old.xml", b.String())
	s, pages := run(t, Options{Inputs: []string{p}, DropReverts: true})
	c := s.Counts
	if c.Skipped[string(SkipRevert)] != 1 || c.Skipped[string(SkipReverted)] != 1 || c.RevisionsKept != 2 || len(pages) != 1 ||
		pages[0].Updates[1] != time.Date(2001, 1, 4, 0, 0, 0, 0, time.UTC).Unix() {
		t.Errorf("counts %+v, pages %+v; want 1 revert, 1 reverted, revisions 1 and 4 kept", c, pages)
	}
	if s.NoSHA1 != 0 || s.TextSHA1 != 4 || !strings.Contains(s.String(), "4 revisions had no <sha1>: the SHA-1 of their text stands in for it") {
		t.Errorf("no sha1 %d, text sha1 %d; summary:\n%s", s.NoSHA1, s.TextSHA1, s)
	}
}

// Ten distinct texts, every other one in a CDATA section: nothing is an
// identity revert, all ten are kept.
func TestDropRevertsCDATAText(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<mediawiki version="0.4"><siteinfo><dbname>x</dbname></siteinfo><page><title>T</title><id>1</id>`)
	for i := range 10 {
		tx := "text " + string(rune('a'+i)) + " &amp; more"
		if i%2 == 1 {
			tx = "<![CDATA[text " + string(rune('a'+i)) + " <b>bold</b>]]>"
		}
		b.WriteString("<revision><id>1</id><timestamp>2001-01-" + string(rune('1'+i/9)) + string(rune('0'+(1+i)%10)) + "T00:00:00Z</timestamp><text xml:space=\"preserve\">" + tx + "</text></revision>\n")
	}
	b.WriteString("</page></mediawiki>\n")
	p := write(t, t.TempDir(), "cdata.xml", b.String())
	s, pages := run(t, Options{Inputs: []string{p}, DropReverts: true})
	c := s.Counts
	if c.Skipped[string(SkipRevert)] != 0 || c.Skipped[string(SkipReverted)] != 0 || c.RevisionsKept != 10 || len(pages) != 1 || s.TextSHA1 != 10 {
		t.Errorf("counts %+v, text checksums %d; want 10 revisions kept, none reverted, 10 hashed", c, s.TextSHA1)
	}
}

// stubRevision is one <revision> as Wikimedia's stub-meta-history dumps
// write it: metadata, a self-closing <text> with the text's size and
// address (schema 0.11 adds its sha1 and location), and from schema 0.6
// on a <sha1> after it. sum is the text's checksum ("" for none).
func stubRevision(schema string, id, day int, bytes int, sum string) string {
	text := fmt.Sprintf(`<text id="%d" bytes="%d" />`, 1000+id, bytes)
	if schema == "0.11" {
		text = fmt.Sprintf(`<text bytes="%d" sha1="%s" location="tt:%d" id="%d" />`, bytes, sum, 1000+id, 1000+id)
	}
	sha := ""
	if schema != "0.5" {
		sha = "\n      <sha1>" + sum + "</sha1>"
	}
	return fmt.Sprintf(`
    <revision>
      <id>%d</id>
      <parentid>%d</parentid>
      <timestamp>2001-01-%02dT00:00:00Z</timestamp>
      <contributor>
        <username>Editor</username>
        <id>7</id>
      </contributor>
      <comment>edit</comment>
      <model>wikitext</model>
      <format>text/x-wiki</format>
      %s%s
    </revision>`, id, id-1, day, text, sha)
}

// Stub dumps with and without <sha1>: the texts are A, B, A, C (revision 3
// restores revision 1), written as Wikimedia's stub-meta-history. With <sha1>
// (schema 0.10, 0.11) the revert is found and every revision was checked;
// without (schema 0.5) nothing can be detected: no revision has a checksum,
// none is left out, and the summary and manifest say so instead of claiming a
// check.
func TestDropRevertsStubs(t *testing.T) {
	sums := []string{"a000000000000000000000000000001", "b000000000000000000000000000002", "a000000000000000000000000000001", "c000000000000000000000000000003"}
	for _, schema := range []string{"0.5", "0.10", "0.11"} {
		var b strings.Builder
		b.WriteString(`<mediawiki xmlns="http://www.mediawiki.org/xml/export-` + schema + `/" version="` + schema + `" xml:lang="en">
  <siteinfo>
    <sitename>Wikipedia</sitename>
    <dbname>enwiki</dbname>
  </siteinfo>
  <page>
    <title>Stub</title>
    <ns>0</ns>
    <id>12</id>`)
		for i, sum := range sums {
			b.WriteString(stubRevision(schema, i+1, i+1, 100+10*i, sum))
		}
		b.WriteString("\n  </page>\n</mediawiki>\n")
		dir := t.TempDir()
		p := write(t, dir, "enwiki-stub-meta-history.xml", b.String())
		s, pages := run(t, Options{Inputs: []string{p}, Output: filepath.Join(dir, "ds"), DropReverts: true})
		m, err := dataset.ReadManifest(filepath.Join(dir, "ds"))
		if err != nil {
			t.Fatal(err)
		}
		c, sum := s.Counts, s.String()
		if schema == "0.5" {
			if c.Skipped[string(SkipRevert)] != 0 || c.RevisionsKept != 4 || len(pages) != 1 || s.NoSHA1 != 4 || s.TextSHA1 != 0 ||
				m.Extra[extraNoSHA1] != float64(4) || m.Extra[extraWithSHA1] != float64(0) ||
				!strings.Contains(sum, "--drop-reverts: no identity revert can be detected: 4 revisions have neither a <sha1> nor their text") ||
				strings.Contains(sum, "checked for identity reverts") {
				t.Errorf("schema %s: counts %+v, no checksum %d, text checksums %d, manifest %v/%v; summary:\n%s", schema, c, s.NoSHA1, s.TextSHA1,
					m.Extra[extraNoSHA1], m.Extra[extraWithSHA1], sum)
			}
			continue
		}
		if c.Skipped[string(SkipRevert)] != 1 || c.Skipped[string(SkipReverted)] != 1 || c.RevisionsKept != 2 || s.NoSHA1 != 0 ||
			m.Extra[extraNoSHA1] != float64(0) || m.Extra[extraWithSHA1] != float64(4) || strings.Contains(sum, "cannot be detected") {
			t.Errorf("schema %s: counts %+v, no checksum %d, manifest %v/%v; summary:\n%s", schema, c, s.NoSHA1, m.Extra[extraNoSHA1], m.Extra[extraWithSHA1], sum)
		}
	}
}

// A dump without <sha1> whose texts are A, a stub's text, B, another stub's,
// C, and an empty text (bytes="0"): the stubs' texts are unknown, so nothing
// matches them and nothing is a revert; the summary counts the two revisions
// that could not be checked.
func TestDropRevertsStubTextUnknown(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<mediawiki version="0.4"><siteinfo><dbname>x</dbname></siteinfo><page><title>T</title><id>1</id>`)
	for i, tx := range []string{`<text xml:space="preserve">A</text>`, `<text id="5" bytes="12" />`, `<text xml:space="preserve">B</text>`,
		`<text id="6" />`, `<text xml:space="preserve">C</text>`, `<text bytes="0" />`} {
		b.WriteString("<revision><id>1</id><timestamp>2001-01-0" + string(rune('1'+i)) + "T00:00:00Z</timestamp>" + tx + "</revision>\n")
	}
	b.WriteString("</page></mediawiki>\n")
	p := write(t, t.TempDir(), "old.xml", b.String())
	s, _ := run(t, Options{Inputs: []string{p}, DropReverts: true})
	c := s.Counts
	if c.Skipped[string(SkipRevert)] != 0 || c.Skipped[string(SkipReverted)] != 0 || c.RevisionsKept != 6 || s.NoSHA1 != 2 || s.TextSHA1 != 4 ||
		!strings.Contains(s.String(), "2 revisions had neither a <sha1> nor their text (deleted, or a stub's): identity reverts cannot be detected for them") {
		t.Errorf("counts %+v, no checksum %d, text checksums %d; summary:\n%s", c, s.NoSHA1, s.TextSHA1, s)
	}
}

// The real Anarchism history (schema 0.4, full text, no <sha1>): the
// reverts --drop-reverts finds by hashing the text are those of the
// reference rule above over checksums computed here independently (the
// LZMA decoded by ulikunitz/xz, revisions cut out of the text, entities
// decoded by html.UnescapeString, SHA-1 in hex).
func TestDropRevertsAnarchismText(t *testing.T) {
	src := realdata.Path(t, "wikipedia/maribelacosta__wikiwho/large.xml.lzma")
	if testing.Short() {
		t.Skip("1 GB decompressed, twice; runs without -short")
	}
	f, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := lzma.NewReader(bufio.NewReader(f))
	if err != nil {
		t.Fatal(err)
	}
	type rev struct {
		t   time.Time
		sum string
	}
	var revs []rev
	br := bufio.NewReaderSize(zr, 1<<20)
	var cur []byte
	for {
		line, err := br.ReadSlice('\n')
		cur = append(cur, line...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if bytes.Contains(line, []byte("</revision>")) {
			revs = append(revs, parseRevision(t, cur))
			cur = cur[:0]
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			t.Fatal(err)
		}
	}
	slices.SortStableFunc(revs, func(a, b rev) int { return a.t.Compare(b.t) })
	sums := make([]string, len(revs))
	for i, r := range revs {
		sums[i] = r.sum
	}
	wantRevert, wantReverted := referenceReverts(sums, DefaultRevertRadius)
	t.Logf("reference: %d revisions, %d identity reverts, %d reverted revisions", len(revs), wantRevert, wantReverted)
	if len(revs) != 15_180 || wantRevert == 0 {
		t.Fatalf("reference read %d revisions, %d reverts", len(revs), wantRevert)
	}
	s, err := Run(context.Background(), Options{Inputs: []string{src}, Output: filepath.Join(t.TempDir(), "ds"), DropReverts: true})
	if err != nil {
		t.Fatal(err)
	}
	c := s.Counts
	if c.Skipped[string(SkipRevert)] != int64(wantRevert) || c.Skipped[string(SkipReverted)] != int64(wantReverted) ||
		c.RevisionsKept != int64(len(revs)-wantRevert-wantReverted) || s.NoSHA1 != 0 || s.TextSHA1 != int64(len(revs)) {
		t.Errorf("ingest: %d reverts, %d reverted, %d kept, %d without checksum, %d hashed; want %d, %d, %d, 0, %d",
			c.Skipped[string(SkipRevert)], c.Skipped[string(SkipReverted)], c.RevisionsKept, s.NoSHA1, s.TextSHA1,
			wantRevert, wantReverted, len(revs)-wantRevert-wantReverted, len(revs))
	}
}

// parseRevision reads the timestamp and the text's SHA-1 (hex) of one
// revision's XML ("" when it has no text element with content).
func parseRevision(t *testing.T, x []byte) (r struct {
	t   time.Time
	sum string
}) {
	t.Helper()
	i := bytes.Index(x, []byte("<timestamp>"))
	j := bytes.Index(x, []byte("</timestamp>"))
	if i < 0 || j < i {
		t.Fatalf("revision without timestamp: %.200q", x)
	}
	ts, err := time.Parse(time.RFC3339, string(x[i+len("<timestamp>"):j]))
	if err != nil {
		t.Fatal(err)
	}
	r.t = ts
	k := bytes.Index(x, []byte("<text"))
	if k < 0 {
		return r
	}
	gt := bytes.IndexByte(x[k:], '>') + k
	if x[gt-1] == '/' {
		if !bytes.Contains(x[k:gt], []byte("deleted")) {
			h := sha1.Sum(nil)
			r.sum = hex.EncodeToString(h[:])
		}
		return r
	}
	end := bytes.Index(x[gt:], []byte("</text>")) + gt
	h := sha1.Sum([]byte(html.UnescapeString(string(x[gt+1 : end]))))
	r.sum = hex.EncodeToString(h[:])
	return r
}
