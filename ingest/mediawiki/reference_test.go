package mediawiki

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/ingest/source"
	"github.com/revisit-dev/revisit/internal/decompress"
	"github.com/revisit-dev/revisit/internal/realdata"
)

// refPage is what the naive reference below extracts.
type refPage struct {
	ID        int64
	Title     string
	NS        int32
	Redirect  bool
	Revisions []int64
	Anonymous []bool
	Minor     []bool
}

// refParse is a naive reference reader built on encoding/xml (far too slow
// for dumps, but independent of the byte scanner): it walks the element
// tree and takes page title/ns/id/redirect and per revision the timestamp,
// an <ip> contributor and <minor>. Namespaces without <ns> come from the
// title prefix with the dump's <siteinfo> names (English defaults without).
func refParse(t *testing.T, r io.Reader) []refPage {
	t.Helper()
	d := xml.NewDecoder(r)
	var (
		out   []refPage
		stack []string
		p     *refPage
		hasNS bool
		names = map[int32]string{}
		nsKey int32
		text  strings.Builder
		ts    int64
		anon  bool
		minor bool
	)
	parent := func(k int) string {
		if len(stack) > k {
			return stack[len(stack)-1-k]
		}
		return ""
	}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("reference: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			stack = append(stack, e.Name.Local)
			text.Reset()
			switch e.Name.Local {
			case "page":
				out = append(out, refPage{})
				p, hasNS = &out[len(out)-1], false
			case "revision":
				ts, anon, minor = 0, false, false
			case "redirect":
				if parent(1) == "page" {
					p.Redirect = true
				}
			case "minor":
				minor = true
			case "ip":
				anon = true
			case "namespace":
				for _, a := range e.Attr {
					if a.Name.Local == "key" {
						k, _ := strconv.Atoi(a.Value)
						nsKey = int32(k)
					}
				}
			}
		case xml.CharData:
			text.Write(e)
		case xml.EndElement:
			v := text.String()
			switch {
			case e.Name.Local == "namespace" && parent(1) == "namespaces":
				names[nsKey] = v
			case parent(1) == "page" && e.Name.Local == "title":
				p.Title = v
			case parent(1) == "page" && e.Name.Local == "ns":
				n, _ := strconv.Atoi(strings.TrimSpace(v))
				p.NS, hasNS = int32(n), true
			case parent(1) == "page" && e.Name.Local == "id":
				p.ID, _ = strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			case parent(1) == "revision" && e.Name.Local == "timestamp":
				tm, err := time.Parse(time.RFC3339, strings.TrimSpace(v))
				if err != nil {
					t.Fatalf("reference: %v", err)
				}
				ts = tm.Unix()
			case e.Name.Local == "revision":
				p.Revisions = append(p.Revisions, ts)
				p.Anonymous = append(p.Anonymous, anon)
				p.Minor = append(p.Minor, minor)
			case e.Name.Local == "page" && !hasNS:
				ns := names
				if len(ns) == 0 {
					ns = englishNamespaces
				}
				p.NS = newNamespaces(ns).FromTitle(p.Title)
			}
			stack = stack[:len(stack)-1]
			text.Reset()
		}
	}
}

// The scanner and the encoding/xml reference agree on every page and
// revision of the fixtures, the real dumps (small ones) and a synthetic
// stub dump.
func TestAgainstReference(t *testing.T) {
	inputs := map[string][]byte{"stub": stubDump(2 << 20)}
	for _, f := range []string{"../../testdata/mediawiki/filters.xml", "../../testdata/mediawiki/old-0.3.xml"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs[filepath.Base(f)] = b
	}
	if root, ok := realdata.Root(); ok {
		for _, f := range []string{
			"snukky__wikiedits/enwiki-20140102.tiny.xml.gz", "snukky__wikiedits/hindi_test.xml", "snukky__wikiedits/hiwiki.tar.gz",
			"Schuwi__wikiwho_rs/Hallo.xml", "Schuwi__wikiwho_rs/Anontalkpagetext.xml", "wikimedia__pywikibot/article-pear.xml",
			"wikimedia__pywikibot/article-pear-0.10.xml", "wikimedia__pywikibot/pair-0.10.xml", "wikimedia__pywikibot/article-pyrus.xml",
			"maribelacosta__wikiwho/small.xml.lzma",
		} {
			r, err := decompress.Open(filepath.Join(root, "wikipedia", f))
			if err != nil {
				t.Fatal(err)
			}
			r.Next()
			b, err := io.ReadAll(r)
			r.Close()
			if err != nil {
				t.Fatal(err)
			}
			inputs[filepath.Base(f)] = b
		}
	}
	for name, data := range inputs {
		want := refParse(t, bytes.NewReader(data))
		mr := NewReader(bytes.NewReader(data), Options{Options: source.Options{File: name}})
		var got []refPage
		for {
			p, err := mr.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			got = append(got, refPage{ID: p.ID, Title: p.Title, NS: p.Namespace, Redirect: p.Redirect,
				Revisions: p.Revisions, Anonymous: p.Anonymous, Minor: p.Minor})
		}
		if len(got) != len(want) {
			t.Errorf("%s: %d pages, reference %d", name, len(got), len(want))
			continue
		}
		for i := range want {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Errorf("%s: page %d differs\n got %+v\nwant %+v", name, i, got[i], want[i])
				break
			}
		}
	}
}
