package schedule

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
)

// MaxKnots bounds the knots a page keeps in the compact store: a Ĝ with
// more (a dataset's true G_U has one knot per distinct interval, a full
// estimate curve one per grid point) is thinned to MaxKnots of its knots,
// log-spaced in x (thin), after its concave projection. Compact
// estimate curves (32 knots) are kept whole.
const MaxKnots = 64

// store holds the prepared curves of a large input compactly: per page its
// knots x and D values (ToD, after Concave and thin) as float32, with knot
// vectors shared between pages that have the same ones (a constant-Δ
// sampler's grids repeat), in blocks that never move (no copy as they
// grow), and per page D(∞), λ̂ and a note code. About 8 bytes per knot (4
// when the knots are shared) and 25 per page. The arithmetic on them is
// float64 (invD, freshnessD); float32 storage moves a rate by about 10⁻⁷
// of itself.
type store struct {
	pool   pool
	xAddr  []uint32
	dAddr  []uint32
	n      []uint8 // knots of the page (0: Ĝ ≡ 0)
	dInf   []float64
	lambda []float64
	note   []uint16 // index into notes
	notes  []string
	noteIx map[string]uint16
	grids  map[string]uint32 // knot vector (float64 bits) → address
	key    []byte
	hull   []int32
	x32    []float32
	// exact: the curves are exact (WindowCurve), not projected.
	exact bool
	// watchedAt and watched are the watched time of each page without a
	// usable estimate (Problem.Watched), by page index: the prior's
	// evidence, kept only for those pages.
	watchedAt []int32
	watched   []float32
}

// maxGrids bounds the distinct knot vectors remembered for sharing.
const maxGrids = 4096

func newStore() *store {
	return &store{notes: []string{""}, noteIx: map[string]uint16{"": 0}, grids: map[string]uint32{}}
}

// Len is the number of pages.
func (s *store) Len() int { return len(s.n) }

// knots returns page i's knots and D values.
func (s *store) knots(i int) (x, d []float32) {
	n := int(s.n[i])
	return s.pool.get(s.xAddr[i], n), s.pool.get(s.dAddr[i], n)
}

// Bytes is the memory the store holds for its pages: the knot pool's
// blocks and the per-page columns, by their capacity (the input columns
// of the solver; what the command needs beyond them is the rest of its
// peak RSS).
func (s *store) Bytes() int64 {
	b := int64(len(s.pool.blocks)) * poolBlock * 4
	b += int64(cap(s.xAddr))*4 + int64(cap(s.dAddr))*4 + int64(cap(s.n))
	b += int64(cap(s.dInf))*8 + int64(cap(s.lambda))*8 + int64(cap(s.note))*2
	return b
}

// Note is page i's note.
func (s *store) Note(i int) string { return s.notes[s.note[i]] }

// add appends a page: its Ĝ at knots x (> 0, ascending; may be empty),
// which it projects (Concave), thins to MaxKnots and turns into D (ToD),
// overwriting g; λ̂ and the note ("" if the estimate is usable). id
// names the page in errors.
func (s *store) add(id int64, x, g []float64, lambda float64, note string) error {
	k, ok := s.noteIx[note]
	if !ok {
		if len(s.notes) > math.MaxUint16 {
			return fmt.Errorf("schedule: page %d: more than %d distinct notes", id, math.MaxUint16)
		}
		k = uint16(len(s.notes))
		s.notes = append(s.notes, note)
		s.noteIx[note] = k
	}
	s.note = append(s.note, k)
	s.lambda = append(s.lambda, lambda)
	if len(x) != len(g) {
		return fmt.Errorf("schedule: page %d: %d knots, %d values", id, len(x), len(g))
	}
	if err := checkKnots(x); err != nil {
		return fmt.Errorf("schedule: page %d: %w", id, err)
	}
	for j, v := range g {
		if math.IsNaN(v) {
			return fmt.Errorf("schedule: page %d: Ĝ(%g) is NaN", id, x[j])
		}
	}
	if len(s.pool.blocks) >= math.MaxUint32/poolBlock-1 {
		return fmt.Errorf("schedule: page %d: more than %d knots in all", id, math.MaxUint32)
	}
	if !s.exact {
		s.hull = concave(x, g, s.hull)
	}
	x, g = thin(x, g, MaxKnots)
	// float32 knots must still ascend: drop a knot that would repeat the
	// previous one (knots closer than 10⁻⁷ of x).
	s.x32 = s.x32[:0]
	m := 0
	for j := range x {
		v := float32(x[j])
		if len(s.x32) > 0 && v <= s.x32[len(s.x32)-1] {
			continue
		}
		s.x32 = append(s.x32, v)
		x[m], g[m] = x[j], g[j]
		m++
	}
	x, g = x[:m], g[:m]
	s.dInf = append(s.dInf, ToD(x, g))
	s.n = append(s.n, uint8(m))
	// Knots: shared with an earlier page that has the same ones.
	s.key = s.key[:0]
	for _, v := range s.x32 {
		s.key = binary.LittleEndian.AppendUint32(s.key, math.Float32bits(v))
	}
	xa, ok := s.grids[string(s.key)]
	if !ok {
		var dst []float32
		xa, dst = s.pool.alloc(m)
		copy(dst, s.x32)
		if len(s.grids) < maxGrids {
			s.grids[string(s.key)] = xa
		}
	}
	s.xAddr = append(s.xAddr, xa)
	da, dst := s.pool.alloc(m)
	for j, v := range g {
		dst[j] = float32(v)
	}
	s.dAddr = append(s.dAddr, da)
	return nil
}

// watch records the watched time of the page added last, if it has no
// usable estimate.
func (s *store) watch(t float64) {
	i := len(s.n) - 1
	if t > 0 && (s.n[i] == 0 || s.dInf[i] == 0 || !(s.lambda[i] > 0)) {
		s.watchedAt = append(s.watchedAt, int32(i))
		s.watched = append(s.watched, float32(t))
	}
}

// watchedOf is page i's watched time (0: none recorded).
func (s *store) watchedOf(i int) float64 {
	k, ok := slices.BinarySearch(s.watchedAt, int32(i))
	if !ok {
		return 0
	}
	return float64(s.watched[k])
}

// thin keeps at most k of the knots (k ≥ 2): the first, the last and,
// between, the first knot at or beyond each of the points log-spaced from
// x_0 to x_last (each a knot after the one before, leaving room for the
// rest), in place. The piecewise-linear function through a subset of the
// knots of a concave function is concave and below it.
func thin(x, g []float64, k int) ([]float64, []float64) {
	n := len(x)
	if n <= k {
		return x, g
	}
	lo, hi := math.Log(x[0]), math.Log(x[n-1])
	j, prev := 1, 0
	for t := 1; t < k-1; t++ {
		target := math.Exp(lo + (hi-lo)*float64(t)/float64(k-1))
		i := prev + 1
		for i < n-1-(k-1-t) && x[i] < target {
			i++
		}
		x[j], g[j] = x[i], g[i]
		prev = i
		j++
	}
	x[j], g[j] = x[n-1], g[n-1]
	return x[:k], g[:k]
}

// pool holds float32 values in blocks of poolBlock that never move;
// an address is block·poolBlock + offset, and a run of values never
// crosses a block.
type pool struct{ blocks [][]float32 }

const poolBlock = 1 << 18

// alloc reserves n ≤ poolBlock contiguous values.
func (p *pool) alloc(n int) (uint32, []float32) {
	if len(p.blocks) == 0 || len(p.blocks[len(p.blocks)-1])+n > poolBlock {
		p.blocks = append(p.blocks, make([]float32, 0, poolBlock))
	}
	b := len(p.blocks) - 1
	off := len(p.blocks[b])
	p.blocks[b] = p.blocks[b][:off+n]
	return uint32(b*poolBlock + off), p.blocks[b][off : off+n]
}

func (p *pool) get(addr uint32, n int) []float32 {
	b, off := int(addr/poolBlock), int(addr%poolBlock)
	return p.blocks[b][off : off+n : off+n]
}
