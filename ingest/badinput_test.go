package ingest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ulikunitz/xz"
	"github.com/ulikunitz/xz/lzma"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/ingest/source"
	"github.com/revisit-dev/revisit/internal/decompress"
	"github.com/revisit-dev/revisit/internal/realdata"
)

func readReal(t *testing.T, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(realdata.Path(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// writeTar writes a tar of the given headers, each followed by its body.
func writeTar(t *testing.T, p string, hs []*tar.Header, bodies [][]byte) []byte {
	t.Helper()
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for i, h := range hs {
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		tw.Write(bodies[i])
	}
	tw.Close()
	os.WriteFile(p, b.Bytes(), 0o644)
	return b.Bytes()
}

// Inputs damaged where they are opened — a corrupt gzip header, a 7z cut
// before its header (which 7z keeps at the end), an LZMA stream cut inside its
// range-coder start, an invalid tar header — are, with --skip-bad, one counted
// bad record each ("corrupt", in the summary and in manifest.json's
// inputs[].bad) and the run goes on to the good input. Without --skip-bad each
// is an error naming the file (and, for the tar header, its byte offset) and
// nothing is written.
func TestSkipBadOpenDamage(t *testing.T) {
	dir := t.TempDir()
	pyrus := readReal(t, "wikipedia/wikimedia__pywikibot/article-pyrus.xml")
	pear := readReal(t, "wikipedia/wikimedia__pywikibot/article-pear-0.10.xml")

	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(pear)
	zw.Close()
	badGz := z.Bytes()
	badGz[2] = 7 // CM: only 8 (deflate) is defined (RFC 1952 §2.3.1)
	gzPath := filepath.Join(dir, "badheader.xml.gz")
	os.WriteFile(gzPath, badGz, 0o644)

	sz := readReal(t, "wikipedia/wikimedia__pywikibot/article-pyrus.xml.7z")
	szPath := filepath.Join(dir, "cut.xml.7z")
	os.WriteFile(szPath, sz[:len(sz)/2], 0o644)

	lz := readReal(t, "wikipedia/wikimedia__pywikibot/article-pyrus.xml.lzma")
	lzPath := filepath.Join(dir, "cut.xml.lzma")
	os.WriteFile(lzPath, lz[:13+2], 0o644) // the 13-byte header, 2 of the 5 range-coder bytes

	// A tar whose first member is Pear; its second header is damaged.
	// The first header is at byte 0, Pear's 30,097 bytes follow, padded
	// to 59 blocks: the second header starts at 512 + 59·512 = 30,720.
	tarPath := filepath.Join(dir, "bad.tar")
	tb := writeTar(t, tarPath, []*tar.Header{
		{Name: "pear.xml", Mode: 0o644, Size: int64(len(pear))},
		{Name: "more.xml", Mode: 0o644, Size: 3},
	}, [][]byte{pear, []byte("abc")})
	if len(pear) != 30097 || !bytes.Equal(tb[30720+257:30720+262], []byte("ustar")) {
		t.Fatalf("pear %d bytes; second header not at 30720", len(pear))
	}
	tb[30720+148] ^= 0x07 // its checksum field
	os.WriteFile(tarPath, tb, 0o644)

	good := filepath.Join(dir, "pyrus.xml")
	os.WriteFile(good, pyrus, 0o644)

	bad := []string{gzPath, szPath, lzPath, tarPath}
	for _, p := range bad {
		out := filepath.Join(dir, "out-"+filepath.Base(p))
		_, err := Run(context.Background(), Options{Inputs: []string{p, good}, Output: out})
		var ce *decompress.CorruptError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s without --skip-bad: %v, want a CorruptError naming the file", filepath.Base(p), err)
		}
		if p == tarPath && !strings.Contains(err.Error(), "byte 30720") {
			t.Errorf("tar header error %q does not name byte 30720", err)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%s: a dataset was left after an error", filepath.Base(p))
		}
	}

	var skipped []*source.ParseError
	out := filepath.Join(dir, "ds")
	s, pages := run(t, Options{Inputs: append(bad, good), Output: out, SkipBad: true,
		OnBad: func(e *source.ParseError) { skipped = append(skipped, e) }})
	if len(s.Inputs) != 5 || s.Bad["corrupt"] != 4 || s.Counts.Skipped["bad_corrupt"] != 4 {
		t.Fatalf("inputs %+v, bad %v: want 5 inputs and 4 corrupt records", s.Inputs, s.Bad)
	}
	m, err := dataset.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	for i, in := range m.Manifest.Inputs {
		want := int64(1)
		if i == 4 {
			want = 0
		}
		if in.Bad["corrupt"] != want || len(in.Bad) != int(want) {
			t.Errorf("manifest input %s: bad %v, want corrupt %d", in.Name, in.Bad, want)
		}
		if st, _ := os.Stat(in.Name); in.Size != st.Size() || len(in.SHA256) != 64 {
			t.Errorf("manifest input %s: size %d sha %q, want the file's size %d and hash", in.Name, in.Size, in.SHA256, st.Size())
		}
		if i < 4 && !strings.Contains(s.String(), "  "+in.Name+" (") {
			t.Errorf("summary does not list %s:\n%s", in.Name, s)
		}
	}
	// Pear from the tar's first member and Pyrus from the good input.
	var titles []string
	for _, p := range pages {
		titles = append(titles, p.Title)
	}
	if len(pages) != 2 || !strings.Contains(strings.Join(titles, ","), "Pear") || !strings.Contains(strings.Join(titles, ","), "Pyrus") {
		t.Errorf("pages %q, want Pear and Pyrus", titles)
	}
	if len(skipped) != 4 {
		t.Fatalf("OnBad saw %d records, want 4", len(skipped))
	}
	for i, e := range skipped {
		if e.Reason != "corrupt" || e.File != bad[i] {
			t.Errorf("skipped record %d: %v (reason %q file %q)", i, e, e.Reason, e.File)
		}
	}
	if !strings.Contains(skipped[3].Error(), "byte 30720") {
		t.Errorf("skipped tar record %q does not name byte 30720", skipped[3])
	}
}

// A tar.gz whose trailer CRC was flipped, after the tar end marker: it is
// an error, or with --skip-bad a counted corrupt record (the member's
// page, read before the trailer, is kept).
func TestTarGzTrailerIngest(t *testing.T) {
	b := readReal(t, "wikipedia/snukky__wikiedits/hiwiki.tar.gz")
	b[len(b)-8] ^= 0x01 // lowest bit of the gzip CRC-32 (RFC 1952 §2.3.1)
	dir := t.TempDir()
	p := filepath.Join(dir, "hiwiki.tar.gz")
	os.WriteFile(p, b, 0o644)
	out := filepath.Join(dir, "ds")
	_, err := Run(context.Background(), Options{Inputs: []string{p}, Output: out})
	var ce *decompress.CorruptError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), p) {
		t.Fatalf("err %v, want a CorruptError naming %s", err, p)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Error("a dataset was left after an error")
	}
	s, pages := run(t, Options{Inputs: []string{p}, Output: out, SkipBad: true})
	if s.Bad["corrupt"] != 1 || len(pages) != 1 {
		t.Errorf("skip-bad: bad %v, %d pages; want corrupt 1 and the one page", s.Bad, len(pages))
	}
}

// Bytes after the end of an LZMA-alone stream (article-pyrus.xml.lzma is
// 1,057 bytes) are an error naming the offset, or with --skip-bad one
// counted corrupt record.
func TestLZMATrailingGarbageIngest(t *testing.T) {
	b := readReal(t, "wikipedia/wikimedia__pywikibot/article-pyrus.xml.lzma")
	if len(b) != 1057 {
		t.Fatalf("%d bytes", len(b))
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "pyrus.xml.lzma")
	os.WriteFile(p, append(b, "trailing junk"...), 0o644)
	_, err := Run(context.Background(), Options{Inputs: []string{p}, Output: filepath.Join(dir, "x")})
	if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "byte 1057") {
		t.Fatalf("err %v, want an error naming %s and byte 1057", err, p)
	}
	s, pages := run(t, Options{Inputs: []string{p}, SkipBad: true})
	if s.Bad["corrupt"] != 1 || len(pages) != 1 {
		t.Errorf("skip-bad: bad %v, %d pages; want corrupt 1 and Pyrus", s.Bad, len(pages))
	}
}

// Symbolic and hard links, devices and FIFOs in a tar are counted as
// skipped archive members by kind (summary and manifest counts), like
// members of an unknown format; before they vanished without a count.
func TestTarSpecialMembersIngest(t *testing.T) {
	pyrus := readReal(t, "wikipedia/wikimedia__pywikibot/article-pyrus.xml")
	dir := t.TempDir()
	p := filepath.Join(dir, "x.tar")
	writeTar(t, p, []*tar.Header{
		{Name: "d/", Typeflag: tar.TypeDir, Mode: 0o755},
		{Name: "d/pyrus.xml", Mode: 0o644, Size: int64(len(pyrus))},
		{Name: "d/latest.xml", Typeflag: tar.TypeSymlink, Linkname: "pyrus.xml"},
		{Name: "d/copy.xml", Typeflag: tar.TypeLink, Linkname: "d/pyrus.xml"},
		{Name: "d/null", Typeflag: tar.TypeChar, Devmajor: 1, Devminor: 3},
		{Name: "d/pipe", Typeflag: tar.TypeFifo},
		{Name: "d/pipe2", Typeflag: tar.TypeFifo},
	}, [][]byte{nil, pyrus, nil, nil, nil, nil, nil})
	out := filepath.Join(dir, "ds")
	s, pages := run(t, Options{Inputs: []string{p}, Output: out})
	want := map[string]int64{"archive_members_symlink": 1, "archive_members_hardlink": 1, "archive_members_device": 1, "archive_members_fifo": 2}
	for k, v := range want {
		if s.Counts.Skipped[k] != v {
			t.Errorf("skipped %s = %d, want %d (all: %v)", k, s.Counts.Skipped[k], v, s.Counts.Skipped)
		}
	}
	if len(pages) != 1 || !strings.Contains(s.String(), "2 archive members that are FIFOs (not files)") {
		t.Errorf("%d pages; summary:\n%s", len(pages), s)
	}
	m, err := dataset.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	if m.Manifest.Counts.Skipped["archive_members_symlink"] != 1 {
		t.Errorf("manifest counts %v", m.Manifest.Counts.Skipped)
	}
}

// salvageDoc is a MediaWiki dump of n pages with one revision each and
// pseudo-random text (a fixed LCG), so it compresses only about 3:1.
func salvageDoc(n int) []byte {
	var b bytes.Buffer
	b.WriteString("<mediawiki>\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "<page><title>P%d</title><ns>0</ns><id>%d</id><revision><id>%d</id><timestamp>2001-01-01T00:%02d:%02dZ</timestamp><text>", i, i+1, i+1, i/60%60, i%60)
		x := uint32(i*2654435761 + 1)
		for j := 0; j < 300; j++ {
			x = x*1664525 + 1013904223
			fmt.Fprintf(&b, "w%d ", x>>20)
		}
		b.WriteString("</text></revision></page>\n")
	}
	b.WriteString("</mediawiki>\n")
	return b.Bytes()
}

// A 1-byte cut of an .xml.lzma keeps all 300 pages with --skip-bad, as
// `lzma -dc` recovers all of them (it kept 215: the decoder's read-ahead
// was lost with its error), and a cut .xml.xz keeps the pages complete in
// what `xz -dc` recovers (it kept one LZMA2 chunk's worth fewer).
func TestSkipBadSalvagesCutLZMAAndXZ(t *testing.T) {
	doc := salvageDoc(300)
	dir := t.TempDir()
	var lz bytes.Buffer
	w, _ := lzma.NewWriter(&lz)
	w.Write(doc)
	w.Close()
	p := filepath.Join(dir, "cut.xml.lzma")
	os.WriteFile(p, lz.Bytes()[:lz.Len()-1], 0o644)
	s, pages := run(t, Options{Inputs: []string{p}, SkipBad: true})
	if len(pages) != 300 || s.Bad["corrupt"] != 1 {
		t.Errorf("lzma cut by 1 byte: %d pages, bad %v; want 300 and corrupt 1", len(pages), s.Bad)
	}

	var xzb bytes.Buffer
	xw, _ := xz.NewWriter(&xzb)
	xw.Write(doc)
	xw.Close()
	cut := xzb.Bytes()[:xzb.Len()/2]
	p = filepath.Join(dir, "cut.xml.xz")
	os.WriteFile(p, cut, 0o644)
	bin, err := exec.LookPath("xz")
	if err != nil {
		t.Skip("xz not installed: no reference")
	}
	cmd := exec.Command(bin, "-dc")
	cmd.Stdin = bytes.NewReader(cut)
	ref, _ := cmd.Output() // exits 1 on the cut
	want := bytes.Count(ref, []byte("</page>"))
	s, pages = run(t, Options{Inputs: []string{p}, SkipBad: true})
	if len(pages) != want || want < 100 || s.Bad["corrupt"] != 1 {
		t.Errorf("xz cut in half: %d pages, bad %v; want the %d complete in xz -dc's output and corrupt 1", len(pages), s.Bad, want)
	}
}
