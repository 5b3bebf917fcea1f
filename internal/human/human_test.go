package human

import (
	"math"
	"testing"
	"time"

	"github.com/revisit-dev/revisit/internal/units"
)

// Expected strings are written by hand from the rules in the doc comments.
func TestComma(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{
		{0, "0"}, {999, "999"}, {1000, "1,000"}, {1234567, "1,234,567"},
		{-1000, "−1,000"}, {-5, "−5"},
		{math.MaxInt64, "9,223,372,036,854,775,807"},
		{math.MinInt64, "−9,223,372,036,854,775,808"},
	} {
		if got := Comma(c.n); got != c.want {
			t.Errorf("Comma(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	if got := Count(1, "page", "pages"); got != "1 page" {
		t.Errorf("Count(1) = %q", got)
	}
	if got := Count(2000, "page", "pages"); got != "2,000 pages" {
		t.Errorf("Count(2000) = %q", got)
	}
	if got := Count(0, "page", "pages"); got != "0 pages" {
		t.Errorf("Count(0) = %q", got)
	}
}

func TestFloat(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want string
	}{
		{0, "0"}, {0.123456, "0.1235"}, {12.3456, "12.35"}, {999.94, "999.9"},
		{999.96, "1,000"}, {12345.6, "12,346"}, {-12345.6, "−12,346"},
		{0.001, "0.001"}, {0.00012345, "1.234e-04"}, {1.2345e15, "1.234e+15"}, // 'e' rounds half to even on the binary value
		{math.NaN(), "—"}, {math.Inf(1), "∞"}, {math.Inf(-1), "−∞"},
	} {
		if got := Float(c.f); got != c.want {
			t.Errorf("Float(%g) = %q, want %q", c.f, got, c.want)
		}
	}
}

func TestSeconds(t *testing.T) {
	for _, c := range []struct {
		s    float64
		want string
	}{
		{0, "0 s"}, {17280, "4.8 h"}, {276480, "3.2 d"}, // 4.8 × 3600, 3.2 × 86,400
		{8.3 * units.Year, "8.3 y"}, {2700, "45 min"}, {59.99, "60 s"},
		{0.0042, "4.2 ms"}, {3e-7, "0.3 µs"}, {-7200, "−2.0 h"},
		{units.Year * 12345, "12,345 y"},
		{math.NaN(), "—"}, {math.Inf(1), "∞"},
	} {
		if got := Seconds(c.s); got != c.want {
			t.Errorf("Seconds(%g) = %q, want %q", c.s, got, c.want)
		}
	}
}

func TestBytes(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{
		{0, "0 B"}, {999, "999 B"}, {1000, "1.0 kB"}, {1_940_000, "1.9 MB"},
		{123_000_000, "123 MB"}, {999_999, "1.0 MB"}, // 999.999 kB rounds to 1000: the next unit
		{9_960_000, "10 MB"}, {1_000_000_000, "1.0 GB"}, {-2_500, "−2.5 kB"},
		{math.MaxInt64, "9.2 EB"},
	} {
		if got := Bytes(c.n); got != c.want {
			t.Errorf("Bytes(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestElapsedAndRates(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{708 * time.Millisecond, "708 ms"}, {0, "0 ms"}, {12345 * time.Millisecond, "12.3s"},
		{125100 * time.Millisecond, "2m5.1s"},
	} {
		if got := Elapsed(c.d); got != c.want {
			t.Errorf("Elapsed(%v) = %q, want %q", c.d, got, c.want)
		}
	}
	if got := Rate(30000, 2*time.Second); got != "15,000" {
		t.Errorf("Rate = %q", got)
	}
	if got := Rate(5, 0); got != "0" {
		t.Errorf("Rate over 0 s = %q", got)
	}
	if got := ByteRate(3_000_000, 2*time.Second); got != "1.5 MB/s" {
		t.Errorf("ByteRate = %q", got)
	}
}
