package dataset

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/series"
	"github.com/revisit-dev/revisit/transform"
)

// Reader reads a dataset directory: pages.parquet, or the part files
// pages-*.parquet that together form one dataset; or, from ForShard, only
// the part files of one shard.
type Reader struct {
	Dir      string
	Manifest *Manifest
	Files    []string // Parquet files in read order

	all   []string // every Parquet file of the dataset that is there (Identity)
	base  []int64  // position of each file's first page in the whole dataset (ForShard); nil: counted while reading
	parts []int    // each file's part number (ForShard)
	stats *readStats
	// absent are the dataset's part files that are not there
	// (OpenPartial): a reader fails on those it reads (the whole
	// dataset's reader on every one), and needAll says why it reads them.
	absent  []string
	needAll string
}

type readStats struct {
	mu       sync.Mutex
	files    []string
	bytes    atomic.Int64
	verified map[string]bool // parts whose size and SHA-256 were checked (ForShard)
}

// ReadStats is what a Reader has read so far: the Parquet files it opened
// (in order, once each however often they were read) and the bytes it
// read from them (footers included).
type ReadStats struct {
	Files []string
	Bytes int64
}

// Open opens the dataset at dir and reads its manifest. Every part file
// the manifest names must be there.
func Open(dir string) (*Reader, error) {
	r, err := OpenPartial(dir)
	if err != nil {
		return nil, err
	}
	if err := r.complete(); err != nil {
		return nil, err
	}
	return r, nil
}

// OpenPartial is Open for a shard on a node that may hold only its own
// part files: the dataset opens with part files absent, reading the
// whole dataset fails on the first one absent, and ForShard's reader of
// the shard's own parts needs only those.
func OpenPartial(dir string) (*Reader, error) {
	m, err := ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	// The part files by name, not filepath.Glob(dir/pages-*.parquet): a
	// directory name holding [ or * is not a pattern.
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("dataset %s: %w", dir, err)
	}
	var files []string
	for _, e := range ents {
		if ok, _ := filepath.Match("pages-*.parquet", e.Name()); ok {
			files = append(files, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(files)
	if p := filepath.Join(dir, PagesFile); fileExists(p) {
		files = append([]string{p}, files...)
	}
	r := &Reader{Dir: dir, Manifest: m, Files: files, all: files, stats: &readStats{}}
	there := map[string]bool{}
	for _, f := range files {
		there[f] = true
	}
	for i := range m.Parts {
		if p := filepath.Join(dir, PartFile(i, m.Parts)); !there[p] {
			r.absent = append(r.absent, p)
		}
	}
	if len(files) == 0 && len(r.absent) == 0 {
		return nil, fmt.Errorf("dataset %s: no %s", dir, PagesFile)
	}
	return r, nil
}

// complete fails when a part file the reader reads is absent: any for
// the whole dataset's reader, one of its own for a shard's (ForShard).
func (r *Reader) complete() error {
	for _, f := range r.absent {
		if r.base != nil && !slices.Contains(r.Files, f) {
			continue
		}
		why := ""
		if r.needAll != "" {
			why = " (" + r.needAll + ")"
		}
		return fmt.Errorf("dataset %s: part file %s of %d is missing%s", r.Dir, filepath.Base(f), r.Manifest.Parts, why)
	}
	return nil
}

// ForShard is the reader of the part files shard s owns: with the
// dataset in P part files and P a multiple of s.N, shard i owns exactly
// the parts j with j mod s.N = i (page p is in part SplitMix64(p) mod P,
// and SplitMix64(p) mod s.N = (SplitMix64(p) mod P) mod s.N), so it needs
// no other file: the others may be absent (OpenPartial). Its EachPos
// numbers the pages as in the whole dataset (from Manifest.PartPages),
// and each part read is checked against the manifest: its size and
// SHA-256 before it is read (when the manifest records them; the part
// is read once more for the hash), its page count after.
//
// When the shard cannot read only its parts (not sharded, one file, P
// not a multiple of s.N, a manifest without part_pages, other Parquet
// files beside the parts), ForShard returns nil and the reason: the
// caller reads the whole dataset and skips the pages it does not own.
func (r *Reader) ForShard(s shard.Spec) (*Reader, string) {
	m := r.Manifest
	switch {
	case !s.Sharded():
		return nil, "not sharded"
	case m.Parts == 0:
		return nil, "the dataset is one file, not --parts"
	case m.Parts%s.N != 0:
		return nil, fmt.Sprintf("its %d parts are not a multiple of %d shards", m.Parts, s.N)
	case len(m.PartPages) != m.Parts:
		return nil, "its manifest has no part_pages (written before they were recorded)"
	case len(r.all)+len(r.absent) != m.Parts:
		return nil, fmt.Sprintf("it holds %d Parquet files for %d parts", len(r.all)+len(r.absent), m.Parts)
	}
	// The parts of other shards may be absent, not its own (complete).
	sub := &Reader{Dir: r.Dir, Manifest: m, all: r.all, stats: r.stats, absent: r.absent, needAll: fmt.Sprintf("a part of shard %s", s)}
	var pos int64
	for j, st := range m.PartPages {
		if j%s.N == s.I {
			sub.Files = append(sub.Files, filepath.Join(r.Dir, PartFile(j, m.Parts)))
			sub.base, sub.parts = append(sub.base, pos), append(sub.parts, j)
		}
		pos += st.Pages
	}
	return sub, ""
}

// ShardSource is the reader shard s reads, the unit to read it in and a
// line for the log that says which. unit is the unit given (0: the
// default unit, transform.DefaultUnit, of a page the reading picks). It
// is the reader of the shard's own parts (ForShard) when the dataset is in
// a multiple of s.N parts and, with unit 0, the manifest shows that every
// page has the same default unit (that of its smallest and of its largest
// resolution), which is then returned: a shard reading its own parts
// cannot see the page the unsharded reading takes the unit from.
// Otherwise it is r itself, read whole (the shard skips the pages it does
// not own), the unit is returned as given and the line says why; so it is
// with a page selection (whole), whose tally of pages selected and names
// not found is over the whole dataset, the same in every shard.
func (r *Reader) ShardSource(s shard.Spec, unit float64, whole *Selection) (*Reader, float64, string) {
	sub, why := r.ForShard(s)
	if sub != nil && whole != nil {
		sub, why = nil, "a page selection is counted over the whole dataset"
	}
	if sub != nil && unit == 0 {
		lo, hi, ok := r.Resolutions()
		ulo, uhi := transform.DefaultUnit(&series.Page{Resolution: lo}), transform.DefaultUnit(&series.Page{Resolution: hi})
		switch {
		case !ok:
			sub, why = nil, "its manifest has no page to take the default unit from"
		case ulo != uhi:
			sub, why = nil, fmt.Sprintf("the pages' default units differ (resolutions %d–%d s) and the unit comes from one page: give --unit", lo, hi)
		default:
			unit = ulo
		}
	}
	if sub == nil {
		whole := *r
		whole.needAll = fmt.Sprintf("shard %s reads every part: %s", s, why)
		return &whole, unit, fmt.Sprintf("shard %s reads every part of %s and skips the pages of other shards: %s", s, r.Dir, why)
	}
	return sub, unit, fmt.Sprintf("shard %s reads %d of the %d parts of %s (the parts ≡ %d mod %d)", s, len(sub.Files), r.Manifest.Parts, r.Dir, s.I, s.N)
}

// Resolutions is the range of the pages' time resolutions
// (series.Page.Resolution) from Manifest.PartPages, without reading any
// page; ok is false when the manifest does not record it or the dataset
// has no page.
func (r *Reader) Resolutions() (lo, hi int32, ok bool) {
	for _, st := range r.Manifest.PartPages {
		if st.Pages == 0 {
			continue
		}
		if !ok {
			lo, hi, ok = st.MinResolution, st.MaxResolution, true
		}
		lo, hi = min(lo, st.MinResolution), max(hi, st.MaxResolution)
	}
	return lo, hi, ok
}

// Stats is what the reader (and the reader it came from, or the readers
// ForShard made from it) has read so far.
func (r *Reader) Stats() ReadStats {
	r.stats.mu.Lock()
	defer r.stats.mu.Unlock()
	return ReadStats{Files: slices.Clone(r.stats.files), Bytes: r.stats.bytes.Load()}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// Each calls fn for every page in file order, streaming one record batch
// at a time. The page passed to fn is fresh: fn may keep it. Returning an
// error from fn stops the iteration and Each returns that error.
func (r *Reader) Each(fn func(*series.Page) error) error {
	return r.EachPos(func(_ int64, p *series.Page) error { return fn(p) })
}

// EachPos is Each also passing each page's position: its row in the
// whole dataset, 0-based over all parts in order (for a reader from
// ForShard too).
func (r *Reader) EachPos(fn func(pos int64, p *series.Page) error) error {
	return r.eachFile(func(name string, pos *int64) error {
		return r.eachInFile(name, func(p *series.Page) error {
			*pos++
			return fn(*pos-1, p)
		})
	})
}

// eachFile calls read for every file in order with the position of its
// first page in the whole dataset, which read advances by the pages it
// reads; a part read by a ForShard reader is checked against its page
// count in the manifest.
func (r *Reader) eachFile(read func(name string, pos *int64) error) error {
	if err := r.complete(); err != nil {
		return err
	}
	var pos int64
	for k, name := range r.Files {
		if r.base != nil {
			pos = r.base[k]
			if err := r.verifyPart(name, r.Manifest.PartPages[r.parts[k]]); err != nil {
				return err
			}
		}
		start := pos
		if err := read(name, &pos); err != nil {
			return err
		}
		if r.base != nil {
			if want := r.Manifest.PartPages[r.parts[k]].Pages; pos-start != want {
				return fmt.Errorf("dataset %s: %s holds %d pages, manifest.json says %d: the dataset was changed after it was written", r.Dir, name, pos-start, want)
			}
		}
	}
	return nil
}

// All reads every page into memory.
func (r *Reader) All() ([]series.Page, error) {
	var out []series.Page
	err := r.Each(func(p *series.Page) error {
		out = append(out, *p)
		return nil
	})
	return out, err
}

// verifyPart checks, once per reader family, that part file name has the
// size and SHA-256 the manifest records for it (nothing to check in a
// manifest written before they were recorded). Its bytes count as read.
func (r *Reader) verifyPart(name string, st PartStat) error {
	if st.Bytes == 0 && st.SHA256 == "" {
		return nil
	}
	r.stats.mu.Lock()
	done := r.stats.verified[name]
	r.stats.mu.Unlock()
	if done {
		return nil
	}
	f, err := os.Open(name)
	if err != nil {
		return fmt.Errorf("dataset %s: %w", r.Dir, err)
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return fmt.Errorf("dataset %s: %w", r.Dir, err)
	}
	r.stats.bytes.Add(n)
	if sum := hex.EncodeToString(h.Sum(nil)); n != st.Bytes || sum != st.SHA256 {
		return fmt.Errorf("dataset %s: %s is %d bytes with SHA-256 %.12s…, manifest.json says %d bytes with SHA-256 %.12s…: it is not the part this dataset was written with",
			r.Dir, filepath.Base(name), n, sum, st.Bytes, st.SHA256)
	}
	r.stats.mu.Lock()
	if r.stats.verified == nil {
		r.stats.verified = map[string]bool{}
	}
	r.stats.verified[name] = true
	r.stats.mu.Unlock()
	return nil
}

// NumPages is the number of pages, from the Parquet footers alone.
func (r *Reader) NumPages() (int64, error) {
	if err := r.complete(); err != nil {
		return 0, err
	}
	var n int64
	for _, name := range r.Files {
		pf, err := file.OpenParquetFile(name, false)
		if err != nil {
			return 0, fmt.Errorf("dataset %s: %w", name, err)
		}
		n += pf.NumRows()
		pf.Close()
	}
	return n, nil
}

// readBatch is the pages decoded at a time, and readBuffer the bytes of a
// column chunk read at a time: the reader streams a row group's column
// chunks instead of holding them whole (a row group of the updates column
// is up to MaxGroupUpdates timestamps).
const (
	readBatch  = 4096
	readBuffer = 1 << 20
)

func (r *Reader) eachInFile(name string, fn func(*series.Page) error) error {
	return r.eachRecord(name, nil, func(rec arrow.RecordBatch) error { return eachInRecord(name, rec, fn) })
}

// eachRecord streams the record batches of one Parquet file of the
// dataset, of the columns cols (nil: every column), counting the bytes
// read (Stats).
func (r *Reader) eachRecord(name string, cols []int, fn func(arrow.RecordBatch) error) error {
	f, err := os.Open(name)
	if err != nil {
		return fmt.Errorf("dataset %s: %w", name, err)
	}
	defer f.Close()
	r.stats.mu.Lock()
	if !slices.Contains(r.stats.files, name) {
		r.stats.files = append(r.stats.files, name)
	}
	r.stats.mu.Unlock()
	props := parquet.NewReaderProperties(memory.DefaultAllocator)
	props.BufferedStreamEnabled, props.BufferSize = true, readBuffer
	pf, err := file.NewParquetReader(&countingFile{f, &r.stats.bytes}, file.WithReadProps(props))
	if err != nil {
		return fmt.Errorf("dataset %s: %w", name, err)
	}
	defer pf.Close()
	if cols != nil {
		// Leaf columns: every column before updates is flat, so a
		// column's index in Schema is its leaf index too.
		if err := checkSchema(arrowSchema(pf)); err != nil {
			return fmt.Errorf("dataset %s: %w", name, err)
		}
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: readBatch}, memory.DefaultAllocator)
	if err != nil {
		return fmt.Errorf("dataset %s: %w", name, err)
	}
	rr, err := fr.GetRecordReader(context.Background(), cols, nil)
	if err != nil {
		return fmt.Errorf("dataset %s: %w", name, err)
	}
	defer rr.Release()
	for {
		rec, err := rr.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("dataset %s: %w", name, err)
		}
		if err := fn(rec); err != nil {
			return err
		}
	}
}

// arrowSchema is the Arrow schema of a Parquet file (nil when it has
// none that pqarrow can read: checkSchema then refuses it).
func arrowSchema(pf *file.Reader) *arrow.Schema {
	s, err := pqarrow.FromParquet(pf.MetaData().Schema, nil, pf.MetaData().KeyValueMetadata())
	if err != nil {
		return arrow.NewSchema(nil, nil)
	}
	return s
}

// PageHead is a page without its updates: its position (as EachPos),
// id, title and number of updates.
type PageHead struct {
	Pos, ID int64
	Title   string
	Updates int64
}

// EachHead calls fn with every page's PageHead in file order, reading only
// the page_id, title and n_updates columns: a pass that ranks or names
// pages without decoding their updates. The counts are those the pages
// are read with: Each refuses a page whose n_updates differs from its
// updates.
func (r *Reader) EachHead(fn func(PageHead) error) error {
	return r.eachFile(func(name string, pos *int64) error {
		return r.eachRecord(name, []int{colPageID, colTitle, colNUpdates}, func(rec arrow.RecordBatch) error {
			ids, ok1 := rec.Column(0).(*array.Int64)
			titles, ok2 := rec.Column(1).(*array.String)
			ns, ok3 := rec.Column(2).(*array.Int64)
			if !ok1 || !ok2 || !ok3 {
				return fmt.Errorf("dataset %s: page_id, title and n_updates are not int64, string and int64 columns", name)
			}
			for i := 0; i < int(rec.NumRows()); i++ {
				if err := fn(PageHead{Pos: *pos, ID: ids.Value(i), Title: titles.Value(i), Updates: ns.Value(i)}); err != nil {
					return err
				}
				*pos++
			}
			return nil
		})
	})
}

// Span is the time the pages' updates cover, Unix seconds: the earliest
// first update and the latest last one, reading only the first and last
// columns (ok false for a dataset without pages).
func (r *Reader) Span() (first, last int64, ok bool, err error) {
	err = r.eachFile(func(name string, pos *int64) error {
		return r.eachRecord(name, []int{colFirst, colLast}, func(rec arrow.RecordBatch) error {
			fs, ok1 := rec.Column(0).(*array.Timestamp)
			ls, ok2 := rec.Column(1).(*array.Timestamp)
			if !ok1 || !ok2 {
				return fmt.Errorf("dataset %s: first and last are not timestamp columns", name)
			}
			df := perSecond(fs.DataType().(*arrow.TimestampType).Unit)
			dl := perSecond(ls.DataType().(*arrow.TimestampType).Unit)
			for i := 0; i < int(rec.NumRows()); i++ {
				f, l := int64(fs.Value(i))/df, int64(ls.Value(i))/dl
				if !ok || f < first {
					first = f
				}
				if !ok || l > last {
					last = l
				}
				ok = true
				*pos++
			}
			return nil
		})
	})
	return first, last, ok, err
}

// countingFile counts the bytes read from a file (ReadStats.Bytes).
type countingFile struct {
	f *os.File
	n *atomic.Int64
}

func (c *countingFile) ReadAt(b []byte, off int64) (int, error) {
	n, err := c.f.ReadAt(b, off)
	c.n.Add(int64(n))
	return n, err
}

func (c *countingFile) Read(b []byte) (int, error) {
	n, err := c.f.Read(b)
	c.n.Add(int64(n))
	return n, err
}

func (c *countingFile) Seek(off int64, whence int) (int64, error) { return c.f.Seek(off, whence) }

func eachInRecord(name string, rec arrow.RecordBatch, fn func(*series.Page) error) error {
	if err := checkSchema(rec.Schema()); err != nil {
		return fmt.Errorf("dataset %s: %w", name, err)
	}
	ids := rec.Column(colPageID).(*array.Int64)
	src := rec.Column(colSource).(*array.String)
	title := rec.Column(colTitle).(*array.String)
	ns := rec.Column(colNamespace).(*array.Int32)
	grp := rec.Column(colGroup).(*array.String)
	coll := rec.Column(colNCollapsed).(*array.Int64)
	res := rec.Column(colResolution).(*array.Int32)
	nup := rec.Column(colNUpdates).(*array.Int64)
	ups := rec.Column(colUpdates).(*array.List)
	var sid *array.String // nil in a dataset written before source_id
	if rec.NumCols() > colSourceID {
		sid = rec.Column(colSourceID).(*array.String)
	}
	vals := ups.ListValues().(*array.Timestamp)
	// Parquet has no second unit: timestamp[s] is stored (and read back) as
	// milliseconds, other writers may use micro- or nanoseconds.
	div := perSecond(vals.DataType().(*arrow.TimestampType).Unit)
	offs := ups.Offsets()
	for i := 0; i < int(rec.NumRows()); i++ {
		lo, hi := offs[i], offs[i+1]
		if n := nup.Value(i); n != int64(hi-lo) {
			return fmt.Errorf("dataset %s: page %d (%q) has %d updates but n_updates %d: the file was changed after it was written", name, ids.Value(i), title.Value(i), hi-lo, n)
		}
		u := make([]int64, hi-lo)
		for j := range u {
			u[j] = int64(vals.Value(int(lo)+j)) / div
		}
		p := &series.Page{
			ID:         ids.Value(i),
			Source:     src.Value(i),
			Title:      title.Value(i),
			Namespace:  ns.Value(i),
			Group:      grp.Value(i),
			Collapsed:  coll.Value(i),
			Resolution: res.Value(i),
			Updates:    u,
		}
		if sid != nil {
			p.SourceID = sid.Value(i)
		}
		if err := fn(p); err != nil {
			return err
		}
	}
	return nil
}

func perSecond(u arrow.TimeUnit) int64 {
	switch u {
	case arrow.Millisecond:
		return 1_000
	case arrow.Microsecond:
		return 1_000_000
	case arrow.Nanosecond:
		return 1_000_000_000
	}
	return 1
}

// checkSchema accepts Schema up to the unit of the timestamps, or Schema
// without its last column, source_id (datasets written before it).
func checkSchema(s *arrow.Schema) error {
	if n := s.NumFields(); n != Schema.NumFields() && n != colSourceID {
		return fmt.Errorf("%d columns, want %d (%v)", s.NumFields(), Schema.NumFields(), Schema)
	}
	for i, want := range Schema.Fields()[:s.NumFields()] {
		got := s.Field(i)
		if got.Name != want.Name || got.Type.ID() != want.Type.ID() {
			return fmt.Errorf("column %d is %s %s, want %s %s", i, got.Name, got.Type, want.Name, want.Type)
		}
	}
	lt := s.Field(colUpdates).Type.(*arrow.ListType)
	if lt.Elem().ID() != arrow.TIMESTAMP {
		return fmt.Errorf("column updates holds %s, want timestamps", lt.Elem())
	}
	return nil
}
