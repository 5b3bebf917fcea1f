package ingest

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/dataset"
)

// TestIdentityReverts checks the detector against hand-worked histories.
func TestIdentityReverts(t *testing.T) {
	const A, B, C, D, E = 1, 2, 3, 4, 5
	for _, tc := range []struct {
		name             string
		sha              []uint64
		radius           int
		revert, reverted []int // indices
	}{
		// A B C A: 3 restores 0, undoing 1 and 2. D D: a null edit, no
		// revert. B at 7 restores 1 (6 back, inside 15), undoing 2…6.
		{"radius 15", []uint64{A, B, C, A, D, D, E, B}, 15, []int{3, 7}, []int{1, 2, 3, 4, 5, 6}},
		// With radius 3 the B at 7 looks back to 4 only.
		{"radius 3", []uint64{A, B, C, A, D, D, E, B}, 3, []int{3}, []int{1, 2}},
		// A revert undoes at most radius revisions (mwreverts: "the
		// maximum number of revisions that a revert can span"): a
		// restore radius+1 back counts; one further does not.
		{"edge", []uint64{A, B, C, D, A}, 3, []int{4}, []int{1, 2, 3}},
		{"beyond", []uint64{A, B, C, D, E, A}, 3, nil, nil},
		// mwreverts' own test of its Detector(2): a a b a c d a e f g a
		// gives reverts at 4 (undoing 3) and 7 (undoing 5, 6); the a at
		// 11 is 3 revisions past and undetected (0-based here).
		{"mwreverts radius 2", []uint64{A, A, B, A, C, D, A, E, 6, 7, A}, 2, []int{3, 6}, []int{2, 4, 5}},
		// Missing checksums (0) match nothing but take a place.
		{"no sha1", []uint64{0, B, 0, C}, 15, nil, nil},
		// The latest earlier copy is the restored one.
		{"latest", []uint64{A, B, A, C, A}, 15, []int{2, 4}, []int{1, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := len(tc.sha)
			rv, rd := make([]bool, n), make([]bool, n)
			IdentityReverts(tc.sha, tc.radius, rv, rd)
			var gotRv, gotRd []int
			for i := range n {
				if rv[i] {
					gotRv = append(gotRv, i)
				}
				if rd[i] {
					gotRd = append(gotRd, i)
				}
			}
			if !slices.Equal(gotRv, tc.revert) || !slices.Equal(gotRd, tc.reverted) {
				t.Errorf("reverts %v reverted %v, want %v %v", gotRv, gotRd, tc.revert, tc.reverted)
			}
		})
	}
}

// TestDefaultBot checks the hand-written bot test against the regular
// expression it documents.
func TestDefaultBot(t *testing.T) {
	re := regexp.MustCompile(DefaultBotPattern)
	want := map[string]bool{
		"ClueBot NG": true, "AnomieBOT": true, "Cydebot": true, "Bot1058": true, "SmackBot": true, "bot": true,
		"Rich_bot-2": true, "Abbott": false, "Botany Bay": false, "Robotics fan": false, "Alice": false, "": false, "bo": false,
	}
	for name, w := range want {
		if got := defaultBot(name); got != w || re.MatchString(name) != w {
			t.Errorf("%q: defaultBot %v, regexp %v, want %v", name, got, re.MatchString(name), w)
		}
	}
}

type rev struct {
	t     int // seconds after 2001-01-01T00:00:00Z
	sha   string
	user  string // "ip:…" for an IP editor
	minor bool
}

func wikiXML(pages map[string][]rev, order []string) string {
	var b strings.Builder
	b.WriteString(xmlHead)
	for id, title := range order {
		fmt.Fprintf(&b, "<page><title>%s</title><ns>0</ns><id>%d</id>", title, id+1)
		for k, r := range pages[title] {
			fmt.Fprintf(&b, "<revision><id>%d</id><timestamp>2001-01-01T00:%02d:%02dZ</timestamp><contributor>", 100*id+k, r.t/60, r.t%60)
			if ip, ok := strings.CutPrefix(r.user, "ip:"); ok {
				fmt.Fprintf(&b, "<ip>%s</ip>", ip)
			} else {
				fmt.Fprintf(&b, "<username>%s</username><id>%d</id>", r.user, k+7)
			}
			b.WriteString("</contributor>")
			if r.minor {
				b.WriteString("<minor/>")
			}
			fmt.Fprintf(&b, `<text bytes="3" id="%d" /><sha1>%s</sha1></revision>`, k, r.sha)
		}
		b.WriteString("</page>")
	}
	return b.String() + "</mediawiki>"
}

const t2001 = 978307200

// TestRevisionFilters: on a hand-made dump whose revisions are out of time
// order, exactly the identity revert and the revision it undoes, the bot
// edits (by name pattern and by list) and the minor edit are left out,
// each counted once under its reason.
func TestRevisionFilters(t *testing.T) {
	dir := t.TempDir()
	pages := map[string][]rev{
		// In dump order; by time: 10 a, 20 b (IP), 30 a (restores 10:
		// revert of 20), 40 c by a bot name, 50 d minor, 60 e by
		// "Abbott" (no bot), 70 f by a listed user, 80 f again by Alice
		// (a null edit, kept).
		"Alpha": {
			{10, "aaaa", "Alice", false}, {30, "aaaa", "Bob", false}, {20, "bbbb", "ip:192.0.2.7", false},
			{40, "cccc", "ClueBot NG", false}, {50, "dddd", "Alice", true}, {60, "eeee", "Abbott", false},
			{70, "ffff", "Listed_User", false}, {80, "ffff", "Alice", false},
		},
		// Only bots: the page goes.
		"Beta": {{5, "x", "SmackBot", false}, {6, "y", "AnomieBOT", false}},
		// A revert whose restored revision is 17 back (16 undone):
		// outside radius 15.
		"Gamma": gammaRevs(),
	}
	in := write(t, dir, "d.xml", wikiXML(pages, []string{"Alpha", "Beta", "Gamma"}))
	list := write(t, dir, "bots.txt", "# bots\nListed User\n\n")
	_ = list

	t.Run("off", func(t *testing.T) {
		s, ps := run(t, Options{Inputs: []string{in}})
		if len(ps) != 3 || ps[0].NUpdates() != 8 || s.Counts.Skipped[string(SkipRevert)] != 0 {
			t.Fatalf("pages %d, skipped %v", len(ps), s.Counts.Skipped)
		}
	})
	t.Run("all", func(t *testing.T) {
		out := filepath.Join(dir, "all")
		s, ps := run(t, Options{Inputs: []string{in}, Output: out, DropReverts: true, DropBots: true, DropMinor: true,
			BotNames: ParseBotList([]byte("# bots\nListed User\n\n")), BotList: "bots.txt"})
		if got := titles(ps); !slices.Equal(got, []string{"Alpha", "Gamma"}) {
			t.Fatalf("pages %q", got)
		}
		if want := []int64{t2001 + 10, t2001 + 60, t2001 + 80}; !slices.Equal(ps[0].Updates, want) {
			t.Errorf("Alpha updates %v, want %v", ps[0].Updates, want)
		}
		if ps[1].NUpdates() != 18 {
			t.Errorf("Gamma: %d updates, want all 18 (the restore is beyond the radius)", ps[1].NUpdates())
		}
		sk := s.Counts.Skipped
		want := map[string]int64{string(SkipRevert): 1, string(SkipReverted): 1, string(SkipBot): 2 + 2, string(SkipMinor): 1, string(SkipRevisionFilters): 1}
		for k, v := range want {
			if sk[k] != v {
				t.Errorf("skipped[%s] = %d, want %d (%v)", k, sk[k], v, sk)
			}
		}
		m, err := dataset.ReadManifest(out)
		if err != nil {
			t.Fatal(err)
		}
		if m.Counts.Skipped[string(SkipRevert)] != 1 || m.Extra[extraNoSHA1] != float64(0) {
			t.Errorf("manifest counts %v extra %v", m.Counts.Skipped, m.Extra)
		}
		f, _ := m.Extra[extraFilters].(map[string]any)
		if by, _ := m.Extra[extraBotBy].(map[string]any); len(by) != 2 || by["bot_list"] != float64(1) || by["bot_pattern"] != float64(3) {
			t.Errorf("manifest %s = %v", extraBotBy, m.Extra[extraBotBy])
		}
		if f["drop_reverts"] != true || f["revert_radius"] != float64(15) || f["bot_pattern"] != DefaultBotPattern || f["bot_names"] != float64(1) {
			t.Errorf("manifest revision_filters %v", f)
		}
		str := s.String()
		for _, line := range []string{
			"1 identity revert (--drop-reverts)",
			"1 revision undone by an identity revert (--drop-reverts)",
			// Listed_User by the list; ClueBot NG, SmackBot, AnomieBOT by name.
			"4 revisions by bots (--drop-bots: 1 by users in --bot-list bots.txt (1 name), 3 by names matching " + DefaultBotPattern + ")",
			"1 minor revision (--drop-minor)",
			"1 page with no revision left by --drop-reverts, --drop-bots, --drop-minor",
		} {
			if !strings.Contains(str, line) {
				t.Errorf("summary lacks %q:\n%s", line, str)
			}
		}
	})
	t.Run("radius 16", func(t *testing.T) {
		s, ps := run(t, Options{Inputs: []string{in}, DropReverts: true, RevertRadius: 16})
		// Gamma's last revision restores the first: 16 in between.
		if s.Counts.Skipped[string(SkipRevert)] != 2 || s.Counts.Skipped[string(SkipReverted)] != 1+16 || ps[2].NUpdates() != 1 {
			t.Errorf("skipped %v, Gamma %d updates", s.Counts.Skipped, ps[2].NUpdates())
		}
	})
	t.Run("bot list alone", func(t *testing.T) {
		s, _ := run(t, Options{Inputs: []string{in}, DropBots: true, NoBotPattern: true, BotNames: []string{"Listed User"}})
		if s.Counts.Skipped[string(SkipBot)] != 1 {
			t.Errorf("skipped %v", s.Counts.Skipped)
		}
	})
}

// gammaRevs: 18 revisions, the last restoring the first (17 back).
func gammaRevs() []rev {
	var rs []rev
	for i := range 17 {
		rs = append(rs, rev{100 + i, fmt.Sprintf("g%02d", i), "Carol", false})
	}
	return append(rs, rev{200, "g00", "Dave", false})
}
