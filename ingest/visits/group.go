package visits

// Grouping captures by URL in memory: what one capture and one URL cost
// (the MaxObservations cap), adding a capture, and building what the crawler
// saw of a URL when it is passed on.

import (
	"fmt"
	"slices"
	"strings"
)

// Value kinds of a capture.
const (
	kindDigest = 1 + iota
	kindChanged
	kindLastMod
)

// urlBytes is about what a URL held in memory costs besides its id's
// bytes and its captures: its map entry, group and the slack of its first
// slice (bench/estimate-memory.sh reads a million URLs of one capture
// each, where counting the captures alone would miss most of the memory).
const urlBytes = 120

// urlCost is what URL id costs in memory, in captures of 24 bytes: held
// counts it so that MaxObservations bounds memory also when most URLs
// have few captures.
func urlCost(id string) int64 { return int64(len(id)+urlBytes+23) / 24 }

// rec is one capture held in memory: 24 bytes.
type rec struct {
	t     int64
	v     uint64 // digest hash (FNV-1a 64), changed bit, or Last-Modified
	kind  uint8
	flags uint8
	why   uint8 // fSkip: the index of its reason in revisitSkips
}

const (
	fAbsent   uint8 = 1 << iota // the capture saw no page
	fRevisit                    // a revisit record: resolved in build
	fSkip                       // neither content nor absent (counted): held for the revisits of it
	fNoDigest                   // with fSkip: no digest (a redirect, a revisit of the empty payload), no revisit's original
)

type group struct {
	recs []rec
	// FNV-1a 64 of the distinct original URLs (CDX family): the first,
	// and the others (counted in held, one capture each)
	orig1 uint64
	orig  []uint64
}

// flush passes URL id's captures to fn and drops them.
func (r *reader) flush(id string) error {
	g := r.groups[id]
	delete(r.groups, id)
	r.held -= int64(len(g.recs)+len(g.orig)) + urlCost(id)
	r.noteID(id)
	if len(g.orig) > 0 { // every key, with content or not
		r.stats.MergedKeys++
		r.stats.MergedOriginals += int64(1 + len(g.orig))
	}
	o := r.build(id, g)
	if o == nil {
		return nil
	}
	if len(g.orig) > 0 {
		o.Originals = 1 + len(g.orig)
	}
	if err := r.companion(o); err != nil {
		return err
	}
	r.stats.URLs++
	return r.fn(o)
}

func fnv64(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

func (r *reader) add(id string, rc rec) (string, error) {
	if dup, err := r.traces.has(id); err != nil {
		r.fnErr = r.idsErr(id, err)
		return "", nil
	} else if dup {
		return "duplicate", fmt.Errorf("URL %q: a trace line and other observations of the same id", id)
	}
	if r.opt.Sorted && id != r.cur {
		if r.any && id <= r.done || r.cur != "" && id < r.cur {
			return "unsorted", fmt.Errorf("URL %q after %q: the logs are not sorted by URL (drop --sorted to group them in memory)", id, max(r.cur, r.done))
		}
		if r.cur != "" {
			r.done, r.any = r.cur, true
			if err := r.flush(r.cur); err != nil {
				r.fnErr = err
				return "", nil
			}
		}
		r.cur = id
	}
	g := r.groups[id]
	if g == nil {
		g = &group{}
		// a copy: id is a piece of the whole line, which the map key
		// would otherwise keep alive
		r.groups[strings.Clone(id)] = g
		r.held += urlCost(id)
	} else if g.recs[0].kind != rc.kind {
		return "mixed", fmt.Errorf("URL %q: observations of different kinds (digest, changed bit, Last-Modified)", id)
	}
	g.recs = append(g.recs, rc)
	r.held++
	if r.original != "" {
		switch h := fnv64(r.original); {
		case len(g.recs) == 1:
			g.orig1 = h
		case h != g.orig1 && !slices.Contains(g.orig, h):
			g.orig = append(g.orig, h)
			r.held++ // 8 bytes, counted as a capture
		}
		r.original = ""
	}
	r.in.Records++ // counted only once the capture is good
	r.stats.Captures++
	return "", nil
}

// build turns a URL's captures into what the crawler saw (nil when no
// capture had content).
func (r *reader) build(id string, g *group) *Observed {
	recs := g.recs
	o := &Observed{ID: id}
	slices.SortStableFunc(recs, func(a, b rec) int {
		switch {
		case a.t < b.t:
			return -1
		case a.t > b.t:
			return 1
		}
		return 0
	})
	kind := recs[0].kind
	o.Ages = kind == kindLastMod
	var vals []uint64
	var orig map[uint64]rec // digest → the first capture with it that is no revisit
	for _, rc := range recs {
		if rc.flags&fRevisit != 0 {
			orig = map[uint64]rec{}
			for _, rc := range recs {
				if _, seen := orig[rc.v]; !seen && rc.flags&(fRevisit|fNoDigest) == 0 {
					orig[rc.v] = rc
				}
			}
			break
		}
	}
	absents := 0
	for _, rc := range recs {
		if rc.flags&fSkip != 0 {
			continue // counted when read
		}
		if rc.flags&fRevisit != 0 {
			o, ok := orig[rc.v]
			switch {
			case ok && o.flags&fSkip != 0:
				r.stats.Skipped["revisit_"+revisitSkips[o.why]]++
				continue
			case ok:
				rc.flags = o.flags // content, or absent
				r.stats.RevisitsResolved++
			case len(vals) > 0 && vals[len(vals)-1] == rc.v:
				rc.flags = 0 // the same payload as the previous visit: unchanged
				r.stats.RevisitsResolved++
			default:
				r.stats.Skipped["revisit_unresolved"]++
				continue
			}
		}
		if rc.flags&fAbsent != 0 {
			if len(o.Visits) > 0 {
				r.stats.Skipped["absent_after_first"]++
				continue
			}
			absents++
			o.HasPrev, o.Prev = true, rc.t
			continue
		}
		if n := len(o.Visits); n > 0 && o.Visits[n-1].T == rc.t {
			r.stats.Skipped["same_second"]++
			if kind == kindChanged {
				o.Visits[n-1].Changed = o.Visits[n-1].Changed || rc.v == 1
			} else {
				vals[n-1] = rc.v
			}
			continue
		}
		if o.HasPrev && len(o.Visits) == 0 && o.Prev == rc.t {
			// no page and a page in the same second: no previous visit
			o.HasPrev = false
			r.stats.Skipped["absent_unused"] += int64(absents) // every one before, too
			absents = 0
		}
		o.Visits = append(o.Visits, Visit{T: rc.t, Changed: kind == kindChanged && rc.v == 1})
		vals = append(vals, rc.v)
	}
	if absents > 1 {
		r.stats.Skipped["absent_unused"] += int64(absents - 1)
	}
	if len(o.Visits) == 0 {
		r.stats.Skipped["no_content"]++
		return nil
	}
	o.FirstChanged = o.HasPrev // the page was absent at Prev: created since
	for j := range o.Visits {
		switch kind {
		case kindDigest:
			o.Visits[j].Changed = j > 0 && vals[j] != vals[j-1]
		case kindLastMod:
			o.Visits[j].LastMod = int64(vals[j])
			if j > 0 {
				o.Visits[j].Changed = o.Visits[j].LastMod > o.Visits[j-1].T
			}
		}
	}
	if kind == kindChanged {
		o.Visits[0].Changed = o.HasPrev // the first bit compares with an unknown visit: a reference
	}
	return o
}
