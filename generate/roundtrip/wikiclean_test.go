package roundtrip

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/revisit-dev/revisit/generate"
	"github.com/revisit-dev/revisit/ingest"
)

// TestInjectedNoiseRemoved: a generated dump with injected identity-revert
// pairs and bot edits, ingested with --drop-reverts --drop-bots, gives
// exactly the generated updates of every page (ids, counts, hashes of the
// times), and the manifest counts exactly the injected reverts, reverted
// edits and bot edits. Without the filters, every injected revision is an
// update of its own.
func TestInjectedNoiseRemoved(t *testing.T) {
	dir := t.TempDir()
	plain := options(t, generate.FormatMediaWiki, filepath.Join(dir, "plain.xml"))
	if _, err := generate.Run(plain); err != nil {
		t.Fatal(err)
	}
	opt := options(t, generate.FormatMediaWiki, filepath.Join(dir, "noisy.xml.gz"))
	opt.RevertRate, opt.BotRate = 0.05, 0.03
	sum, err := generate.Run(opt)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := generate.ReadTruth(generate.DefaultTruthPath(opt.Format, opt.Out))
	if err != nil {
		t.Fatal(err)
	}
	tot := tr.Totals
	if tot.InjectedReverts < 20 || tot.InjectedBots < 20 || tot.InjectedReverted < tot.InjectedReverts || tot.InjectedReverted > 3*tot.InjectedReverts {
		t.Fatalf("injected %+v: too few to test, or not 1–3 reverted edits per revert", tot)
	}
	if sum.InjectedReverts != tot.InjectedReverts || sum.InjectedBots != tot.InjectedBots {
		t.Errorf("summary %+v, truth %+v", sum.Totals, tot)
	}
	// Injection draws from its own stream: the updates are those of the
	// same seed without it.
	trPlain, err := generate.ReadTruth(generate.DefaultTruthPath(plain.Format, plain.Out))
	if err != nil {
		t.Fatal(err)
	}
	var perPage int64
	for i, pt := range tr.Pages {
		if pt.UpdatesHash != trPlain.Pages[i].UpdatesHash {
			t.Fatalf("page %d: injection changed the updates", pt.ID)
		}
		if in := pt.Injected; in != nil {
			perPage += int64(len(in.Reverts) + len(in.Reverted) + len(in.Bots))
		}
	}
	if perPage != tot.InjectedReverts+tot.InjectedReverted+tot.InjectedBots {
		t.Errorf("pages list %d injected revisions, totals %+v", perPage, tot)
	}

	out := filepath.Join(dir, "clean")
	s, err := ingest.Run(context.Background(), ingest.Options{Inputs: []string{opt.Out}, Output: out, AllNamespaces: true,
		DropReverts: true, DropBots: true})
	if err != nil {
		t.Fatal(err)
	}
	check(t, out, tr)
	sk := s.Counts.Skipped
	if sk["revisions_identity_revert"] != tot.InjectedReverts || sk["revisions_identity_reverted"] != tot.InjectedReverted ||
		sk["revisions_bot"] != tot.InjectedBots || sk["revision_filters"] != 0 {
		t.Errorf("skipped %v, injected %+v", sk, tot)
	}

	// Without the filters the injected revisions are updates.
	raw := filepath.Join(dir, "raw")
	s, err = ingest.Run(context.Background(), ingest.Options{Inputs: []string{opt.Out}, Output: raw, AllNamespaces: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := tot.Updates + tot.InjectedReverts + tot.InjectedReverted + tot.InjectedBots; s.Counts.Updates != want {
		t.Errorf("unfiltered: %d updates, want %d", s.Counts.Updates, want)
	}
}
