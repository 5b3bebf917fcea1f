package estimates

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/internal/pq"
	"github.com/revisit-dev/revisit/series"
)

// File is the table of estimates inside an estimate output directory
// (replay's, crawllog's, merge's).
const File = "estimates.parquet"

// estimateSchema is the Arrow schema of estimates.parquet: one row per
// estimate (long format).
var estimateSchema = arrow.NewSchema([]arrow.Field{
	{Name: "page_id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "title", Type: arrow.BinaryTypes.String},
	{Name: "sampler", Type: arrow.BinaryTypes.String},
	{Name: "method", Type: arrow.BinaryTypes.String},
	{Name: "kind", Type: arrow.BinaryTypes.String},
	{Name: "x", Type: arrow.ListOfNonNullable(arrow.PrimitiveTypes.Float64)},
	{Name: "p", Type: arrow.ListOfNonNullable(arrow.PrimitiveTypes.Float64)},
	{Name: "samples", Type: arrow.PrimitiveTypes.Int64},
	{Name: "rate", Type: arrow.PrimitiveTypes.Float64},
	{Name: "h", Type: arrow.PrimitiveTypes.Float64},
	{Name: "note", Type: arrow.BinaryTypes.String},
	{Name: "visits", Type: arrow.PrimitiveTypes.Int64},
	// constant: the sampler has constant delays Δ (grid x_n = nΔ), so
	// that readers need not parse sampler specs. Absent in files written
	// before it; Each then derives it from the spec.
	{Name: "constant", Type: arrow.FixedWidthTypes.Boolean},
	// The row's error against its truth row (estimator.StoreErrors: SPEC
	// §5's WMRD and KS, the points compared and the largest of them),
	// computed at full resolution before the curve is compacted; NaN, 0
	// where there is none (truth rows, crawl logs). Absent in files
	// written before them; Each then leaves Estimate.Err nil.
	{Name: "wmrd", Type: arrow.PrimitiveTypes.Float64},
	{Name: "ks", Type: arrow.PrimitiveTypes.Float64},
	{Name: "err_points", Type: arrow.PrimitiveTypes.Int64},
	{Name: "err_xmax", Type: arrow.PrimitiveTypes.Float64},
	// compact: x and p are the compact curve (Compact), not the full
	// grid. Absent in older files: full.
	{Name: "compact", Type: arrow.FixedWidthTypes.Boolean},
	// seed: the index r of the replay's independent seeds (--seeds R)
	// whose crawl made the row. Absent in older files: 0.
	{Name: "seed", Type: arrow.PrimitiveTypes.Int64},
	// The row's error on the second range x ≤ 10·E[U]
	// (estimator.MeanRange, Estimate.ErrMean): WMRD, KS and the largest
	// point compared. Absent in older files: Estimate.ErrMean nil.
	{Name: "wmrd_10mean", Type: arrow.PrimitiveTypes.Float64},
	{Name: "ks_10mean", Type: arrow.PrimitiveTypes.Float64},
	{Name: "err_xmax_10mean", Type: arrow.PrimitiveTypes.Float64},
}, func() *arrow.Metadata {
	m := arrow.NewMetadata([]string{SchemaKey}, []string{strconv.Itoa(SchemaVersion)})
	return &m
}())

// SchemaKey is the Parquet key-value metadata key under which
// estimates.parquet records its schema generation (SchemaVersion), so
// that a reader knows the columns without guessing from their number.
const SchemaKey = "revisit.estimates.schema"

// SchemaVersion is the generation of estimateSchema: 1 ends with visits
// (legacyColumns), 2 adds constant (errColumns), 3 the error and compact
// columns (compactColumns), 4 the seed and second-range error columns.
// Files before the version was recorded are told apart by their columns.
const SchemaVersion = 4

// generationColumns[v-1] is the number of columns of schema generation v.
var generationColumns = [SchemaVersion]int{legacyColumns, errColumns, compactColumns, ecErrXMaxMean + 1}

// legacyColumns is the number of columns of estimates files written
// before the constant column.
const legacyColumns = 12

const (
	ecPage = iota
	ecTitle
	ecSampler
	ecMethod
	ecKind
	ecX
	ecP
	ecSamples
	ecRate
	ecH
	ecNote
	ecVisits
	ecConstant
	ecWMRD
	ecKS
	ecErrPoints
	ecErrXMax
	ecCompact
	ecSeed
	ecWMRDMean
	ecKSMean
	ecErrXMaxMean
)

// errColumns is the number of columns of estimates files written before
// the error and compact columns.
const errColumns = ecWMRD

// compactColumns is the number of columns of estimates files written
// before the seed and second-range error columns.
const compactColumns = ecSeed

// maxGroupValues bounds a row group by the number of grid values held,
// and maxGroupStringBytes by the bytes of its strings (titles and notes:
// a title may be a URL, or a trace's id of any length), so that a row
// group held in memory is at most about 16 MiB of each whatever the rows.
const (
	maxGroupValues      = 1 << 21
	maxGroupStringBytes = 16 << 20
)

// Writer streams estimates into one Parquet file.
type Writer struct {
	pw     *pq.Writer
	b      *array.RecordBuilder
	values int
	strs   int // bytes of the titles and notes held
	rows   int64
}

// estimateLayout is how estimates.parquet is written: dictionaries only
// for the few repeated strings, so that the same rows always give the
// same bytes (merge must reproduce them).
var estimateLayout = pq.Options{Level: 3, Dictionary: []string{"sampler", "method", "kind"}}

// NewWriter creates path and writes its rows with the one layout of
// estimates.parquet (the same rows always give the same bytes).
func NewWriter(path string) (*Writer, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	pw, err := pq.NewWriter(f, estimateSchema, estimateLayout)
	if err != nil {
		f.Close()
		return nil, err
	}
	return &Writer{pw: pw, b: pw.Builder()}, nil
}

// Write adds one row.
func (w *Writer) Write(e *estimator.Estimate) error {
	b := w.b
	b.Field(ecPage).(*array.Int64Builder).Append(e.PageID)
	b.Field(ecTitle).(*array.StringBuilder).Append(e.Title)
	b.Field(ecSampler).(*array.StringBuilder).Append(e.Sampler)
	b.Field(ecMethod).(*array.StringBuilder).Append(e.Method)
	b.Field(ecKind).(*array.StringBuilder).Append(e.Kind)
	for _, col := range []struct {
		i int
		v []float64
	}{{ecX, e.CDF.X}, {ecP, e.CDF.P}} {
		lb := b.Field(col.i).(*array.ListBuilder)
		lb.Append(true)
		vb := lb.ValueBuilder().(*array.Float64Builder)
		growValues(vb, len(col.v))
		vb.AppendValues(col.v, nil)
	}
	b.Field(ecSamples).(*array.Int64Builder).Append(int64(e.CDF.Samples))
	b.Field(ecRate).(*array.Float64Builder).Append(e.Rate)
	b.Field(ecH).(*array.Float64Builder).Append(e.H)
	b.Field(ecNote).(*array.StringBuilder).Append(e.Note)
	b.Field(ecVisits).(*array.Int64Builder).Append(int64(e.Visits))
	b.Field(ecConstant).(*array.BooleanBuilder).Append(e.Constant)
	er := estimator.NoError()
	if e.Err != nil {
		er = *e.Err
	}
	b.Field(ecWMRD).(*array.Float64Builder).Append(er.WMRD)
	b.Field(ecKS).(*array.Float64Builder).Append(er.KS)
	b.Field(ecErrPoints).(*array.Int64Builder).Append(int64(er.Points))
	b.Field(ecErrXMax).(*array.Float64Builder).Append(er.XMax)
	b.Field(ecCompact).(*array.BooleanBuilder).Append(e.Compact)
	b.Field(ecSeed).(*array.Int64Builder).Append(int64(e.Seed))
	em := estimator.NoError()
	if e.ErrMean != nil {
		em = *e.ErrMean
	}
	b.Field(ecWMRDMean).(*array.Float64Builder).Append(em.WMRD)
	b.Field(ecKSMean).(*array.Float64Builder).Append(em.KS)
	b.Field(ecErrXMaxMean).(*array.Float64Builder).Append(em.XMax)
	w.rows++
	w.values += 2 * len(e.CDF.X)
	w.strs += len(e.Title) + len(e.Note)
	if w.values >= maxGroupValues || w.strs >= maxGroupStringBytes {
		return w.Flush()
	}
	return nil
}

// groupSlack is the room for the grid values of the row that fills a row
// group (growValues).
const groupSlack = 1 << 16

// growValues makes room for n more values in vb, a column of grid values
// (x or p: each holds half of a row group's maxGroupValues): its capacity
// doubles, as the builder's own growth does, but never beyond what a row
// group needs, maxGroupValues/2 + groupSlack, when that is enough — the
// builder alone would double to the next power of two for the last row
// of every group (16 MiB per column instead of 8.5). The values, and so
// the bytes written, are the same.
func growValues(vb *array.Float64Builder, n int) {
	need := vb.Len() + n
	if need <= vb.Cap() {
		return
	}
	c := max(2*vb.Cap(), need)
	if lim := maxGroupValues/2 + groupSlack; need <= lim {
		c = min(c, lim)
	}
	vb.Resize(c)
}

// Flush ends the current row group. After a group that filled with grid
// values, the next one's x and p get their room at once (a group's
// maxGroupValues/2 + groupSlack each) rather than by doubling from
// nothing again, which allocated and copied about twice as much.
func (w *Writer) Flush() error {
	full := w.values >= maxGroupValues
	w.values, w.strs = 0, 0
	if err := w.pw.Flush(); err != nil {
		return err
	}
	if full {
		for _, i := range []int{ecX, ecP} {
			w.b.Field(i).(*array.ListBuilder).ValueBuilder().(*array.Float64Builder).Reserve(maxGroupValues/2 + groupSlack)
		}
	}
	return nil
}

// Close ends the file.
func (w *Writer) Close() error { return w.pw.Close() }

// Rows is the number of rows written.
func (w *Writer) Rows() int64 { return w.rows }

// Abort abandons the file.
func (w *Writer) Abort() { w.pw.Abort() }

// ReadJSON reads dir/file, one JSON document, as a T. Errors name the
// output as what ("replay output"); a missing file reads "no FILE: " +
// missing when missing is given.
func ReadJSON[T any](dir, file, what, missing string) (*T, error) {
	b, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		if missing != "" && errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s %s: no %s: %s", what, dir, file, missing)
		}
		return nil, fmt.Errorf("%s %s: %w", what, dir, err)
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("%s %s: %s: %w", what, dir, file, err)
	}
	return &v, nil
}

// Each streams the rows of dir/estimates.parquet in file order
// (pages in replay order, then sampler, then method); the Estimate passed
// to fn is fresh and may be kept. An error from fn stops the iteration.
func Each(dir string, fn func(*estimator.Estimate) error) error {
	name := filepath.Join(dir, File)
	version, versioned, err := pq.Value(name, SchemaKey)
	if err != nil {
		return fmt.Errorf("replay output %s: %w", name, err)
	}
	var fnErr error
	err = pq.EachRecord(name, 1024, func(rec arrow.RecordBatch) error {
		fnErr = eachEstimateIn(name, rec, version, versioned, fn)
		return fnErr
	})
	if err != nil && err != fnErr {
		return fmt.Errorf("replay output %s: %w", name, err)
	}
	return err
}

// eachEstimateIn calls fn for the rows of rec, a batch of file name whose
// SchemaKey metadata is version (when versioned).
func eachEstimateIn(name string, rec arrow.RecordBatch, version string, versioned bool, fn func(*estimator.Estimate) error) error {
	s := rec.Schema()
	have, err := generationOf(name, s, version, versioned)
	if err != nil {
		return err
	}
	legacy := have < errColumns
	// every column of the generation is checked
	for i, want := range estimateSchema.Fields()[:have] {
		if got := s.Field(i); got.Name != want.Name || got.Type.ID() != want.Type.ID() {
			return fmt.Errorf("replay output %s: column %d is %s %s, want %s %s", name, i, got.Name, got.Type, want.Name, want.Type)
		}
	}
	page := rec.Column(ecPage).(*array.Int64)
	title := rec.Column(ecTitle).(*array.String)
	smp := rec.Column(ecSampler).(*array.String)
	meth := rec.Column(ecMethod).(*array.String)
	kind := rec.Column(ecKind).(*array.String)
	xs := rec.Column(ecX).(*array.List)
	ps := rec.Column(ecP).(*array.List)
	samples := rec.Column(ecSamples).(*array.Int64)
	rate := rec.Column(ecRate).(*array.Float64)
	h := rec.Column(ecH).(*array.Float64)
	note := rec.Column(ecNote).(*array.String)
	visits := rec.Column(ecVisits).(*array.Int64)
	var constant *array.Boolean
	if !legacy {
		constant = rec.Column(ecConstant).(*array.Boolean)
	}
	var (
		wmrd, ks, errXMax *array.Float64
		errPoints         *array.Int64
		compact           *array.Boolean
		seed              *array.Int64
		wmrdM, ksM, xmaxM *array.Float64
	)
	if have == estimateSchema.NumFields() {
		seed = rec.Column(ecSeed).(*array.Int64)
		wmrdM, ksM, xmaxM = rec.Column(ecWMRDMean).(*array.Float64), rec.Column(ecKSMean).(*array.Float64), rec.Column(ecErrXMaxMean).(*array.Float64)
	}
	if have >= compactColumns {
		wmrd, ks = rec.Column(ecWMRD).(*array.Float64), rec.Column(ecKS).(*array.Float64)
		errPoints, errXMax = rec.Column(ecErrPoints).(*array.Int64), rec.Column(ecErrXMax).(*array.Float64)
		compact = rec.Column(ecCompact).(*array.Boolean)
	}
	list := func(l *array.List, i int) []float64 {
		v := l.ListValues().(*array.Float64).Float64Values()
		off := l.Offsets()
		return append([]float64(nil), v[off[i]:off[i+1]]...)
	}
	for i := 0; i < int(rec.NumRows()); i++ {
		e := &estimator.Estimate{
			PageID:  page.Value(i),
			Title:   title.Value(i),
			Sampler: smp.Value(i),
			Method:  meth.Value(i),
			Kind:    kind.Value(i),
			CDF:     series.CDF{Method: meth.Value(i), X: list(xs, i), P: list(ps, i), Samples: int(samples.Value(i))},
			Rate:    rate.Value(i),
			H:       h.Value(i),
			Note:    note.Value(i),
			Visits:  int(visits.Value(i)),
		}
		if constant != nil {
			e.Constant = constant.Value(i)
		} else {
			e.Constant = legacyConstant(e.Sampler)
		}
		if compact != nil {
			e.Err = &estimator.Error{WMRD: wmrd.Value(i), KS: ks.Value(i), Points: int(errPoints.Value(i)), XMax: errXMax.Value(i)}
			e.Compact = compact.Value(i)
		}
		if seed != nil {
			e.Seed = int(seed.Value(i))
			e.ErrMean = &estimator.Error{WMRD: wmrdM.Value(i), KS: ksM.Value(i), XMax: xmaxM.Value(i)}
		}
		if len(e.CDF.X) != len(e.CDF.P) {
			return fmt.Errorf("replay output %s: page %d %s %s: %d grid points but %d values", name, e.PageID, e.Method, e.Kind, len(e.CDF.X), len(e.CDF.P))
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	return nil
}

// generationOf is the number of columns of s's generation that Each
// reads: the one the file's SchemaKey metadata names (v, when versioned),
// else the generation its columns show (files written before the
// version).
func generationOf(name string, s *arrow.Schema, v string, versioned bool) (int, error) {
	if versioned {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return 0, fmt.Errorf("replay output %s: schema version %q (metadata %s) is not a generation", name, v, SchemaKey)
		}
		if n > SchemaVersion {
			return 0, fmt.Errorf("replay output %s: schema version %d, written by a newer revisit (this one reads up to %d)", name, n, SchemaVersion)
		}
		if have := generationColumns[n-1]; s.NumFields() < have {
			return 0, fmt.Errorf("replay output %s: schema version %d has %d columns, the file %d", name, n, have, s.NumFields())
		}
		return generationColumns[n-1], nil
	}
	if s.NumFields() < legacyColumns {
		return 0, fmt.Errorf("replay output %s: %d columns, want %d (%v)", name, s.NumFields(), estimateSchema.NumFields(), estimateSchema)
	}
	// Older files end before the constant column (legacyColumns), after
	// it (errColumns) or after the compact column (compactColumns).
	have := s.NumFields()
	switch {
	case have >= estimateSchema.NumFields() && s.Field(ecErrXMaxMean).Name == "err_xmax_10mean":
		return estimateSchema.NumFields(), nil
	case have >= compactColumns && s.Field(ecCompact).Name == "compact":
		return compactColumns, nil
	case have > ecConstant && s.Field(ecConstant).Name == "constant":
		return errColumns, nil
	}
	return legacyColumns, nil
}

// legacyConstant tells a constant sampler from its spec, for estimates
// files without the constant column: "const:Δ" (replay) or "observed
// const:Δ" (estimate).
func legacyConstant(spec string) bool {
	if s, err := estimator.ParseSamplerSpec(spec); err == nil {
		return s.Constant()
	}
	return strings.HasPrefix(strings.ToLower(strings.TrimPrefix(spec, estimator.ObservedPrefix)), "const")
}

// WriteJSON writes v as dir/file, one JSON document and a newline:
// indented (two spaces) for the files people read (replay.json,
// estimate.json), compact for the shard files.
func WriteJSON(dir, file string, v any, indent bool) error {
	var b []byte
	var err error
	if indent {
		b, err = json.MarshalIndent(v, "", "  ")
	} else {
		b, err = json.Marshal(v)
	}
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, file), append(b, '\n'), 0o644)
}
