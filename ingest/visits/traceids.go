package visits

import "sort"

// traceIDs is the set of the trace ids read, to refuse one given twice.
// A map holds about 40 bytes per id (its string header, slot and bytes:
// 0.7 GB for the 18·10⁶ URLs of Bing's trace), so ids that come in
// increasing order — (length, bytes), which is numeric order for plain
// numbers such as Bing's URL_IDs — are packed into one byte slice with
// their end offsets (the id's bytes and 4–8 more) and looked up by
// binary search; the ids after the first one out of that order go to a
// map.
type traceIDs struct {
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
func (s *traceIDs) at(i int) []byte {
	start := int64(0)
	if i > 0 {
		start = s.ends[i-1]
	}
	return s.run[start:s.ends[i]]
}

func (s *traceIDs) has(id string) bool {
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
func (s *traceIDs) add(id string) {
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
