package visits

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
)

const zipnumDir = "testdata/zipnum"

// sameRead checks that got (read from name) are the URLs and counts of
// want (read from the plain lines).
func sameRead(t *testing.T, name string, got, want []Observed, gst, wst *Stats) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: %d URLs %+v\nthe plain lines give %d: %+v", name, len(got), got, len(want), want)
	}
	if gst.Captures != wst.Captures || gst.URLs != wst.URLs || gst.Bad != 0 || gst.Inputs[0].Records != wst.Inputs[0].Records ||
		!reflect.DeepEqual(gst.Skipped, wst.Skipped) || gst.MergedKeys != wst.MergedKeys || gst.MergedOriginals != wst.MergedOriginals ||
		gst.RevisitsResolved != wst.RevisitsResolved {
		t.Errorf("%s: counts %+v, the plain lines give %+v", name, gst, wst)
	}
}

// A ZipNum shard is read as pywb reads it, block by block: each gzip member's
// last line, which has no newline, ends at the member's end. The shard of
// testdata/zipnum gives the URLs and counts of its 22 lines written out
// plainly.
func TestZipNumShardEndsLinesAtBlocks(t *testing.T) {
	want, wst, err := readAll(t, Options{}, filepath.Join(zipnumDir, "example.cdx"))
	if err != nil || wst.Inputs[0].Records != 22 {
		t.Fatalf("plain lines: %v, %+v", err, wst)
	}
	got, gst, err := readAll(t, Options{}, filepath.Join(zipnumDir, "example-zipnum.cdx.gz"))
	if err != nil {
		t.Fatalf("ZipNum shard: %v", err)
	}
	sameRead(t, "ZipNum shard", got, want, gst, wst)
	if gst.Inputs[0].Format != "cdx+gzip" {
		t.Errorf("format %q, want cdx+gzip", gst.Inputs[0].Format)
	}
	b, err := os.ReadFile(filepath.Join(zipnumDir, "example-zipnum.cdx.gz"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	if len(gst.Prints) != 1 || gst.Prints[0].SHA256 != fmt.Sprintf("%x", sum[:]) || gst.Prints[0].Size != int64(len(b)) {
		t.Errorf("fingerprint %+v, want the file's SHA-256 %x", gst.Prints, sum)
	}
}

// gzipMembers writes parts as one gzip member each, BGZF blocks (the
// header's extra subfield "BC") when bgzf.
func gzipMembers(t *testing.T, parts []string, bgzf bool) []byte {
	t.Helper()
	var b bytes.Buffer
	for _, p := range parts {
		zw := gzip.NewWriter(&b)
		if bgzf {
			zw.Header.Extra = []byte{'B', 'C', 2, 0, 0, 0}
		}
		if _, err := zw.Write([]byte(p)); err != nil {
			t.Fatal(err)
		}
		zw.Close()
	}
	return b.Bytes()
}

// Only a member that ends inside a line ends it: members that end with a
// newline (concatenated gzip files) and BGZF blocks (bgzip cuts a stream
// anywhere, inside lines) are read as one stream; a member ending inside
// a line that is no BGZF block ends it, so a line cut there is two bad
// lines, named.
func TestGzipMembersLineEnds(t *testing.T) {
	trace := "1\t[[1, 0], [1, 1]]\n2\t[[1, 1], [2, 0]]\n"
	want, _, err := readAll(t, Options{}, writeFile(t, "t.tsv", []byte(trace)))
	if err != nil || len(want) != 2 {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		parts []string
		bgzf  bool
		ok    bool
	}{
		{"members of whole lines", []string{trace[:19], trace[19:]}, false, true},
		{"BGZF blocks cut inside lines", []string{trace[:7], trace[7:25], trace[25:]}, true, true},
		{"BGZF with its empty last block", []string{trace, ""}, true, true},
		{"a member cut inside a line", []string{trace[:7], trace[7:]}, false, false},
	} {
		p := writeFile(t, "t.tsv.gz", gzipMembers(t, c.parts, c.bgzf))
		got, _, err := readAll(t, Options{}, p)
		var be *BadRecordError
		switch {
		case c.ok && (err != nil || !reflect.DeepEqual(got, want)):
			t.Errorf("%s: %v, %+v", c.name, err, got)
		case !c.ok && (!errors.As(err, &be) || be.Line != 1 || be.File != p):
			t.Errorf("%s: %v, want line 1 bad", c.name, err)
		}
	}
}

// A ZipNum cluster (pywb's layout) read from its index: the blocks the
// .idx lists, from the first location of the shard in the .loc beside it
// that is a file, give the URLs and counts of the plain lines; the input
// is the index (its format cdx+zipnum), the fingerprints the index's and
// the shard's. Without a .loc, the shard is the file of its name beside
// the index (Common Crawl's layout). Refused, naming the index line: a
// shard at no location, blocks that leave a gap or stop before the end of
// the shard, a shard again after another.
func TestZipNumCluster(t *testing.T) {
	want, wst, err := readAll(t, Options{}, filepath.Join(zipnumDir, "example.cdx"))
	if err != nil {
		t.Fatal(err)
	}
	idx := filepath.Join(zipnumDir, "example.idx")
	got, gst, err := readAll(t, Options{}, idx)
	if err != nil {
		t.Fatalf("cluster: %v", err)
	}
	sameRead(t, "cluster", got, want, gst, wst)
	if len(gst.Inputs) != 1 || gst.Inputs[0].Name != idx || gst.Inputs[0].Format != "cdx+zipnum" {
		t.Errorf("inputs %+v, want the index, cdx+zipnum", gst.Inputs)
	}
	shardPath := filepath.Join(zipnumDir, "example-zipnum.cdx.gz")
	shard, err := os.ReadFile(shardPath)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(shard)
	if len(gst.Prints) != 2 || gst.Prints[0].Name != idx || gst.Prints[1].Name != shardPath || gst.Prints[1].SHA256 != fmt.Sprintf("%x", sum[:]) {
		t.Errorf("fingerprints %+v, want the index's then the shard's (SHA-256 %x)", gst.Prints, sum)
	}

	lines, err := os.ReadFile(idx)
	if err != nil {
		t.Fatal(err)
	}
	idxLines := strings.SplitAfter(strings.TrimSuffix(string(lines), "\n"), "\n")
	// Common Crawl's layout: no .loc, the shard named as the file beside the index
	cc := t.TempDir()
	if err := os.WriteFile(filepath.Join(cc, "cdx-00000.gz"), shard, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cc, "cluster.idx"), []byte(strings.ReplaceAll(string(lines), "\texample\t", "\tcdx-00000.gz\t")), 0o644); err != nil {
		t.Fatal(err)
	}
	got, gst, err = readAll(t, Options{}, filepath.Join(cc, "cluster.idx"))
	if err != nil {
		t.Fatalf("Common Crawl's layout: %v", err)
	}
	sameRead(t, "Common Crawl's layout", got, want, gst, wst)

	for _, c := range []struct {
		name      string
		idx, loc  string
		wantError string
	}{
		{"no location", string(lines), "example\tno-such-dir/example.cdx.gz\n", "shard example not found"},
		{"a gap", strings.Join(append(append([]string{}, idxLines[:2]...), idxLines[3:]...), ""), "", "must follow each other"},
		{"the shard's end left out", strings.Join(idxLines[:len(idxLines)-1], ""), "", "the records after them would not be read"},
		{"a shard again", string(lines) + strings.ReplaceAll(string(lines), "\texample\t", "\tother\t") + idxLines[0], "example\texample-zipnum.cdx.gz\nother\texample-zipnum.cdx.gz\n", "again after other shards"},
	} {
		d := t.TempDir()
		if err := os.WriteFile(filepath.Join(d, "example-zipnum.cdx.gz"), shard, 0o644); err != nil {
			t.Fatal(err)
		}
		loc := c.loc
		if loc == "" {
			loc = "example\texample-zipnum.cdx.gz\n"
		}
		if err := os.WriteFile(filepath.Join(d, "c.loc"), []byte(loc), 0o644); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(d, "c.idx")
		if err := os.WriteFile(p, []byte(c.idx), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, err := readAll(t, Options{}, p); err == nil || !strings.Contains(err.Error(), c.wantError) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: %v, want an error naming %s with %q", c.name, err, p, c.wantError)
		}
	}
}

// The key-level counts take every capture: testdata/zipnum's keys by hand —
// "/" groups http and https (content), "/moved" http and https (302s and a
// revisit of the empty payload only), "/redir" example.org and www.example.org
// (301s only) — 3 keys of 6 original URLs, 2 of them without content, 5 with.
func TestKeyCountsEveryCapture(t *testing.T) {
	got, st, err := readAll(t, Options{}, filepath.Join(zipnumDir, "example.cdx"))
	if err != nil {
		t.Fatal(err)
	}
	if st.MergedKeys != 3 || st.MergedOriginals != 6 || st.Skipped["no_content"] != 2 || st.URLs != 5 || len(got) != 5 {
		t.Errorf("merged keys %d of %d originals, %d URLs without content, %d with (%d passed on); want 3 of 6, 2, 5",
			st.MergedKeys, st.MergedOriginals, st.Skipped["no_content"], st.URLs, len(got))
	}
	// the captures not used are still counted once each: 22 = visits and skips
	if st.Captures != 22 || st.Skipped["status_3xx"] != 4 || st.Skipped["revisit_empty_payload"] != 1 {
		t.Errorf("captures %d, 3xx %d, revisits of the empty payload %d; want 22, 4, 1", st.Captures, st.Skipped["status_3xx"], st.Skipped["revisit_empty_payload"])
	}
}
