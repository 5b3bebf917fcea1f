package logs

// The streaming join of the Bing trace's companion files: a trace whose
// URL_IDs come in increasing order (Bing's do) meets each companion file
// read in the same order, a cursor, so that neither is held in memory (the
// real files have 18·10⁶ lines each). A companion file already in
// increasing URL_ID order is read as it is; one that is not is sorted
// first, by an external merge sort into temporary files revisit creates
// and unlinks at once. Ids looked up out of that order (a trace out of
// order, or captures of another format) fall back to the maps of
// loadCompanion, under --max-observations.

import (
	"bufio"
	"container/heap"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
)

// Sizes of the external sort: the entries of one sorted run held in
// memory (counted as their bytes and compMemEntry more each), and the runs
// merged at once (each read through a buffer of compMergeBuf bytes).
const (
	compChunkMem = 16 << 20
	compMemEntry = 64
	compFanIn    = 128
	compMergeBuf = 32 << 10
)

// compStream is a companion file joined by a cursor.
type compStream struct {
	kind, path string
	src        compSrc
	head       compEntry // the entry at the cursor, when ok
	ok, eof    bool
}

// compSrc gives a companion file's entries in increasing URL_ID order,
// one per id; io.EOF at the end.
type compSrc interface {
	next() (compEntry, error)
	close()
}

// beforeS: id a comes before id b, by length, then bytes (numeric order
// for plain numbers).
func beforeS(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// lookup moves the cursor to id (not before the previous id looked up)
// and returns its entry, if the file has one.
func (s *compStream) lookup(id string) (compEntry, bool, error) {
	for !s.eof && (!s.ok || beforeS(s.head.id, id)) {
		e, err := s.src.next()
		if err == io.EOF {
			s.eof, s.ok = true, false
			break
		}
		if err != nil {
			return compEntry{}, false, err
		}
		s.head, s.ok = e, true
	}
	if s.ok && s.head.id == id {
		return s.head, true, nil
	}
	return compEntry{}, false, nil
}

func (r *reader) logf(format string, a ...any) {
	if r.opt.Log != nil {
		r.opt.Log(format, a...)
	}
}

// addCompanion reads a companion file: joined by a cursor (prepared by
// prepareCompanion) unless it is standard input or a second file of its
// kind, which go to the maps.
func (r *reader) addCompanion(path, kind string) error {
	same := r.imp != nil
	if kind == URLs {
		same = r.urls != nil
	}
	for _, s := range r.streams {
		same = same || s.kind == kind
	}
	if path == "-" || same {
		if same && len(r.streams) > 0 {
			r.logf("%s file %s: another %s file given: the %s files are held in memory to refuse an URL_ID given in two of them (--max-observations counts them)", kind, path, kind, kind)
			if err := r.streamsToMaps(); err != nil {
				return err
			}
		}
		return r.loadCompanion(path, kind, true)
	}
	return r.prepareCompanion(path, kind)
}

// prepareCompanion counts and checks a companion file as loadCompanion
// does (the same counts, the same first bad line), without holding it: a
// first pass reads it in file order while its URL_IDs increase (a
// duplicate is then the same id as the last); if they do, the file is
// joined by reading it again, else it is sorted (sortCompanion).
func (r *reader) prepareCompanion(path, kind string) error {
	cl, err := openCompLines(path, kind, r.opt.MaxLineBytes)
	if err != nil {
		return err
	}
	defer cl.close()
	r.stats.Inputs = append(r.stats.Inputs, InputStats{Name: path, Size: cl.dr.Size(), Format: kind})
	in := &r.stats.Inputs[len(r.stats.Inputs)-1]
	r.in, r.name = in, path
	bad0 := r.stats.Bad
	var last string
	var n int64
	unordered := false
	bad, _, err := r.eachEntry(cl, func(e compEntry) (bool, error) {
		if n > 0 && e.id == last {
			return true, r.fail(e.line, "duplicate", fmt.Errorf("URL_ID %q given twice", e.id))
		}
		if n > 0 && !beforeS(last, e.id) {
			r.logf("%s file %s line %d: URL_ID %q after %q: not in increasing order: sorted by an external merge sort into temporary files (in %s, removed at the end) to be joined with the trace", kind, path, e.line, e.id, last, os.TempDir())
			unordered = true
			return false, nil
		}
		last = strings.Clone(e.id)
		n++
		return true, nil
	})
	if err == nil {
		err = bad
	}
	if err != nil {
		return err
	}
	if unordered {
		// counted again by the sort
		r.stats.Bad, in.Bad = bad0, nil
		cl.close()
		return r.sortCompanion(path, kind, in)
	}
	if err := r.printWhole(path, cl.dr); err != nil {
		return err
	}
	in.Records = n
	cl2, err := openCompLines(path, kind, r.opt.MaxLineBytes)
	if err != nil {
		return err
	}
	r.streams = append(r.streams, &compStream{kind: kind, path: path, src: &orderedSrc{cl: cl2}})
	r.logf("%s file %s: URL_IDs in increasing order: joined with the trace by reading it alongside (not held in memory)", kind, path)
	return nil
}

// eachEntry reads cl to its end and calls fn with each entry that parses,
// in file order, until fn says no more or fails (err), checking every
// 4096 lines that the reading is not cancelled. A line that does not
// parse is r.fail's: counted and passed over under SkipBad, else the
// reading stops there and bad is r.fail's error, at place badSeq.
func (r *reader) eachEntry(cl *compLines, fn func(e compEntry) (more bool, err error)) (bad error, badSeq int64, err error) {
	for k := 0; ; k++ {
		if k%4096 == 0 {
			if err := r.ctx.Err(); err != nil {
				return nil, 0, err
			}
		}
		e, reason, perr, err := cl.next()
		if err == io.EOF {
			return nil, 0, nil
		}
		if err != nil {
			return nil, 0, err
		}
		if reason != "" {
			if err := r.fail(e.line, reason, perr); err != nil {
				return err, e.seq, nil
			}
			continue
		}
		if more, err := fn(e); !more || err != nil {
			return nil, 0, err
		}
	}
}

// orderedSrc reads a companion file in increasing URL_ID order as it is,
// passing over its bad lines and duplicates (counted by the first pass).
type orderedSrc struct {
	cl   *compLines
	last string
	n    int64
}

func (o *orderedSrc) next() (compEntry, error) {
	for {
		e, reason, _, err := o.cl.next()
		if err != nil {
			return e, err
		}
		if reason != "" || o.n > 0 && e.id == o.last {
			continue
		}
		o.last = e.id
		o.n++
		return e, nil
	}
}

func (o *orderedSrc) close() { o.cl.close() }

// tempFile is a temporary file revisit creates: unlinked at once where the
// system allows (it is gone when the process ends, however it ends),
// else removed at close.
type tempFile struct {
	f    *os.File
	path string // set when it could not be unlinked at once
}

func newTempFile(what string) (*tempFile, error) {
	f, err := os.CreateTemp("", "revisit-companion-*")
	if err != nil {
		return nil, fmt.Errorf("%s: a temporary file to sort it: %w", what, err)
	}
	t := &tempFile{f: f}
	if os.Remove(f.Name()) != nil {
		t.path = f.Name()
	}
	return t, nil
}

func (t *tempFile) close() {
	if t.f != nil {
		t.f.Close()
		t.f = nil
	}
	if t.path != "" {
		os.Remove(t.path)
		t.path = ""
	}
}

// rewind makes a reader of what was written to t.
func (t *tempFile) rewind(what string) (*bufio.Reader, error) {
	if _, err := t.f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("%s: reading the sorted entries back: %w", what, err)
	}
	return bufio.NewReaderSize(t.f, compMergeBuf), nil
}

// putEntry writes e to w: its id, value, importance, place and line.
func putEntry(w *bufio.Writer, e *compEntry) error {
	var b [binary.MaxVarintLen64]byte
	w.Write(b[:binary.PutUvarint(b[:], uint64(len(e.id)))])
	w.WriteString(e.id)
	w.Write(b[:binary.PutUvarint(b[:], uint64(len(e.val)))])
	w.WriteString(e.val)
	binary.LittleEndian.PutUint64(b[:8], math.Float64bits(e.num))
	w.Write(b[:8])
	w.Write(b[:binary.PutUvarint(b[:], uint64(e.seq))])
	_, err := w.Write(b[:binary.PutUvarint(b[:], uint64(e.line))])
	return err
}

// getEntry reads what putEntry wrote; io.EOF at the end.
func getEntry(br *bufio.Reader) (compEntry, error) {
	var e compEntry
	str := func() (string, error) {
		n, err := binary.ReadUvarint(br)
		if err != nil {
			return "", err
		}
		if n > 1<<40 {
			return "", errors.New("a damaged entry")
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(br, b); err != nil {
			return "", err
		}
		return string(b), nil
	}
	var err error
	if e.id, err = str(); err != nil {
		return e, err // io.EOF at the end
	}
	if e.val, err = str(); err != nil {
		return e, noEOF(err)
	}
	var b [8]byte
	if _, err := io.ReadFull(br, b[:]); err != nil {
		return e, noEOF(err)
	}
	e.num = math.Float64frombits(binary.LittleEndian.Uint64(b[:]))
	seq, err := binary.ReadUvarint(br)
	if err != nil {
		return e, noEOF(err)
	}
	line, err := binary.ReadUvarint(br)
	if err != nil {
		return e, noEOF(err)
	}
	e.seq, e.line = int64(seq), int64(line)
	return e, nil
}

func noEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// entryLess orders entries by URL_ID, then by place in the file.
func entryLess(a, b *compEntry) bool {
	if a.id != b.id {
		return beforeS(a.id, b.id)
	}
	return a.seq < b.seq
}

// sortCompanion counts and checks a companion file not in URL_ID order,
// and sorts it into a temporary file for the join: runs of at most
// compChunkMem bytes sorted in memory and written out, merged (by
// compFanIn at once, in more rounds if need be) into one file of the
// entries in increasing URL_ID order, the first of each URL_ID in file
// order kept. The first bad line is the one loadCompanion would refuse:
// a line that does not parse stops the reading, and a duplicate before it
// (the least place of an entry after the first of its id) comes first.
func (r *reader) sortCompanion(path, kind string, in *InputStats) error {
	what := kind + " file " + path
	cl, err := openCompLines(path, kind, r.opt.MaxLineBytes)
	if err != nil {
		return err
	}
	defer cl.close()
	srt := NewSorter(what)
	defer srt.Close()
	if r.opt.chunkMem > 0 {
		srt.chunkMem = r.opt.chunkMem
	}
	if r.opt.fanIn > 1 {
		srt.fanIn = r.opt.fanIn
	}
	// stop: the first line that does not parse (without SkipBad)
	stop, stopSeq, err := r.eachEntry(cl, func(e compEntry) (bool, error) { return true, srt.add(e) })
	if err != nil {
		return err
	}
	if stop == nil {
		if err := r.printWhole(path, cl.dr); err != nil {
			return err
		}
	}
	cl.close()
	if err := srt.flush(); err != nil {
		return err
	}
	nruns := len(srt.runs)
	var dup *compEntry // without SkipBad: the first duplicate in file order
	var last string
	var n int64
	src, err := srt.sorted(r.ctx, func(e *compEntry) (bool, error) {
		if n > 0 && e.id == last {
			if !r.opt.SkipBad {
				if dup == nil || e.seq < dup.seq {
					c := *e
					dup = &c
				}
				return false, nil
			}
			return false, r.fail(e.line, "duplicate", fmt.Errorf("URL_ID %q given twice", e.id))
		}
		last = e.id
		n++
		return true, nil
	})
	if err == nil && dup != nil && (stop == nil || dup.seq < stopSeq) {
		err = r.fail(dup.line, "duplicate", fmt.Errorf("URL_ID %q given twice", dup.id))
	}
	if err == nil {
		err = stop
	}
	if err != nil {
		if src != nil {
			src.close()
		}
		return err
	}
	in.Records = n
	r.streams = append(r.streams, &compStream{kind: kind, path: path, src: src})
	r.logf("%s file %s: %d entries sorted in %d runs of at most %d MiB", kind, path, n, nruns, srt.chunkMem>>20)
	return nil
}

// sortedSrc reads the sorted file of sortCompanion.
type sortedSrc struct {
	t    *tempFile
	br   *bufio.Reader
	what string
}

func (s *sortedSrc) next() (compEntry, error) {
	e, err := getEntry(s.br)
	if err != nil && err != io.EOF {
		return e, fmt.Errorf("%s: reading the sorted entries back: %w", s.what, err)
	}
	return e, err
}

func (s *sortedSrc) close() { s.t.close() }

// mergeRuns passes the entries of the sorted runs to fn in order.
func mergeRuns(ctx context.Context, what string, runs []*tempFile, fn func(*compEntry) error) error {
	h := &entryHeap{}
	for _, t := range runs {
		br, err := t.rewind(what)
		if err != nil {
			return err
		}
		e, err := getEntry(br)
		if err == io.EOF {
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: reading a sorted run: %w", what, err)
		}
		h.items = append(h.items, heapItem{e: e, br: br})
	}
	heap.Init(h)
	for n := 0; h.Len() > 0; n++ {
		if n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		it := &h.items[0]
		if err := fn(&it.e); err != nil {
			return err
		}
		e, err := getEntry(it.br)
		if err == io.EOF {
			heap.Pop(h)
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: reading a sorted run: %w", what, err)
		}
		it.e = e
		heap.Fix(h, 0)
	}
	return nil
}

type heapItem struct {
	e  compEntry
	br *bufio.Reader
}

type entryHeap struct{ items []heapItem }

func (h *entryHeap) Len() int           { return len(h.items) }
func (h *entryHeap) Less(i, j int) bool { return entryLess(&h.items[i].e, &h.items[j].e) }
func (h *entryHeap) Swap(i, j int)      { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *entryHeap) Push(x any)         { h.items = append(h.items, x.(heapItem)) }
func (h *entryHeap) Pop() any {
	it := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return it
}

// compFallback: id was looked up after r.lastLook, not in increasing
// order; the companion files go to the maps (under --max-observations).
func (r *reader) compFallback(id string) error {
	r.logf("observations %s %s: URL_ID %q after %q: the ids are not in increasing order (or captures of another format are joined): the companion files are held in memory (--max-observations counts them)", r.name, r.where(), id, r.lastLook)
	return r.streamsToMaps()
}

// streamsToMaps loads the files joined by cursors into the maps (quietly:
// they were counted) and closes the cursors.
func (r *reader) streamsToMaps() error {
	streams := r.streams
	r.streams = nil
	defer func() {
		for _, s := range streams {
			s.src.close()
		}
	}()
	for _, s := range streams {
		if err := r.loadCompanion(s.path, s.kind, false); err != nil {
			return err
		}
	}
	return nil
}

// closeCompanions closes the cursors and removes their temporary files.
func (r *reader) closeCompanions() {
	for _, s := range r.streams {
		s.src.close()
	}
	r.streams = nil
}
