package generic

import (
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/ingest/source"
)

// Several id columns: the object is the tuple (language, article), so en/X
// and de/X are two objects, not one merged silently. The key is the values
// joined by "\x00\x01" (a NUL inside a value becomes "\x00\x02"), the page
// id is PageID of that key, the title the values joined by "/", and
// objects come in tuple order.
func TestSeveralIDColumns(t *testing.T) {
	u := func(d int) int64 { return unix(2020, 1, d, 0, 0, 0) }
	type want struct {
		key, title string
		times      []int64
	}
	wants := []want{
		{"de\x00\x01X", "de/X", []int64{u(2)}},
		{"en\x00\x01X", "en/X", []int64{u(1), u(3)}},
		{"en\x00\x01Y", "en/Y", []int64{u(4)}},
	}
	inputs := []struct {
		name string
		opt  Options
		text string
	}{
		{"csv", Options{ID: "language,article", Time: "time"},
			"language,article,time\nen,X,2020-01-01\nde,X,2020-01-02\nen,X,2020-01-03\nen,Y,2020-01-04\n"},
		{"csv by index, spaces", Options{ID: "0, 1", Time: "2"},
			"language,article,time\nen,X,2020-01-01\nde,X,2020-01-02\nen,X,2020-01-03\nen,Y,2020-01-04\n"},
		{"tsv", Options{ID: "language,article", Time: "time"},
			"language\tarticle\ttime\nen\tX\t2020-01-01\nde\tX\t2020-01-02\nen\tX\t2020-01-03\nen\tY\t2020-01-04\n"},
		{"jsonl objects", Options{ID: "language,article", Time: "time"},
			`{"language":"en","article":"X","time":"2020-01-01"}` + "\n" + `{"article":"X","language":"de","time":"2020-01-02"}` + "\n" +
				`{"language":"en","article":"X","time":"2020-01-03"}` + "\n" + `{"language":"en","article":"Y","time":"2020-01-04"}` + "\n"},
		{"jsonl arrays", Options{ID: "0,1", Time: "2"},
			`["en","X","2020-01-01"]` + "\n" + `["de","X","2020-01-02"]` + "\n" + `["en","X","2020-01-03"]` + "\n" + `["en","Y","2020-01-04"]` + "\n"},
	}
	for _, in := range inputs {
		t.Run(in.name, func(t *testing.T) {
			pages, _, err := read(t, strings.NewReader(in.text), in.opt, source.Options{File: "log"})
			if err != nil {
				t.Fatal(err)
			}
			if len(pages) != len(wants) {
				t.Fatalf("%d objects, want %d (en/X and de/X merged?)", len(pages), len(wants))
			}
			for i, w := range wants {
				p := pages[i]
				if p.ID != PageID(w.key) || p.Title != w.title || len(p.Revisions) != len(w.times) {
					t.Fatalf("object %d: id %d title %q revisions %v; want id %d (PageID(%q)), title %q, %v", i, p.ID, p.Title, p.Revisions, PageID(w.key), w.key, w.title, w.times)
				}
				for j := range w.times {
					if p.Revisions[j] != w.times[j] {
						t.Fatalf("object %q: revisions %v, want %v", w.title, p.Revisions, w.times)
					}
				}
			}
		})
	}
}

// The key is unambiguous where joining with a plain separator is not:
// ("a/b", "c") and ("a", "b/c") share the title a/b/c but are two objects.
func TestSeveralIDColumnsUnambiguous(t *testing.T) {
	text := "x\ty\tt\na/b\tc\t2020-01-01\na\tb/c\t2020-01-02\na\x00\tb\t2020-01-03\na\t\x00b\t2020-01-04\n"
	pages, _, err := read(t, strings.NewReader(text), Options{Format: FormatTSV, ID: "x,y", Time: "t"}, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Tuple order: ("a", "\x00b") < ("a", "b/c") < ("a\x00", "b") < ("a/b", "c").
	keys := []string{"a\x00\x01\x00\x02b", "a\x00\x01b/c", "a\x00\x02\x00\x01b", "a/b\x00\x01c"}
	if len(pages) != 4 {
		t.Fatalf("%d objects, want 4", len(pages))
	}
	for i, k := range keys {
		if pages[i].ID != PageID(k) {
			t.Errorf("object %d (%q): id %d, want PageID(%q)", i, pages[i].Title, pages[i].ID, k)
		}
	}
	if pages[1].Title != "a/b/c" || pages[3].Title != "a/b/c" || pages[0].Title != "a/\x00b" {
		t.Errorf("titles %q, %q, %q", pages[0].Title, pages[1].Title, pages[3].Title)
	}
}

// One id column keeps the ids of earlier versions: PageID of the value.
func TestOneIDColumnUnchanged(t *testing.T) {
	pages, _, err := read(t, strings.NewReader("id,time\nen:X,2020-01-01\n"), Options{ID: "id", Time: "time"}, source.Options{})
	if err != nil || len(pages) != 1 || pages[0].ID != PageID("en:X") || pages[0].Title != "en:X" {
		t.Fatalf("%v %+v", err, pages)
	}
}

// An empty value in any id column is a bad record naming that column.
func TestSeveralIDColumnsEmptyValue(t *testing.T) {
	text := "lang,article,time\nen,,2020-01-01\n,X,2020-01-02\nen,X,2020-01-03\n"
	var bad []*source.ParseError
	pages, rd, err := read(t, strings.NewReader(text), Options{ID: "lang,article", Time: "time"},
		source.Options{SkipBad: true, OnBad: func(e *source.ParseError) { bad = append(bad, e) }})
	if err != nil || len(pages) != 1 || rd.Stats().Bad != 2 {
		t.Fatalf("err %v, %d pages, %d bad", err, len(pages), rd.Stats().Bad)
	}
	if !strings.Contains(bad[0].Error(), `empty id in column "article"`) || !strings.Contains(bad[1].Error(), `empty id in column "lang"`) {
		t.Errorf("bad records: %v; %v", bad[0], bad[1])
	}
	_, _, err = read(t, strings.NewReader(`{"lang":"en","time":"2020-01-01"}`+"\n"), Options{ID: "lang,article", Time: "time"}, source.Options{})
	if err == nil || !strings.Contains(err.Error(), `no id field "article"`) {
		t.Errorf("missing second id field: %v", err)
	}
}

// --title: the first non-empty value of the column is the object's title;
// later different values are ignored and counted.
func TestTitleColumn(t *testing.T) {
	for _, c := range []struct {
		name string
		opt  Options
		text string
	}{
		{"csv", Options{ID: "id", Time: "time", Title: "name"},
			"id,name,time\nb1,,2020-01-01\nb1,Joe's Diner,2020-01-02\nb1,Joe's,2020-01-03\nb2,,2020-01-04\nb3,Café,2020-01-05\nb3,Café,2020-01-06\n"},
		{"jsonl", Options{ID: "id", Time: "time", Title: "name"},
			`{"id":"b1","time":"2020-01-01"}` + "\n" + `{"id":"b1","name":"Joe's Diner","time":"2020-01-02"}` + "\n" +
				`{"id":"b1","name":"Joe's","time":"2020-01-03"}` + "\n" + `{"id":"b2","name":"","time":"2020-01-04"}` + "\n" +
				`{"id":"b3","name":"Café","time":"2020-01-05"}` + "\n" + `{"id":"b3","name":"Café","time":"2020-01-06"}` + "\n"},
		{"jsonl arrays", Options{ID: "0", Time: "2", Title: "1"},
			`["b1","","2020-01-01"]` + "\n" + `["b1","Joe's Diner","2020-01-02"]` + "\n" + `["b1","Joe's","2020-01-03"]` + "\n" +
				`["b2","","2020-01-04"]` + "\n" + `["b3","Café","2020-01-05"]` + "\n" + `["b3","Café","2020-01-06"]` + "\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			pages, rd, err := read(t, strings.NewReader(c.text), c.opt, source.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var titles []string
			for _, p := range pages {
				titles = append(titles, p.Title)
			}
			// b2 has no title: its id stands in.
			if strings.Join(titles, "|") != "Joe's Diner|b2|Café" || pages[0].ID != PageID("b1") {
				t.Errorf("titles %q, id %d", titles, pages[0].ID)
			}
			if s := rd.Stats(); s.TitleChanges != 1 {
				t.Errorf("title changes %d, want 1 (b1's third record)", s.TitleChanges)
			}
		})
	}
	if _, err := NewReader(strings.NewReader("id,time\n"), Options{ID: "id", Time: "time", Title: "name"}, source.Options{}); err != nil {
		t.Fatal(err)
	}
	_, _, err := read(t, strings.NewReader("id,time\nx,2020-01-01\n"), Options{ID: "id", Time: "time", Title: "name"}, source.Options{})
	if err == nil || !strings.Contains(err.Error(), `title column "name" is not in the header`) {
		t.Errorf("missing title column: %v", err)
	}
}

// Bad id lists are option errors.
func TestIDListOptions(t *testing.T) {
	for spec, want := range map[string]string{
		"a,,b": "empty column name",
		"a,a":  "given twice",
		",":    "empty column name",
	} {
		_, err := NewReader(strings.NewReader("a,b,t\n"), Options{ID: spec, Time: "t"}, source.Options{})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("--id %q: %v, want %q", spec, err, want)
		}
	}
}
