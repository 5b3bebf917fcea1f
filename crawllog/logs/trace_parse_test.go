package logs

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// parseDecimal is pairScanner.decimal on b alone.
func parseDecimal(b []byte) (float64, bool) {
	p := pairScanner{b: b}
	tok, d, ok := p.decimal()
	return d, ok && len(tok) == len(b)
}

// pairScanner.decimal gives strconv.ParseFloat's float64, bit for bit, on the
// decimals it reads (random ones of up to 19 digits, the most a trace
// writes and more) and declines what it does not (signs, exponents,
// mantissas beyond 2⁵³, more than 22 decimals), which ParseFloat then
// reads.
func TestParseDecimalAsParseFloat(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	check := func(s string) {
		t.Helper()
		got, ok := parseDecimal([]byte(s))
		want, err := strconv.ParseFloat(s, 64)
		if ok && (err != nil || math.Float64bits(got) != math.Float64bits(want)) {
			t.Fatalf("%q: %v, ParseFloat %v (%v)", s, got, want, err)
		}
	}
	for range 200_000 {
		ip := r.Int64N(1 << uint(r.IntN(40)))
		fd := r.IntN(20)
		frac := ""
		for range fd {
			frac += strconv.Itoa(r.IntN(10))
		}
		switch r.IntN(4) {
		case 0:
			check(strconv.FormatInt(ip, 10))
		case 1:
			check("." + frac)
		default:
			check(fmt.Sprintf("%d.%s", ip, frac))
		}
	}
	for _, s := range []string{"0", "0.0", "1.005969", "0.996704", "9007199254740992", "9007199254740993",
		"0.1", "0.30000000000000004", "5.5143055555555556", "1e3", "+1", "-0", "inf", "NaN", ".", "", "1.2.3",
		"12345678901234567890", "0.00000000000000000000001", "1_0", "0x10"} {
		check(s)
	}
	for _, c := range []struct {
		s  string
		ok bool
	}{{"1.005969", true}, {"2.", true}, {".5", true}, {"9007199254740993", false}, {"1e3", false}, {"-1", false},
		{".", false}, {"", false}, {"0.00000000000000000000001", false}} {
		if _, ok := parseDecimal([]byte(c.s)); ok != c.ok {
			t.Errorf("%q: ok %v, want %v", c.s, ok, c.ok)
		}
	}
}
