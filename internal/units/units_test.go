package units

import (
	"testing"
	"time"
)

func TestParseUnit(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64 // seconds, by the definition of each unit
	}{
		{"s", 1}, {"sec", 1}, {"Seconds", 1},
		{"m", 60}, {"min", 60}, {" minutes ", 60},
		{"h", 3600}, {"HOUR", 3600},
		{"d", 86400}, {"days", 86400},
		{"w", 604800}, {"week", 604800}, // 7 × 86,400
		{"y", 31557600}, {"years", 31557600}, // Julian year: 365.25 × 86,400
	} {
		got, err := ParseUnit(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseUnit(%q) = %g, %v; want %g", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"", "ms", "fortnight", "1h", "hr"} {
		if _, err := ParseUnit(in); err == nil {
			t.Errorf("ParseUnit(%q) accepted", in)
		}
	}
}

func TestNameAndLabel(t *testing.T) {
	for _, c := range []struct {
		unit        float64
		name, label string
	}{
		{1, "s", "s"}, {60, "min", "min"}, {3600, "h", "h"}, {86400, "d", "d"},
		{604800, "w", "w"}, {31557600, "y", "y"},
		// not a named unit: Name as a Go duration, Label in seconds
		{90, "1m30s", "90 s"}, {1.5, "1.5s", "1.5 s"}, {365 * 86400, "8760h0m0s", "3.1536e+07 s"},
	} {
		if got := Name(c.unit); got != c.name {
			t.Errorf("Name(%g) = %q, want %q", c.unit, got, c.name)
		}
		if got := Label(c.unit); got != c.label {
			t.Errorf("Label(%g) = %q, want %q", c.unit, got, c.label)
		}
	}
	// every name reads back to its unit
	for _, u := range []float64{Second, Minute, Hour, Day, Week, Year} {
		if got, err := ParseUnit(Name(u)); err != nil || got != u {
			t.Errorf("ParseUnit(Name(%g)) = %g, %v", u, got, err)
		}
	}
}

func TestParseDuration(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64 // by hand: number × unit, rounded
	}{
		{"5y", 157788000}, // 5 × 365.25 × 86,400
		{"90d", 7776000},  // 90 × 86,400
		{"1.5h", 5400},
		{"30m", 1800}, {"30min", 1800},
		{"2w", 1209600},
		{"1s", 1},
		{"1.6s", 2}, // rounded to the nearest second
		{" 7d ", 604800},
		{"31688y", 999997228800}, // 31,688 × 31,557,600 ≤ 10¹² < 31,689 × 31,557,600
	} {
		got, err := ParseDuration(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseDuration(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"", "d", "5", "5 d", "5days", "5H", "0.5s", "0d", "-1d", "1e3s", "31689y", "1.2.3d"} {
		if got, err := ParseDuration(in); err == nil {
			t.Errorf("ParseDuration(%q) = %d, want an error", in, got)
		}
	}
}

func TestCalendar(t *testing.T) {
	for _, c := range []struct {
		y    int64
		leap bool
	}{{1900, false}, {2000, true}, {2023, false}, {2024, true}, {2100, false}, {0, true}, {-4, true}, {-100, false}} {
		if IsLeap(c.y) != c.leap {
			t.Errorf("IsLeap(%d) = %v", c.y, !c.leap)
		}
	}
	// Days since 1970-01-01, from Python's datetime.date subtraction
	// (date(y, m, d) − date(1970, 1, 1)).days.
	for _, c := range []struct {
		y, m, d, want int64
	}{
		{1970, 1, 1, 0}, {1969, 12, 31, -1}, {2000, 3, 1, 11017},
		{1600, 1, 1, -135140}, {9999, 12, 31, 2932896},
		{0, 3, 1, -719468}, // Hinnant's epoch shift: day 0 of era 0 is 0000-03-01
	} {
		if got := DaysFromCivil(c.y, c.m, c.d); got != c.want {
			t.Errorf("DaysFromCivil(%d, %d, %d) = %d, want %d", c.y, c.m, c.d, got, c.want)
		}
	}
	// Every day from year −801 to 2400 against Go's time.Date (also
	// proleptic Gregorian), DaysIn against time's normalisation.
	for y := int64(-801); y <= 2400; y++ {
		for m := int64(1); m <= 12; m++ {
			if n := time.Date(int(y), time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day(); int64(n) != DaysIn(y, m) {
				t.Fatalf("DaysIn(%d, %d) = %d, want %d", y, m, DaysIn(y, m), n)
			}
			for d := int64(1); d <= DaysIn(y, m); d++ {
				want := time.Date(int(y), time.Month(m), int(d), 0, 0, 0, 0, time.UTC).Unix() / 86400
				if got := DaysFromCivil(y, m, d); got != want {
					t.Fatalf("DaysFromCivil(%d, %d, %d) = %d, want %d", y, m, d, got, want)
				}
			}
		}
	}
}

func TestParseISO(t *testing.T) {
	for _, c := range []struct {
		in              string
		want            int64 // from GNU date: date -u -d IN +%s
		dateOnly, zoned bool
	}{
		{"2001-01-15T02:12:21Z", 979524741, false, true},
		{"2001-01-15 02:12:21z", 979524741, false, true},
		{"2001-01-15T02:12:21.999Z", 979524741, false, true}, // fraction floored
		{"2010-10-08 22:21:20", 1286576480, false, false},
		{"2010-10-09T00:21:20+02:00", 1286576480, false, true},
		{"2010-10-08T21:21:20-01:00", 1286576480, false, true},
		{"2024-02-29", 1709164800, true, false},
	} {
		got, dateOnly, zoned, err := ParseISO([]byte(c.in))
		if err != nil || got != c.want || dateOnly != c.dateOnly || zoned != c.zoned {
			t.Errorf("ParseISO(%q) = %d %v %v %v; want %d %v %v", c.in, got, dateOnly, zoned, err, c.want, c.dateOnly, c.zoned)
		}
	}
	for _, c := range []struct{ in, why string }{
		{"2023-02-29", "no such date"},
		{"2024-13-01", "no such date"},
		{"24-01-01", "want YYYY-MM-DD[ HH:MM:SS]"},
		{"2024/01/01", "want YYYY-MM-DD[ HH:MM:SS]"},
		{"2024-01-01T10:00", "want YYYY-MM-DD HH:MM:SS or YYYY-MM-DDTHH:MM:SS after the date"},
		{"2024-01-01T1a:00:00", "time of day is not HH:MM:SS"},
		{"2024-01-01T24:00:00", "time of day out of range"},
		{"2024-01-01T10:00:00.Z", "empty fraction of a second"},
		{"2024-01-01T10:00:00+24:00", "bad zone offset"},
		{"2024-01-01T10:00:00 UTC", "trailing text after the time of day (want Z or ±HH:MM)"},
	} {
		if _, _, _, err := ParseISO([]byte(c.in)); err == nil || err.Error() != c.why {
			t.Errorf("ParseISO(%q) error %v, want %q", c.in, err, c.why)
		}
	}
	if n := testing.AllocsPerRun(100, func() { ParseISO([]byte("2024-01-01T10:00:00+24:00")) }); n != 0 {
		t.Errorf("a refused timestamp allocates %g times", n)
	}
}

func TestParseStart(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64 // date -u -d IN +%s
	}{
		{"2024-02-29", 1709164800},
		{"2001-01-15T02:12:21Z", 979524741},
		{"2001-01-15T04:12:21+02:00", 979524741},
		{"2001-01-15T02:12:21", 979524741},
		{"2001-01-15 02:12:21", 979524741},
	} {
		got, err := ParseStart(c.in)
		if err != nil || got.Unix() != c.want || got.Location() != time.UTC {
			t.Errorf("ParseStart(%q) = %v, %v; want %d UTC", c.in, got, err, c.want)
		}
	}
	if _, err := ParseStart("15/01/2001"); err == nil {
		t.Error("ParseStart(15/01/2001) accepted")
	}
}
