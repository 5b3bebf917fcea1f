package generate

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"github.com/revisit-dev/revisit/model"
)

// TruthFile is the default name of the truth file in output directories.
const TruthFile = "truth.json"

// Truth is truth.json: how the corpus was generated and, per page, the
// model, the drawn parameters, the closed forms and the update counts.
// The truth of a page is its generated update times rounded down to whole
// seconds, distinct: Updates of them, hashed in UpdatesHash; Collapsed more
// revisions fell into an already used second and were written as separate
// revisions with the same timestamp.
type Truth struct {
	Tool    string `json:"tool"`
	Version string `json:"version"`
	Seed    uint64 `json:"seed"`
	Format  string `json:"format"`
	Output  string `json:"output"` // base name of the output
	// OutputPath is the output's path relative to the directory of the
	// truth file ("-": standard output): the output this truth belongs
	// to, which a later generate may replace (see outcheck.go).
	OutputPath   string      `json:"output_path"`
	Source       string      `json:"source"` // the dataset source name ingest will give the pages
	Start        time.Time   `json:"start"`
	End          time.Time   `json:"end"`
	SpanS        int64       `json:"span_s"`
	Unit         string      `json:"unit"`
	UnitS        float64     `json:"unit_s"`
	TalkFraction float64     `json:"talk_fraction"`
	MaxUpdates   int         `json:"max_updates"`
	RevertRate   float64     `json:"inject_reverts,omitempty"`
	BotRate      float64     `json:"inject_bots,omitempty"`
	Models       []TruthMix  `json:"models"`
	Pages        []PageTruth `json:"pages"`
	Totals       Totals      `json:"totals"`
	// OutputSHA256 is the SHA-256 (hex) of the output file's content and
	// OutputSize its size in bytes (MediaWiki to a file; absent for
	// directories and standard output), the last two fields of the file:
	// a later generate replaces the file only when it still holds them.
	OutputSHA256 string `json:"output_sha256,omitempty"`
	OutputSize   *int64 `json:"output_size,omitempty"`
}

// TruthMix is one --model with its weight.
type TruthMix struct {
	Weight float64 `json:"weight"`
	Spec   string  `json:"spec"`
}

// PageTruth is one page of truth.json. Times are in the unit of Truth.Unit.
type PageTruth struct {
	ID        int64  `json:"id"`
	Title     string `json:"title"`
	Namespace int32  `json:"namespace"`
	Group     string `json:"group"`
	// Key is the Yelp business_id (yelp format only).
	Key string `json:"key,omitempty"`
	// Model is the spec the page was drawn from; Process the page's own
	// process with the drawn Params filled in (model.ParseProcess with
	// Truth.UnitS rebuilds it).
	Model   string    `json:"model"`
	Process string    `json:"process"`
	Params  []float64 `json:"params,omitempty"`
	// MeanInterval is the closed-form long-run E[U] (null when infinite,
	// then MeanInfinite is set, or when it does not exist).
	MeanInterval *float64 `json:"mean_interval"`
	MeanInfinite bool     `json:"mean_infinite,omitempty"`
	// ClosedFormF and ClosedFormG say whether F_U and G_U have closed
	// forms (then the Dist of model.ParseProcess(Process).Interval()).
	ClosedFormF bool `json:"closed_form_F"`
	ClosedFormG bool `json:"closed_form_G"`
	// ExpectedUpdates is the expected number of generated times (revisions,
	// before same-second collapsing) in the window where it has a closed
	// form: 1 + Λ for nhpp (the creation plus the Poisson count), 1 + λT for
	// the Poisson renewal exp:λ, ⌈T/C⌉ for const:C.
	ExpectedUpdates *float64 `json:"expected_updates,omitempty"`
	Revisions       int64    `json:"revisions"`
	Updates         int64    `json:"updates"`
	Collapsed       int64    `json:"collapsed"`
	First           int64    `json:"first"` // Unix seconds
	Last            int64    `json:"last"`
	UpdatesHash     string   `json:"updates_fnv64"`
	// Injected lists the noise revisions written between the updates
	// (--inject-reverts, --inject-bots; see inject.go); they are not in
	// Revisions.
	Injected *InjectedTruth `json:"injected,omitempty"`
}

// Totals sum the pages.
type Totals struct {
	Pages     int64 `json:"pages"`
	Revisions int64 `json:"revisions"`
	Updates   int64 `json:"updates"`
	Collapsed int64 `json:"collapsed"`
	// Injected noise revisions (not in Revisions): identity reverts, the
	// revisions they undo, bot edits.
	InjectedReverts  int64 `json:"injected_reverts,omitempty"`
	InjectedReverted int64 `json:"injected_reverted,omitempty"`
	InjectedBots     int64 `json:"injected_bots,omitempty"`
}

// ProcessOf rebuilds the page's process from the truth.
func (t *Truth) ProcessOf(p *PageTruth) (model.Process, error) {
	return model.ParseProcess(p.Process, t.UnitS)
}

// ByID indexes the pages by id.
func (t *Truth) ByID() map[int64]*PageTruth {
	m := make(map[int64]*PageTruth, len(t.Pages))
	for i := range t.Pages {
		m[t.Pages[i].ID] = &t.Pages[i]
	}
	return m
}

// ReadTruth reads a truth.json written by Run.
func ReadTruth(path string) (*Truth, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("truth: %w", err)
	}
	defer f.Close()
	var t Truth
	dec := json.NewDecoder(bufio.NewReader(f))
	if err := dec.Decode(&t); err != nil {
		return nil, fmt.Errorf("truth %s: %w", path, err)
	}
	if t.Tool != truthTool {
		return nil, fmt.Errorf("truth %s: not a revisit generate truth file (tool %q)", path, t.Tool)
	}
	return &t, nil
}

const truthTool = "revisit generate"

// pageTruth fills the truth of page p.
func (g *Generator) pageTruth(p *Page, group string) PageTruth {
	pt := PageTruth{
		ID: p.ID, Title: p.Title, Namespace: p.Namespace, Group: group,
		Model: p.Model, Process: p.Process.String(), Params: p.Params,
		Revisions: int64(len(p.Revisions)), Updates: int64(len(p.Updates)), Collapsed: p.Collapsed,
		UpdatesHash: UpdatesHash(p.Updates), Injected: injectedTruth(p),
	}
	if len(p.Updates) > 0 {
		pt.First, pt.Last = p.Updates[0], p.Updates[len(p.Updates)-1]
	}
	switch m := p.Process.Mean(); {
	case math.IsInf(m, 1):
		pt.MeanInfinite = true
	case !math.IsNaN(m):
		pt.MeanInterval = &m
	}
	if d := p.Process.Interval(); d != nil {
		pt.ClosedFormF = true
		pt.ClosedFormG = !math.IsInf(d.Mean(), 1) && !math.IsNaN(d.AgeCDF(1))
	}
	var e float64
	switch q := p.Process.(type) {
	case model.NHPP:
		e = 1 + q.Integral(g.start, g.end, g.start, g.end)
	case model.Renewal:
		switch d := q.U.(type) {
		case model.Exponential:
			e = 1 + d.Rate*(g.end-g.start)
		case model.Constant:
			e = math.Ceil((g.end - g.start) / d.C)
		}
	}
	if e > 0 {
		pt.ExpectedUpdates = &e
	}
	return pt
}

// truthWriter streams truth.json: the header, one page per line, the
// totals; memory does not grow with the number of pages.
type truthWriter struct {
	w      *bufio.Writer
	pages  int
	totals Totals
}

func newTruthWriter(w io.Writer, t *Truth) (*truthWriter, error) {
	tw := &truthWriter{w: bufio.NewWriterSize(w, 1<<16)}
	head, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		return nil, err
	}
	// Cut the marshalled header before "pages" and stream the pages.
	s := string(head)
	i := strings.Index(s, "\n  \"pages\":")
	if i < 0 {
		return nil, fmt.Errorf("truth: internal error: no pages field")
	}
	tw.w.WriteString(s[:i])
	tw.w.WriteString("\n  \"pages\": [")
	return tw, nil
}

func (tw *truthWriter) page(pt *PageTruth) error {
	b, err := json.Marshal(pt)
	if err != nil {
		return fmt.Errorf("truth: page %d: %w", pt.ID, err)
	}
	if tw.pages > 0 {
		tw.w.WriteByte(',')
	}
	tw.w.WriteString("\n    ")
	tw.w.Write(b)
	tw.pages++
	tw.totals.Pages++
	tw.totals.Revisions += pt.Revisions
	tw.totals.Updates += pt.Updates
	tw.totals.Collapsed += pt.Collapsed
	if in := pt.Injected; in != nil {
		tw.totals.InjectedReverts += int64(len(in.Reverts))
		tw.totals.InjectedReverted += int64(len(in.Reverted))
		tw.totals.InjectedBots += int64(len(in.Bots))
	}
	return nil
}

// close ends the truth: the totals and, for an output file, the SHA-256
// of its content (hex) and its size (outSize ≥ 0; -1: none), last.
func (tw *truthWriter) close(outSize int64, outSHA string) error {
	b, err := json.MarshalIndent(tw.totals, "  ", "  ")
	if err != nil {
		return err
	}
	tw.w.WriteString("\n  ],\n  \"totals\": ")
	tw.w.Write(b)
	if outSize >= 0 {
		fmt.Fprintf(tw.w, ",\n  \"output_sha256\": %q,\n  \"output_size\": %d", outSHA, outSize)
	}
	tw.w.WriteString("\n}\n")
	return tw.w.Flush()
}
