package dataset

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/series"
)

// writePartsOf writes pages as n part files and returns the directory.
func writePartsOf(t *testing.T, pages []series.Page, n int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ds")
	w, err := CreateParts(dir, n)
	if err != nil {
		t.Fatal(err)
	}
	for i := range pages {
		if err := w.Write(&pages[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(nil); err != nil {
		t.Fatal(err)
	}
	return dir
}

// With P = 12 parts, shard i of N (N dividing P) opens exactly the part
// files j ≡ i (mod N), sees exactly the pages it owns, each with its
// position in the whole dataset, and reads about 1/N of the bytes.
func TestForShardReadsOwnedParts(t *testing.T) {
	pages := samplePages(3000)
	for i := range pages { // some daily pages, for the resolution range
		if i%5 == 0 {
			pages[i].Resolution = units.Day
		}
	}
	const P = 12
	dir := writePartsOf(t, pages, P)
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	// The manifest's part_pages, computed without the writer.
	for j, st := range r.Manifest.PartPages {
		var want PartStat
		for _, p := range pages {
			if shard.Of(p.ID, P) != j {
				continue
			}
			if want.Pages == 0 {
				want.MinResolution, want.MaxResolution = p.Resolution, p.Resolution
			}
			want.Pages++
			want.MinResolution, want.MaxResolution = min(want.MinResolution, p.Resolution), max(want.MaxResolution, p.Resolution)
		}
		if st != want {
			t.Errorf("part %d: part_pages %+v, want %+v", j, st, want)
		}
	}
	if lo, hi, ok := r.Resolutions(); !ok || lo != 1 || hi != units.Day {
		t.Errorf("Resolutions() = %d, %d, %v; want 1, 86400, true", lo, hi, ok)
	}
	// Positions of the whole dataset read in one go.
	posOf := map[int64]int64{}
	if err := r.EachPos(func(pos int64, p *series.Page) error {
		posOf[p.ID] = pos
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	whole := r.Stats().Bytes
	if len(posOf) != len(pages) || whole == 0 {
		t.Fatalf("whole dataset: %d pages, %d bytes", len(posOf), whole)
	}
	for _, n := range []int{1, 2, 3, 4, 6, 12} {
		for i := range n {
			full, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			sub, why := full.ForShard(shard.Spec{I: i, N: n})
			if sub == nil {
				t.Fatalf("%d/%d: ForShard refused: %s", i, n, why)
			}
			seen := 0
			err = sub.EachPos(func(pos int64, p *series.Page) error {
				seen++
				if !(shard.Spec{I: i, N: n}).Owns(p.ID) {
					t.Errorf("%d/%d: page %d of another shard", i, n, p.ID)
				}
				if posOf[p.ID] != pos {
					t.Errorf("%d/%d: page %d at %d, want %d", i, n, p.ID, pos, posOf[p.ID])
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			owned := 0
			for _, p := range pages {
				if (shard.Spec{I: i, N: n}).Owns(p.ID) {
					owned++
				}
			}
			if seen != owned {
				t.Errorf("%d/%d: %d pages read, %d owned", i, n, seen, owned)
			}
			var want []string
			for j := i; j < P; j += n {
				want = append(want, filepath.Join(dir, PartFile(j, P)))
			}
			st := full.Stats()
			if !reflect.DeepEqual(st.Files, want) {
				t.Errorf("%d/%d: opened %v, want %v", i, n, st.Files, want)
			}
			// About 1/n of the bytes (the parts are of similar size).
			if f := float64(st.Bytes) / float64(whole); f < 0.7/float64(n) || f > 1.3/float64(n) {
				t.Errorf("%d/%d: read %d of %d bytes (%.3f), want about 1/%d", i, n, st.Bytes, whole, f, n)
			}
			if a, b := mustIdentity(t, sub), mustIdentity(t, full); a != b {
				t.Errorf("%d/%d: the shard's reader has another identity", i, n)
			}
		}
	}
}

func mustIdentity(t *testing.T, r *Reader) string {
	t.Helper()
	id, err := r.Identity()
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// ForShard refuses, with its reason, what it cannot split by parts: a
// part count that is not a multiple of N, one file, a manifest without
// part_pages, no shard; and a part whose page count is not the
// manifest's is an error when read.
func TestForShardRefuses(t *testing.T) {
	pages := samplePages(200)
	parts := writePartsOf(t, pages, 4)
	one := writePartsOf(t, pages, 0)
	r, err := Open(parts)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		dir  string
		s    shard.Spec
		want string
	}{{parts, shard.Spec{I: 0, N: 3}, "not a multiple"}, {one, shard.Spec{I: 0, N: 2}, "one file"}, {parts, shard.Spec{}, "not sharded"}} {
		r, err := Open(c.dir)
		if err != nil {
			t.Fatal(err)
		}
		if sub, why := r.ForShard(c.s); sub != nil || !strings.Contains(why, c.want) {
			t.Errorf("%s %v: ForShard = %v, %q; want nil and %q", c.dir, c.s, sub, why, c.want)
		}
	}
	if _, _, ok := mustOpen(t, one).Resolutions(); ok {
		t.Error("Resolutions of a one-file dataset without part_pages is known")
	}
	// A manifest without part_pages (an older dataset), and one whose
	// counts are wrong.
	m := *r.Manifest
	m.PartPages = nil
	writeManifestT(t, parts, &m)
	if sub, why := mustOpen(t, parts).ForShard(shard.Spec{I: 1, N: 2}); sub != nil || !strings.Contains(why, "part_pages") {
		t.Errorf("without part_pages: ForShard = %v, %q", sub, why)
	}
	m.PartPages = slices.Clone(r.Manifest.PartPages)
	m.PartPages[1].Pages++
	writeManifestT(t, parts, &m)
	sub, _ := mustOpen(t, parts).ForShard(shard.Spec{I: 1, N: 2})
	if sub == nil {
		t.Fatal("ForShard refused")
	}
	if err := sub.Each(func(*series.Page) error { return nil }); err == nil || !strings.Contains(err.Error(), "manifest.json says") {
		t.Errorf("part 1 with a wrong count: %v", err)
	}
}

func mustOpen(t *testing.T, dir string) *Reader {
	t.Helper()
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func writeManifestT(t *testing.T, dir string, m *Manifest) {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ManifestFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
}
