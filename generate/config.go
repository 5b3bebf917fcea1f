package generate

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"time"

	"github.com/revisit-dev/revisit/internal/units"
	"github.com/revisit-dev/revisit/model"
)

// Config describes a corpus. Everything in the output follows from it: the
// same Config gives byte-identical output.
type Config struct {
	Pages int
	// Models are the update models; each page picks one with probability
	// proportional to its weight.
	Models []Weighted
	// Start is the creation time of every page, the start of the window.
	Start time.Time
	// Span is the length of the window [Start, Start+Span) in seconds.
	Span int64
	// Unit is the time unit of the model parameters: its name ("h") and
	// length in seconds (3600).
	UnitName string
	Unit     float64
	Seed     uint64
	// TalkFraction is the fraction of pages in namespace 1 (Talk); the
	// others are articles (namespace 0). MediaWiki output only.
	TalkFraction float64
	// MaxUpdates bounds the updates of one page (0: no bound): a page that
	// would exceed it is an error, never truncated.
	MaxUpdates int
	// RevertRate and BotRate inject identity-revert pairs and bot edits
	// between the updates of MediaWiki output (see inject.go): the
	// probability, per gap between two updates, of a revert pair, and
	// else of a bot edit. 0 injects nothing.
	RevertRate, BotRate float64
}

// Weighted is one model of the mixture over pages.
type Weighted struct {
	Weight float64
	Model  *model.Model
}

var weightPrefix = regexp.MustCompile(`^\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*\*`)

// ParseModels reads --model specs: [WEIGHT*]SPEC with SPEC as in
// model.ParseModel. A missing weight is 1.
func ParseModels(specs []string, unit float64) ([]Weighted, error) {
	if len(specs) == 0 {
		return nil, fmt.Errorf("no model given")
	}
	var out []Weighted
	for _, s := range specs {
		w := 1.0
		if m := weightPrefix.FindStringSubmatch(s); m != nil {
			v, err := strconv.ParseFloat(m[1], 64)
			if err != nil || !(v > 0) || math.IsInf(v, 1) {
				return nil, fmt.Errorf("model %q: weight must be a number > 0", s)
			}
			w = v
			s = s[len(m[0]):]
		}
		m, err := model.ParseModel(s, unit)
		if err != nil {
			return nil, err
		}
		out = append(out, Weighted{Weight: w, Model: m})
	}
	return out, nil
}

// ParseDuration reads a duration as a number and a unit (s, m, h, d, w, y
// = 365.25 d), e.g. "5y", "90d", "1.5h", and returns whole seconds: see
// units.ParseDuration.
func ParseDuration(s string) (int64, error) { return units.ParseDuration(s) }

// ParseStart reads a UTC date "2006-01-02" or time "2006-01-02T15:04:05Z":
// see units.ParseStart.
func ParseStart(s string) (time.Time, error) { return units.ParseStart(s) }

// Validate checks the config.
func (c *Config) Validate() error {
	switch {
	case c.Pages < 1:
		return fmt.Errorf("pages must be ≥ 1, got %d", c.Pages)
	case len(c.Models) == 0:
		return fmt.Errorf("no model given")
	case c.Span < 1:
		return fmt.Errorf("span must be ≥ 1 s")
	case !(c.Unit > 0):
		return fmt.Errorf("unit must be > 0 s")
	case !(c.TalkFraction >= 0 && c.TalkFraction <= 1):
		return fmt.Errorf("talk fraction must be in [0, 1]")
	case !(c.RevertRate >= 0 && c.RevertRate <= 1) || !(c.BotRate >= 0 && c.BotRate <= 1) || c.RevertRate+c.BotRate > 1:
		return fmt.Errorf("revert and bot rates must lie in [0, 1] with a sum ≤ 1, got %g and %g", c.RevertRate, c.BotRate)
	case c.Start.Unix() < 0 || c.Start.Unix()+c.Span > 253402300799:
		return fmt.Errorf("the window must lie between 1970 and 9999")
	}
	return nil
}
