package reports

// Axis ticks: decades on logarithmic axes, round numbers on linear ones,
// whole numbers on a histogram's count axis, and their labels.

import (
	"math"
	"strconv"
	"strings"
	"unicode"

	"github.com/revisit-dev/revisit/internal/human"
	"gonum.org/v1/plot"
)

// logTicks marks decades on a logarithmic axis, labelling 10^k (and 2 and 5
// times it, or every integer multiple, when that leaves fewer than three
// labels on the axis); an axis spanning less than a decade gets the round
// numbers of a linear axis.
type logTicks struct{}

func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(lo > 0) || !(hi >= lo) || math.IsInf(hi, 0) {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	if hi < 10*lo {
		// Less than a decade: ordinary round numbers (0.7, 0.8, …, 1.4)
		// label it better than decades would.
		return niceTicks(lo, hi)
	}
	k0, k1 := int(math.Floor(math.Log10(lo))), int(math.Ceil(math.Log10(hi)))
	inRange := func(v float64) bool { return v >= lo*(1-1e-9) && v <= hi*(1+1e-9) }
	if n := k1 - k0; n > 12 { // many decades: label every step-th, no minor ticks
		step := (n + 9) / 10
		var ticks []plot.Tick
		for k := k0; k <= k1; k++ {
			if v := math.Pow(10, float64(k)); inRange(v) {
				t := plot.Tick{Value: v}
				if (k-k0)%step == 0 {
					t.Label = tickLabel(1, k)
				}
				ticks = append(ticks, t)
			}
		}
		return labelTop(ticks, lo, hi)
	}
	for _, labelled := range [][]int{{1}, {1, 2, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9}} {
		var ticks []plot.Tick
		nl := 0
		for k := k0; k <= k1; k++ {
			for m := 1; m <= 9; m++ {
				v := float64(m) * math.Pow(10, float64(k))
				if !inRange(v) {
					continue
				}
				t := plot.Tick{Value: v}
				for _, l := range labelled {
					if m == l {
						t.Label = tickLabel(m, k)
						nl++
					}
				}
				ticks = append(ticks, t)
			}
		}
		if nl >= 3 {
			return labelBottom(labelTop(ticks, lo, hi), lo, hi)
		}
	}
	return plot.DefaultTicks{}.Ticks(lo, hi)
}

// minTopGap is the least distance, as a fraction of a logarithmic axis,
// between the top tick and the label below it for both to be labelled.
const minTopGap = 0.08

// labelTop makes the highest tick of a logarithmic axis a labelled one,
// so that a reader sees what the top of the axis is worth: an unlabelled
// top tick (0.3 above the label 0.2) gets its label when it lies at least
// minTopGap of the axis above the last label, else the unlabelled ticks
// above the last label are dropped (2000 just above 1000).
func labelTop(ticks []plot.Tick, lo, hi float64) []plot.Tick {
	if len(ticks) == 0 || ticks[len(ticks)-1].Label != "" {
		return ticks
	}
	last := -1
	for i, t := range ticks {
		if t.Label != "" {
			last = i
		}
	}
	if last < 0 {
		return ticks
	}
	top := &ticks[len(ticks)-1]
	if math.Log10(top.Value/ticks[last].Value) >= minTopGap*math.Log10(hi/lo) {
		k := int(math.Floor(math.Log10(top.Value) + 1e-9))
		m := int(math.Round(top.Value / math.Pow(10, float64(k))))
		top.Label = tickLabel(m, k)
		return ticks
	}
	return ticks[:last+1]
}

// minBottomGap is the least distance, as a fraction of a logarithmic
// axis, between the lowest tick and the first label above it for the
// lowest tick to be labelled too.
const minBottomGap = 0.15

// labelBottom labels the lowest tick of a logarithmic axis when the first
// label lies far above the bottom of the axis, so that a reader sees
// where the axis starts: a budget axis from 250 to 4000, labelled 500,
// 1000, 2000 and 4000, gets "300" on its lowest tick; 0.003 below the
// label 0.01 on a six-decade axis stays unlabelled.
func labelBottom(ticks []plot.Tick, lo, hi float64) []plot.Tick {
	if len(ticks) == 0 || ticks[0].Label != "" {
		return ticks
	}
	first := -1
	for i, t := range ticks {
		if t.Label != "" {
			first = i
			break
		}
	}
	if first < 0 {
		return ticks
	}
	bottom := &ticks[0]
	if math.Log10(ticks[first].Value/bottom.Value) >= minBottomGap*math.Log10(hi/lo) {
		k := int(math.Floor(math.Log10(bottom.Value) + 1e-9))
		m := int(math.Round(bottom.Value / math.Pow(10, float64(k))))
		bottom.Label = tickLabel(m, k)
	}
	return ticks
}

// niceTicker marks a linear axis with niceTicks.
type niceTicker struct{}

func (niceTicker) Ticks(lo, hi float64) []plot.Tick { return niceTicks(lo, hi) }

// countTicker marks the linear count axis of a histogram: whole numbers
// only (0 1 2 3 pages, not 0.0 0.5 1.0 … 3.0).
type countTicker struct{}

func (countTicker) Ticks(lo, hi float64) []plot.Tick { return countTicks(lo, hi) }

// countTicks is niceTicks without fractional steps: below a span of 5 it
// labels every whole number in [lo, hi].
func countTicks(lo, hi float64) []plot.Tick {
	if hi-lo >= 5 {
		return niceTicks(lo, hi)
	}
	var ticks []plot.Tick
	for v := math.Ceil(lo - 1e-9); v <= hi*(1+1e-9)+1e-9; v++ {
		if v == 0 {
			v = 0 // −0 from Ceil of a tiny negative prints as "-0"
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: minusSigns(strconv.FormatFloat(v, 'f', 0, 64))})
	}
	return ticks
}

// niceTicks labels [lo, hi] with 3 to 7 round numbers spaced 1, 2, 2.5 or
// 5 × 10^k apart (decimals as the step needs: 0.25, 2.5, 25, 2,500;
// thousands separators from 10,000), with minor ticks halfway between
// labels and none above the last label, so the top tick is labelled.
func niceTicks(lo, hi float64) []plot.Tick {
	span := hi - lo
	if !(span > 0) {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	mag := math.Pow(10, math.Floor(math.Log10(span/5)))
	step, dec := 0.0, 0
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		step = m * mag
		dec = max(0, -int(math.Floor(math.Log10(step)+1e-9)))
		if m == 2.5 && step < 10 { // 0.25, 2.5: one decimal more; 25, 2500: none
			dec++
		}
		if span/step <= 7 {
			break
		}
	}
	var ticks []plot.Tick
	first := math.Ceil(lo/step - 1e-9)
	for i := 0; ; i++ {
		v := (first + float64(i)) * step
		if v > hi*(1+1e-9) {
			break
		}
		label := minusSigns(strconv.FormatFloat(v, 'f', dec, 64))
		if dec == 0 && math.Max(math.Abs(lo), math.Abs(hi)) >= 1e4 {
			label = human.Comma(int64(math.Round(v)))
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: label})
		// A minor tick halfway to the next label, if that label is on
		// the axis: the top tick is always a labelled one.
		if next := v + step; next <= hi*(1+1e-9) {
			ticks = append(ticks, plot.Tick{Value: v + step/2})
		}
	}
	return ticks
}

// tickLabel prints m×10^k: plainly between 0.001 and 10,000, else as
// "10⁵" or "2×10⁻⁴".
func tickLabel(m, k int) string {
	if k >= -3 && k <= 4 {
		return strconv.FormatFloat(float64(m)*math.Pow(10, float64(k)), 'f', max(0, -k), 64)
	}
	e := "10" + superscript(k)
	if m == 1 {
		return e
	}
	return strconv.Itoa(m) + "×" + e
}

func superscript(k int) string {
	const digits = "⁰¹²³⁴⁵⁶⁷⁸⁹"
	sup := []rune(digits)
	var b strings.Builder
	if k < 0 {
		b.WriteRune('⁻')
		k = -k
	}
	for _, c := range strconv.Itoa(k) {
		b.WriteRune(sup[c-'0'])
	}
	return b.String()
}

// minusSigns writes the sign of each negative number in s as the minus
// sign U+2212 (−), not the hyphen-minus (-) that strconv and fmt print. A
// "-" is a sign when a digit, or a point and a digit, follows it and no
// letter, digit, point or closing bracket precedes it ("γ = -0.01",
// "[-1, 1]"); elsewhere it stays a hyphen ("COVID-19", "2020-01-23",
// "G-M4", "1e-05").
func minusSigns(s string) string {
	if !strings.Contains(s, "-") {
		return s
	}
	r := []rune(s)
	for i, c := range r {
		if c != '-' {
			continue
		}
		if i > 0 {
			p := r[i-1]
			if unicode.IsLetter(p) || unicode.IsDigit(p) || strings.ContainsRune(".)]}", p) {
				continue
			}
		}
		next := func(j int) rune {
			if j < len(r) {
				return r[j]
			}
			return 0
		}
		if unicode.IsDigit(next(i+1)) || next(i+1) == '.' && unicode.IsDigit(next(i+2)) {
			r[i] = '−'
		}
	}
	return string(r)
}
