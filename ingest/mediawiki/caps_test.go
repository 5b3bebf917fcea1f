package mediawiki

import (
	"errors"
	"math"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/ingest/source"
)

func revs(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(rev("2001-01-01T00:00:00Z"))
	}
	return b.String()
}

// A page past MaxRevisions is an error at the revision past the cap without
// SkipBad; with it the page comes back with TooMany = its revision count
// and no revisions, and the next page is read as usual.
func TestMaxRevisions(t *testing.T) {
	big := page("Big", "1", revs(5))
	xml := head + big + page("Small", "2", revs(3)) + "</mediawiki>"
	opt := Options{Options: source.Options{File: "f.xml", MaxRevisions: 3}}
	_, err := readAllPages(t, strings.NewReader(xml), opt)
	var pe *source.ParseError
	if !errors.As(err, &pe) || pe.Reason != "too-many-revisions" || pe.Page != "Big" || pe.File != "f.xml" {
		t.Fatalf("err %v, want a too-many-revisions ParseError for page Big", err)
	}
	// The 4th <revision> of the page (3 of rev() and the page head before it).
	want := int64(len(head) + strings.Index(big, "<revision>") + 3*len(rev("2001-01-01T00:00:00Z")))
	if pe.Offset != want {
		t.Errorf("offset %d, want %d (the 4th revision)", pe.Offset, want)
	}
	var bad []*source.ParseError
	opt.SkipBad, opt.OnBad = true, func(e *source.ParseError) { bad = append(bad, e) }
	got, err := readAllPages(t, strings.NewReader(xml), opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Title != "Big" || got[0].TooMany != 5 || got[0].Revisions != nil || got[0].Anonymous != nil ||
		got[1].Title != "Small" || got[1].TooMany != 0 || len(got[1].Revisions) != 3 {
		t.Fatalf("pages %+v", got)
	}
	if len(bad) != 0 {
		t.Errorf("the reader reported %v; the over-cap page is for ingest to report", bad)
	}
}

// Past the cap the revisions are counted, not kept: reading a page of
// 200,000 revisions with a cap of 1,000 allocates far less than the
// 200,000·10 bytes keeping them would.
func TestMaxRevisionsBoundsMemory(t *testing.T) {
	const n = 200_000
	xml := head + page("Big", "1", revs(n)) + "</mediawiki>"
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	got, err := readAllPages(t, strings.NewReader(xml), Options{Options: source.Options{File: "f.xml", MaxRevisions: 1000, SkipBad: true}})
	runtime.ReadMemStats(&after)
	if err != nil || len(got) != 1 || got[0].TooMany != n {
		t.Fatalf("%v, %+v", err, got)
	}
	// The scanner's 1 MiB window, plus the page up to the cap.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 2<<20 {
		t.Errorf("allocated %d bytes reading past the cap; want < 2 MiB (keeping %d revisions is %d bytes)", alloc, n, n*10)
	}
}

// Titles: CDATA sections are text as they are; character references must
// be characters XML allows (not &#0; or other control characters).
func TestTitleText(t *testing.T) {
	for _, c := range []struct{ title, want string }{
		{"<![CDATA[A & <B>]]>", "A & <B>"},
		{"x<![CDATA[&]]>y&amp;<![CDATA[]]>z", "x&y&z"},
		{"<![CDATA[]]]]><![CDATA[>]]>", "]]>"},
		{"tab&#9;ok", "tab\tok"},
		{"&#x10FFFF;", "\U0010FFFF"},
	} {
		got, err := readAllPages(t, strings.NewReader(head+page(c.title, "1", revs(1))+"</mediawiki>"), Options{Options: source.Options{File: "f.xml"}})
		if err != nil || len(got) != 1 || got[0].Title != c.want {
			t.Errorf("title %q: %v, %+v; want %q", c.title, err, got, c.want)
		}
	}
	for _, title := range []string{"a&#0;b", "a&#x0;b", "a&#1;b", "&#xFFFE;", "&#xD800;", "<![CDATA[never closed"} {
		_, err := readAllPages(t, strings.NewReader(head+page(title, "1", revs(1))+"</mediawiki>"), Options{Options: source.Options{File: "f.xml"}})
		var pe *source.ParseError
		if !errors.As(err, &pe) || (pe.Reason != "xml" && pe.Reason != "truncated") {
			t.Errorf("title %q accepted: %v", title, err)
		}
	}
}

// Page ids cover int64: its largest and smallest values are ids, one past
// them is malformed.
func TestPageIDRange(t *testing.T) {
	for _, id := range []int64{math.MaxInt64, math.MinInt64, 999999999999999999, -999999999999999999} {
		s := strconv.FormatInt(id, 10)
		got, err := readAllPages(t, strings.NewReader(head+page("P", s, revs(1))+"</mediawiki>"), Options{Options: source.Options{File: "f.xml"}})
		if err != nil || len(got) != 1 || got[0].ID != id {
			t.Errorf("id %s: %v %+v", s, err, got)
		}
	}
	for _, s := range []string{"9223372036854775808", "-9223372036854775809", "+5", "99999999999999999999"} {
		_, err := readAllPages(t, strings.NewReader(head+page("P", s, revs(1))+"</mediawiki>"), Options{Options: source.Options{File: "f.xml"}})
		var pe *source.ParseError
		if !errors.As(err, &pe) || pe.Reason != "xml" {
			t.Errorf("id %s accepted: %v", s, err)
		}
	}
}

// A page dropped as bad takes its revisions with it: the ParseError says
// how many, so that ingest counts them as read.
func TestBadPageRevisions(t *testing.T) {
	for _, c := range []struct {
		name, xml string
		reasons   []string
		revisions []int64
	}{
		{"no title", head + "<page><ns>0</ns><id>1</id>" + revs(2) + "</page></mediawiki>", []string{"xml"}, []int64{2}},
		{"bad id after revisions", head + "<page><title>T</title><ns>0</ns>" + revs(3) + "<id>x</id></page></mediawiki>", []string{"xml"}, []int64{3}},
		{"two malformed", head + page("T", "1", revs(2)+"</revision>"+revs(1)+"</revision>") + "</mediawiki>", []string{"xml", "xml"}, []int64{0, 3}},
		{"not closed", head + "<page><title>T</title><ns>0</ns><id>1</id>" + revs(4) + page("U", "2", revs(1)) + "</mediawiki>", []string{"xml"}, []int64{4}},
		// The page cut keeps its complete revisions (TestSalvageCutPage): the cut drops none.
		{"truncated", head + "<page><title>T</title><ns>0</ns><id>1</id>" + revs(2) + "<revision>", []string{"truncated"}, []int64{0}},
		{"truncated before a revision", head + "<page><title>T</title><ns>0</ns><id>1</id><revision>", []string{"truncated"}, []int64{0}},
		{"truncated after bad", head + "<page><title>T</title><ns>0</ns><id>1</id>" + revs(2) + "<ns>x</ns>" + revs(1) + "<revision>", []string{"xml", "truncated"}, []int64{3, 0}},
		{"over the cap and bad", head + "<page><title>T</title><ns>0</ns>" + revs(5) + "<id>x</id></page></mediawiki>", []string{"xml"}, []int64{5}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var reasons []string
			var n []int64
			_, err := readAllPages(t, strings.NewReader(c.xml), Options{Options: source.Options{File: "f.xml", SkipBad: true, MaxRevisions: 4,
				OnBad: func(e *source.ParseError) { reasons = append(reasons, e.Reason); n = append(n, e.Revisions) }}})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(reasons, c.reasons) || !reflect.DeepEqual(n, c.revisions) {
				t.Errorf("bad records %v with revisions %v; want %v, %v", reasons, n, c.reasons, c.revisions)
			}
		})
	}
}
