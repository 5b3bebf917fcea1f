package tables

import (
	"encoding/json"
	"math"
)

// sanitize replaces NaN and ±Inf (which JSON cannot hold) by nil in table
// rows and figure curves; curves drop such points instead (a point whose
// band is not finite too), and a band not given for every point.
func sanitize(v any) any {
	switch x := v.(type) {
	case Table:
		rows := make([][]any, len(x.Rows))
		for i, r := range x.Rows {
			rows[i] = make([]any, len(r))
			for j, c := range r {
				if f, ok := c.(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
					c = nil
				}
				rows[i][j] = c
			}
		}
		x.Rows = rows
		return x
	case Figure:
		x.Curves = finiteCurves(x.Curves)
		return x
	}
	return v
}

// finiteCurves is cs without their non-finite points (JSON has no NaN),
// the curves of their seeds included.
func finiteCurves(cs []Curve) []Curve {
	if cs == nil {
		return nil
	}
	curves := make([]Curve, len(cs))
	for i, c := range cs {
		var xs, ys, lo, hi []float64
		band := c.HasBand()
		for k := range c.X {
			if k < len(c.Y) && finite(c.X[k]) && finite(c.Y[k]) && (!band || finite(c.YLo[k]) && finite(c.YHi[k])) {
				xs = append(xs, c.X[k])
				ys = append(ys, c.Y[k])
				if band {
					lo, hi = append(lo, c.YLo[k]), append(hi, c.YHi[k])
				}
			}
		}
		c.X, c.Y = xs, ys
		if band {
			c.YLo, c.YHi = lo, hi
		} else {
			c.YLo, c.YHi = nil, nil
		}
		c.Seeds = finiteCurves(c.Seeds)
		curves[i] = c
	}
	return curves
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// decodeCells turns the JSON-decoded cells back into the column's Go type:
// int64 for Int, Bytes and Time, float64 for the other numeric kinds
// (null → NaN), string for String.
func (t *Table) decodeCells() {
	for _, r := range t.Rows {
		for j := range r {
			if j >= len(t.Columns) {
				continue
			}
			r[j] = decodeCell(t.Columns[j].Kind, r[j])
		}
	}
}

func decodeCell(k Kind, c any) any {
	switch k {
	case Int, Bytes, Time:
		switch v := c.(type) {
		case float64:
			return int64(v)
		case json.Number:
			n, _ := v.Int64()
			return n
		case nil:
			return nil
		}
	case Float, Percent, Seconds, Duration:
		switch v := c.(type) {
		case nil:
			return math.NaN()
		case float64:
			return v
		case json.Number:
			f, _ := v.Float64()
			return f
		}
	case String:
		if c == nil {
			return ""
		}
	}
	return c
}

// Cell helpers for producers: they make the intended types explicit.

// I is an Int cell.
func I(v int) any { return int64(v) }

// F is a Float (or Percent, Seconds) cell.
func F(v float64) any { return v }
