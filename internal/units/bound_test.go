package units

import (
	"testing"
	"time"
)

// ParseBound reads ParseStart's forms, "" as no bound, and names what it
// wants otherwise.
func TestParseBound(t *testing.T) {
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
		got, err := ParseBound(c.in)
		if err != nil || got.Unix() != c.want || got.Location() != time.UTC {
			t.Errorf("ParseBound(%q) = %v, %v; want %d UTC", c.in, got, err, c.want)
		}
	}
	if got, err := ParseBound(""); err != nil || !got.IsZero() {
		t.Errorf(`ParseBound("") = %v, %v; want the zero time`, got, err)
	}
	_, err := ParseBound("15/01/2001")
	if want := `"15/01/2001" is not RFC 3339 (2006-01-02T15:04:05Z) or a date (2006-01-02)`; err == nil || err.Error() != want {
		t.Errorf("ParseBound(15/01/2001): %v, want %s", err, want)
	}
}
