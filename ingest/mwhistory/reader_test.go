package mwhistory

import (
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/ingest/source"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/series"
)

func readAll(t *testing.T, r *Reader) []*series.RawPage {
	t.Helper()
	var ps []*series.RawPage
	for {
		p, err := r.Next()
		if errors.Is(err, io.EOF) {
			return ps
		}
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
}

const jan1 = 1577836800 // 2020-01-01T00:00:00Z

// TestReadHandMade reads the hand-made 76-column file (testdata/README):
// only revision creations become revisions, grouped by page, with their
// flags from the bot, revert and minor columns.
func TestReadHandMade(t *testing.T) {
	f, err := os.Open("testdata/history76.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := NewReader(f, Options{Options: source.Options{File: "history76.tsv"}, IsBot: func(string) series.BotRule { return series.NotBot }, Reverts: true})
	ps := readAll(t, r)
	if len(ps) != 3 {
		t.Fatalf("%d pages, want 3", len(ps))
	}
	p := ps[0]
	h := int64(3600)
	d := 24 * h
	if p.ID != 1 || p.Source != "testwiki" || p.Title != "Tab\tTitle \\ ok" || p.Namespace != 0 || p.Redirect ||
		!slices.Equal(p.Revisions, []int64{jan1 + 4*d, jan1, jan1 + h, jan1 + h + 300, jan1 + d, jan1 + 2*d, jan1 + 3*d, jan1 + 5*d}) {
		t.Errorf("page 1: %+v", p)
	}
	want := func(name string, got []bool, idx ...int) {
		w := make([]bool, 8)
		for _, i := range idx {
			w[i] = true
		}
		if !slices.Equal(got, w) {
			t.Errorf("page 1 %s = %v, want %v", name, got, w)
		}
	}
	want("anonymous", p.Anonymous, 2)
	want("reverted", p.Reverted, 2)
	want("revert", p.Revert, 3)
	// By name and by group, from the dump's columns (both the
	// historical and the current one: the historical comes first).
	if w := []series.BotRule{0, 0, 0, 0, series.BotByDumpHistorical, series.BotByDumpHistorical, 0, 0}; !slices.Equal(p.Bot, w) {
		t.Errorf("page 1 bot = %v, want %v", p.Bot, w)
	}
	want("minor", p.Minor, 6)
	if q := ps[1]; q.ID != 2 || q.Namespace != 1 || q.Title != "Talk:Beta" || q.Group != "Talk" || len(q.Revisions) != 1 {
		t.Errorf("page 2: %+v", q)
	}
	if q := ps[2]; q.ID != 3 || !q.Redirect || !slices.Equal(q.Revisions, []int64{jan1 + 60*d + 12*h, jan1 + 60*d + 12*h, jan1 + 61*d + 8*h + 1800}) {
		t.Errorf("page 3: %+v", q)
	}
	if st := r.Stats(); st != (Stats{Lines: 15, OtherEvents: 2, NoPageID: 1}) {
		t.Errorf("stats %+v", st)
	}
}

// TestSchema70 reads the older schema, told apart by its column count.
func TestSchema70(t *testing.T) {
	f, err := os.Open("testdata/history70.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ps := readAll(t, NewReader(f, Options{}))
	const jun1 = 1117620000 // 2005-06-01T10:00:00Z
	if len(ps) != 1 || ps[0].Source != "oldwiki" || ps[0].Title != "Seven" || !slices.Equal(ps[0].Revisions, []int64{jun1, jun1 + units.Day}) {
		t.Fatalf("pages %+v", ps)
	}
}

func TestSniff(t *testing.T) {
	for _, name := range []string{"testdata/history76.tsv", "testdata/history70.tsv"} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !Sniff(b) {
			t.Errorf("%s not recognised", name)
		}
		if Sniff([]byte(strings.Replace(string(b), "wiki\t", "wiki\tfoo", 1))) {
			t.Errorf("%s with event_entity foo recognised", name)
		}
	}
	for _, s := range []string{"id,time\n1,2020-01-01\n", "a\tb\tc\n", ""} {
		if Sniff([]byte(s)) {
			t.Errorf("%q recognised", s)
		}
	}
}

func TestBadLines(t *testing.T) {
	b, err := os.ReadFile("testdata/history76.tsv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	for _, tc := range []struct {
		name, reason string
		edit         func(string) string
	}{
		{"columns", "columns", func(l string) string { return l + "\textra" }},
		{"timestamp", "timestamp", func(l string) string { return strings.Replace(l, "2020-01-05 00:00:00.0", "2020-02-30 00:00:00.0", 1) }},
		{"page id", "field", func(l string) string { return strings.Replace(l, "\t1\tTab", "\tx1\tTab", 1) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ls := slices.Clone(lines)
			ls[1] = tc.edit(ls[1])
			_, err := NewReader(strings.NewReader(strings.Join(ls, "\n")), Options{Options: source.Options{File: "f.tsv"}}).Next()
			var pe *source.ParseError
			if !errors.As(err, &pe) || pe.Reason != tc.reason || pe.Line != 2 || pe.File != "f.tsv" {
				t.Fatalf("error %v (%+v), want reason %s at line 2", err, pe, tc.reason)
			}
			// With SkipBad the line is counted and the others read.
			var n int
			r := NewReader(strings.NewReader(strings.Join(ls, "\n")), Options{Options: source.Options{SkipBad: true, OnBad: func(*source.ParseError) { n++ }}})
			ps := readAll(t, r)
			if n != 1 || len(ps) != 3 || len(ps[0].Revisions) != 7 {
				t.Errorf("skip-bad: %d bad, %d pages, %d revisions of page 1", n, len(ps), len(ps[0].Revisions))
			}
		})
	}
}

func TestParseTimestamp(t *testing.T) {
	for s, want := range map[string]int64{
		"2020-01-01 00:00:00.0": jan1, "2020-01-01 00:00:00": jan1, "2020-01-01T00:00:00Z": jan1,
		"20200101000000": jan1, "2020-01-01 00:00:59.999": jan1 + 59, "2000-02-29 00:00:00.0": 951782400,
		"1969-12-31 23:59:59.0": -1,
	} {
		if got, err := ParseTimestamp([]byte(s)); err != nil || got != want {
			t.Errorf("%q: %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"", "2020-13-01 00:00:00", "2019-02-29 00:00:00", "2020-04-31 00:00:00", "2020-01-01 00:00:00x", "yesterday"} {
		if _, err := ParseTimestamp([]byte(s)); err == nil {
			t.Errorf("%q parsed", s)
		}
	}
}

func TestUnescape(t *testing.T) {
	for in, want := range map[string]string{`a\tb`: "a\tb", `a\\b`: `a\b`, `a\nb\rc`: "a\nb\rc", `plain`: "plain", `x\`: `x\`} {
		if got := Unescape([]byte(in)); got != want {
			t.Errorf("%q → %q, want %q", in, got, want)
		}
	}
}
