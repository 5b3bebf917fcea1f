package ingest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/ingest/generic"
	"github.com/revisit-dev/revisit/series"
)

// TestMWHistoryRoundTrip ingests the hand-made mediawiki_history file
// (ingest/mwhistory/testdata/README.md), plain and bzip2: detected without
// --format, the same pages either way, with the counts worked out by hand.
func TestMWHistoryRoundTrip(t *testing.T) {
	const jan1, d, h = 1577836800, 86400, 3600
	var first []dataset.Counts
	for _, name := range []string{"history76.tsv", "history76.tsv.bz2"} {
		in := filepath.Join("mwhistory", "testdata", name)
		t.Run(name, func(t *testing.T) {
			s, ps := run(t, Options{Inputs: []string{in}})
			if got := titles(ps); !slices.Equal(got, []string{"Tab\tTitle \\ ok", "Gamma"}) {
				t.Fatalf("pages %q", got)
			}
			p1 := ps[slices.IndexFunc(ps, func(p series.Page) bool { return p.ID == 1 })]
			if want := []int64{jan1, jan1 + h, jan1 + h + 300, jan1 + d, jan1 + 2*d, jan1 + 3*d, jan1 + 4*d, jan1 + 5*d}; !slices.Equal(p1.Updates, want) ||
				p1.Source != "testwiki" || p1.Group != "(Main)" {
				t.Errorf("page 1: %+v", p1)
			}
			c := s.Counts
			// 8 + 1 + 3 revisions of pages, 1 without a page id; page 2
			// (namespace 1) left out; Gamma's two revisions at 12:00:00 are
			// one update.
			if c.PagesRead != 3 || c.PagesKept != 2 || c.RevisionsRead != 13 || c.Skipped["namespace"] != 1 ||
				c.Skipped[string(SkipNoPageID)] != 1 || c.Updates != 10 || c.Collapsed != 1 {
				t.Errorf("counts %+v", c)
			}
			if f := s.Inputs[0].Format; !strings.HasPrefix(f, KindMWHistory) {
				t.Errorf("format %q", f)
			}
			first = append(first, c)
		})
	}
	if len(first) == 2 && (first[0].Updates != first[1].Updates || first[0].RevisionsRead != first[1].RevisionsRead) {
		t.Errorf("plain and bzip2 differ: %+v, %+v", first[0], first[1])
	}
}

// TestMWHistoryFilters: the dump's own bot and revert columns drive
// --drop-bots and --drop-reverts; <minor> is revision_minor_edit.
func TestMWHistoryFilters(t *testing.T) {
	const jan1, d = 1577836800, 86400
	in := filepath.Join("mwhistory", "testdata", "history76.tsv.bz2")
	s, ps := run(t, Options{Inputs: []string{in}, DropReverts: true, DropBots: true, DropMinor: true, NoRedirects: true})
	if len(ps) != 1 || !slices.Equal(ps[0].Updates, []int64{jan1, jan1 + 4*d, jan1 + 5*d}) {
		t.Fatalf("pages %+v", ps)
	}
	sk := s.Counts.Skipped
	for k, v := range map[string]int64{string(SkipRevert): 1, string(SkipReverted): 1, string(SkipBot): 2, string(SkipMinor): 1, "redirect": 1, "namespace": 1} {
		if sk[k] != v {
			t.Errorf("skipped[%s] = %d, want %d (%v)", k, sk[k], v, sk)
		}
	}
}

// TestMWHistoryForced: --format mediawiki-history reads a file whose first
// line would not be recognised (here: a 70-column dump with a bad first
// timestamp, skipped with --skip-bad).
func TestMWHistoryForced(t *testing.T) {
	dir := t.TempDir()
	raw, err := os.ReadFile(filepath.Join("mwhistory", "testdata", "history70.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	b := strings.Replace(string(raw), "2005-06-01 10:00:00.0", "garbage", 1)
	in := write(t, dir, "h.tsv", b)
	if _, err := Run(t.Context(), Options{Inputs: []string{in}, Output: filepath.Join(dir, "x")}); err == nil {
		t.Fatal("not detected, but read")
	}
	s, ps := run(t, Options{Inputs: []string{in}, SkipBad: true, Generic: generic.Options{Format: KindMWHistory}})
	if len(ps) != 1 || ps[0].NUpdates() != 1 || s.Bad["timestamp"] != 1 {
		t.Errorf("pages %+v bad %v", ps, s.Bad)
	}
}
