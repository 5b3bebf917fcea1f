package dataset

import (
	"crypto/sha256"
	"encoding/hex"
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
		// the size and SHA-256 of the file as it is on disk
		b, err := os.ReadFile(filepath.Join(dir, PartFile(j, P)))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		want.Bytes, want.SHA256 = int64(len(b)), hex.EncodeToString(sum[:])
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
			// About 1/n of the bytes (the parts are of similar size),
			// and its parts once more whole for their SHA-256.
			var own int64
			for _, f := range want {
				fi, err := os.Stat(f)
				if err != nil {
					t.Fatal(err)
				}
				own += fi.Size()
			}
			if f := float64(st.Bytes-own) / float64(whole); f < 0.7/float64(n) || f > 1.3/float64(n) {
				t.Errorf("%d/%d: read %d of %d bytes besides its parts' %d (%.3f), want about 1/%d", i, n, st.Bytes-own, whole, own, f, n)
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

// A node may hold only its shard's parts. Open refuses a dataset with a
// part absent, naming it; OpenPartial opens it, every read of the whole
// dataset fails naming the first absent part, and the shard whose parts
// are all there reads exactly the pages it reads from the whole dataset,
// at the same positions, with the same identity. A shard whose own part
// is absent fails naming it.
func TestShardWithoutOtherParts(t *testing.T) {
	pages := samplePages(400)
	const P, N = 8, 4
	dir := writePartsOf(t, pages, P)
	full := mustOpen(t, dir)
	wantID := mustIdentity(t, full)
	s := shard.Spec{I: 1, N: N}
	posOf := map[int64]int64{}
	sub, why := full.ForShard(s)
	if sub == nil {
		t.Fatal(why)
	}
	if err := sub.EachPos(func(pos int64, p *series.Page) error { posOf[p.ID] = pos; return nil }); err != nil {
		t.Fatal(err)
	}
	for j := range P {
		if j%N != s.I {
			if err := os.Remove(filepath.Join(dir, PartFile(j, P))); err != nil {
				t.Fatal(err)
			}
		}
	}
	missing := PartFile(0, P) + " of 8 is missing"
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("Open with 6 parts absent: %v, want %q", err, missing)
	}
	r, err := OpenPartial(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Each(func(*series.Page) error { return nil }); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("reading the whole dataset: %v, want %q", err, missing)
	}
	if _, err := r.NumPages(); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("NumPages: %v, want %q", err, missing)
	}
	if id := mustIdentity(t, r); id != wantID {
		t.Errorf("identity without the other parts %s, with them %s", id, wantID)
	}
	own, why := r.ForShard(s)
	if own == nil {
		t.Fatalf("ForShard refused: %s", why)
	}
	if id := mustIdentity(t, own); id != wantID {
		t.Errorf("the shard's reader without the other parts has identity %s, the dataset %s", id, wantID)
	}
	n := 0
	if err := own.EachPos(func(pos int64, p *series.Page) error {
		n++
		if want, ok := posOf[p.ID]; !ok || pos != want {
			t.Errorf("page %d at %d, want %d (%v)", p.ID, pos, want, ok)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if n != len(posOf) {
		t.Errorf("%d pages read on its own parts, %d with every part", n, len(posOf))
	}
	other, _ := r.ForShard(shard.Spec{I: 2, N: N})
	if err := other.Each(func(*series.Page) error { return nil }); err == nil || !strings.Contains(err.Error(), PartFile(2, P)+" of 8 is missing") {
		t.Errorf("shard 2/4 without its parts: %v", err)
	}
}

// A shard reading its own parts checks each against the size and SHA-256
// the manifest records: a part of the same size with one byte changed is
// refused. A manifest written before sizes were recorded still lets the
// shard read its parts, but cannot give the dataset's identity without
// the others.
func TestShardPartChecks(t *testing.T) {
	pages := samplePages(200)
	const P = 4
	dir := writePartsOf(t, pages, P)
	name := filepath.Join(dir, PartFile(1, P))
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	changed := slices.Clone(b)
	changed[len(b)/2] ^= 1
	if err := os.WriteFile(name, changed, 0o644); err != nil {
		t.Fatal(err)
	}
	sub, _ := mustOpen(t, dir).ForShard(shard.Spec{I: 1, N: 2})
	if err := sub.Each(func(*series.Page) error { return nil }); err == nil || !strings.Contains(err.Error(), "not the part this dataset was written with") {
		t.Errorf("a part with a byte changed: %v", err)
	}
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
	m := *mustOpen(t, dir).Manifest
	m.PartPages = slices.Clone(m.PartPages)
	for j := range m.PartPages {
		m.PartPages[j].Bytes, m.PartPages[j].SHA256 = 0, ""
	}
	writeManifestT(t, dir, &m)
	if err := os.Remove(filepath.Join(dir, PartFile(0, P))); err != nil {
		t.Fatal(err)
	}
	r, err := OpenPartial(dir)
	if err != nil {
		t.Fatal(err)
	}
	sub, _ = r.ForShard(shard.Spec{I: 1, N: 2})
	if err := sub.Each(func(*series.Page) error { return nil }); err != nil {
		t.Errorf("own parts under an older manifest: %v", err)
	}
	if _, err := r.Identity(); err == nil || !strings.Contains(err.Error(), "does not say its size") {
		t.Errorf("identity without part 0 under an older manifest: %v", err)
	}
}
