package decompress

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ulikunitz/xz"
	"github.com/ulikunitz/xz/lzma"

	"github.com/revisit-dev/revisit/internal/realdata"
)

// pagesXML is a MediaWiki-like document of n pages whose texts are
// pseudo-random words (a fixed LCG), so it compresses only about 3:1 and a
// cut in the compressed file lands in the middle of the text.
func pagesXML(n int) []byte {
	var b bytes.Buffer
	b.WriteString("<mediawiki>\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "<page><title>P%d</title><id>%d</id><revision><timestamp>2001-01-01T00:00:%02dZ</timestamp><text>", i, i+1, i%60)
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

func tarOf(t *testing.T, members map[string][]byte, order ...string) []byte {
	t.Helper()
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for _, name := range order {
		body := members[name]
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write(body)
	}
	tw.Close()
	return b.Bytes()
}

func gzipOf(b []byte, level int) []byte {
	var z bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&z, level)
	zw.Write(b)
	zw.Close()
	return z.Bytes()
}

// readMembers reads every member to its end with the built-in decoders
// (external_test.go compares the system decoders with them) and returns
// their contents and the first error (of Next or Read).
func readMembers(p string) (map[string][]byte, error) {
	r, err := OpenContext(context.Background(), p, Options{Builtin: true})
	if err != nil {
		return nil, err
	}
	defer r.Close()
	got := map[string][]byte{}
	for {
		name, err := r.Next()
		if errors.Is(err, io.EOF) {
			return got, nil
		}
		if err != nil {
			return got, err
		}
		b, err := io.ReadAll(r)
		got[name] = b
		if err != nil {
			return got, err
		}
	}
}

// A compressed tar is checked to the end of its compressed stream, not only to
// the tar end marker: the gzip trailer's CRC-32 (the 8 bytes at the end:
// CRC-32, then the size mod 2^32, RFC 1952 §2.3.1) and the xz index and check.
func TestCompressedTarTrailerChecked(t *testing.T) {
	body := pagesXML(20)
	plain := tarOf(t, map[string][]byte{"a.xml": body}, "a.xml")
	dir := t.TempDir()

	crcFlip := gzipOf(plain, gzip.DefaultCompression)
	crcFlip[len(crcFlip)-8] ^= 0x01 // lowest bit of the CRC-32

	stored := gzipOf(plain, gzip.NoCompression)
	// A stored block holds the bytes verbatim: change the digit of "P7" in
	// the member's text; the deflate structure stays valid.
	i := bytes.Index(stored, []byte("<title>P7<"))
	if i < 0 {
		t.Fatal("stored gzip does not hold the text verbatim")
	}
	stored[i+len("<title>P")] = '8'

	var xzb bytes.Buffer
	xw, _ := xz.NewWriter(&xzb)
	xw.Write(plain)
	xw.Close()
	xzFlip := bytes.Clone(xzb.Bytes())
	// The stream footer: CRC32 (4), backward size (4), flags (2), "YZ";
	// the index before it ends with its own CRC32. Flip a bit of that CRC.
	xzFlip[len(xzFlip)-12-1] ^= 0x01

	cases := map[string][]byte{"crc.tar.gz": crcFlip, "stored.tar.gz": stored, "index.tar.xz": xzFlip}
	if bin, err := exec.LookPath("bzip2"); err == nil {
		cmd := exec.Command(bin, "-c")
		cmd.Stdin = bytes.NewReader(plain)
		bz, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		// The trailer's 48-bit magic is followed by the 32-bit stream CRC
		// and 0–7 padding bits; flip the CRC's last bit (see hasBzip2Trailer).
		tail := bz[len(bz)-11:]
		for pad := 0; pad < 8; pad++ {
			if bitsAt(tail, 8-pad, 48) == bzip2EOS {
				bit := 88 - pad - 1
				tail[bit/8] ^= 1 << (7 - bit%8)
				break
			}
		}
		cases["crc.tar.bz2"] = bz
	}
	for name, b := range cases {
		p := filepath.Join(dir, name)
		os.WriteFile(p, b, 0o644)
		got, err := readMembers(p)
		var ce *CorruptError
		if !errors.As(err, &ce) || !strings.HasPrefix(ce.File, p) {
			t.Errorf("%s: members %d, err %v: want a CorruptError naming the file", name, len(got), err)
		}
	}
	// The intact archives still read without error.
	for name, b := range map[string][]byte{"ok.tar.gz": gzipOf(plain, gzip.DefaultCompression), "ok.tar.xz": xzb.Bytes()} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, b, 0o644)
		got, err := readMembers(p)
		if err != nil || !bytes.Equal(got["a.xml"], body) {
			t.Errorf("%s: err %v, %d bytes of a.xml, want %d", name, err, len(got["a.xml"]), len(body))
		}
	}
}

// A single compressed stream whose reader stopped before the end (a parser
// that found its closing tag) is still checked to its end by the next
// Next: the flipped CRC is reported.
func TestSingleStreamCheckedOnNext(t *testing.T) {
	body := pagesXML(5)
	z := gzipOf(body, gzip.DefaultCompression)
	z[len(z)-8] ^= 0x01
	p := filepath.Join(t.TempDir(), "a.xml.gz")
	os.WriteFile(p, z, 0o644)
	r, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.Next()
	if _, err := io.ReadFull(r, make([]byte, 100)); err != nil {
		t.Fatal(err)
	}
	_, err = r.Next()
	var ce *CorruptError
	if !errors.As(err, &ce) || ce.File != p || !r.Failed() {
		t.Fatalf("Next after a partial read: %v, want a CorruptError (the CRC)", err)
	}
}

// An LZMA-alone stream followed by other bytes is an error naming the
// offset where they start (`lzma -dc` says "Compressed data is corrupt"
// and exits 1 on the same file), not a clean end.
func TestLZMATrailingGarbage(t *testing.T) {
	src := realdata.Path(t, "wikipedia/wikimedia__pywikibot/article-pyrus.xml.lzma")
	full, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "g.xml.lzma")
	os.WriteFile(p, append(full, "garbage\n"...), 0o644)
	got, err := readMembers(p)
	var ce *CorruptError
	if !errors.As(err, &ce) || ce.File != p || !strings.Contains(err.Error(), "byte "+strconv.Itoa(len(full))) {
		t.Fatalf("%d bytes, err %v: want a CorruptError naming byte %d", len(got[""]), err, len(full))
	}
	if len(got[""]) != 3871 { // article-pyrus.xml (SOURCES.md)
		t.Errorf("%d bytes before the error, want the whole 3871-byte page", len(got[""]))
	}
}

// lzmaDC runs `lzma -dc` on b and returns its output (whatever it wrote
// before failing on a cut stream); ok is false without the tool.
func lzmaDC(t *testing.T, tool string, b []byte) ([]byte, bool) {
	bin, err := exec.LookPath(tool)
	if err != nil {
		return nil, false
	}
	cmd := exec.Command(bin, "-dc")
	cmd.Stdin = bytes.NewReader(b)
	out, _ := cmd.Output() // exits 1 on a cut stream
	return out, true
}

// An LZMA-alone stream cut short delivers every byte decoded before the
// cut — what `lzma -dc` writes for the same cut file — and then a
// truncation error whose offset is that number of bytes: the decoder's
// dictionary-sized read-ahead is not lost with the error.
//
// The document is pagesXML(300) (551,838 bytes), compressed in-process
// with ulikunitz/xz/lzma (196,936 bytes). Measured by hand with
// xz-utils 5.4.1, `lzma -dc` writes 551,838 bytes for the 1-byte cut,
// 551,579 for the 100-byte cut and 276,700 when the last 98,468 bytes are
// cut; with lzma installed the test compares with it directly too.
func TestLZMATruncatedSalvage(t *testing.T) {
	doc := pagesXML(300)
	var z bytes.Buffer
	w, err := lzma.NewWriter(&z)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(doc)
	w.Close()
	full := z.Bytes()
	if len(doc) != 551838 || len(full) != 196936 {
		t.Fatalf("document %d bytes, compressed %d: the hand measurements below are for 551838 and 196936", len(doc), len(full))
	}
	dir := t.TempDir()
	for _, c := range []struct{ cut, want int }{{1, 551838}, {100, 551579}, {98468, 276700}} {
		cut := full[:len(full)-c.cut]
		want := doc[:c.want]
		if ref, ok := lzmaDC(t, "lzma", cut); ok && !bytes.Equal(ref, want) {
			t.Errorf("cut %d: lzma -dc wrote %d bytes, the comment says %d", c.cut, len(ref), c.want)
		}
		p := filepath.Join(dir, fmt.Sprintf("cut%d.xml.lzma", c.cut))
		os.WriteFile(p, cut, 0o644)
		got, err := readMembers(p)
		var ce *CorruptError
		if !errors.As(err, &ce) || !ce.Truncated || ce.File != p {
			t.Fatalf("cut %d: err %v, want a truncation CorruptError", c.cut, err)
		}
		if !bytes.Equal(got[""], want) {
			t.Errorf("cut %d: salvaged %d bytes, want the %d that lzma -dc writes (prefix ok: %v)", c.cut, len(got[""]), c.want, bytes.HasPrefix(doc, got[""]))
		}
		if ce.Offset != int64(len(got[""])) {
			t.Errorf("cut %d: error offset %d, want %d (the bytes delivered)", c.cut, ce.Offset, len(got[""]))
		}
	}
}

// Damage found when an input is opened (a corrupt gzip header, a 7z cut
// before its header, an LZMA stream cut inside its range-coder start) does
// not fail Open: the first Next returns the CorruptError, naming the
// file, and Size and SHA256 still describe the stored bytes, so a caller
// that skips bad inputs can record it.
func TestOpenDamageOnNext(t *testing.T) {
	dir := t.TempDir()
	z := gzipOf(pagesXML(3), gzip.DefaultCompression)
	z[2] = 7 // CM: 8 is deflate, 0–7 are reserved (RFC 1952 §2.3.1): an invalid header
	pyrus7z, err := os.ReadFile(realdata.Path(t, "wikipedia/wikimedia__pywikibot/article-pyrus.xml.7z"))
	if err != nil {
		t.Fatal(err)
	}
	var lz bytes.Buffer
	w, _ := lzma.NewWriter(&lz)
	w.Write(pagesXML(3))
	w.Close()
	for name, b := range map[string][]byte{
		"badheader.xml.gz": z,
		"cut.7z":           pyrus7z[:len(pyrus7z)/2],
		"cut.xml.lzma":     lz.Bytes()[:13+2], // the 13-byte header and 2 of the 5 range-coder bytes
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, b, 0o644)
		r, err := Open(p)
		if err != nil {
			t.Errorf("%s: Open: %v, want the damage reported by Next", name, err)
			continue
		}
		_, err = r.Next()
		var ce *CorruptError
		// (errors.Is(err, io.EOF) would make a caller take it for a clean end.)
		if !errors.As(err, &ce) || !strings.HasPrefix(ce.File, p) || strings.Count(err.Error(), p) != 1 || !r.Failed() || errors.Is(err, io.EOF) {
			t.Errorf("%s: Next: %v, want a CorruptError naming the file once", name, err)
		}
		if _, err := r.Next(); err != io.EOF {
			t.Errorf("%s: Next after the damage: %v, want io.EOF", name, err)
		}
		sum, err := r.SHA256()
		if err != nil || sum != fileSHA(t, p) || r.Size() != int64(len(b)) {
			t.Errorf("%s: sha256 %s (%v) size %d, want the file's %s, %d", name, sum, err, r.Size(), fileSHA(t, p), len(b))
		}
		r.Close()
	}
}

// A damaged tar header is an error naming the byte offset of the header
// in the archive (here the second header: 512 + the first member's 1,000
// bytes padded to 1,024 = byte 1536).
func TestTarHeaderErrorOffset(t *testing.T) {
	a, b := bytes.Repeat([]byte("a"), 1000), []byte("bbb")
	plain := tarOf(t, map[string][]byte{"a.txt": a, "b.txt": b}, "a.txt", "b.txt")
	if !bytes.Equal(plain[1536+257:1536+262], []byte("ustar")) {
		t.Fatal("second header is not at byte 1536")
	}
	plain[1536+148] ^= 0x07 // the header checksum field (offset 148, 8 octal digits)
	dir := t.TempDir()
	for name, data := range map[string][]byte{"x.tar": plain, "x.tar.gz": gzipOf(plain, gzip.DefaultCompression)} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, data, 0o644)
		got, err := readMembers(p)
		var ce *CorruptError
		if !errors.As(err, &ce) || ce.File != p || !strings.Contains(err.Error(), "byte 1536") {
			t.Errorf("%s: err %v, want a CorruptError naming %s and byte 1536", name, err, p)
		}
		if !bytes.Equal(got["a.txt"], a) {
			t.Errorf("%s: the first member (%d bytes) was not read before the error", name, len(got["a.txt"]))
		}
	}
}

// Member names are labels in messages: control characters (an escape
// sequence that would clear the terminal, a newline that would fake a
// message line) are escaped like strconv.Quote does; plain names are kept.
func TestTarMemberNameEscaped(t *testing.T) {
	evil := "dump\x1b[2J\nrevisit: all good.xml"
	plain := tarOf(t, map[string][]byte{evil: []byte("x"), "dir/ok é.xml": []byte("y")}, evil, "dir/ok é.xml")
	p := filepath.Join(t.TempDir(), "x.tar")
	os.WriteFile(p, plain, 0o644)
	got, err := readMembers(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := got[strconv.Quote(evil)]; !ok || len(got) != 2 {
		t.Errorf("members %q, want %q", keys(got), strconv.Quote(evil))
	}
	if _, ok := got["dir/ok é.xml"]; !ok {
		t.Errorf("members %q: a printable name was changed", keys(got))
	}
	for k := range got {
		if strings.ContainsAny(k, "\x1b\n") {
			t.Errorf("member name %q holds control characters", k)
		}
	}
}

func keys(m map[string][]byte) []string {
	var k []string
	for s := range m {
		k = append(k, s)
	}
	return k
}

// Symbolic and hard links, devices and FIFOs in a tar hold no file data:
// they are stepped over and counted by kind (directories are not counted).
func TestTarSpecialMembersCounted(t *testing.T) {
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for _, h := range []*tar.Header{
		{Name: "d/", Typeflag: tar.TypeDir, Mode: 0o755},
		{Name: "d/a.xml", Typeflag: tar.TypeReg, Mode: 0o644, Size: 3},
		{Name: "d/link", Typeflag: tar.TypeSymlink, Linkname: "a.xml"},
		{Name: "d/hard", Typeflag: tar.TypeLink, Linkname: "d/a.xml"},
		{Name: "d/tty", Typeflag: tar.TypeChar, Devmajor: 4, Devminor: 1},
		{Name: "d/sda", Typeflag: tar.TypeBlock, Devmajor: 8},
		{Name: "d/pipe", Typeflag: tar.TypeFifo},
	} {
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Size > 0 {
			tw.Write([]byte("abc"))
		}
	}
	tw.Close()
	p := filepath.Join(t.TempDir(), "x.tar")
	os.WriteFile(p, b.Bytes(), 0o644)
	r, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var names []string
	for {
		name, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	want := map[string]int64{"symlink": 1, "hardlink": 1, "device": 2, "fifo": 1}
	got := r.SkippedMembers()
	if len(names) != 1 || names[0] != "d/a.xml" || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("members %q, skipped %v; want [d/a.xml] and %v", names, got, want)
	}
}

// An xz file cut short delivers every byte decoded before the cut — what
// `xz -dc` writes for the same cut file — and then a truncation error at
// that offset, the decoded part of the LZMA2 chunk being cut included
// (ulikunitz/xz decodes a chunk, up to 2 MiB, in one go and keeps its
// error).
//
// The document is pagesXML(300) (551,838 bytes), compressed in-process
// with ulikunitz/xz (197,012 bytes). Measured by hand with xz-utils 5.4.1,
// `xz -dc` writes 551,838 bytes for the 1-byte cut, 551,660 for the
// 100-byte cut and 276,726 when the last 98,506 bytes are cut; with xz
// installed the test also compares with it directly, on these cuts and on
// files xz itself wrote.
func TestXZTruncatedSalvage(t *testing.T) {
	doc := pagesXML(300)
	var z bytes.Buffer
	w, err := xz.NewWriter(&z)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(doc)
	w.Close()
	full := z.Bytes()
	if len(doc) != 551838 || len(full) != 197012 {
		t.Fatalf("document %d bytes, compressed %d: the hand measurements below are for 551838 and 197012", len(doc), len(full))
	}
	dir := t.TempDir()
	check := func(name string, cut []byte, want int) {
		t.Helper()
		if ref, ok := lzmaDC(t, "xz", cut); ok && len(ref) != want {
			t.Errorf("%s: xz -dc wrote %d bytes, expected %d", name, len(ref), want)
		}
		p := filepath.Join(dir, name)
		os.WriteFile(p, cut, 0o644)
		got, err := readMembers(p)
		var ce *CorruptError
		if !errors.As(err, &ce) || !ce.Truncated || ce.File != p {
			t.Fatalf("%s: err %v, want a truncation CorruptError", name, err)
		}
		if !bytes.Equal(got[""], doc[:want]) {
			t.Errorf("%s: salvaged %d bytes, want the %d that xz -dc writes (prefix ok: %v)", name, len(got[""]), want, bytes.HasPrefix(doc, got[""]))
		}
		if ce.Offset != int64(len(got[""])) {
			t.Errorf("%s: error offset %d, want %d (the bytes delivered)", name, ce.Offset, len(got[""]))
		}
	}
	for _, c := range []struct{ cut, want int }{{1, 551838}, {100, 551660}, {98506, 276726}} {
		check(fmt.Sprintf("cut%d.xml.xz", c.cut), full[:len(full)-c.cut], c.want)
	}
	// Files written by xz itself (other chunking, several blocks), cut at
	// several places: the same bytes as xz -dc.
	bin, err := exec.LookPath("xz")
	if err != nil {
		return
	}
	for _, args := range [][]string{{"-1"}, {"-6", "--block-size=100000"}, {"-9e"}} {
		cmd := exec.Command(bin, append(args, "-c")...)
		cmd.Stdin = bytes.NewReader(doc)
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		for _, frac := range []float64{0.13, 0.5, 0.77, 0.999} {
			cut := out[:int(float64(len(out))*frac)]
			ref, _ := lzmaDC(t, "xz", cut)
			check(fmt.Sprintf("xz%s-%g.xml.xz", args[0], frac), cut, len(ref))
		}
	}
}

// The salvage decoder itself decodes whole files xz wrote with every
// preset (and several blocks, other lc/lp/pb, dictionaries smaller than
// the document so the dictionary wraps, two concatenated streams) to the
// original bytes.
func TestXZSalvageDecoder(t *testing.T) {
	bin, err := exec.LookPath("xz")
	if err != nil {
		t.Skip("xz not installed")
	}
	doc := pagesXML(120)
	for _, args := range [][]string{{"-0"}, {"-3"}, {"-6"}, {"-9e"}, {"-6", "--block-size=50000"}, {"--lzma2=preset=6,lc=1,lp=3,pb=0"}, {"--check=sha256"}, {"--check=none"}, {"--lzma2=preset=6,dict=4KiB"}, {"--lzma2=preset=1,dict=100KiB"}} {
		cmd := exec.Command(bin, append(args, "-c")...)
		cmd.Stdin = bytes.NewReader(doc)
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		two := append(append(bytes.Clone(out), 0, 0, 0, 0), out...) // stream padding between
		for _, c := range []struct {
			in   []byte
			want []byte
		}{{out, doc}, {two, append(bytes.Clone(doc), doc...)}} {
			got := xzSalvage(bytes.NewReader(c.in), 0, 0, 1<<30)
			if !bytes.Equal(got, c.want) {
				t.Errorf("xz %v: decoded %d bytes, want %d (prefix ok: %v)", args, len(got), len(c.want), bytes.HasPrefix(c.want, got))
			}
		}
	}
}

// The salvage decoder reads damaged input (it runs on files cut short):
// whatever the bytes, it must return, never panic, and what it returns is
// bounded by its limit.
func FuzzXZSalvage(f *testing.F) {
	var z bytes.Buffer
	w, _ := xz.NewWriter(&z)
	w.Write(pagesXML(3))
	w.Close()
	f.Add(z.Bytes(), 0)
	f.Add(z.Bytes()[:z.Len()/2], 3)
	f.Fuzz(func(t *testing.T, b []byte, flip int) {
		if len(b) > 0 {
			b = bytes.Clone(b)
			b[(flip&0x7fffffff)%len(b)] ^= byte(flip >> 8)
		}
		if got := xzSalvage(bytes.NewReader(b), 0, 0, 1<<20); len(got) > 1<<20 {
			t.Fatalf("%d bytes beyond the limit", len(got))
		}
	})
}

// The same, deterministic: 4,000 copies of small xz files with one to
// three bytes changed (a seeded source), each cut at a random length.
func TestXZSalvageDamaged(t *testing.T) {
	var z bytes.Buffer
	w, _ := xz.NewWriter(&z)
	w.Write(pagesXML(4))
	w.Close()
	files := [][]byte{z.Bytes()}
	if bin, err := exec.LookPath("xz"); err == nil {
		cmd := exec.Command(bin, "-6", "--block-size=3000", "-c")
		cmd.Stdin = bytes.NewReader(pagesXML(4))
		if out, err := cmd.Output(); err == nil {
			files = append(files, out)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 4000; i++ {
		b := bytes.Clone(files[i%len(files)])
		for k := rng.IntN(3) + 1; k > 0; k-- {
			b[rng.IntN(len(b))] ^= byte(rng.IntN(255) + 1)
		}
		b = b[:rng.IntN(len(b)+1)]
		if got := xzSalvage(bytes.NewReader(b), 0, 0, 1<<20); len(got) > 1<<20 {
			t.Fatalf("%d bytes beyond the limit", len(got))
		}
	}
}
