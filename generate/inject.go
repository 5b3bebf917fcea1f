package generate

import (
	"slices"

	"github.com/revisit-dev/revisit/model"
)

// Noise edits injected into MediaWiki output, so that a test can check that
// ingest's --drop-reverts and --drop-bots remove exactly them (and count
// them). They are written between a page's update times and are not
// updates: the truth (Updates) stays the model's times, and the injected
// revisions are listed per page in truth.json (injected_*) and summed in
// its totals.
//
// In each gap between two consecutive distinct update times t_k < t_{k+1}
// of a page, with probability RevertRate a revert pair is injected: m
// edits by an IP (m uniform in 1…3, each with fresh content) and then an
// identity revert by a registered editor whose <sha1> is that of the
// update at t_k, the m edits being the reverted ones; the m + 1 times are
// distinct whole seconds uniform in (t_k, t_{k+1}), so the gap must be at
// least m + 2 s. Otherwise, with probability BotRate, one bot edit (fresh
// content, a user name ending in "bot"/"Bot"/"BOT") is injected at a
// uniform second in (t_k, t_{k+1}) (gap ≥ 2 s). Draws come from the
// page's own stream inject|i, so the update times and every other byte of
// the page are those of the same seed without injection. Names of the
// human editors never contain "bot".

// inject is the stream flag of the injected edits (see cosmetic).
const inject = 1 << 62

// Kinds of injected revisions.
const (
	InjectVandal = iota + 1 // an edit later undone by an identity revert
	InjectRevert            // the identity revert
	InjectBot               // a bot edit
)

// Injected is one injected revision: written after the page's revisions
// at times ≤ Time's gap start (After is the index in Page.Revisions of the
// last revision before it).
type Injected struct {
	After int
	Time  int64
	Kind  int
	// Restore is the index in Page.Revisions of the revision a revert
	// restores.
	Restore int
}

// botNames are the user names of injected bot edits (they match ingest's
// default bot pattern).
var botNames = []string{"GenBot", "Tidy bot", "ArchiverBOT 2", "Linkfix-bot"}

// injectNoise fills p.Inject for page i (see above).
func (g *Generator) injectNoise(i int, p *Page) {
	p.Inject = p.Inject[:0]
	if g.c.RevertRate == 0 && g.c.BotRate == 0 {
		return
	}
	r := model.NewRand(g.c.Seed, uint64(i)|inject)
	var offs [4]int64
	for k := 0; k+1 < len(p.Revisions); k++ {
		t0, t1 := p.Revisions[k], p.Revisions[k+1]
		if t1 == t0 {
			continue // the next revision is in the same second: no gap
		}
		u := r.Float64()
		m := 1 + r.IntN(3)
		switch gap := t1 - t0; {
		case u < g.c.RevertRate && gap >= int64(m)+2:
			// m + 1 distinct offsets in [1, gap−1]: sorted draws in
			// [0, gap−2−m], the j-th raised by j, then + 1.
			o := offs[:m+1]
			for j := range o {
				o[j] = r.Int64N(gap - 1 - int64(m))
			}
			slices.Sort(o)
			for j := range o {
				p.Inject = append(p.Inject, Injected{After: k, Time: t0 + 1 + o[j] + int64(j), Kind: InjectVandal, Restore: k})
			}
			p.Inject[len(p.Inject)-1].Kind = InjectRevert
		case u >= g.c.RevertRate && u < g.c.RevertRate+g.c.BotRate && gap >= 2:
			p.Inject = append(p.Inject, Injected{After: k, Time: t0 + 1 + r.Int64N(gap-1), Kind: InjectBot})
		}
	}
}

// InjectedTruth lists a page's injected revisions by kind (Unix seconds).
type InjectedTruth struct {
	Reverts  []int64 `json:"reverts,omitempty"`
	Reverted []int64 `json:"reverted,omitempty"`
	Bots     []int64 `json:"bots,omitempty"`
}

func injectedTruth(p *Page) *InjectedTruth {
	if len(p.Inject) == 0 {
		return nil
	}
	var t InjectedTruth
	for _, x := range p.Inject {
		switch x.Kind {
		case InjectVandal:
			t.Reverted = append(t.Reverted, x.Time)
		case InjectRevert:
			t.Reverts = append(t.Reverts, x.Time)
		case InjectBot:
			t.Bots = append(t.Bots, x.Time)
		}
	}
	return &t
}
