package ingest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ulikunitz/xz/lzma"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/ingest/source"
	"github.com/revisit-dev/revisit/internal/realdata"
)

// truncatedInManifest reads extra.truncated_pages of the dataset at dir.
func truncatedInManifest(t *testing.T, dir string) []TruncatedPage {
	t.Helper()
	m, err := dataset.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(m.Extra[extraTruncated])
	var out []TruncatedPage
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("extra.%s: %v", extraTruncated, err)
	}
	return out
}

// A dump cut inside its last page, small enough to check by hand: with
// --skip-bad the page keeps its 2 complete revisions (the third is cut), is
// kept and listed as truncated in the manifest and the summary, and its window
// ends at its last complete revision.
func TestSkipBadKeepsCutPage(t *testing.T) {
	dir := t.TempDir()
	doc := xmlHead + xmlPage("Whole", 1, 2) + xmlPage("Cut", 2, 3)
	doc = doc[:strings.LastIndex(doc, "</revision>")-5] // inside the third revision of Cut
	p := write(t, dir, "cut.xml", doc)
	s, pages := run(t, Options{Inputs: []string{p}, SkipBad: true})
	if len(pages) != 2 || pages[1].Title != "Cut" || pages[1].NUpdates() != 2 || s.Bad["truncated"] != 1 {
		t.Fatalf("%d pages %+v, bad %v; want Whole and Cut with 2 updates, 1 truncated record", len(pages), pages, s.Bad)
	}
	// xmlPage's revision i is at 2001-01-01T00:00:0i.
	last := time.Date(2001, 1, 1, 0, 0, 1, 0, time.UTC)
	if pages[1].Last() != last {
		t.Errorf("window of Cut ends at %v, want %v", pages[1].Last(), last)
	}
	want := []TruncatedPage{{Input: p, Title: "Cut", PageID: 2, Revisions: 2, Last: last, Kept: true}}
	if len(s.Truncated) != 1 || s.Truncated[0] != want[0] {
		t.Errorf("summary: truncated %+v, want %+v", s.Truncated, want)
	}
	// run wrote to a temporary dataset: write again to read the manifest.
	out := filepath.Join(dir, "ds")
	if _, err := Run(context.Background(), Options{Inputs: []string{p}, SkipBad: true, Output: out}); err != nil {
		t.Fatal(err)
	}
	if got := truncatedInManifest(t, out); len(got) != 1 || got[0] != want[0] {
		t.Errorf("manifest: truncated %+v, want %+v", got, want)
	}
	if str := s.String(); !strings.Contains(str, `"Cut" in `+p+`: 2 complete revisions before the cut, kept`) {
		t.Errorf("summary does not name the truncated page:\n%s", str)
	}
	// Without --skip-bad: an error naming the file, the position and the
	// page, which suggests --skip-bad.
	_, err := Run(context.Background(), Options{Inputs: []string{p}, Output: filepath.Join(dir, "strict")})
	var pe *source.ParseError
	if !errors.As(err, &pe) || pe.File != p || pe.Offset != int64(len(doc)) || pe.Page != "Cut" || !strings.Contains(err.Error(), "--skip-bad") {
		t.Errorf("without --skip-bad: %v", err)
	}
}

// A dataset with no page is an error that says why, never a success: a
// dump cut before the first complete revision of its only page, and one
// whose pages all fall outside the namespaces.
func TestNoPageIsAnError(t *testing.T) {
	dir := t.TempDir()
	doc := xmlHead + xmlPage("Cut", 2, 3)
	cut := write(t, dir, "cut.xml", doc[:strings.Index(doc, "</revision>")])
	talk := write(t, dir, "talk.xml", xmlHead+strings.Replace(xmlPage("Talk:X", 3, 2), "<ns>0</ns>", "<ns>1</ns>", 1)+"</mediawiki>")
	for _, c := range []struct {
		in   string
		want string
	}{
		{cut, "no page to write: 0 pages read, 0 revisions; left out: 1 bad record skipped (truncated)"},
		{talk, "no page to write: 1 page read, 2 revisions; left out: 1 page outside --namespaces 0; 2 revisions of the pages left out"},
	} {
		out := filepath.Join(dir, "ds-"+filepath.Base(c.in))
		_, err := Run(context.Background(), Options{Inputs: []string{c.in}, Output: out, SkipBad: true})
		var ee *EmptyError
		if !errors.As(err, &ee) || err.Error() != c.in+": "+c.want {
			t.Errorf("%s: err %v; want %q", c.in, err, c.want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%s: a dataset without a page was written", c.in)
		}
	}
}

// drainLZMA reads what ulikunitz/xz's lzma reader decoded before a cut:
// at the cut it returns io.ErrUnexpectedEOF with its dictionary buffer
// (up to 8 MiB) still unread, and hands that out on the next reads, then
// io.EOF; drainLZMA returns those bytes and io.ErrUnexpectedEOF at the end.
type drainLZMA struct {
	zr  *lzma.Reader
	cut bool
}

func (d *drainLZMA) Read(p []byte) (int, error) {
	n, err := d.zr.Read(p)
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		d.cut = true
		return n, nil
	case errors.Is(err, io.EOF) && d.cut:
		return n, io.ErrUnexpectedEOF
	}
	return n, err
}

// anarchismReference decodes data (an .xml.lzma cut short) with
// ulikunitz/xz's lzma reader, independently of internal/decompress, up to
// the cut, and returns the complete revisions in what it yields
// ("</revision>" lines) and the <timestamp> of the last of them.
func anarchismReference(t *testing.T, data []byte) (revisions int64, last time.Time) {
	t.Helper()
	zr, err := lzma.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReaderSize(&drainLZMA{zr: zr}, 16<<20)
	var ts string
	for {
		line, err := br.ReadSlice('\n')
		if i := bytes.Index(line, []byte("<timestamp>")); i >= 0 {
			if j := bytes.Index(line, []byte("</timestamp>")); j > i {
				ts = string(line[i+len("<timestamp>") : j])
			}
		}
		if bytes.Contains(line, []byte("</revision>")) && err == nil {
			revisions++
			if last, err = time.Parse(time.RFC3339, ts); err != nil {
				t.Fatalf("timestamp %q: %v", ts, err)
			}
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			if errors.Is(err, io.EOF) {
				t.Fatal("the cut file decoded to its end")
			}
			return revisions, last
		}
	}
}

// The real Anarchism history (one page, 15,180 revisions, 1 GB of XML in
// 1.9 MB of LZMA) cut 100 bytes short: `lzma -dc` recovers 15,179 complete
// revisions; ingest --skip-bad read them and kept none (exit 0 with an
// empty dataset). Now the page is kept with every complete revision the
// reference decoder yields, marked truncated, its window ending at the
// last of them.
func TestSkipBadKeepsCutAnarchism(t *testing.T) {
	src := realdata.Path(t, "wikipedia/maribelacosta__wikiwho/large.xml.lzma")
	if testing.Short() {
		t.Skip("1 GB decompressed, twice; runs without -short")
	}
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	data = data[:len(data)-100]
	dir := t.TempDir()
	p := filepath.Join(dir, "large.xml.lzma")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	wantRevs, wantLast := anarchismReference(t, data)
	t.Logf("reference decoder: %d complete revisions before the cut, the last at %v", wantRevs, wantLast)
	if bin, err := exec.LookPath("lzma"); err == nil {
		// The command-line tool, when installed, recovers as many.
		cmd := exec.Command(bin, "-dc", p)
		stdout, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		n, _ := countLines(stdout, []byte("</revision>"))
		cmd.Wait() // exits 1 at the cut
		if n != wantRevs {
			t.Fatalf("lzma -dc recovers %d complete revisions, the reference decoder %d", n, wantRevs)
		}
	}
	if wantRevs < 15_000 {
		t.Fatalf("reference found %d revisions only", wantRevs)
	}
	out := filepath.Join(dir, "ds")
	s, err := Run(context.Background(), Options{Inputs: []string{p}, Output: out, SkipBad: true})
	if err != nil {
		t.Fatal(err)
	}
	c := s.Counts
	if c.PagesKept != 1 || c.RevisionsRead != wantRevs || c.RevisionsKept != wantRevs || s.Bad["corrupt"] != 1 {
		t.Fatalf("counts %+v, bad %v; want 1 page, %d revisions read and kept, 1 corrupt record", c, s.Bad, wantRevs)
	}
	r, err := dataset.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	pages, err := r.All()
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) != 1 || pages[0].Title != "Anarchism" || int64(pages[0].NUpdates())+pages[0].Collapsed != wantRevs || !pages[0].Last().Equal(wantLast) {
		t.Fatalf("pages %d; want Anarchism with %d revisions ending at %v", len(pages), wantRevs, wantLast)
	}
	want := TruncatedPage{Input: p, Title: "Anarchism", PageID: 12, Revisions: wantRevs, Last: wantLast, Kept: true}
	if got := truncatedInManifest(t, out); len(got) != 1 || got[0] != want {
		t.Errorf("manifest: truncated %+v, want %+v", got, want)
	}
	_, err = Run(context.Background(), Options{Inputs: []string{p}, Output: filepath.Join(dir, "strict")})
	var pe *source.ParseError
	if !errors.As(err, &pe) || pe.File != p || pe.Offset <= 0 || !strings.Contains(err.Error(), "decompressed byte") || !strings.Contains(err.Error(), "--skip-bad") {
		t.Errorf("without --skip-bad: %v", err)
	}
}

// countLines counts the lines of r that contain sub.
func countLines(r io.Reader, sub []byte) (int64, error) {
	br := bufio.NewReaderSize(r, 16<<20)
	var n int64
	for {
		line, err := br.ReadSlice('\n')
		if err == nil && bytes.Contains(line, sub) {
			n++
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return n, err
		}
	}
}
