package decompress

import (
	"archive/tar"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"

	"github.com/revisit-dev/revisit/internal/realdata"
)

func readAll(t *testing.T, r *Reader) []byte {
	t.Helper()
	if _, err := r.Next(); err != nil {
		t.Fatalf("Next: %v", err)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("second Next on a single stream: %v, want io.EOF", err)
	}
	return b
}

func fileSHA(t *testing.T, path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// The same Pyrus page in five compressions (SOURCES.md §1) must decode to the
// bytes of the plain article-pyrus.xml, and each hash must equal the hash of
// the stored file computed independently with crypto/sha256.
func TestRealPyrusCompressions(t *testing.T) {
	plainPath := realdata.Path(t, "wikipedia/wikimedia__pywikibot/article-pyrus.xml")
	plain, err := os.ReadFile(plainPath)
	if err != nil {
		t.Fatal(err)
	}
	for ext, format := range map[string]string{"": Plain, ".gz": Gzip, ".bz2": Bzip2, ".xz": XZ, ".lzma": LZMA, ".7z": SevenZip} {
		p := plainPath + ext
		r, err := Open(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if r.Format() != format {
			t.Errorf("%s: format %q, want %q", p, r.Format(), format)
		}
		name, err := r.Next()
		if err != nil {
			t.Fatalf("%s: Next: %v", p, err)
		}
		if format == SevenZip && name != "article-pyrus.xml" {
			t.Errorf("%s: member %q", p, name)
		}
		got, err := io.ReadAll(r)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if !bytes.Equal(got, plain) {
			t.Errorf("%s: decoded %d bytes, differ from the plain file (%d bytes)", p, len(got), len(plain))
		}
		if _, err := r.Next(); err != io.EOF {
			t.Errorf("%s: Next after the only member: %v", p, err)
		}
		sum, err := r.SHA256()
		if err != nil {
			t.Fatal(err)
		}
		if want := fileSHA(t, p); sum != want {
			t.Errorf("%s: sha256 %s, want %s", p, sum, want)
		}
		st, _ := os.Stat(p)
		if r.Size() != st.Size() {
			t.Errorf("%s: size %d, want %d", p, r.Size(), st.Size())
		}
		if r.Consumed() != st.Size() && format != SevenZip {
			t.Errorf("%s: consumed %d of %d stored bytes", p, r.Consumed(), st.Size())
		}
		r.Close()
	}
}

// hiwiki.tar.gz holds one member, hiwiki.xml of 1,909,725 bytes (SOURCES.md §1).
func TestRealTarGz(t *testing.T) {
	p := realdata.Path(t, "wikipedia/snukky__wikiedits/hiwiki.tar.gz")
	r, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Format() != Gzip || r.Archive() != Tar {
		t.Fatalf("format %q archive %q, want gzip tar", r.Format(), r.Archive())
	}
	var names []string
	var sizes []int
	for {
		name, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, filepath.Base(name))
		sizes = append(sizes, len(b))
	}
	if len(names) != 1 || names[0] != "hiwiki.xml" || sizes[0] != 1909725 {
		t.Fatalf("members %v sizes %v, want [hiwiki.xml] [1909725]", names, sizes)
	}
}

// Streams cut short must fail with a CorruptError, never look like a clean end.
func TestTruncatedStreams(t *testing.T) {
	payload := bytes.Repeat([]byte("<revision><timestamp>2001-01-01T00:00:00Z</timestamp></revision>\n"), 20000)
	var gz, zs, xzb bytes.Buffer
	gw := gzip.NewWriter(&gz)
	gw.Write(payload)
	gw.Close()
	zw, _ := zstd.NewWriter(&zs)
	zw.Write(payload)
	zw.Close()
	xw, _ := xz.NewWriter(&xzb)
	xw.Write(payload)
	xw.Close()
	dir := t.TempDir()
	cases := map[string][]byte{"a.gz": gz.Bytes(), "a.zst": zs.Bytes(), "a.xz": xzb.Bytes()}
	if p, ok := realdata.Root(); ok {
		for _, f := range []string{"wikipedia/wikimedia__pywikibot/article-pyrus.xml.bz2", "wikipedia/Schuwi__wikiwho_rs/Hallo.xml"} {
			b, err := os.ReadFile(filepath.Join(p, f))
			if err == nil && filepath.Ext(f) == ".bz2" {
				cases["a.bz2"] = b
			}
		}
	}
	for name, full := range cases {
		// Reading the whole stream works…
		p := filepath.Join(dir, name)
		os.WriteFile(p, full, 0o644)
		r, err := Open(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := io.ReadAll(struct{ io.Reader }{r}); err != nil {
			t.Fatalf("%s complete: %v", name, err)
		}
		r.Close()
		// …the same stream without its second half does not.
		os.WriteFile(p, full[:len(full)/2], 0o644)
		r, err = Open(p)
		if err != nil {
			continue // failing at the header is fine too
		}
		_, err = io.ReadAll(r)
		r.Close()
		var ce *CorruptError
		if !errors.As(err, &ce) {
			t.Errorf("%s truncated: err %v, want a *CorruptError", name, err)
			continue
		}
		if ce.File != p || ce.Offset < 0 {
			t.Errorf("%s: error %v lacks file or offset", name, err)
		}
	}
}

func TestDetect(t *testing.T) {
	for _, c := range []struct {
		head []byte
		name string
		want string
	}{
		{[]byte{0x1f, 0x8b, 8, 0}, "x", Gzip},
		{[]byte("BZh91AY&SY"), "x", Bzip2},
		{[]byte("BZh0"), "x", Plain}, // block size digit must be 1–9
		{[]byte{0x28, 0xb5, 0x2f, 0xfd, 0}, "x", Zstd},
		{[]byte{0xfd, '7', 'z', 'X', 'Z', 0}, "x", XZ},
		{[]byte{'7', 'z', 0xbc, 0xaf, 0x27, 0x1c, 0, 4}, "x", SevenZip},
		// LZMA-alone: props 0x5d (lc=3 lp=0 pb=2), dict 2^23, size unknown.
		{[]byte{0x5d, 0, 0, 0x80, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, "x", LZMA},
		// dict 3·2^22 = 2^23 + 2^22 is a size xz writes too.
		{[]byte{0x5d, 0, 0, 0xc0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, "x", LZMA},
		// dict 0x00c00001 is not 2^n or 2^n+2^(n−1): only with the .lzma name.
		{[]byte{0x5d, 1, 0, 0xc0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, "x", Plain},
		{[]byte{0x5d, 1, 0, 0xc0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, "a.lzma", LZMA},
		{[]byte("<mediawiki xmlns="), "a.lzma", Plain}, // 'm','e','d','i' is no dictionary… but named .lzma: size bytes fail
		{[]byte("<mediawiki xmlns="), "x", Plain},
		{[]byte(`{"business_id":"x"}`), "x", Plain},
		{nil, "x", Plain},
	} {
		if got := Detect(c.head, c.name); got != c.want {
			t.Errorf("Detect(% x, %q) = %s, want %s", c.head, c.name, got, c.want)
		}
	}
}

// Standard input (here a pipe) holding a 7z archive is spooled to a
// temporary file, since 7z needs random access.
// openPipe opens the bytes of the file p as standard input would be: a
// pipe, read once.
func openPipe(t *testing.T, p string) *Reader {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() { pw.Write(data); pw.Close() }()
	r, err := open(context.Background(), pr, "<stdin>", false, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestPipe7z(t *testing.T) {
	p := realdata.Path(t, "wikipedia/wikimedia__pywikibot/article-pyrus.xml.7z")
	plain, _ := os.ReadFile(realdata.Path(t, "wikipedia/wikimedia__pywikibot/article-pyrus.xml"))
	r := openPipe(t, p)
	defer r.Close()
	got := readAll(t, r)
	if !bytes.Equal(got, plain) {
		t.Fatalf("7z from a pipe: %d bytes, want %d", len(got), len(plain))
	}
	sum, _ := r.SHA256()
	if sum != fileSHA(t, p) {
		t.Fatal("sha256 of spooled stdin differs from the file's")
	}
}

// A plain tar cut inside a member: the error says the tar archive is
// truncated and names the member (not a "plain stream", which would send
// the user looking for a compression problem).
func TestTruncatedTar(t *testing.T) {
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	body := bytes.Repeat([]byte("{\"business_id\":\"x\",\"date\":\"2020-01-01\"}\n"), 2000)
	tw.WriteHeader(&tar.Header{Name: "reviews.json", Mode: 0o644, Size: int64(len(body))})
	tw.Write(body)
	tw.Close()
	p := filepath.Join(t.TempDir(), "y.tar")
	cut := 512 + len(body)/2 // the header and half the member
	os.WriteFile(p, b.Bytes()[:cut], 0o644)
	r, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	_, err = io.ReadAll(r)
	var ce *CorruptError
	if !errors.As(err, &ce) {
		t.Fatalf("err %v, want a *CorruptError", err)
	}
	if ce.Format != "tar" || ce.File != p+":reviews.json" || ce.Offset != int64(len(body)/2) {
		t.Errorf("error %v: format %q file %q offset %d; want tar, %s:reviews.json, %d", err, ce.Format, ce.File, ce.Offset, p, len(body)/2)
	}
}

// A bzip2 file cut short fails in the parallel decoder, which looks for
// the end-of-stream trailer first, before any byte is delivered: the error
// must still name the file and say plainly that the stream is truncated.
func TestTruncatedBzip2Message(t *testing.T) {
	bin, err := exec.LookPath("bzip2")
	if err != nil {
		t.Skip("bzip2 not installed")
	}
	cmd := exec.Command(bin, "-c")
	cmd.Stdin = bytes.NewReader(bytes.Repeat([]byte("<page><title>x</title></page>\n"), 5000))
	full, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "a.xml.bz2")
	os.WriteFile(p, full[:len(full)/2], 0o644)
	r, err := Open(p)
	if err == nil {
		defer r.Close()
		_, err = io.ReadAll(r)
	}
	var ce *CorruptError
	if !errors.As(err, &ce) || ce.File != p || !strings.Contains(err.Error(), "truncated bzip2 stream") {
		t.Fatalf("err %v: want a CorruptError naming %s and saying \"truncated bzip2 stream\"", err, p)
	}
}

// A multi-block bzip2 file cut short delivers exactly the blocks before the
// cut — the bytes the standard library's sequential decoder recovers from
// the same file — and then a truncation error. (The parallel decoder
// reports the missing trailer at a moment that depends on scheduling, so
// it delivered a varying part of the file, or nothing: --skip-bad gave a
// different dataset from run to run.)
func TestTruncatedBzip2Blocks(t *testing.T) {
	bin, err := exec.LookPath("bzip2")
	if err != nil {
		t.Skip("bzip2 not installed")
	}
	var text bytes.Buffer
	for i := 0; text.Len() < 1<<20; i++ {
		fmt.Fprintf(&text, "<revision><id>%d</id><timestamp>%d</timestamp></revision>\n", i*7919%100003, i*i%1000003)
	}
	cmd := exec.Command(bin, "-1", "-c")
	cmd.Stdin = bytes.NewReader(text.Bytes())
	full, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	cut := full[:len(full)*6/10]
	want, werr := io.ReadAll(bzip2.NewReader(bytes.NewReader(cut)))
	if werr == nil || len(want) < 300_000 || !bytes.HasPrefix(text.Bytes(), want) {
		t.Fatalf("reference: %d bytes, err %v", len(want), werr)
	}
	p := filepath.Join(t.TempDir(), "cut.bz2")
	os.WriteFile(p, cut, 0o644)
	for range 3 {
		r, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.Next(); err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		r.Close()
		var ce *CorruptError
		if !errors.As(err, &ce) || !ce.Truncated || ce.File != p {
			t.Fatalf("err %v: want a truncation CorruptError", err)
		}
		if len(got) != len(want) || !bytes.Equal(got, want) {
			t.Fatalf("delivered %d bytes before the error, want the %d bytes of the complete blocks", len(got), len(want))
		}
		if ce.Offset != int64(len(want)) {
			t.Errorf("error offset %d, want %d", ce.Offset, len(want))
		}
	}
}

// The trailer check against files written by bzip2: every whole file has
// one (whatever its padding), the same file without its last byte has not.
func TestHasBzip2Trailer(t *testing.T) {
	bin, err := exec.LookPath("bzip2")
	if err != nil {
		t.Skip("bzip2 not installed")
	}
	dir := t.TempDir()
	pads := map[int]bool{}
	for n := 0; n < 40; n++ {
		cmd := exec.Command(bin, "-c")
		cmd.Stdin = strings.NewReader(strings.Repeat("x", n) + fmt.Sprint(n*n*n))
		full, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			b    []byte
			want bool
		}{{full, true}, {full[:len(full)-1], false}} {
			p := filepath.Join(dir, "f.bz2")
			os.WriteFile(p, c.b, 0o644)
			f, _ := os.Open(p)
			if got := hasBzip2Trailer(f, int64(len(c.b))); got != c.want {
				t.Errorf("payload %d, %d bytes: trailer %v, want %v", n, len(c.b), got, c.want)
			}
			f.Close()
		}
		// The padding is where the magic's last bits fall in the final byte.
		for pad := 0; pad < 8; pad++ {
			if bitsAt(full[len(full)-11:], 8-pad, 48) == bzip2EOS {
				pads[pad] = true
			}
		}
	}
	if len(pads) < 4 {
		t.Errorf("only paddings %v were exercised", pads)
	}
}

// A 7z file cut short loses the archive header, which 7z keeps at the end:
// Open says the archive is truncated and where its header should end
// (the start header of the Pyrus file gives that offset).
func TestTruncated7z(t *testing.T) {
	full, err := os.ReadFile(realdata.Path(t, "wikipedia/wikimedia__pywikibot/article-pyrus.xml.7z"))
	if err != nil {
		t.Fatal(err)
	}
	// Start header: signature 6, version 2, CRC 4, next header offset 8,
	// next header size 8 (little-endian); the header ends 32 bytes after
	// the start of the file plus offset plus size, i.e. at the file's end.
	end := 32 + int64(binary.LittleEndian.Uint64(full[12:20])) + int64(binary.LittleEndian.Uint64(full[20:28]))
	if end != int64(len(full)) {
		t.Fatalf("header ends at %d, the file has %d bytes", end, len(full))
	}
	p := filepath.Join(t.TempDir(), "cut.7z")
	os.WriteFile(p, full[:len(full)/2], 0o644)
	r, err := Open(p) // Open leaves the damage to Next (see TestOpenDamageOnNext)
	if err == nil {
		_, err = r.Next()
		r.Close()
	}
	var ce *CorruptError
	if !errors.As(err, &ce) || !ce.Truncated || ce.File != p || strings.Count(err.Error(), p) != 1 ||
		!strings.Contains(err.Error(), fmt.Sprint(end)) || !strings.Contains(err.Error(), "truncated 7z stream") {
		t.Fatalf("err %v: want a truncation naming the file once and the header end %d", err, end)
	}
}
