package ingest

import (
	"fmt"

	"github.com/revisit-dev/revisit/ingest/generic"
)

// idSet remembers the page ids written for one source in bounded memory:
// MediaWiki ids are small dense integers and go into a paged bitset (4096
// ids per 512-byte page: about 10 MB for all of enwiki); other ids (the
// 63-bit hashes of string ids) go into a map.
type idSet struct {
	pages map[int64]*[64]uint64
	other map[int64]struct{}
}

const denseLimit = 1 << 40

func newIDSet() *idSet {
	return &idSet{pages: map[int64]*[64]uint64{}, other: map[int64]struct{}{}}
}

func (s *idSet) has(id int64) bool {
	if id < 0 || id >= denseLimit {
		_, ok := s.other[id]
		return ok
	}
	p := s.pages[id>>12]
	return p != nil && p[(id>>6)&63]&(1<<(id&63)) != 0
}

func (s *idSet) add(id int64) {
	if id < 0 || id >= denseLimit {
		s.other[id] = struct{}{}
		return
	}
	p := s.pages[id>>12]
	if p == nil {
		p = new([64]uint64)
		s.pages[id>>12] = p
	}
	p[(id>>6)&63] |= 1 << (id & 63)
}

// idRegistry keeps page ids unique across all inputs of a run.
//
// A page is identified by (source, page_id). The same id in two different
// sources (page 12 of enwiki and page 12 of dewiki) is a clash: the page
// seen later gets the id generic.PageID("<source>:<id>") — a stable 63-bit
// hash, so the same inputs in the same order always give the same ids — and
// the remapping is counted in the summary and manifest. The same id twice in
// one source is a duplicate page (for MediaWiki, overlapping dump parts);
// the caller reports it as bad input.
type idRegistry struct {
	bySource map[string]*idSet
	order    []string
	remapped int64
}

func newIDRegistry() *idRegistry { return &idRegistry{bySource: map[string]*idSet{}} }

// claim returns the id to write for (source, id), or duplicate=true when the
// source already has this id.
func (g *idRegistry) claim(src string, id int64) (newID int64, duplicate bool) {
	own := g.bySource[src]
	if own == nil {
		own = newIDSet()
		g.bySource[src] = own
		g.order = append(g.order, src)
	}
	if own.has(id) {
		return id, true
	}
	own.add(id)
	newID = id
	for attempt := 0; g.takenElsewhere(src, newID); attempt++ {
		key := fmt.Sprintf("%s:%d", src, id)
		if attempt > 0 {
			key = fmt.Sprintf("%s:%d#%d", src, id, attempt)
		}
		newID = generic.PageID(key)
	}
	if newID != id {
		g.remapped++
		own.add(newID) // the remapped id is taken too (by this source)
	}
	return newID, false
}

func (g *idRegistry) takenElsewhere(src string, id int64) bool {
	for _, s := range g.order {
		if s != src && g.bySource[s].has(id) {
			return true
		}
	}
	return false
}
