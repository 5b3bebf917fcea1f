package logs

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/zeebo/xxh3"
)

// traceIDs refuses a trace id given twice. While the ids come in
// increasing order — (length, bytes), which is numeric order for plain
// numbers such as Bing's URL_IDs — an id after the last one is new, and
// only the last one is held in memory: the ids read are written out
// (spill: in memory up to spillMem bytes, then to a temporary file revisit
// creates, unlinks at once where it can and removes at close) in case the
// order breaks. The first id out of that order, or a capture of another
// format looked up while trace ids are known, loads them back into an
// idSet (a 128-bit hash of every id in memory) and every later id goes
// there too; fallback is called once then, to say so. What the set holds
// is counted in captures (held) under Options.MaxObservations, as the
// reader's other memory is: room, when set, is how many it may hold, and
// an id that would take more is refused before it is held (ErrIDsCap).
type traceIDs struct {
	n    int64
	last []byte // the last id added, while ordered
	// the ids added while ordered, one per line: pending in memory, the
	// rest in file
	pending []byte
	file    *os.File
	path    string // file's path when it could not be unlinked at once
	spillAt int    // pending bytes written to file at once (0: spillMem)
	set     *idSet // the ids' hashes in memory, after the order broke
	// fallback is called when set is built: id is the one looked up,
	// last the last one in order
	fallback func(id, last string)
	// room is how many captures the set may hold (nil: no cap)
	room func() int64
}

// spillMem is how many bytes of ids traceIDs keeps in memory before it
// writes them to a temporary file.
const spillMem = 1 << 20

// errIDsCap is has or add refusing to hold more ids than room allows.
var errIDsCap = fmt.Errorf("the trace ids to hold are more than --max-observations allows")

// Ordered reports whether every id came in increasing order (no idSet
// was needed).
func (s *traceIDs) ordered() bool { return s.set == nil }

// held is what the set holds, in captures of 24 bytes (idSet.held).
func (s *traceIDs) held() int64 {
	if s.set == nil {
		return 0
	}
	return s.set.held()
}

// has reports whether id was added (or, with probability below 2⁻¹²⁸
// per pair of ids, another id of the same hash: idSet); an error when the
// ids written out cannot be read back, or errIDsCap when holding them
// would pass room.
func (s *traceIDs) has(id string) (bool, error) {
	if s.set == nil {
		if s.n == 0 || before(s.last, id) {
			return false, nil
		}
		if string(s.last) == id {
			return true, nil
		}
		if err := s.load(id); err != nil {
			return false, err
		}
	}
	return s.set.has(id), nil
}

// add puts id, not in the set (has), into it: errIDsCap when the set
// would hold more than room.
func (s *traceIDs) add(id string) error {
	if s.set != nil {
		if s.room != nil && s.set.held()+idMapCost > s.room() {
			return errIDsCap
		}
		s.n++
		s.set.add(id)
		return nil
	}
	s.n++
	s.last = append(s.last[:0], id...)
	s.pending = append(append(s.pending, id...), '\n')
	lim := s.spillAt
	if lim <= 0 {
		lim = spillMem
	}
	if len(s.pending) < lim {
		return nil
	}
	if s.file == nil {
		f, err := os.CreateTemp("", "revisit-trace-ids-*")
		if err != nil {
			return fmt.Errorf("trace ids: a temporary file to refuse duplicates: %w", err)
		}
		s.file = f
		if os.Remove(f.Name()) != nil {
			s.path = f.Name() // removed at close
		}
	}
	if _, err := s.file.Write(s.pending); err != nil {
		return fmt.Errorf("trace ids: writing %s: %w", s.file.Name(), err)
	}
	s.pending = s.pending[:0]
	return nil
}

// load builds set from the ids written out, all in increasing order;
// errIDsCap, before any is held, when they are more than room allows.
func (s *traceIDs) load(id string) error {
	if s.room != nil && s.n > s.room() {
		return errIDsCap
	}
	if s.fallback != nil {
		s.fallback(id, string(s.last))
	}
	set := &idSet{sorted: make([]xxh3.Uint128, 0, s.n)}
	var src io.Reader = bytes.NewReader(s.pending)
	if s.file != nil {
		if _, err := s.file.Seek(0, io.SeekStart); err != nil {
			return fmt.Errorf("trace ids: reading %s back: %w", s.file.Name(), err)
		}
		src = io.MultiReader(bufio.NewReaderSize(s.file, 1<<16), src)
	}
	br := bufio.NewReaderSize(src, 1<<16)
	for {
		line, err := br.ReadSlice('\n')
		if len(line) > 0 && err == nil {
			set.sorted = append(set.sorted, xxh3.Hash128(line[:len(line)-1]))
		}
		if err == io.EOF {
			break
		}
		if err == bufio.ErrBufferFull { // an id longer than the buffer
			long := append([]byte(nil), line...)
			for err == bufio.ErrBufferFull {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			if err == nil {
				set.sorted = append(set.sorted, xxh3.Hash128(long[:len(long)-1]))
				continue
			}
		}
		if err != nil {
			return fmt.Errorf("trace ids: reading the ids back: %w", err)
		}
	}
	slices.SortFunc(set.sorted, cmp128)
	s.set = set
	s.close()
	s.pending, s.last = nil, nil
	return nil
}

// close removes the temporary file, if any.
func (s *traceIDs) close() {
	if s.file != nil {
		s.file.Close()
		s.file = nil
	}
	if s.path != "" {
		os.Remove(s.path)
		s.path = ""
	}
}

// idSet is a set of trace ids held as their 128-bit hashes (xxh3-128):
// 16 bytes per id whatever its length, so that the set stays under
// Options.MaxObservations even for ids as long as URLs. The ids loaded
// when the set is built are sorted by hash and looked up by binary search
// (16 bytes each, counted as 1 capture); the later ones go to a map
// (about 26–40 bytes each with its slack, counted as idMapCost captures).
//
// Two different ids of the same hash make the second look like a
// duplicate: the read refuses it ("given twice"), or counts it under
// SkipBad; a duplicate is never let through. For n ids the chance of any
// such pair is below n²/2¹²⁹: 1.5·10⁻²³ for 10⁸ ids, which the cap
// would need 2.4 GB to allow, so it is negligible beside a disk's or
// memory's own undetected errors.
type idSet struct {
	sorted []xxh3.Uint128
	more   map[xxh3.Uint128]struct{}
}

// idMapCost is what an id in idSet's map is counted as, in captures of 24
// bytes.
const idMapCost = 2

func cmp128(a, b xxh3.Uint128) int {
	switch {
	case a.Hi != b.Hi:
		if a.Hi < b.Hi {
			return -1
		}
		return 1
	case a.Lo < b.Lo:
		return -1
	case a.Lo > b.Lo:
		return 1
	}
	return 0
}

// held is what the set holds, in captures.
func (s *idSet) held() int64 { return int64(len(s.sorted)) + idMapCost*int64(len(s.more)) }

func (s *idSet) has(id string) bool {
	h := xxh3.HashString128(id)
	if _, ok := slices.BinarySearchFunc(s.sorted, h, cmp128); ok {
		return true
	}
	_, ok := s.more[h]
	return ok
}

// add puts id, not in the set, into it.
func (s *idSet) add(id string) {
	if s.more == nil {
		s.more = map[xxh3.Uint128]struct{}{}
	}
	s.more[xxh3.HashString128(id)] = struct{}{}
}

// before: id a comes before id b, by length, then bytes.
func before(a []byte, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return string(a) < b // compared in place, not copied
}
