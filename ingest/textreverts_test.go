package ingest

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"html"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ulikunitz/xz/lzma"

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
// revision 1, so it is an identity revert and revision 2 is reverted;
// A and C are kept. Before, no revision had a checksum and nothing was
// left out.
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
	if s.NoSHA1 != 0 || s.TextSHA1 != 4 || !strings.Contains(s.String(), "4 revisions had no <sha1>: checked for identity reverts by the SHA-1 of their text") {
		t.Errorf("no sha1 %d, text sha1 %d; summary:\n%s", s.NoSHA1, s.TextSHA1, s)
	}
}

// Ten distinct texts, every other one in a CDATA section: nothing is an
// identity revert, all ten are kept. Before, every CDATA text had the
// checksum of the empty text, so each restored the one two before it and
// --drop-reverts cut the page to 2 revisions.
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
