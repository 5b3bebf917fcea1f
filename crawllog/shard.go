package crawllog

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"

	"github.com/revisit-dev/revisit/crawllog/logs"
	"github.com/revisit-dev/revisit/estimates"
	"github.com/revisit-dev/revisit/estimator"
	"github.com/revisit-dev/revisit/internal/shard"
	"github.com/revisit-dev/revisit/series"
)

// EstimateShardFile is written beside estimates.parquet by an estimate of
// one shard (EstimateOptions.Shard): what MergeEstimates needs to put the
// shards' URLs back in the order, counts and tables of one unsharded
// estimate.
const EstimateShardFile = "estimate-shard.json"

// EstimateShardURLsFile holds a shard's URLs estimated, one JSON ShardURL
// per line, and EstimateShardOthersFile the ids of those read but not
// estimated (byte ranges), one per line: streamed as the URLs are
// estimated, and by the merge.
const (
	EstimateShardURLsFile   = "estimate-shard-urls.jsonl"
	EstimateShardOthersFile = "estimate-shard-others.txt"
)

// exactFloat is a float64 in JSON that round-trips exactly
// (shard.ExactFloat).
type exactFloat = shard.ExactFloat

// EstimateShardInfo is EstimateShardFile.
type EstimateShardInfo struct {
	shard.Record
	// Scheme is how the shard chose its URLs: ShardByHash (every shard
	// reads every input; "" in shards written before byte ranges) or
	// ShardByRange (the shard read only Range of the inputs).
	Scheme string          `json:"scheme,omitempty"`
	Range  *logs.RangeInfo `json:"range,omitempty"`
	// Prints are the fingerprints of the inputs as the shard read them
	// (logs.Stats.Prints): the merge refuses shards that read different
	// contents under the same names and sizes.
	Prints []logs.Print `json:"prints,omitempty"`
	// Read is the number of URLs read from the inputs: by hash every shard
	// reads them all, so every shard counts the same; by byte range, those
	// of the shard's range, and what the reader counted (estimate.json's
	// inputs, captures, URLs, bad lines, …, and ReadSkipped) is the
	// range's, summed by the merge.
	Read    int64                `json:"read"`
	Options EstimateShardOptions `json:"options"`
	// Skipped counts this shard's URLs left out by the estimate (fewer
	// than 2 visits, work limits); ReadSkipped the captures the reader
	// left out, the same in every shard.
	Skipped     map[string]int64 `json:"skipped"`
	ReadSkipped map[string]int64 `json:"read_skipped"`
	// URLs counts the URLs estimated, whose lines (ShardURL) are in
	// EstimateShardURLsFile in the order of estimates.parquet; Others the
	// URLs read but not estimated in a shard by byte range, whose ids
	// (LogID) are in EstimateShardOthersFile: with the URLs', every id the
	// shard read, which the merge checks for one read by two shards when a
	// trace's ids did not come in increasing order. Neither is held in
	// memory.
	URLs   int64 `json:"urls"`
	Others int64 `json:"others"`
	// Drawn are the shard's URLs drawn in its figures (keepDrawn) with
	// their projected rows, which estimates.parquet does not hold.
	Drawn []ShardDrawn `json:"drawn"`
}

// ShardDrawn is a URL drawn in a shard's figures: its place Seq and the
// rows drawn (drawRows), projected onto distribution functions.
type ShardDrawn struct {
	Seq  int64      `json:"seq"`
	Rows []ShardRow `json:"rows"`
}

// ShardRow is one drawn curve.
type ShardRow struct {
	Method string       `json:"method"`
	Kind   string       `json:"kind"`
	Note   string       `json:"note,omitempty"`
	Rate   exactFloat   `json:"rate"`
	X      []exactFloat `json:"x"`
	P      []exactFloat `json:"p"`
}

func exactFloats(v []float64) []exactFloat {
	out := make([]exactFloat, len(v))
	for i, x := range v {
		out[i] = exactFloat(x)
	}
	return out
}

func floats(v []exactFloat) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

// estimates are the rows of d as drawRows gives them.
func (d *ShardDrawn) estimates() []estimator.Estimate {
	var est []estimator.Estimate
	for _, r := range d.Rows {
		est = append(est, estimator.Estimate{Method: r.Method, Kind: r.Kind, Note: r.Note, Rate: float64(r.Rate),
			CDF: series.CDF{Method: r.Method, X: floats(r.X), P: floats(r.P)}})
	}
	return est
}

// EstimateShardOptions are the options of an estimate that shape its
// output but are not in estimate.json: the shards of one estimate share them.
type EstimateShardOptions struct {
	Top             int                      `json:"top"`
	Recover         bool                     `json:"recover"`
	RecoverOpt      estimator.RecoverOptions `json:"recover_options"`
	Format          string                   `json:"format"`
	SkipBad         bool                     `json:"skip_bad"`
	Sorted          bool                     `json:"sorted"`
	MaxObservations int64                    `json:"max_observations"`
	MaxLineBytes    int                      `json:"max_line_bytes"`
}

// ShardURL is one URL a shard estimated: its place Seq among all the URLs
// read (0-based, counted before the shard's selection, so the same in
// every shard), its rows in estimates.parquet and its report line.
type ShardURL struct {
	Seq        int64      `json:"seq"`
	Rows       int        `json:"rows"`
	URL        string     `json:"url"`
	PageID     int64      `json:"page_id"`
	Visits     int        `json:"visits"`
	Detections int        `json:"detections"`
	Delays     string     `json:"delays"`
	Delta      exactFloat `json:"delta"`
	Span       exactFloat `json:"span"`
	Rate       exactFloat `json:"rate"`
	Reference  string     `json:"reference"`
	MedianAge  exactFloat `json:"median_age"`
	KS         exactFloat `json:"ks"`
	Verdict    string     `json:"verdict"`
	Note       string     `json:"verdict_note,omitempty"`
	H          exactFloat `json:"h"`
	XMax       exactFloat `json:"x_max"`
	Bins       int        `json:"bins"`
	EmptyBins  int        `json:"empty_bins"`
	Source     string     `json:"source,omitempty"`
	Importance exactFloat `json:"importance"`
	Originals  int        `json:"originals,omitempty"`
}

func (u *ShardURL) summary() URLSummary {
	return URLSummary{URL: u.URL, PageID: u.PageID, Visits: u.Visits, Detections: u.Detections, Delays: u.Delays,
		Delta: float64(u.Delta), Span: float64(u.Span), Rate: float64(u.Rate), Reference: u.Reference,
		MedianAge: float64(u.MedianAge), KS: float64(u.KS), Verdict: u.Verdict, VerdictNote: u.Note,
		H: float64(u.H), XMax: float64(u.XMax), Bins: u.Bins, EmptyBins: u.EmptyBins, Source: u.Source, Importance: float64(u.Importance), Originals: u.Originals}
}

// estimateShard records what a shard of EstimateLogs estimated; nil when
// not sharded (every method is then a no-op). The URLs' lines are
// written as they come (urls, others), not held.
type estimateShard struct {
	info   EstimateShardInfo
	urls   *lineFile
	others *lineFile
}

// lineFile is a file of lines written through a buffer; its first error
// is kept for close.
type lineFile struct {
	f   *os.File
	w   *bufio.Writer
	err error
}

func createLines(path string) (*lineFile, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &lineFile{f: f, w: bufio.NewWriterSize(f, 1<<16)}, nil
}

func (l *lineFile) line(b []byte) {
	if l.err == nil {
		_, l.err = l.w.Write(b)
	}
	if l.err == nil {
		l.err = l.w.WriteByte('\n')
	}
}

func (l *lineFile) close() error {
	if l == nil {
		return nil
	}
	if l.err == nil {
		l.err = l.w.Flush()
	}
	if err := l.f.Close(); l.err == nil {
		l.err = err
	}
	if l.err != nil {
		return fmt.Errorf("%s: %w", l.f.Name(), l.err)
	}
	return nil
}

// newEstimateShard takes top as EstimateLogs resolves opt.Top, and dir,
// the output being written, where the URLs' lines go.
func newEstimateShard(opt EstimateOptions, top int, scheme, dir string) (*estimateShard, error) {
	if !opt.Shard.Sharded() {
		return nil, nil
	}
	sh := &estimateShard{info: EstimateShardInfo{Record: opt.Shard.Record(), Scheme: scheme,
		Options: EstimateShardOptions{Top: top, Recover: opt.Recover, RecoverOpt: opt.RecoverOpt, Format: opt.Read.Format,
			SkipBad: opt.Read.SkipBad, Sorted: opt.Read.Sorted, MaxObservations: opt.Read.MaxObservations, MaxLineBytes: opt.Read.MaxLineBytes}}}
	var err error
	if sh.urls, err = createLines(filepath.Join(dir, EstimateShardURLsFile)); err != nil {
		return nil, err
	}
	if scheme == ShardByRange {
		if sh.others, err = createLines(filepath.Join(dir, EstimateShardOthersFile)); err != nil {
			sh.urls.close()
			return nil, err
		}
	}
	return sh, nil
}

// abort closes the files (the output is not committed).
func (sh *estimateShard) abort() {
	if sh != nil {
		sh.urls.close()
		sh.others.close()
	}
}

// other records a URL read but not estimated (EstimateShardInfo.Others).
func (sh *estimateShard) other(o *series.Observed) {
	if sh == nil || sh.others == nil {
		return
	}
	id := o.Source
	if id == "" {
		id = o.ID
	}
	sh.others.line([]byte(id))
	sh.info.Others++
}

// LogID is the id the log gave the URL: the trace's URL_ID when a
// companion file named it, else the URL (or key) itself.
func (u *ShardURL) LogID() string {
	if u.Source != "" {
		return u.Source
	}
	return u.URL
}

func (sh *estimateShard) add(seq int64, s URLSummary, rows int) {
	if sh == nil {
		return
	}
	b, err := json.Marshal(&ShardURL{Seq: seq, Rows: rows, URL: s.URL, PageID: s.PageID, Visits: s.Visits,
		Detections: s.Detections, Delays: s.Delays, Delta: exactFloat(s.Delta), Span: exactFloat(s.Span), Rate: exactFloat(s.Rate),
		Reference: s.Reference, MedianAge: exactFloat(s.MedianAge), KS: exactFloat(s.KS), Verdict: s.Verdict, Note: s.VerdictNote,
		H: exactFloat(s.H), XMax: exactFloat(s.XMax), Bins: s.Bins, EmptyBins: s.EmptyBins, Source: s.Source, Importance: exactFloat(s.Importance), Originals: s.Originals})
	if err != nil && sh.urls.err == nil {
		sh.urls.err = err
	}
	sh.urls.line(b)
	sh.info.URLs++
}

// done records the URLs read, the skips (estimate's and the reader's)
// and the URLs drawn.
func (sh *estimateShard) done(read int, skipped map[string]int64, stats *logs.Stats, drawn []topURL) {
	if sh == nil {
		return
	}
	sh.info.Range, sh.info.Prints = stats.Range, stats.Prints
	sh.info.Drawn = []ShardDrawn{}
	for _, t := range drawn {
		d := ShardDrawn{Seq: t.seq}
		for _, r := range t.est {
			d.Rows = append(d.Rows, ShardRow{Method: r.Method, Kind: r.Kind, Note: r.Note, Rate: exactFloat(r.Rate), X: exactFloats(r.CDF.X), P: exactFloats(r.CDF.P)})
		}
		sh.info.Drawn = append(sh.info.Drawn, d)
	}
	sh.info.Read = int64(read)
	sh.info.Skipped = maps.Clone(skipped)
	sh.info.ReadSkipped = maps.Clone(stats.Skipped)
	if sh.info.ReadSkipped == nil {
		sh.info.ReadSkipped = map[string]int64{}
	}
}

func (sh *estimateShard) write(dir string) error {
	if sh == nil {
		return nil
	}
	if err := sh.urls.close(); err != nil {
		sh.others.close()
		return err
	}
	if err := sh.others.close(); err != nil {
		return err
	}
	return estimates.WriteJSON(dir, EstimateShardFile, &sh.info, false)
}

// shardLines reads a file of lines of a shard output (EstimateShardURLsFile,
// EstimateShardOthersFile) one at a time.
type shardLines struct {
	dir, name string
	f         *os.File
	r         *bufio.Reader
	n         int64 // lines read
}

func openShardLines(dir, name string) (*shardLines, error) {
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		return nil, fmt.Errorf("estimate output %s: %w", dir, err)
	}
	return &shardLines{dir: dir, name: name, f: f, r: bufio.NewReaderSize(f, 1<<16)}, nil
}

// next is the next line (valid until the following call), io.EOF after
// the last.
func (l *shardLines) next() ([]byte, error) {
	b, err := l.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		long := append([]byte(nil), b...)
		for err == bufio.ErrBufferFull {
			b, err = l.r.ReadSlice('\n')
			long = append(long, b...)
		}
		b = long
	}
	if err == io.EOF && len(b) == 0 {
		return nil, io.EOF
	}
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("estimate output %s: %s: %w", l.dir, l.name, err)
	}
	if len(b) == 0 || b[len(b)-1] != '\n' {
		return nil, fmt.Errorf("estimate output %s: %s: line %d is cut short", l.dir, l.name, l.n+1)
	}
	l.n++
	return b[:len(b)-1], nil
}

// url is the next ShardURL (io.EOF after the last).
func (l *shardLines) url() (*ShardURL, error) {
	b, err := l.next()
	if err != nil {
		return nil, err
	}
	var u ShardURL
	if err := json.Unmarshal(b, &u); err != nil {
		return nil, fmt.Errorf("estimate output %s: %s line %d: %w", l.dir, l.name, l.n, err)
	}
	return &u, nil
}

func (l *shardLines) close() {
	if l != nil {
		l.f.Close()
	}
}

// ReadEstimateShardInfo reads dir/estimate-shard.json.
func ReadEstimateShardInfo(dir string) (*EstimateShardInfo, error) {
	return estimates.ReadJSON[EstimateShardInfo](dir, EstimateShardFile, "estimate output", "not the estimate of a shard (run estimate with --shard i/N)")
}

// ReadEstimateMeta reads dir/estimate.json.
func ReadEstimateMeta(dir string) (*EstimateMeta, error) {
	return estimates.ReadJSON[EstimateMeta](dir, EstimateMetaFile, "estimate output", "not an estimate output")
}
