package dataset

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"os"
	"path/filepath"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/revisit-dev/revisit/internal/atomicdir"
	"github.com/revisit-dev/revisit/internal/pq"
	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/series"
)

// Row-group limits: a row group is flushed when either is reached (before
// a page that would take it past MaxGroupUpdates), so the writer's memory
// is bounded by about max(MaxGroupUpdates, the largest page's updates)·20
// bytes (Arrow builder, conversion to milliseconds, list levels) however
// large the input is.
const (
	MaxGroupPages   = 1 << 16
	MaxGroupUpdates = 1 << 22
)

// Writer streams pages into a new dataset directory. Use Create (or
// CreateParts), then Write for each page, then Close with the manifest;
// Abort (or a failed Close) removes everything written.
type Writer struct {
	dir    string
	out    *atomicdir.Dir
	parts  []*part
	nParts int // CreateParts' n
	total  int64
	closed bool
}

// part is one Parquet file of a dataset: pages.parquet, or one of the
// part files of CreateParts.
type part struct {
	name      string // in the dataset's directory
	f         *hashWriter
	pw        *pq.Writer
	b         *array.RecordBuilder // pw's builder
	pages     int
	updates   int
	maxUpdate int      // row-group bound on updates (MaxGroupUpdates shared among the parts)
	stat      PartStat // pages written and their resolutions (Manifest.PartPages)
}

// MaxParts bounds CreateParts' n.
const MaxParts = 4096

// PartFile is the name of part i of n: pages-00003-of-00027.parquet. The
// names sort in part order, which is the dataset's page order.
func PartFile(i, n int) string { return fmt.Sprintf("pages-%05d-of-%05d.parquet", i, n) }

// Create starts a dataset that will appear at dir when Close succeeds. An
// earlier dataset at dir that revisit wrote and nobody changed since
// (atomicdir.CheckReplaceable: every entry in it one revisit wrote), or an
// empty directory, is replaced on Close; any other existing path is an
// *atomicdir.RefusedError, so a typo or a file of the user's inside an
// earlier dataset cannot be destroyed.
func Create(dir string) (*Writer, error) { return CreateParts(dir, 0) }

// CreateParts is Create writing the pages as n part files
// (PartFile(i, n)) partitioned by page id: page p goes to part
// shard.Of(p, n) = SplitMix64(p) mod n, the rule of --shard, so shard i of
// n (or of any divisor of n) owns whole parts. n = 0 writes the one file
// pages.parquet. The n parts share the writer's memory bound: each flushes
// its row groups at MaxGroupUpdates/n updates (at least 2¹⁶), so memory
// stays about max(MaxGroupUpdates, the largest page's updates)·20 bytes
// plus n Parquet writers.
func CreateParts(dir string, n int) (*Writer, error) {
	if n < 0 || n > MaxParts {
		return nil, fmt.Errorf("dataset %s: %d parts: want 0…%d", dir, n, MaxParts)
	}
	out, err := atomicdir.Create(dir, ManifestFile, "dataset")
	if err != nil {
		return nil, err
	}
	w := &Writer{dir: dir, out: out, nParts: n}
	names := []string{PagesFile}
	if n > 0 {
		names = names[:0]
		for i := range n {
			names = append(names, PartFile(i, n))
		}
	}
	for _, name := range names {
		p, err := newPart(out.Path(), name, MaxGroupUpdates/max(1, n), n > 0)
		if err != nil {
			w.closed = true
			for _, q := range w.parts {
				q.abort()
			}
			out.Abort()
			return nil, fmt.Errorf("dataset %s: %w", dir, err)
		}
		w.parts = append(w.parts, p)
	}
	return w, nil
}

// newPart creates the part file name in dir; hashed says whether to hash
// its bytes as they are written (the manifest records the hash of part
// files only, and the output's entry list takes it: atomicdir.Dir.Hashed).
func newPart(dir, name string, maxUpdates int, hashed bool) (*part, error) {
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		return nil, err
	}
	hw := &hashWriter{f: f}
	if hashed {
		hw.h = sha256.New()
	}
	pw, err := pq.NewWriter(hw, Schema, pageLayout)
	if err != nil {
		f.Close()
		return nil, err
	}
	return &part{name: name, f: hw, pw: pw, b: pw.Builder(), maxUpdate: max(maxUpdates, 1<<16)}, nil
}

// hashWriter writes a part file and, with a hash h, hashes what it writes
// (the Parquet writer only appends): the part's size and SHA-256 for the
// manifest without reading the file back.
type hashWriter struct {
	f *os.File
	h hash.Hash // nil: not hashed
	n int64
}

func (w *hashWriter) Write(b []byte) (int, error) {
	n, err := w.f.Write(b)
	if w.h != nil {
		w.h.Write(b[:n])
	}
	w.n += int64(n)
	return n, err
}

func (w *hashWriter) Close() error { return w.f.Close() }

// pageLayout is how the pages files are written. Dictionaries only where
// values repeat: hashing every update time and page id for a dictionary
// costs ingest CPU and saves no bytes on values that do not repeat.
var pageLayout = pq.Options{Level: 3, MaxRowGroupLength: MaxGroupPages, Dictionary: []string{"source", "group"}}

func (p *part) abort() { p.pw.Abort() }

// Write appends one page. The page must satisfy series.Page.Validate.
func (w *Writer) Write(p *series.Page) error {
	if w.closed {
		return errors.New("dataset: write after close")
	}
	if err := p.Validate(); err != nil {
		return fmt.Errorf("dataset %s: %w", w.dir, err)
	}
	pt := w.parts[0]
	if len(w.parts) > 1 {
		pt = w.parts[shard.Of(p.ID, len(w.parts))]
	}
	if pt.pages > 0 && pt.updates+len(p.Updates) > pt.maxUpdate {
		// A large page starts a row group of its own, so that the
		// buffers hold max(MaxGroupUpdates, one page's) updates, not both.
		if err := w.flush(pt); err != nil {
			return err
		}
	}
	b := pt.b
	b.Field(colPageID).(*array.Int64Builder).Append(p.ID)
	b.Field(colSource).(*array.StringBuilder).Append(p.Source)
	b.Field(colTitle).(*array.StringBuilder).Append(p.Title)
	b.Field(colNamespace).(*array.Int32Builder).Append(p.Namespace)
	b.Field(colGroup).(*array.StringBuilder).Append(p.Group)
	b.Field(colNUpdates).(*array.Int64Builder).Append(int64(len(p.Updates)))
	b.Field(colNCollapsed).(*array.Int64Builder).Append(p.Collapsed)
	b.Field(colFirst).(*array.TimestampBuilder).Append(arrow.Timestamp(p.Updates[0]))
	b.Field(colLast).(*array.TimestampBuilder).Append(arrow.Timestamp(p.Updates[len(p.Updates)-1]))
	b.Field(colResolution).(*array.Int32Builder).Append(p.Resolution)
	lb := b.Field(colUpdates).(*array.ListBuilder)
	lb.Append(true)
	vb := lb.ValueBuilder().(*array.TimestampBuilder)
	vb.Reserve(len(p.Updates))
	for _, u := range p.Updates {
		vb.UnsafeAppend(arrow.Timestamp(u))
	}
	b.Field(colSourceID).(*array.StringBuilder).Append(p.SourceID)
	pt.pages++
	pt.updates += len(p.Updates)
	if st := &pt.stat; st.Pages == 0 {
		st.MinResolution, st.MaxResolution = p.Resolution, p.Resolution
	} else {
		st.MinResolution, st.MaxResolution = min(st.MinResolution, p.Resolution), max(st.MaxResolution, p.Resolution)
	}
	pt.stat.Pages++
	w.total++
	if pt.pages >= MaxGroupPages || pt.updates >= pt.maxUpdate {
		return w.flush(pt)
	}
	return nil
}

// Pages is the number of pages written so far.
func (w *Writer) Pages() int64 { return w.total }

func (w *Writer) flush(pt *part) error {
	if pt.pages == 0 {
		return nil
	}
	pt.pages, pt.updates = 0, 0
	if err := pt.pw.Flush(); err != nil {
		return fmt.Errorf("dataset %s: writing row group: %w", w.dir, err)
	}
	return nil
}

// Close finishes the Parquet file, writes the manifest and moves the
// dataset to its final path, replacing a previous dataset there. On any
// error nothing is left behind.
func (w *Writer) Close(m *Manifest) (err error) {
	if w.closed {
		return errors.New("dataset: close after close")
	}
	defer func() {
		if err != nil {
			w.Abort()
		}
	}()
	for _, pt := range w.parts {
		if err := w.flush(pt); err != nil {
			return err
		}
	}
	w.closed = true
	var cerr error
	for _, pt := range w.parts {
		if err := pt.pw.Close(); err != nil && cerr == nil { // also closes pt.f
			cerr = fmt.Errorf("dataset %s: %w", w.dir, err)
		}
	}
	if cerr != nil {
		return cerr
	}
	if m == nil {
		m = &Manifest{}
	}
	m.Parts, m.PartPages = w.nParts, nil
	if w.nParts > 0 {
		for _, pt := range w.parts {
			st := pt.stat
			st.Bytes, st.SHA256 = pt.f.n, hex.EncodeToString(pt.f.h.Sum(nil))
			m.PartPages = append(m.PartPages, st)
			if err := w.out.Hashed(pt.name, st.SHA256); err != nil {
				return fmt.Errorf("dataset %s: %w", w.dir, err)
			}
		}
	}
	if m.Tool == "" {
		m.Tool = "revisit"
	}
	if m.Created.IsZero() {
		m.Created = time.Now().UTC()
	}
	if err := writeManifest(w.out.Path(), m); err != nil {
		return fmt.Errorf("dataset %s: %w", w.dir, err)
	}
	return w.out.Commit()
}

// TempDir is the temporary directory the dataset is written in: a file a
// caller puts there before Close becomes part of the dataset.
func (w *Writer) TempDir() string { return w.out.Path() }

// Abort removes the temporary directory; the destination is untouched.
// It is safe to call after Close.
func (w *Writer) Abort() {
	if !w.closed {
		w.closed = true
		for _, pt := range w.parts {
			pt.abort()
		}
	}
	w.out.Abort()
}
