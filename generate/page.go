package generate

import (
	"fmt"
	"hash/fnv"
	"math"

	"github.com/revisit-dev/revisit/model"
)

// Page is one generated page: its model, the drawn parameters and its
// update times.
type Page struct {
	Index     int
	ID        int64
	Title     string
	Namespace int32
	Model     string // the --model spec it was drawn from (without weight)
	Process   model.Process
	Params    []float64 // the drawn {…} parameters, in order
	// Revisions are the generated update times rounded down to whole Unix
	// seconds, increasing, with repeats where two updates fell into the
	// same second (written as separate revisions).
	Revisions []int64
	// Updates are the distinct Revisions: the truth the dataset must hold.
	Updates []int64
	// Collapsed = len(Revisions) − len(Updates).
	Collapsed int64
	// Inject are the noise revisions written between the updates
	// (MediaWiki output with Config.RevertRate or BotRate), in time order.
	Inject []Injected
}

// Streams of model.NewRand: the update times of page i come from stream i,
// so they do not depend on the output format; names, contributors and
// other decoration come from stream i|cosmetic.
const cosmetic = 1 << 63

// Generator produces the pages of a Config, each independently of the
// others (page i depends only on the seed and i).
type Generator struct {
	c      Config
	total  float64
	times  []float64
	start  float64
	end    float64
	startS int64
	endS   int64
}

// NewGenerator checks c and returns its generator.
func NewGenerator(c Config) (*Generator, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	g := &Generator{c: c}
	for _, m := range c.Models {
		g.total += m.Weight
	}
	g.startS = c.Start.Unix()
	g.endS = g.startS + c.Span
	g.start = float64(g.startS) / c.Unit
	g.end = float64(g.endS) / c.Unit
	return g, nil
}

// Config returns the generator's config.
func (g *Generator) Config() Config { return g.c }

// Page generates page i (0 ≤ i < Pages). The returned page's slices are
// reused by the next call to Page on the same Generator (bounded memory).
func (g *Generator) Page(i int, p *Page) error {
	r := model.NewRand(g.c.Seed, uint64(i))
	u := r.Float64() * g.total
	k := 0
	for k < len(g.c.Models)-1 && u >= g.c.Models[k].Weight {
		u -= g.c.Models[k].Weight
		k++
	}
	m := g.c.Models[k].Model
	*p = Page{Index: i, ID: int64(i) + 1, Model: m.String(), Revisions: p.Revisions[:0], Updates: p.Updates[:0], Inject: p.Inject[:0]}
	p.Namespace, p.Title = pageName(i, r.Float64() < g.c.TalkFraction)
	proc, params, err := m.Draw(r)
	if err != nil {
		return fmt.Errorf("page %d: %w", p.ID, err)
	}
	p.Process, p.Params = proc, params
	g.times, err = proc.AppendTimes(g.times[:0], r, g.start, g.end, g.c.MaxUpdates)
	if err != nil {
		return fmt.Errorf("page %d (%s): %w; lower the rate or raise the limit", p.ID, proc, err)
	}
	prev := int64(math.MinInt64)
	for _, t := range g.times {
		s := int64(math.Floor(t * g.c.Unit))
		if s < g.startS {
			s = g.startS // rounding of start·unit: the creation second
		}
		if s >= g.endS {
			s = g.endS - 1
		}
		if s < prev {
			s = prev // float rounding can never reorder more than this
		}
		p.Revisions = append(p.Revisions, s)
		if s != prev {
			p.Updates = append(p.Updates, s)
		}
		prev = s
	}
	p.Collapsed = int64(len(p.Revisions) - len(p.Updates))
	g.injectNoise(i, p)
	return nil
}

// pageName is the namespace and title of page i: mostly articles, a
// fraction of talk pages, with a few titles that need XML escaping or are
// not ASCII so readers are exercised.
func pageName(i int, talk bool) (int32, string) {
	var ns int32
	if talk {
		ns = 1
	}
	var title string
	switch i % 10 {
	case 3:
		title = fmt.Sprintf("Generated page %d (Q&A \"quoted\")", i+1)
	case 7:
		title = fmt.Sprintf("Page générée %d – Ünïcödé", i+1)
	default:
		title = fmt.Sprintf("Generated page %d", i+1)
	}
	if ns == 1 {
		title = "Talk:" + title
	}
	return ns, title
}

// UpdatesHash is the FNV-1a 64 hash of the update times (8 bytes each,
// little endian) in hex: truth.json stores it so a round trip can be
// checked exactly without storing every time.
func UpdatesHash(updates []int64) string {
	h := fnv.New64a()
	var b [8]byte
	for _, u := range updates {
		for k := 0; k < 8; k++ {
			b[k] = byte(u >> (8 * k))
		}
		h.Write(b[:])
	}
	return fmt.Sprintf("%016x", h.Sum64())
}
