package logs

import (
	"bufio"
	"context"
	"fmt"
	"slices"
)

// Sorter is the external merge sort of the companion join
// (companionjoin.go), for any join by key: records are sorted by key
// (KeyLess), records of one key in the order they were added, in bounded
// memory — runs of at most 16 MiB sorted in memory and written to
// temporary files revisit creates and unlinks at once, merged 128 at a
// time (in more rounds when there are more runs).
type Sorter struct {
	what            string
	chunk           []compEntry
	mem             int
	seq             int64
	runs            []*tempFile
	chunkMem, fanIn int
}

// Record is a sorted record: a key, a string value, a number and the
// line its caller read it from (for messages).
type Record struct {
	Key, Val string
	Num      float64
	Line     int64
}

// KeyLess is the order of the sort and of the companion join: by length,
// then by bytes (numeric order for plain non-negative integers).
func KeyLess(a, b string) bool { return beforeS(a, b) }

// NewSorter makes a sorter; what names the records in errors ("importance
// file imp.txt").
func NewSorter(what string) *Sorter {
	return &Sorter{what: what, chunkMem: compChunkMem, fanIn: compFanIn}
}

// Add adds a record; the sorter keeps its own copies of the strings.
func (s *Sorter) Add(key, val string, num float64, line int64) error {
	s.seq++
	return s.add(compEntry{id: key, val: val, num: num, line: line, seq: s.seq})
}

// add adds an entry with its own seq (its place among the entries of
// equal id), copying its strings.
func (s *Sorter) add(e compEntry) error {
	e.id, e.val = clone(e.id), clone(e.val)
	s.chunk = append(s.chunk, e)
	s.mem += len(e.id) + len(e.val) + compMemEntry
	if s.mem >= s.chunkMem {
		return s.flush()
	}
	return nil
}

func clone(v string) string { return string([]byte(v)) }

// flush sorts the entries in memory and writes them out as a run.
func (s *Sorter) flush() error {
	if len(s.chunk) == 0 {
		return nil
	}
	slices.SortFunc(s.chunk, func(a, b compEntry) int {
		if entryLess(&a, &b) {
			return -1
		}
		return 1
	})
	t, err := newTempFile(s.what)
	if err != nil {
		return err
	}
	s.runs = append(s.runs, t)
	w := bufio.NewWriterSize(t.f, 1<<16)
	for i := range s.chunk {
		putEntry(w, &s.chunk[i])
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("%s: writing a sorted run: %w", s.what, err)
	}
	clear(s.chunk)
	s.chunk, s.mem = s.chunk[:0], 0
	return nil
}

// merge passes every entry added, in order, to fn: the last run is
// written out, runs are merged fanIn at a time into longer ones until
// fanIn or fewer are left, and those are merged into fn. The runs stay
// until Close.
func (s *Sorter) merge(ctx context.Context, fn func(*compEntry) error) error {
	if err := s.flush(); err != nil {
		return err
	}
	s.chunk = nil
	for len(s.runs) > s.fanIn {
		t, err := newTempFile(s.what)
		if err != nil {
			return err
		}
		w := bufio.NewWriterSize(t.f, 1<<16)
		group := s.runs[:s.fanIn]
		if err := mergeRuns(ctx, s.what, group, func(e *compEntry) error { return putEntry(w, e) }); err != nil {
			t.close()
			return err
		}
		if err := w.Flush(); err != nil {
			t.close()
			return fmt.Errorf("%s: writing a sorted run: %w", s.what, err)
		}
		for _, g := range group {
			g.close()
		}
		s.runs = append(s.runs[s.fanIn:], t)
	}
	return mergeRuns(ctx, s.what, s.runs, fn)
}

// Sorted merges the records into one sorted temporary file and returns a
// reader of it; keep, when not nil, sees each record in order as it is
// merged and says whether to keep it (an error stops the merge: a
// caller's check, such as a key given twice). The sorter may then be
// closed; the reader holds the file until its own Close.
func (s *Sorter) Sorted(ctx context.Context, keep func(*Record) (bool, error)) (*Sorted, error) {
	var k func(*compEntry) (bool, error)
	if keep != nil {
		k = func(e *compEntry) (bool, error) {
			return keep(&Record{Key: e.id, Val: e.val, Num: e.num, Line: e.line})
		}
	}
	src, err := s.sorted(ctx, k)
	if err != nil {
		return nil, err
	}
	return &Sorted{src: src}, nil
}

// sorted is Sorted on the entries (with their places, seq).
func (s *Sorter) sorted(ctx context.Context, keep func(*compEntry) (bool, error)) (*sortedSrc, error) {
	out, err := newTempFile(s.what)
	if err != nil {
		return nil, err
	}
	w := bufio.NewWriterSize(out.f, 1<<16)
	err = s.merge(ctx, func(e *compEntry) error {
		if keep != nil {
			ok, err := keep(e)
			if err != nil || !ok {
				return err
			}
		}
		return putEntry(w, e)
	})
	if err == nil {
		if err = w.Flush(); err != nil {
			err = fmt.Errorf("%s: writing the sorted records: %w", s.what, err)
		}
	}
	var br *bufio.Reader
	if err == nil {
		br, err = out.rewind(s.what)
	}
	if err != nil {
		out.close()
		return nil, err
	}
	return &sortedSrc{t: out, br: br, what: s.what}, nil
}

// Close removes the sorter's temporary files.
func (s *Sorter) Close() {
	for _, t := range s.runs {
		t.close()
	}
	s.runs, s.chunk = nil, nil
}

// Sorted reads the records of Sorter.Sorted in key order.
type Sorted struct{ src *sortedSrc }

// Next is the next record; io.EOF after the last.
func (r *Sorted) Next() (Record, error) {
	e, err := r.src.next()
	if err != nil {
		return Record{}, err
	}
	return Record{Key: e.id, Val: e.val, Num: e.num, Line: e.line}, nil
}

// Close removes the sorted file.
func (r *Sorted) Close() { r.src.close() }
