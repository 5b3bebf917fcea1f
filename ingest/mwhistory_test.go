package ingest

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/dataset"
	"github.com/revisit-dev/revisit/ingest/generic"
	"github.com/revisit-dev/revisit/ingest/mwhistory"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/series"
)

// TestMWHistoryRoundTrip ingests the hand-made mediawiki_history file
// (ingest/mwhistory/testdata/README.md), plain and bzip2: detected without
// --format, the same pages either way, with the counts worked out by hand.
func TestMWHistoryRoundTrip(t *testing.T) {
	const jan1, d, h = 1577836800, units.Day, 3600
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
	const jan1, d = 1577836800, units.Day
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

// mwLine is one revision-create event of a 76-column mediawiki_history
// dump with the given fields set (by Schema76 column name), the others
// empty.
func mwLine(fields map[string]string) string {
	f := make([]string, len(mwhistory.Schema76))
	for i, c := range mwhistory.Schema76 {
		f[i] = fields[c]
	}
	return strings.Join(f, "\t") + "\n"
}

// TestMWHistoryBotRules: each bot revision is counted under the first rule
// that classifies its user — Wikimedia's classification at the edit
// (event_user_is_bot_by_historical), then as of the dump
// (event_user_is_bot_by), then --bot-list, then the name pattern — in the
// manifest and the summary, which do not credit the name pattern with
// what Wikimedia's columns dropped. Counts worked out by hand from the
// rows below.
func TestMWHistoryBotRules(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i, r := range []struct{ user, userNow, byHist, byNow string }{
		{"Alice", "", "", ""},              // kept
		{"Flagged", "", "group", ""},       // historical
		{"FlaggedBot", "", "name", "name"}, // historical (also by name: first rule wins)
		{"Later", "", "", "group"},         // event_user_is_bot_by
		{"Listed User", "", "", ""},        // --bot-list
		{"ListedBot", "", "", ""},          // --bot-list (also by name)
		{"ClueBot NG", "", "", ""},         // name pattern
		{"Zed", "ZedBot", "", ""},          // name pattern, by the current name
		{"192.0.2.1", "", "", ""},          // IP (anonymous): never a bot
		{"Abbott", "", "", ""},             // kept
	} {
		anon := "false"
		if r.user == "192.0.2.1" {
			anon = "true"
		}
		now := r.userNow
		if now == "" {
			now = r.user
		}
		b.WriteString(mwLine(map[string]string{
			"wiki_db": "testwiki", "event_entity": "revision", "event_type": "create",
			"event_timestamp":            fmt.Sprintf("2020-01-01 00:%02d:00.0", i),
			"event_user_text_historical": r.user, "event_user_text": now,
			"event_user_is_bot_by_historical": r.byHist, "event_user_is_bot_by": r.byNow,
			"event_user_is_anonymous": anon, "page_id": "1", "page_title": "Alpha", "page_namespace": "0",
		}))
	}
	in := write(t, dir, "bots.tsv", b.String())
	out := filepath.Join(dir, "out")
	s, ps := run(t, Options{Inputs: []string{in}, Output: out, DropBots: true,
		BotNames: []string{"Listed_User", "ListedBot"}, BotList: "bots.txt"})
	if len(ps) != 1 || ps[0].NUpdates() != 3 {
		t.Fatalf("pages %+v", ps)
	}
	if got := s.Counts.Skipped[string(SkipBot)]; got != 7 {
		t.Errorf("skipped %d bot revisions, want 7", got)
	}
	want := map[string]int64{"event_user_is_bot_by_historical": 2, "event_user_is_bot_by": 1, "bot_list": 2, "bot_pattern": 2}
	if got := s.BotBy.Map(); !maps.Equal(got, want) {
		t.Errorf("by rule %v, want %v", got, want)
	}
	m, err := dataset.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	by, _ := m.Extra[extraBotBy].(map[string]any)
	if len(by) != len(want) {
		t.Errorf("manifest %s = %v", extraBotBy, m.Extra[extraBotBy])
	}
	for k, v := range want {
		if by[k] != float64(v) {
			t.Errorf("manifest %s[%s] = %v, want %d", extraBotBy, k, by[k], v)
		}
	}
	line := "7 revisions by bots (--drop-bots: 2 by Wikimedia's bot classification at the edit (event_user_is_bot_by_historical), " +
		"1 by Wikimedia's bot classification as of the dump (event_user_is_bot_by), 2 by users in --bot-list bots.txt (2 names), " +
		"2 by names matching " + DefaultBotPattern + ")"
	if str := s.String(); !strings.Contains(str, line) {
		t.Errorf("summary lacks %q:\n%s", line, str)
	}
	// Only Wikimedia's classification at work: no word of names.
	s, _ = run(t, Options{Inputs: []string{in}, DropBots: true, BotPattern: "^NoSuchUser$"})
	if str := s.String(); !strings.Contains(str, "3 revisions by bots (--drop-bots: 2 by Wikimedia's bot classification at the edit") || strings.Contains(str, "matching") {
		t.Errorf("summary:\n%s", str)
	}
}
