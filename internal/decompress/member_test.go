package decompress

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"
	"github.com/ulikunitz/xz/lzma"
)

// tarFileOf writes a plain tar of the given members (name, content) to dir.
func tarFileOf(t *testing.T, dir, name string, members ...[2][]byte) string {
	t.Helper()
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for _, m := range members {
		if err := tw.WriteHeader(&tar.Header{Name: string(m[0]), Mode: 0o644, Size: int64(len(m[1])), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write(m[1])
	}
	tw.Close()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// compressed returns data compressed in format f with the Go encoders
// (bzip2 with the command-line tool, skipped when it is absent).
func compressed(t *testing.T, f string, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	switch f {
	case Gzip:
		w := gzip.NewWriter(&b)
		w.Write(data)
		w.Close()
	case Zstd:
		w, _ := zstd.NewWriter(&b)
		w.Write(data)
		w.Close()
	case XZ:
		w, _ := xz.NewWriter(&b)
		w.Write(data)
		w.Close()
	case LZMA:
		w, _ := lzma.NewWriter(&b)
		w.Write(data)
		w.Close()
	case Bzip2:
		bin, err := exec.LookPath("bzip2")
		if err != nil {
			t.Skip("bzip2 not installed")
		}
		cmd := exec.Command(bin, "-c")
		cmd.Stdin = bytes.NewReader(data)
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	return b.Bytes()
}

// A plain tar of compressed members (`tar cf x.tar a.xml.gz`): each member
// reads as its decompressed bytes, with its compression in MemberFormat.
func TestTarOfCompressedMembers(t *testing.T) {
	dir := t.TempDir()
	plain := bytes.Repeat([]byte("<page>some content</page>\n"), 5000)
	for _, f := range []string{Gzip, Bzip2, Zstd, XZ, LZMA} {
		t.Run(f, func(t *testing.T) {
			p := tarFileOf(t, dir, f+".tar",
				[2][]byte{[]byte("a.xml." + f), compressed(t, f, plain)},
				[2][]byte{[]byte("b.txt"), []byte("plain member")})
			r, err := Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			name, err := r.Next()
			if err != nil || name != "a.xml."+f || r.MemberFormat() != f {
				t.Fatalf("member %q, %v, format %q", name, err, r.MemberFormat())
			}
			if got, err := io.ReadAll(r); err != nil || !bytes.Equal(got, plain) {
				t.Fatalf("member read %d bytes, want the %d decompressed", len(got), len(plain))
			}
			name, err = r.Next()
			if err != nil || name != "b.txt" || r.MemberFormat() != Plain {
				t.Fatalf("member %q, %v, format %q", name, err, r.MemberFormat())
			}
			if got, err := io.ReadAll(r); err != nil || string(got) != "plain member" {
				t.Fatalf("plain member %q", got)
			}
			if _, err := r.Next(); !errors.Is(err, io.EOF) {
				t.Fatalf("end: %v", err)
			}
		})
	}
}

// A compressed member's trailer is verified when Next steps past it, even
// when the caller read only its head: a gzip member with a wrong CRC-32
// is a CorruptError naming the archive and the member.
func TestTarMemberTrailerChecked(t *testing.T) {
	dir := t.TempDir()
	gz := compressed(t, Gzip, bytes.Repeat([]byte("x"), 100_000))
	gz[len(gz)-8] ^= 0xff // the CRC-32
	p := tarFileOf(t, dir, "bad.tar", [2][]byte{[]byte("a.xml.gz"), gz}, [2][]byte{[]byte("b.txt"), []byte("b")})
	r, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Peek(10); err != nil {
		t.Fatal(err)
	}
	_, err = r.Next()
	var ce *CorruptError
	if !errors.As(err, &ce) || ce.File != p+":a.xml.gz" || ce.Format != Gzip {
		t.Fatalf("err %v (%+v); want a gzip CorruptError of %s:a.xml.gz", err, ce, p)
	}
	if !r.Failed() {
		t.Error("Failed is false after the damage")
	}
}
