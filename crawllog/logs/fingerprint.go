package logs

// Fingerprints of the inputs a read read (Stats.Prints): the same name and
// size do not make the same file — a trace rewritten in place between the
// runs of two shards of one estimate keeps both — so each shard records a
// hash of what it read, and the merge compares them (crawllog).

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/zeebo/xxh3"

	"github.com/revisit-dev/revisit/internal/decompress"
)

// Print is a fingerprint of one input as a read saw it.
type Print struct {
	Name string `json:"name"`
	Size int64  `json:"size"` // stored bytes (−1: not known, standard input)
	// SHA256 is the hex SHA-256 of the input's stored bytes when the read
	// read them all — every input but those of a byte range, and but 7z
	// archives (read at random: hashing them is a second pass) — what
	// sha256sum prints: a fingerprint of the whole file, computed while
	// reading it (internal/decompress).
	SHA256 string `json:"sha256,omitempty"`
	// A byte range (Options.Range) reads bytes [Start, End) of the input
	// (none when equal): Range is their xxh3-128, computed while reading
	// them. Those bytes are the range's alone, so no other shard can
	// compare them; Samples is the xxh3-128 of the bytes every range of
	// the split reads of the input (sampleWindows), which all shards
	// compare.
	Start   int64  `json:"start,omitempty"`
	End     int64  `json:"end,omitempty"`
	Range   string `json:"range_xxh3,omitempty"`
	Samples string `json:"samples_xxh3,omitempty"`
}

// Differ describes how the fingerprints a and b of one input differ ("":
// they agree where both say something), naming the reads as aName and
// bName: different sizes, SHA-256 or samples. Fingerprints that do not
// say the same things (a whole read and a byte range) are not compared
// beyond the size.
func (a *Print) Differ(b *Print, aName, bName string) string {
	switch {
	case a.Size != b.Size:
		return fmt.Sprintf("%d bytes in %s, %d in %s", a.Size, aName, b.Size, bName)
	case a.SHA256 != "" && b.SHA256 != "" && a.SHA256 != b.SHA256:
		return fmt.Sprintf("SHA-256 %.12s… in %s, %.12s… in %s", a.SHA256, aName, b.SHA256, bName)
	case a.Samples != "" && b.Samples != "" && a.Samples != b.Samples:
		return fmt.Sprintf("the bytes every shard reads of it (%s) hash to %.12s… in %s, %.12s… in %s", sampleText, a.Samples, aName, b.Samples, bName)
	}
	return ""
}

// The sample windows of a byte-range read: the inputs' first sampleBytes
// each, and sampleCount+1 windows of sampleBytes spread evenly over the
// inputs taken as one stream (the first at its start, the last at its
// end). Every range of a split reads them (about 270 KiB per range for a
// single input), so a file rewritten between the runs of two shards is
// found when the rewrite touched any of them: a trace of another period
// changes every line. An edit confined to one range and away from every
// window is seen by no other shard: only that shard read those bytes.
const (
	sampleBytes = 4096
	sampleCount = 64
	sampleText  = "its first 4 KiB and 65 windows of 4 KiB spread over the inputs"
)

// window is a span of one input.
type window struct{ off, n int64 }

// sampleWindows are the sample windows of each input of p.
func (p *rangePlan) sampleWindows() [][]window {
	ws := make([][]window, len(p.in))
	add := func(g, n int64) { // stream bytes [g, g+n), cut at the inputs' ends
		for g < p.total && n > 0 {
			k := p.input(g)
			in := &p.in[k]
			m := min(n, in.off+in.size-g)
			ws[k] = append(ws[k], window{g - in.off, m})
			g, n = g+m, n-m
		}
	}
	for _, in := range p.in {
		add(in.off, min(sampleBytes, in.size))
	}
	span := max(p.total-sampleBytes, 0)
	for j := int64(0); j <= sampleCount; j++ {
		add(j*(span/sampleCount)+j*(span%sampleCount)/sampleCount, sampleBytes)
	}
	for k := range ws {
		slices.SortFunc(ws[k], func(a, b window) int { return int(a.off - b.off) })
	}
	return ws
}

// hashWindows is the xxh3-128 of the windows ws of f: for each, its
// offset and length (8 bytes each, little-endian), then its bytes.
func hashWindows(f *os.File, ws []window) (string, error) {
	h := xxh3.New()
	buf := make([]byte, sampleBytes)
	var head [16]byte
	for _, w := range ws {
		binary.LittleEndian.PutUint64(head[:8], uint64(w.off))
		binary.LittleEndian.PutUint64(head[8:], uint64(w.n))
		h.Write(head[:])
		for off, n := w.off, w.n; n > 0; {
			m := min(n, int64(len(buf)))
			if _, err := f.ReadAt(buf[:m], off); err != nil {
				return "", err
			}
			h.Write(buf[:m])
			off, n = off+m, n-m
		}
	}
	return hex128(h), nil
}

func hex128(h *xxh3.Hasher) string {
	b := h.Sum128().Bytes()
	return fmt.Sprintf("%x", b[:])
}

// hashingReader hashes what is read through it.
type hashingReader struct {
	r io.Reader
	h *xxh3.Hasher
}

func (t *hashingReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.h.Write(p[:n])
	return n, err
}

// printWhole records the fingerprint of input name, read whole through
// dr, which must be at the end of its last member: the SHA-256 of its
// stored bytes (but for 7z archives).
func (r *reader) printWhole(name string, dr *decompress.Reader) error {
	p := Print{Name: name, Size: dr.Size()}
	if dr.Format() != decompress.SevenZip {
		sum, err := dr.SHA256()
		if err != nil {
			return fmt.Errorf("observations %s: %w", name, err)
		}
		p.SHA256 = sum
	}
	r.stats.Prints = append(r.stats.Prints, p)
	return nil
}
