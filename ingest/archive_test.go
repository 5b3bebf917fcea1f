package ingest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// writeTarFile writes a plain tar of members (name, content) to dir/name.
func writeTarFile(t *testing.T, dir, name string, members ...[2]string) string {
	t.Helper()
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for _, m := range members {
		tw.WriteHeader(&tar.Header{Name: m[0], Mode: 0o644, Size: int64(len(m[1])), Typeflag: tar.TypeReg})
		tw.Write([]byte(m[1]))
	}
	tw.Close()
	return write(t, dir, name, b.String())
}

func gzipped(s string) string {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.String()
}

// A plain tar of a compressed dump (`tar cf x.tar a.xml.gz`) gives the pages
// of the dump itself: its members are decompressed, then sniffed.
func TestTarOfCompressedDump(t *testing.T) {
	xml, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	_, want := run(t, Options{Inputs: []string{fixture}, AllNamespaces: true})
	p := writeTarFile(t, dir, "x.tar", [2]string{"a.xml.gz", gzipped(string(xml))})
	s, got := run(t, Options{Inputs: []string{p}, AllNamespaces: true})
	if len(want) == 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("tar of a.xml.gz: %d pages, want the %d of a.xml", len(got), len(want))
	}
	if f := s.Inputs[0].Format; f != "tar[mediawiki+gzip]" {
		t.Errorf("format %q, want tar[mediawiki+gzip]", f)
	}
}

// A tar none of whose members ingest reads is an error naming the members,
// with or without --skip-bad.
func TestTarWithNoReadableMember(t *testing.T) {
	dir := t.TempDir()
	p := writeTarFile(t, dir, "y.tar", [2]string{"notes.txt.gz", gzipped("hello\n")}, [2]string{"LICENSE", "MIT"})
	for _, skip := range []bool{false, true} {
		out := filepath.Join(dir, "ds")
		_, err := Run(context.Background(), Options{Inputs: []string{p}, Output: out, SkipBad: skip})
		var ae *ArchiveError
		if !errors.As(err, &ae) || !strings.Contains(err.Error(), p+": no member of the tar archive") ||
			!strings.Contains(err.Error(), `notes.txt.gz (starts with "hello\n")`) || !strings.Contains(err.Error(), `LICENSE (starts with "MIT")`) {
			t.Errorf("skip-bad %v: err %v", skip, err)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("skip-bad %v: a dataset was written", skip)
		}
	}
}
