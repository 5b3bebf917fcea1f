package visits

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"sort"
)

// traceIDs refuses a trace id given twice. While the ids come in
// increasing order — (length, bytes), which is numeric order for plain
// numbers such as Bing's URL_IDs — an id after the last one is new, and
// only the last one is held in memory: the ids read are written out
// (spill: in memory up to spillMem bytes, then to a temporary file revisit
// creates, unlinks at once where it can and removes at close) in case the
// order breaks. The first id out of that order, or a capture of another
// format looked up while trace ids are known, loads them back into an
// idSet (every id in memory, about 14 bytes each) and every later id goes
// there too; fallback is called once then, to say so.
type traceIDs struct {
	n    int64
	last []byte // the last id added, while ordered
	// the ids added while ordered, one per line: pending in memory, the
	// rest in file
	pending []byte
	file    *os.File
	path    string // file's path when it could not be unlinked at once
	spillAt int    // pending bytes written to file at once (0: spillMem)
	set     *idSet // the ids in memory, after the order broke
	// fallback is called when set is built: id is the one looked up,
	// last the last one in order
	fallback func(id, last string)
}

// spillMem is how many bytes of ids traceIDs keeps in memory before it
// writes them to a temporary file.
const spillMem = 1 << 20

// Ordered reports whether every id came in increasing order (no idSet
// was needed).
func (s *traceIDs) ordered() bool { return s.set == nil }

// has reports whether id was added; an error only when the ids written
// out cannot be read back.
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

// add puts id, not in the set (has), into it.
func (s *traceIDs) add(id string) error {
	s.n++
	if s.set != nil {
		s.set.add(id)
		return nil
	}
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

// load builds set from the ids written out, all in increasing order.
func (s *traceIDs) load(id string) error {
	if s.fallback != nil {
		s.fallback(id, string(s.last))
	}
	set := &idSet{}
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
			set.addBytes(line[:len(line)-1])
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
				set.addBytes(long[:len(long)-1])
				continue
			}
		}
		if err != nil {
			return fmt.Errorf("trace ids: reading the ids back: %w", err)
		}
	}
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

// idSet is a set of ids in memory. A map holds about 40 bytes per id (its
// string header, slot and bytes: 0.7 GB for the 18·10⁶ URLs of Bing's
// trace), so ids that come in increasing order are packed into one byte
// slice with their end offsets (the id's bytes and 4–8 more) and looked up
// by binary search; the ids after the first one out of that order go to a
// map.
type idSet struct {
	run  []byte  // the increasing ids, one after the other
	ends []int64 // ends[i] is where id i ends in run
	more map[string]struct{}
}

// before: id a comes before id b, by length, then bytes.
func before(a []byte, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return string(a) < b // compared in place, not copied
}

// at is id i of the run.
func (s *idSet) at(i int) []byte {
	start := int64(0)
	if i > 0 {
		start = s.ends[i-1]
	}
	return s.run[start:s.ends[i]]
}

func (s *idSet) has(id string) bool {
	if n := len(s.ends); n > 0 {
		// the first id of the run not before id
		i := sort.Search(n, func(i int) bool { return !before(s.at(i), id) })
		if i < n && string(s.at(i)) == id {
			return true
		}
	}
	_, ok := s.more[id]
	return ok
}

// add puts id, not in the set, into it.
func (s *idSet) add(id string) {
	if s.more == nil && (len(s.ends) == 0 || before(s.at(len(s.ends)-1), id)) {
		s.run = append(s.run, id...)
		s.ends = append(s.ends, int64(len(s.run)))
		return
	}
	if s.more == nil {
		s.more = map[string]struct{}{}
	}
	s.more[id] = struct{}{}
}

// addBytes is add of an id in increasing order (load).
func (s *idSet) addBytes(id []byte) {
	if s.more == nil && (len(s.ends) == 0 || before(s.at(len(s.ends)-1), string(id))) {
		s.run = append(s.run, id...)
		s.ends = append(s.ends, int64(len(s.run)))
		return
	}
	s.add(string(id))
}
